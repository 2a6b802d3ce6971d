"""The index kept up to date behind the answers: a call never waits on a long update, says when
its answer is from an index still being filled, and sees a session's new text once the update
that follows it has run."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from inksessions import ink_session

from ink_tui.recall.answers import Recall

CWD = "/home/ada/code/retry"


@pytest.fixture
def recall(tmp_path: Path) -> Iterator[Recall]:
    base = tmp_path / "sessions"
    ink_session(base, CWD, "fix-retry", ["the flaky retry test", "use exponential backoff"])
    answering = Recall(base, CWD, index_path=tmp_path / "index.sqlite")
    answering.keeper.trust = 0.0  # every call looks at the files again
    answering.keeper.wait = 60.0  # and waits for that look (a busy machine may be slow)
    yield answering
    answering.close()


def _held(recall: Recall) -> threading.Event:
    """Hold every index update until the returned gate opens."""
    gate = threading.Event()
    update = recall.index.update

    def held(*args: Any, **kwargs: Any) -> Any:
        assert gate.wait(30), "the test never opened the gate"
        return update(*args, **kwargs)

    recall.index.update = held  # type: ignore[method-assign]
    return gate


def test_an_answer_never_waits_on_a_long_update_and_says_so(recall: Recall) -> None:
    gate = _held(recall)
    recall.keeper.wait = 0.01
    early = recall.search_answer("backoff")
    assert early["found"] is False and early["searched"]["sessions"] == 0
    assert early["index"]["updating"] is True
    assert "ask again shortly" in early["index"]["note"]
    gate.set()
    recall.keeper.wait = 30
    later = recall.search_answer("backoff")
    assert later["found"] is True and "index" not in later
    assert [hit["entryId"] for hit in later["hits"]] == ["u2"]


def test_new_text_in_a_session_is_found_by_the_next_call(recall: Recall, tmp_path: Path) -> None:
    assert recall.search_answer("jitter")["found"] is False
    ink_session(tmp_path / "sessions", CWD, "fix-retry", ["retry", "add jitter"])  # rewritten
    found = recall.search_answer("jitter")
    assert found["found"] is True and found["hits"][0]["snippet"] == "add jitter"


def test_a_failed_update_is_said_and_the_index_still_answers(recall: Recall) -> None:
    assert recall.search_answer("backoff")["found"] is True

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("disk on fire")

    recall.index.update = broken  # type: ignore[method-assign]
    answer = recall.search_answer("backoff")
    assert answer["found"] is True
    assert "internal error in the MCP server's index update" in answer["index"]["error"]


def test_a_masked_secret_cannot_be_found_a_prefix_at_a_time(recall: Recall, tmp_path: Path) -> None:
    token = "ghp_" + "Lq4Zx8Rw" * 4 + "Tn2k"
    ink_session(tmp_path / "sessions", CWD, "keys", [f"my token is {token}"])
    assert recall.search_answer("Lq4Zx8*")["found"] is False  # the word matched only the secret
    assert recall.search_answer("Lq4Zx9*")["found"] is False  # no way to tell the two apart
    assert recall.search_answer("token")["found"] is True


def test_an_answer_with_nothing_found_keeps_to_its_budget(recall: Recall) -> None:
    from ink_tui.recall.budget import answer_tokens

    long_query = " ".join(f"word{n:03d}xyz" for n in range(300))
    answer = recall.search_answer(long_query, "project", 10, 200)
    assert answer["found"] is False and answer_tokens(answer) <= 200
    assert 0 < len(answer["searched"]["query"]["terms"]) < 300
