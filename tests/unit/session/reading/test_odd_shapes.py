"""Shapes Ink's ``open()`` accepts but its code trips on: shown as they are, or refused in one
clear line naming the file and line, never an internal error (issue 11, the probe's defects)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ink_tui.agent.start import load_chat
from ink_tui.cli import main
from ink_tui.session import EngineError, build_context, open_session
from ink_tui.session.conversation.branchview import load_branch
from ink_tui.session.reading.jsoncodec import encode_json

STAMP = "2026-10-05T12:34:56.789Z"
HEADER = {
    "type": "session",
    "version": 1,
    "id": "0dd50000-0000-4000-8000-000000000000",
    "timestamp": STAMP,
    "cwd": "/tmp",
}
ABSENT = object()  # leave the field out


def _entry(entry_id: str, parent: str | None, **fields: Any) -> dict[str, Any]:
    kind = fields.pop("type", "message")
    return {"type": kind, "id": entry_id, "parentId": parent, "timestamp": STAMP, **fields}


def _user(entry_id: str, parent: str | None, text: str = "hi") -> dict[str, Any]:
    return _entry(entry_id, parent, message={"role": "user", "content": text})


def _call(call_id: Any = "t1") -> dict[str, Any]:
    block: dict[str, Any] = {"type": "toolCall", "name": "bash", "arguments": {"command": "ls"}}
    if call_id is not ABSENT:
        block["id"] = call_id
    return block


def _write(path: Path, *records: dict[str, Any]) -> Path:
    path.write_bytes(b"".join(encode_json(r) + b"\n" for r in (HEADER, *records)))
    return path


def _assistant(blocks: Any) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "stopReason": "end_turn"}
    if blocks is not ABSENT:
        message["blocks"] = blocks
    return message


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(("blocks", "shown"), [(5, "5"), (True, "true"), (1.5, "1.5")])
def test_blocks_that_are_not_a_list_are_shown_and_ink_would_not_continue(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], blocks: Any, shown: str
) -> None:
    path = _write(
        tmp_path / "s.jsonl", _user("u1", None), _entry("a1", "u1", message=_assistant(blocks))
    )
    session = open_session(path, warn=None)
    loaded = load_branch(session, session.leaf_id)
    odd = [item.text for turn in loaded.turns for item in turn.items if item.kind == "oddity"]
    assert odd == [f"blocks is {shown}, not a list"]
    code, out, err = _run(capsys, "context", str(path))
    assert code == 0 and f"⚠ blocks is {shown}, not a list" in out and not err
    code, out, err = _run(capsys, "check", str(path))
    assert code == 2 and "internal error" not in err
    assert "TypeError: message.blocks is not iterable" in out
    code, out, err = _run(capsys, "repair", "--dry-run", str(path))
    assert "internal error" not in err and "message.blocks is not iterable" in out + err
    assert load_chat(path).read_only is not None  # the chat pane refuses to continue it


@pytest.mark.parametrize(
    ("tail", "verdict"),
    [
        ([5], "message 1: it is 5, not an object"),
        ([None], "Cannot read properties of null (reading 'role')"),
    ],
)
def test_retained_tail_items_that_are_not_messages_are_shown_and_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], tail: list[Any], verdict: str
) -> None:
    path = _write(
        tmp_path / "s.jsonl",
        _user("u1", None),
        _entry("c1", "u1", type="compaction", summary="so far", retainedTail=tail),
        _user("u2", "c1", "next"),
    )
    context = build_context(open_session(path, warn=None))
    assert context.messages[1] == tail[0] and context.compaction_boundary == 2
    code, out, _ = _run(capsys, "context", str(path))
    assert "[1] ⚠ message is" in out
    code, out, err = _run(capsys, "check", str(path))
    assert code == 2 and verdict in out and "internal error" not in err
    code, out, _ = _run(capsys, "context", "--json", str(path))
    assert json.loads(out)["messages"][1] == tail[0]


@pytest.mark.parametrize(
    ("results", "verdict"),
    [
        ({"a": 1}, "TypeError: message.results is not iterable"),
        ([None, 5], "Cannot read properties of null (reading 'toolCallId')"),
    ],
)
def test_results_that_are_not_a_list_of_objects_are_shown_and_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], results: Any, verdict: str
) -> None:
    path = _write(
        tmp_path / "s.jsonl",
        _user("u1", None),
        _entry("a1", "u1", message=_assistant([_call()])),
        _entry("r1", "a1", message={"role": "toolResult", "results": results}),
    )
    session = open_session(path, warn=None)
    rows = [i.text for t in load_branch(session, session.leaf_id).turns for i in t.items]
    assert any("not a list" in row or "not an object" in row for row in rows)
    for argv in (["context"], ["check"], ["repair", "--dry-run"]):
        _code, _out, err = _run(capsys, *argv, str(path))
        assert "internal error" not in err, argv
    assert verdict in _run(capsys, "check", str(path))[1]


@pytest.mark.parametrize(
    ("tail", "error"),
    [
        (ABSENT, "compaction.retainedTail is not iterable (cannot read property undefined)"),
        (None, "compaction.retainedTail is not iterable (cannot read property null)"),
        ({"a": 1}, "Spread syntax requires ...iterable[Symbol.iterator] to be a function"),
        (7, "Spread syntax requires ...iterable[Symbol.iterator] to be a function"),
    ],
)
def test_a_retained_tail_ink_cannot_spread_makes_the_context_fail_as_in_ink(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], tail: Any, error: str
) -> None:
    compaction = _entry("c1", "u1", type="compaction", summary="so far")
    if tail is not ABSENT:
        compaction["retainedTail"] = tail
    path = _write(tmp_path / "s.jsonl", _user("u1", None), compaction, _user("u2", "c1"))
    with pytest.raises(EngineError) as raised:
        build_context(open_session(path, warn=None))
    assert raised.value.message == error and raised.value.line == 3
    code, _, err = _run(capsys, "context", str(path))
    assert code != 0 and err.strip() == f"ink-tui: {path}:3: {error}"
    with pytest.raises(EngineError):
        load_chat(path)  # the chat pane says why and continues nothing
    session = open_session(path, warn=None)
    compaction_rows = [
        i
        for t in load_branch(session, session.leaf_id).turns
        for i in t.items
        if i.kind == "compaction"
    ]
    assert len(compaction_rows) == 1  # the view still shows the session


def test_a_string_retained_tail_spreads_into_characters_as_in_ink(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "s.jsonl",
        _user("u1", None),
        _entry("c1", "u1", type="compaction", summary="s", retainedTail="ab"),
        _user("u2", "c1"),
    )
    context = build_context(open_session(path, warn=None))
    assert context.messages[1:3] == ["a", "b"] and context.compaction_boundary == 3
    assert load_chat(path).read_only is not None


@pytest.mark.parametrize("call_id", [ABSENT, None, 7])
def test_repair_closes_a_call_with_its_id_as_the_file_holds_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], call_id: Any
) -> None:
    path = _write(
        tmp_path / "s.jsonl",
        _user("u1", None),
        _entry("a1", "u1", message=_assistant([_call(call_id)])),
    )
    code, _out, err = _run(capsys, "repair", str(path))
    assert code == 0, err
    closing = json.loads(path.read_bytes().splitlines()[-1])["message"]["results"][0]
    if call_id is ABSENT:
        assert "toolCallId" not in closing  # JSON.stringify leaves out an undefined field
    else:
        assert closing["toolCallId"] == call_id  # never "None" or "['x']"
    assert closing["toolName"] == "bash" and closing["isError"] is True


def test_check_json_reports_an_unmatched_null_id_as_null(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(
        tmp_path / "s.jsonl",
        _user("u1", None),
        _entry(
            "r1",
            "u1",
            message={"role": "toolResult", "results": [{"toolCallId": None, "content": "x"}]},
        ),
    )
    _, out, _ = _run(capsys, "check", "--json", str(path))
    assert json.loads(out)["orphanResults"] == [None]
    _, out, _ = _run(capsys, "check", str(path))
    assert "orphan result: null" in out


def test_a_call_whose_id_no_result_can_match_is_refused_before_anything_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(
        tmp_path / "s.jsonl",
        _user("u1", None),
        _entry("a1", "u1", message=_assistant([_call(["x"])])),
    )
    before = path.read_bytes()
    code, out, err = _run(capsys, "repair", str(path))
    assert code == 2 and 'tool call ["x"] has an id no result can match' in out + err
    assert path.read_bytes() == before
