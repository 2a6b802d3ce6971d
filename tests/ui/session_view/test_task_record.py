"""A ``task`` call's task record in the session view: a line under the call in the replay
(status, turns, health, worktree, transcript), and, for a subagent whose transcript Ink was told
not to keep (``INK_CHILD_SESSIONS=0``), that reason where its rows would be, never
"not in children/"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from testdata import task_record
from viewtext import replay_text
from waiting import wait_for

from ink_tui.session.writing.writer import SessionWriter
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.session_view.tree import SessionTree

CWD = "/home/ada/code/calc-kit"
DISABLED = "Ink was told not to keep subagent transcripts (INK_CHILD_SESSIONS=0)"


def _parent(folder: Path) -> Path:
    """A session whose one ``task`` call ran a subagent with child sessions turned off."""
    writer = SessionWriter.new(folder, CWD)
    writer.append_message({"role": "user", "content": "ask a reviewer"})
    call = {"type": "toolCall", "id": "t1", "name": "task", "arguments": {"prompt": "review"}}
    writer.append_message(
        {"role": "assistant", "blocks": [call], "usage": {"inputTokens": 1, "outputTokens": 1}}
    )
    record = task_record(
        agent="reviewer",
        turns=4,
        health=[{"code": "repeat-loop", "count": 3, "turn": 2}],
        worktree={"path": "/w", "branch": "ink/t1", "disposition": "removed"},
        transcript={"present": False, "why": "disabled"},
    )
    result = {
        "toolCallId": "t1",
        "toolName": "task",
        "content": "looks right",
        "isError": False,
        "taskRecord": record,
    }
    writer.append_message({"role": "toolResult", "results": [result]})
    return writer.path


async def test_a_task_call_shows_its_record_and_why_no_subagent_was_kept(
    tmp_path: Path, make_app: Any
) -> None:
    parent = _parent(tmp_path / "sessions" / "home-ada-code-calc--kit")
    app = make_app(sessions_dir=tmp_path / "sessions", cwd=CWD, open_path=parent)
    async with app.run_test(size=(160, 40), notifications=True) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, SessionScreen), "the session")
        screen = app.screen
        tree = screen.query_one(SessionTree)
        await wait_for(pilot, lambda: tree.at_last_row, "the rows")
        await wait_for(pilot, lambda: "subagent reviewer" in replay_text(screen), "the record")
        shown = " ".join(replay_text(screen).split())  # the line wraps in the pane
        assert (
            "● task review ✓ ok ⤷ subagent reviewer completed · 4 turns · health: repeat-loop 3 "
            f"times by turn 2 · worktree removed (branch ink/t1) · no transcript: {DISABLED}"
        ) in shown
        await pilot.press("g", "l", "j")  # the first turn, opened, its first row: the task call
        call = tree.cursor
        assert "task" in call.text
        await pilot.press("l")
        await wait_for(
            pilot,
            lambda: any("⤷ no subagent session" in row.text for row in call.children),
            "the subagent's head row",
        )
        heads = [row.text for row in call.children if row.text.startswith("⤷")]
        assert heads == [f"⤷ no subagent session: {DISABLED}"]
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: any(DISABLED in str(n.message) for n in app._notifications),
            "the notice",
        )
        assert not any("not in children/" in str(n.message) for n in app._notifications)
        assert app.screen is screen
