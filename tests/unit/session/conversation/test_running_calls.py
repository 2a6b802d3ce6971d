"""Which calls of a branch are running: unanswered, in its last turn, not hours old."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ink_tui.session import open_session
from ink_tui.session.conversation.branchview import STALE_CALL_SECONDS, load_branch, running_calls
from ink_tui.session.writing.writer import SessionWriter

START = datetime(2026, 11, 2, 10, 0, tzinfo=UTC)


def _calls(*call_ids: str) -> dict[str, Any]:
    return {
        "role": "assistant",
        "blocks": [
            {"type": "toolCall", "id": call_id, "name": "bash", "arguments": {"command": "ls"}}
            for call_id in call_ids
        ],
        "usage": {"inputTokens": 1, "outputTokens": 1},
        "stopReason": "tool_use",
    }


def _answer(call_id: str) -> dict[str, Any]:
    result = {"toolCallId": call_id, "toolName": "bash", "content": "ok", "isError": False}
    return {"role": "toolResult", "results": [result]}


def _branch(tmp_path: Path) -> Any:
    writer = SessionWriter.new(tmp_path, "/home/ada/code/calc-kit", clock=lambda: START)
    writer.append_message({"role": "user", "content": "first"})
    writer.append_message(_calls("old"))  # never answered, in an earlier turn
    writer.append_message({"role": "user", "content": "second"})
    writer.append_message(_calls("done", "running"))
    writer.append_message(_answer("done"))
    session = open_session(writer.path, warn=None)
    return load_branch(session, session.leaf_id)


def test_the_last_turn_s_unanswered_calls_run_since_their_message(tmp_path: Path) -> None:
    loaded = _branch(tmp_path)
    now = START.timestamp() + 30
    running = running_calls(loaded, now)
    last = loaded.turns[-1].items
    assert list(running) == [i.key for i in last if i.tool and i.tool.call_id == "running"]
    assert list(running.values()) == [START.timestamp()]


def test_a_call_hours_old_is_not_running(tmp_path: Path) -> None:
    loaded = _branch(tmp_path)
    assert running_calls(loaded, START.timestamp() + STALE_CALL_SECONDS + 1) == {}
