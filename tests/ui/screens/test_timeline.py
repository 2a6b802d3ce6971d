"""``T`` in the session view: every turn as a bar of its duration; the tree's turns say how long
each took and its tokens."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from waiting import wait_for

from ink_tui.session.writing.writer import SessionWriter
from ink_tui.ui.screens.timeline import TimelineScreen
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.session_view.tree import SessionTree
from ink_tui.ui.widgets.timeline_bars import MODEL_BLOCK, TOOL_BLOCK, TimelineBars

CWD = "/home/ada/code/time"
T0 = datetime(2026, 11, 2, 10, 0, 0, tzinfo=UTC)
DURATIONS = [4, 184, 30]  # seconds each turn takes; the second spends 120 s in a tool


def _session(folder: Path) -> Path:
    moments: list[float] = [0]  # the header
    start = 0.0
    for seconds in DURATIONS:
        if seconds == 184:  # prompt, call, its result 120 s later, the answer
            moments += [start, start + 2, start + 122, start + seconds]
        else:  # prompt, answer
            moments += [start, start + seconds]
        start += seconds + 60
    ticks: Iterator[datetime] = (T0 + timedelta(seconds=moment) for moment in moments)
    writer = SessionWriter.new(folder, CWD, clock=lambda: next(ticks))
    usage = {"inputTokens": 1000, "outputTokens": 200}
    for number, seconds in enumerate(DURATIONS, start=1):
        writer.append_message({"role": "user", "content": f"prompt {number}"})
        if seconds == 184:
            call = {"type": "toolCall", "id": "c1", "name": "bash", "arguments": {"command": "x"}}
            writer.append_message(
                {"role": "assistant", "blocks": [call], "usage": usage, "stopReason": "tool_use"}
            )
            result = {"toolCallId": "c1", "toolName": "bash", "content": "ok", "isError": False}
            writer.append_message({"role": "toolResult", "results": [result]})
        text = [{"type": "text", "text": f"answer {number}"}]
        writer.append_message(
            {"role": "assistant", "blocks": text, "usage": usage, "stopReason": "end_turn"}
        )
    return writer.path


async def test_turns_show_their_time_and_T_draws_them_as_bars(
    tmp_path: Path, make_app: Any
) -> None:
    path = _session(tmp_path / "sessions" / "time")
    app = make_app(cwd=CWD, open_path=path)
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, SessionScreen), "the session")
        screen = app.screen
        tree = screen.query_one(SessionTree)
        await wait_for(pilot, lambda: tree.at_last_row, "the rows")
        labels = [node.text for node in tree.top_rows]
        assert labels[1].endswith("3m04s · 2400 tok")  # 2 answers x (1000 + 200)
        assert labels[0].endswith("4.0s · 1200 tok")
        assert "3 turns over 5m38s" in str(screen.query_one("#session-header").render())
        await pilot.press("T")
        await wait_for(pilot, lambda: isinstance(app.screen, TimelineScreen), "the timeline")
        bars = app.screen.query_one(TimelineBars)
        await wait_for(pilot, lambda: len(bars.rows) == 3, "the measured turns")
        title = str(app.screen.query_one("#timeline-title").render())
        assert "slowest: turn 2 (3m04s)" in title and "tools 2m00s" in title
        slow = str(bars.render_line(1 - bars.scroll_offset.y).text)
        assert slow.count(TOOL_BLOCK) == 20 and slow.count(MODEL_BLOCK) == 10  # 120 of 184 s
        await pilot.press("O")  # slowest first
        assert [row.number for row in bars.rows] == [2, 3, 1]
        await pilot.press("G", "enter")  # the fastest, turn 1
        await wait_for(pilot, lambda: app.screen is screen, "back in the session view")
        await wait_for(pilot, lambda: tree.cursor.text.strip().startswith("1 "), "on turn 1")
