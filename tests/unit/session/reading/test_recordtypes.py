"""Ink's records as types (``session.reading.recordtypes``): the written shapes are what ink-tui
writes, key for key in Ink's order; the read shapes claim no more than was checked."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from ink_tui.session.conversation.context import frame_summary
from ink_tui.session.reading.reader import open_session
from ink_tui.session.reading.records import COMPACTION_SUMMARY_PREFIX
from ink_tui.session.reading.recordtypes import (
    MessageEntry,
    PositionMarker,
    SessionHeader,
    SessionModelMarker,
    ToolResult,
    ToolResultMessage,
    UserMessage,
    json_list,
    json_object,
    read_message,
)
from ink_tui.session.rules.fillins import UNKNOWN_OUTCOME_TEXT, resume_closure
from ink_tui.session.rules.modelref import ModelRef
from ink_tui.session.writing.writer import SessionWriter


def _keys(shape: type) -> list[str]:
    return list(shape.__annotations__)


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def test_what_the_writer_writes_has_the_written_shapes_in_inks_key_order(tmp_path: Path) -> None:
    clock = datetime(2026, 10, 5, 12, 0, tzinfo=UTC)
    writer = SessionWriter.new(
        tmp_path, "/work", model=ModelRef("zai", "glm-5.3"), clock=lambda: clock
    )
    user: UserMessage = {"role": "user", "content": "hi"}
    writer.append_message(user)
    writer.append_position(None)
    writer.append_session_model(ModelRef("anthropic", "claude-sonnet-4-5"))
    header, entry, position, model = _lines(writer.path)
    assert list(header) == [*_keys(SessionHeader)[:5], "model"]
    assert list(entry) == _keys(MessageEntry) and list(entry["message"]) == _keys(UserMessage)
    assert list(position) == _keys(PositionMarker)
    assert list(model) == _keys(SessionModelMarker)
    session = open_session(writer.path, warn=None)  # and Ink's checks pass, so the read shapes
    assert session.entries[0].message == user and session.positions[0].record == position


def test_a_closure_and_a_framed_summary_have_the_written_shapes() -> None:
    call = {"type": "toolCall", "id": "c1", "name": "bash", "arguments": {}}
    reply = {"role": "assistant", "blocks": [call], "usage": {}, "stopReason": "tool_use"}
    closure = resume_closure([reply], UNKNOWN_OUTCOME_TEXT)
    assert closure is not None and list(closure) == _keys(ToolResultMessage)
    assert [list(result) for result in json_list(closure["results"])] == [
        _keys(ToolResult)[:4]  # no taskRecord: it is the task tool's
    ]
    assert list(frame_summary(COMPACTION_SUMMARY_PREFIX, "s")) == _keys(UserMessage)


@pytest.mark.parametrize(
    ("value", "is_message"),
    [
        ({"role": "user", "content": 5}, True),  # the role is all open() checks
        ({"role": 5, "content": "x"}, False),
        ({"content": "x"}, False),
        (["role", "user"], False),
        ("user", False),
        (None, False),
    ],
)
def test_a_read_message_is_only_what_open_checks(value: object, is_message: bool) -> None:
    message = read_message(value)
    assert (message is not None) == is_message
    if message is not None:
        assert isinstance(message["role"], str)


def test_json_guards_narrow_only_what_they_check() -> None:
    assert json_object({"a": 1}) and not json_object([1]) and not json_object(None)
    assert json_list([1, "a"]) == [1, "a"] and json_list({"a": 1}) == [] and json_list("ab") == []
