"""JSON nested as deep as Ink's ``JSON.parse`` reads it (V8's parser is iterative: 100,000 levels
and more), read and written without recursion, in the core and every command."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ink_tui.cli import main
from ink_tui.session import build_context, open_session
from ink_tui.session.reading.jsoncodec import (
    INDENT_DEPTH,
    JsonDecodeError,
    decode_line,
    encode_json,
)
from ink_tui.session.reading.jsondeep import loads_deep

STAMP = "2026-03-02T09:00:00.000Z"
DEPTHS = [990, 1_024, 1_025, 5_000, 100_000]


def _nested(depth: int) -> bytes:
    return b'{"a":' * depth + b'[1,"x\\ud83d",-0.5e3]' + b"}" * depth


def _depth(value: Any) -> int:
    """How deep ``value`` nests, without recursion (``==`` on it would recurse)."""
    depth = 0
    while isinstance(value, dict):
        value, depth = value["a"], depth + 1
    assert value == [1, "x\ud83d", -500.0]
    return depth


@pytest.mark.parametrize("depth", DEPTHS)
def test_a_line_nested_at_any_depth_reads_and_writes_back_as_its_bytes(depth: int) -> None:
    raw = _nested(depth)
    value = decode_line(raw)
    assert _depth(value) == depth
    assert encode_json(value) == raw.replace(b"-0.5e3", b"-500")  # JSON.stringify's number


@pytest.mark.parametrize(
    "raw",
    [
        b"[" * 3000,  # never closed
        b"[" * 3000 + b"]" * 2999,
        b"[" * 3000 + b"1,]" + b"]" * 2999,  # a trailing comma
        b"[" * 3000 + b"Infinity" + b"]" * 3000,  # not JSON
        b'{"a":' * 3000 + b"1" + b"}" * 2999 + b"]",
        b"[" * 3000 + b'"a\x01"' + b"]" * 3000,  # a raw control character in a string
        b"[" * 3000 + b"]" * 3000 + b"x",
    ],
)
def test_deep_lines_json_parse_refuses_are_refused(raw: bytes) -> None:
    with pytest.raises(JsonDecodeError):
        decode_line(raw)


_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=12,
)


@given(_values, st.sampled_from([None, 1, 2]), st.sampled_from([(",", ":"), (", ", ": ")]))
@settings(max_examples=300, deadline=None)
def test_the_deep_parser_agrees_with_the_standard_library(
    value: Any, indent: int | None, separators: tuple[str, str]
) -> None:
    text = json.dumps(value, indent=indent, separators=separators)
    assert loads_deep(text) == json.loads(text)


@given(st.text(alphabet='[]{}",:0123456789.eE+- \ntrufalsn\\u', max_size=30))
@settings(max_examples=500, deadline=None)
def test_the_deep_parser_refuses_what_the_standard_library_refuses(text: str) -> None:
    try:
        expected: Any = json.loads(text)
    except json.JSONDecodeError:
        with pytest.raises(json.JSONDecodeError):
            loads_deep(text)
        return
    assert loads_deep(text) == expected


def _session(tmp_path: Path, depth: int) -> Path:
    header = {"type": "session", "version": 1, "id": "dee9", "timestamp": STAMP, "cwd": "/tmp"}
    user = {"role": "user", "content": "go"}
    call = {"type": "toolCall", "id": "c1", "name": "bash", "arguments": "DEEP"}
    calls = {"role": "assistant", "blocks": [call], "stopReason": "tool_use"}
    records = [
        header,
        {"type": "message", "id": "u1", "parentId": None, "timestamp": STAMP, "message": user},
        {"type": "message", "id": "a1", "parentId": "u1", "timestamp": STAMP, "message": calls},
    ]
    text = "".join(json.dumps(record) + "\n" for record in records)
    path = tmp_path / "deep.jsonl"
    path.write_bytes(text.encode().replace(b'"DEEP"', _nested(depth)))
    return path


@pytest.mark.parametrize("depth", [5_000, pytest.param(100_000, marks=pytest.mark.slow)])
def test_every_command_reads_a_deeply_nested_session(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], depth: int
) -> None:
    path = _session(tmp_path, depth)
    context = build_context(open_session(path, warn=None))
    assert _depth(context.messages[1]["blocks"][0]["arguments"]) == depth
    for argv in (["context"], ["context", "--json"], ["check"], ["check", "--json"]):
        code = main([*argv, str(path)])
        out, err = capsys.readouterr()
        assert code in (0, 1), (argv, err)
        assert "internal error" not in err
        if "--json" in argv:
            decode_line(out.encode())  # one JSON document, however deep
            if argv[0] == "context" and depth > INDENT_DEPTH:
                # Its messages written compact: indenting them would be quadratic.
                assert out.count("\n") <= 12 and len(out) < 8 * depth
