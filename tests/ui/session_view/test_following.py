"""Pilot tests of follow mode: arrivals, running calls, pause, counter, resume, branch switch."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from viewtext import without_time
from waiting import wait_for

from ink_tui.session.writing.writer import SessionWriter
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.session_view.tree import SessionTree
from ink_tui.ui.widgets.transcript import Transcript


def _assistant(blocks: list[dict[str, Any]], stop: str = "end_turn") -> dict[str, Any]:
    return {
        "role": "assistant",
        "blocks": blocks,
        "usage": {"inputTokens": 3, "outputTokens": 2},
        "stopReason": stop,
        "model": "glm-5.3",
        "modelReference": "zai/glm-5.3",
    }


def _writer(tmp_path: Path) -> SessionWriter:
    writer = SessionWriter.new(tmp_path / "sessions" / "p", "/home/ada/code/calc-kit")
    writer.append_message({"role": "user", "content": "first prompt"})
    writer.append_message(_assistant([{"type": "text", "text": "first answer"}]))
    return writer


async def _following(pilot: Any) -> SessionScreen:
    def following() -> SessionScreen | None:
        screen = pilot.app.screen
        return screen if isinstance(screen, SessionScreen) and screen.live.following else None

    screen = await wait_for(pilot, following, "the session view following its file")
    assert screen is not None
    return screen


def _turn_titles(screen: SessionScreen) -> list[str]:
    return [node.text for node in screen.query_one(SessionTree).top_rows]


async def test_new_turns_and_tool_results_appear_as_they_land(
    tmp_path: Path, make_app: Any
) -> None:
    writer = _writer(tmp_path)
    app = make_app(cwd="/nowhere", open_path=writer.path, follow=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _following(pilot)
        assert "LIVE" in str(screen.query_one("#session-header").render())
        writer.append_message({"role": "user", "content": "second prompt"})
        writer.append_message(
            _assistant(
                [{"type": "toolCall", "id": "c1", "name": "bash", "arguments": {"command": "ls"}}],
                "tool_use",
            )
        )
        await wait_for(
            pilot, lambda: any("second prompt" in t for t in _turn_titles(screen)), "turn"
        )
        tree = screen.query_one(SessionTree)
        await wait_for(pilot, lambda: "running" in tree.cursor.text, "running call")
        writer.append_message(
            {
                "role": "toolResult",
                "results": [
                    {"toolCallId": "c1", "toolName": "bash", "content": "a\nb", "isError": False}
                ],
            }
        )
        await wait_for(pilot, lambda: "✓ ok" in tree.cursor.text, "the result")
        transcript = screen.query_one(Transcript)
        assert transcript.keys.count(screen.loaded.turns[-1].items[0].key) == 1  # once


async def test_moving_up_pauses_counts_and_F_resumes(tmp_path: Path, make_app: Any) -> None:
    writer = _writer(tmp_path)
    app = make_app(cwd="/nowhere", open_path=writer.path, follow=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _following(pilot)
        await pilot.press("k")
        assert screen.live.paused
        writer.append_message({"role": "user", "content": "while paused"})
        writer.append_message(_assistant([{"type": "text", "text": "ok"}]))
        status = screen.query_one("#search-status")
        await wait_for(
            pilot, lambda: "2 new records while paused" in str(status.render()), "the counter"
        )
        tree = screen.query_one(SessionTree)
        assert "while paused" not in tree.cursor.text
        await pilot.press("F")
        assert not screen.live.paused
        await wait_for(pilot, lambda: without_time(tree.cursor.text).endswith("ok"), "jump to end")


async def test_a_position_marker_switches_the_branch(tmp_path: Path, make_app: Any) -> None:
    writer = _writer(tmp_path)
    first_id = json.loads(writer.path.read_text().splitlines()[1])["id"]
    app = make_app(cwd="/nowhere", open_path=writer.path, follow=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _following(pilot)
        writer.append_position(first_id)  # Ink's /tree: back to the first prompt
        writer.append_message(_assistant([{"type": "text", "text": "another answer"}]))
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, SessionScreen)
                and app.screen.loaded is not None
                and app.screen.loaded.leaf_id == writer.leaf_id
            ),
            "the new branch",
        )
        messages = [notification.message for notification in app._notifications]
        assert any("another branch" in message for message in messages)
        del screen


async def test_a_parent_that_names_nothing_is_the_error_view_not_a_branch_move(
    tmp_path: Path, make_app: Any
) -> None:
    """Ink did not move: a record whose parentId names no entry breaks the chain. The error view
    says so; no note claims Ink moved to another branch."""
    from ink_tui.ui.screens.error import ErrorScreen

    writer = _writer(tmp_path)
    app = make_app(cwd="/nowhere", open_path=writer.path, follow=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await _following(pilot)
        writer.append_message({"role": "user", "content": "lost"}, parent_id="nothing0")
        await wait_for(pilot, lambda: isinstance(app.screen, ErrorScreen), "the error view")
        assert "broken parentId chain" in str(app.screen.query_one("#error-banner").render())
        messages = [str(notification.message) for notification in app._notifications]
        assert not any("another branch" in message for message in messages), messages


async def test_a_new_leaf_on_another_branch_is_a_branch_move(tmp_path: Path, make_app: Any) -> None:
    """Ink went on from an earlier entry without a marker (another writer): that is a move."""
    writer = _writer(tmp_path)
    first_id = json.loads(writer.path.read_text().splitlines()[1])["id"]
    app = make_app(cwd="/nowhere", open_path=writer.path, follow=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await _following(pilot)
        writer.append_message(_assistant([{"type": "text", "text": "again"}]), parent_id=first_id)
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, SessionScreen)
                and app.screen.loaded is not None
                and app.screen.loaded.leaf_id == writer.leaf_id
            ),
            "the new branch",
        )
        messages = [str(notification.message) for notification in app._notifications]
        assert any("another branch" in message for message in messages)


async def test_f_toggles_following(tmp_path: Path, make_app: Any) -> None:
    writer = _writer(tmp_path)
    app = make_app(cwd="/nowhere", open_path=writer.path, follow=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _following(pilot)
        await pilot.press("f")
        assert not screen.live.following
        assert "LIVE" not in str(screen.query_one("#session-header").render())
        await pilot.press("f")
        await wait_for(pilot, lambda: screen.live.following, "following again")


async def test_a_newer_session_is_offered_and_gt_switches(tmp_path: Path, make_app: Any) -> None:
    writer = _writer(tmp_path)
    app = make_app(cwd="/nowhere", open_path=writer.path, follow=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _following(pilot)
        writer.append_message({"role": "user", "content": "second prompt"})  # the watch is on
        await wait_for(pilot, lambda: screen.loaded.leaf_id == writer.leaf_id, "the prompt")
        newer = SessionWriter.new(writer.path.parent, "/home/ada/code/calc-kit")
        newer.append_message({"role": "user", "content": "a brand new session"})
        await wait_for(pilot, lambda: screen.live.newer_session == newer.path, "the offer")
        await pilot.press("greater_than_sign")  # ">", no longer "s" (the search's key)
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, SessionScreen) and app.screen.path == newer.path,
            "the switch",
        )


WRITER = r"""
import os, random, sys, time
source, target = sys.argv[1], sys.argv[2]
rng = random.Random(5)
data = open(source, "rb").read()
fd = os.open(target, os.O_WRONLY | os.O_APPEND)
position = 0
while position < len(data):
    chunk = data[position : position + rng.choice([3, 40, 700, 5000])]
    os.write(fd, chunk)
    position += len(chunk)
    if rng.random() < 0.05:
        time.sleep(0.01)
