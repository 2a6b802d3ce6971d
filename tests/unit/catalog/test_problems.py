"""A listing row knows whether ``check`` would flag its session (the picker's problem filter).

``problem``: a torn tail, the dangling calls of the last turn; ``has_problem`` adds what the row
knew already (Ink cannot open it, or hides it for a reason other than being empty). The index's
rows carry it too, and keep it right as a file grows or is repaired.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from testdata import copy_session, session_file

from ink_tui.catalog import SessionSummary, summarize_file
from ink_tui.catalog.index import CatalogIndex, load_rows, update_index
from ink_tui.session.writing.repair import repair_session

PROBLEMS = {  # case -> problem (None: has_problem from hidden_reason alone)
    "torn-half": "torn tail: line 9 is not read (invalid JSON (Unterminated string",
    "torn-invalid-entry": "torn tail: line 9 is not read (message entry has no valid message.role)",
    "unknown-type-final": 'torn tail: line 9 is not read (unknown entry type "checkpoint")',
    "torn-no-newline": "torn tail: the final record has no newline",
    "position-bad-then-unterminated": "torn tail: the final record has no newline",
    "dangling-last-turn": "1 dangling tool call (call_3)",
    "interior-corrupt": None,
    "unknown-type-mid": None,
    "broken-chain": None,
    "parent-cycle": None,
    "bad-header": None,
    "empty-file": None,
    "old-format": None,  # Ink's /sessions and --resume skip it (stats() throws)
}
FINE = ["minimal", "duplicate-ids", "compaction", "branch-position", "position-then-label"]
FINE += ["metadata-mix", "image-block"]
# Pairing problems deeper in the branch are check's to find (the listing does not parse them).
NOT_SEEN = ["dangling-not-last", "boundary-assistant-pending", "duplicate-result", "orphan-result"]


@pytest.mark.parametrize("case", PROBLEMS)
def test_a_session_with_a_problem_is_flagged(case: str) -> None:
    row = summarize_file(session_file(case))
    assert row.has_problem
    expected = PROBLEMS[case]
    if expected is None:
        assert row.problem is None and row.hidden_reason is not None
    else:
        assert row.problem is not None and row.problem.startswith(expected)


@pytest.mark.parametrize("case", FINE + NOT_SEEN)
def test_a_session_check_passes_or_the_listing_cannot_see_is_not(case: str) -> None:
    row = summarize_file(session_file(case))
    assert (row.has_problem, row.problem) == (False, None)


def test_an_empty_session_is_hidden_but_no_problem(tmp_path: Path) -> None:
    path = tmp_path / "header-only.jsonl"
    header = session_file("minimal").read_bytes().split(b"\n", 1)[0]
    path.write_bytes(header + b"\n")
    row = summarize_file(path)
    assert row.hidden_reason is not None and not row.has_problem


def test_the_problem_is_in_list_json(tmp_path: Path) -> None:
    row = summarize_file(session_file("dangling-last-turn"))
    assert row.to_dict()["problem"] == "1 dangling tool call (call_3)"


def _index_row(index: CatalogIndex, base: Path, path: Path) -> SessionSummary:
    update_index(index, base, None)
    return next(row for row in load_rows(index, None) if row.path == path)


def test_the_index_row_follows_the_file_as_it_grows_and_is_repaired(tmp_path: Path) -> None:
    base = tmp_path / "sessions"
    dangling = copy_session(base / "proj", "dangling-last-turn")
    torn = copy_session(base / "proj", "torn-half")
    with CatalogIndex.open(tmp_path / "cache" / "index.sqlite3") as index:
        row = _index_row(index, base, dangling)
        assert row.problem == "1 dangling tool call (call_3)"
        assert str(_index_row(index, base, torn).problem).startswith("torn tail: line 9")
        repair_session(dangling)  # appends the closing result: read from the indexed offset
        repair_session(torn)  # cuts the torn line
        for path in (dangling, torn):
            os.utime(path, (1e9, 1e9))  # the mtime changes even on a coarse clock
            assert _index_row(index, base, path).problem is None
        with dangling.open("ab") as stream:  # a new turn whose call has no result yet
            stream.write(_assistant_calling("a9", "r2", "call_9"))
        row = _index_row(index, base, dangling)
        assert row.problem == "1 dangling tool call (call_9)"
        assert row.problem == summarize_file(dangling).problem


def _assistant_calling(entry_id: str, parent: str, call_id: str) -> bytes:
    record = {
        "type": "message",
        "id": entry_id,
        "parentId": parent,
        "timestamp": "2026-11-20T10:00:00.000Z",
        "message": {
            "role": "assistant",
            "blocks": [{"type": "toolCall", "id": call_id, "name": "ls", "arguments": {}}],
            "usage": {"inputTokens": 10, "outputTokens": 5},
            "stopReason": "toolUse",
        },
    }
    return json.dumps(record, separators=(",", ":")).encode() + b"\n"


def test_names_and_labels_after_the_last_turn_do_not_hide_its_dangling_call(
    tmp_path: Path,
) -> None:
    path = copy_session(tmp_path, "dangling-last-turn")
    leaf = summarize_file(path).leaf_id
    info = {"type": "session_info", "id": "n1", "parentId": leaf, "name": "later"}
    info["timestamp"] = "2026-11-20T10:00:00.000Z"
    with path.open("ab") as stream:
        stream.write(json.dumps(info, separators=(",", ":")).encode() + b"\n")
    row = summarize_file(path)
    assert (row.leaf_id, row.problem) == ("n1", "1 dangling tool call (call_3)")
