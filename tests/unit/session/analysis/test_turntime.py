"""How long each turn took, its tools' share and its tokens, from the records' timestamps."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from ink_tui.session import open_session
from ink_tui.session.analysis.turntime import entry_seconds, short_duration, turn_time
from ink_tui.session.conversation.branchview import load_branch
from ink_tui.session.writing.writer import SessionWriter

T0 = datetime(2026, 11, 2, 10, 0, 0, tzinfo=UTC)


def _clock(offsets: list[float]) -> Iterator[datetime]:
    for offset in offsets:
        yield T0 + timedelta(seconds=offset)


def _assistant(blocks: list[dict[str, object]], tokens: tuple[int, int]) -> dict[str, object]:
    return {
        "role": "assistant",
        "blocks": blocks,
        "usage": {"inputTokens": tokens[0], "outputTokens": tokens[1], "cacheReadTokens": 100},
        "stopReason": "tool_use",
    }


def _timed_session(folder: Path) -> Path:
    """Turn 1: prompt at 0 s, a bash call at 2 s, its result at 12 s, the answer at 15 s.
    Turn 2: a prompt at 100 s and its answer at 101.5 s."""
    ticks = _clock([0, 0, 2, 12, 15, 100, 101.5])  # the header, then each record
    writer = SessionWriter.new(folder, "/home/ada/code/time", clock=lambda: next(ticks))
    writer.append_message({"role": "user", "content": "run it"})
    call = {"type": "toolCall", "id": "c1", "name": "bash", "arguments": {"command": "make"}}
    writer.append_message(_assistant([call], (10, 20)))
    result = {"toolCallId": "c1", "toolName": "bash", "content": "ok", "isError": False}
    writer.append_message({"role": "toolResult", "results": [result]})
    writer.append_message(_assistant([{"type": "text", "text": "done"}], (30, 40)))
    writer.append_message({"role": "user", "content": "thanks"})
    writer.append_message(_assistant([{"type": "text", "text": "welcome"}], (1, 2)))
    return writer.path


def test_a_turn_lasts_from_its_prompt_to_its_last_record(tmp_path: Path) -> None:
    session = open_session(_timed_session(tmp_path), warn=None)
    first, second = load_branch(session, session.leaf_id).turns
    time = turn_time(first)
    assert time.seconds == pytest.approx(15.0)
    assert time.tool_seconds == pytest.approx(10.0) and time.model_seconds == pytest.approx(5.0)
    assert (time.tokens_in, time.tokens_out) == (10 + 100 + 30 + 100, 20 + 40)
    assert turn_time(second).seconds == pytest.approx(1.5)


def test_a_dropped_payload_is_not_parsed_again_for_its_timestamp(tmp_path: Path) -> None:
    session = open_session(_timed_session(tmp_path), warn=None)
    entry = session.entries[2]  # the tool result
    entry.release()
    assert entry_seconds(entry) == pytest.approx((T0 + timedelta(seconds=12)).timestamp())
    assert entry._record is None  # read from the line's first bytes only


def test_timestamps_that_are_not_dates_give_no_duration(tmp_path: Path) -> None:
    path = tmp_path / "odd.jsonl"
    path.write_text(
        '{"type":"session","version":1,"id":"s","timestamp":"x","cwd":"/x"}\n'
        '{"id":"u","type":"message","parentId":null,"timestamp":"yesterday",'
        '"message":{"role":"user","content":"hi"}}\n'
        '{"type":"message","id":"a","parentId":"u","timestamp":5,'
        '"message":{"role":"assistant","blocks":[],"usage":{"inputTokens":"9"}}}\n'
    )
    session = open_session(path, warn=None)
    (turn,) = load_branch(session, session.leaf_id).turns
    time = turn_time(turn)
    assert time.seconds is None and time.tokens == 0


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [
        (None, "?"),
        (0.84, "0.8s"),
        (12.4, "12s"),
        (184, "3m04s"),
        (3720, "1h02m"),
        (183600, "2d03h"),
    ],
)
def test_short_duration(seconds: float | None, shown: str) -> None:
    assert short_duration(seconds) == shown
