"""``session_context`` (the MCP tool) rebuilds every shared fixture's context as Ink does: the
same leaf, the same compaction floor, one block per message in the expected order, each citing
an entry of the file; a fixture Ink refuses is refused with its one line.

The fixtures are Ink's answers in ``../shared/fixtures`` (``tests/shared_fixtures.py``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from inksessions import entry_ids
from shared_fixtures import require_shared_fixtures

from ink_tui.recall.contextread import context_answer
from ink_tui.recall.reading import ReadError

FIXTURES = require_shared_fixtures()
CASES = [
    (path.name.removesuffix(".expected.json"), json.loads(path.read_text(encoding="utf-8")))
    for path in sorted(FIXTURES.glob("*.expected.json"))
    if (FIXTURES / path.name.replace(".expected.json", ".jsonl")).is_file()
]


def _role(message: Any) -> str:
    role = message.get("role") if isinstance(message, dict) else None
    return role if isinstance(role, str) else "?"


@pytest.mark.parametrize(("name", "expected"), CASES, ids=[case[0] for case in CASES])
def test_session_context_matches_the_fixture(name: str, expected: dict[str, Any]) -> None:
    path = FIXTURES / f"{name}.jsonl"
    try:
        answer = context_answer(Path("/nowhere"), "/", str(path), budget_tokens=100_000)
    except ReadError as error:
        assert expected["ok"] is False
        assert "\n" not in str(error)
        return
    assert expected["ok"] is True, f"{name}: Ink refuses it: {expected.get('error')}"
    assert answer["atEntry"] == expected["leafId"]
    assert answer["compacted"] == expected["compacted"]
    assert answer["compactionBoundary"] == expected["compactionBoundary"]
    assert answer["messageCount"] == len(expected["messages"])
    if answer["omitted"] is None:
        heads = [block["head"].split(" ")[0] for block in answer["messages"]]
        roles = [_role(message) for message in expected["messages"]]
        summaries = {"compaction", "branch"}  # a framed summary is a user message
        assert ["user" if head in summaries else head for head in heads] == [
            role if role != "toolResult" else heads[n] for n, role in enumerate(roles)
        ]
    assert {block["entryId"] for block in answer["messages"]} <= entry_ids(path)
