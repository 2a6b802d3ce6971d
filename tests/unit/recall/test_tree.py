"""Every tool over every session of the project's test tree (``tests/data/sessions-tree``) and
its test sessions (``tests/data/sessions``): each answer is within its budget, every entry it
cites is an entry of the file it names, and a session Ink refuses is one line, never a crash.

In-process (:class:`~ink_tui.recall.answers.Recall`, the answers the server sends): the stdio
journeys are in ``test_server.py`` and ``test_tools.py``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import testdata
from inksessions import entry_ids

from ink_tui.recall.answers import Recall, RecallError
from ink_tui.recall.budget import answer_tokens


@pytest.fixture(scope="module")
def answered(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Recall]:
    base = testdata.copy_tree(tmp_path_factory.mktemp("tree") / "sessions")
    recall = Recall(base, testdata.TREE_HOME_CWD, index_path=base.parent / "index.sqlite")
    recall.keeper.wait = 600.0  # the answers of a complete index
    yield recall
    recall.close()


def _cited(answer: dict[str, Any]) -> set[str]:
    parts = answer.get("blocks") or answer.get("messages") or []
    return {part["entryId"] for part in parts}


SESSIONS = sorted(
    [*testdata.TREE.rglob("*.jsonl"), *testdata.SESSIONS.glob("*.jsonl")],
    key=lambda path: str(path),
)


@pytest.mark.parametrize("budget", [300, 4000])
@pytest.mark.parametrize("path", SESSIONS, ids=[path.name[:40] for path in SESSIONS])
def test_every_tool_on_every_test_session(answered: Recall, path: Path, budget: int) -> None:
    calls = {
        "read_session": lambda: answered.read_answer(str(path), budget_tokens=budget),
        "session_context": lambda: answered.context_answer(str(path), budget_tokens=budget),
        "session_changes": lambda: answered.changes_answer(str(path), budget_tokens=budget),
    }
    for tool, answer_of in calls.items():
        try:
            answer = answer_of()
        except RecallError as error:
            assert "\n" not in str(error) and str(error), tool
            continue
        assert answer_tokens(answer) <= budget, tool
        assert _cited(answer) <= entry_ids(path), tool


def test_searches_and_listings_of_the_tree_cite_their_files(answered: Recall) -> None:
    for query in ("retry", "stats", "test", '"def "', "fix role:user", "the model:gpt"):
        found = answered.search_answer(query, "all", limit=50, budget_tokens=4000)
        assert answer_tokens(found) <= 4000
        for hit in found.get("hits", []):
            assert hit["entryId"] in entry_ids(Path(hit["file"])), (query, hit)
    listed = answered.list_answer("all", limit=200, budget_tokens=100_000)
    assert listed["total"] == len(listed["sessions"]) >= 10
    assert all(Path(row["file"]).is_file() for row in listed["sessions"])