os.close(fd)
"""


async def test_the_view_holds_every_record_of_a_file_written_by_another_process(
    tmp_path: Path, make_app: Any
) -> None:
    """A separate writer appends in chunks that split records; the view ends equal to the file."""
    import subprocess
    import sys
    from datetime import UTC, datetime

    from ink_tui.demo import generate_session
    from ink_tui.session import branch, open_session

    source = generate_session(
        tmp_path / "src",
        "/home/ada/code/calc-kit",
        seed=9,
        entries=300,
        clock_start=datetime(2026, 11, 1, tzinfo=UTC),
    )
    lines = source.read_bytes().splitlines(keepends=True)
    target = tmp_path / "sessions" / "p" / source.name
    target.parent.mkdir(parents=True)
    target.write_bytes(b"".join(lines[:3]))
    body = tmp_path / "body.jsonl"
    body.write_bytes(b"".join(lines[3:]))
    app = make_app(cwd="/nowhere", open_path=target, follow=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await _following(pilot)
        writer = subprocess.Popen([sys.executable, "-c", WRITER, str(body), str(target)])
        await wait_for(pilot, lambda: writer.poll() is not None, "the writer process to end")
        final = open_session(target, warn=None)
        expected = [entry.id for entry in branch(final)]

        def settled() -> bool:
            screen = app.screen
            return (
                isinstance(screen, SessionScreen)
                and screen.loaded is not None
                and [entry.id for entry in screen.loaded.entries] == expected
            )

        await wait_for(pilot, settled, "the view to hold every record")
        screen = app.screen
        assert isinstance(screen, SessionScreen)
        keys = screen.query_one(Transcript).keys
        assert len(keys) == len(set(keys))  # nothing shown twice


async def test_an_hours_old_unanswered_call_is_not_shown_as_running(
    tmp_path: Path, make_app: Any
) -> None:
    from datetime import UTC, datetime, timedelta

    long_ago = datetime.now(UTC) - timedelta(hours=3)
    writer = SessionWriter.new(
        tmp_path / "sessions" / "p", "/home/ada/code/calc-kit", clock=lambda: long_ago
    )
    writer.append_message({"role": "user", "content": "run it"})
    writer.append_message(
        _assistant(
            [{"type": "toolCall", "id": "c9", "name": "bash", "arguments": {"command": "make"}}],
            "tool_use",
        )
    )
    app = make_app(cwd="/nowhere", open_path=writer.path, follow=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _following(pilot)
        tree = screen.query_one(SessionTree)
        await wait_for(pilot, lambda: "no result" in tree.cursor.text, "the call shown unanswered")
        label = tree.cursor.text
        assert "no result" in label and "running" not in label
