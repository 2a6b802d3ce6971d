"""Pilot: a followed session replaced by a FIFO or by a symlink to ``/dev/zero``, and a FIFO
named like a newer session. Nothing blocks, nothing reads without end, and ``q`` quits."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from waiting import wait_for

from ink_tui.session.writing.writer import SessionWriter
from ink_tui.ui.screens.error import ErrorScreen
from ink_tui.ui.session_view.screen import SessionScreen


def _writer(tmp_path: Path) -> SessionWriter:
    writer = SessionWriter.new(tmp_path / "sessions" / "p", "/home/ada/code/calc-kit")
    writer.append_message({"role": "user", "content": "first prompt"})
    return writer


def _shown_reason(app: Any) -> str:
    screen = app.screen
    if isinstance(screen, ErrorScreen):
        return str(screen.error.message)
    return " ".join(str(note.message) for note in app._notifications)


@pytest.mark.parametrize("replacement", ["fifo", "zero"])
async def test_a_followed_file_replaced_by_a_fifo_or_a_device_is_said_and_q_quits(
    tmp_path: Path, make_app: Any, replacement: str
) -> None:
    writer = _writer(tmp_path)
    app = make_app(cwd="/nowhere", open_path=writer.path, follow=True)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, SessionScreen) and app.screen.live.following,
            "following",
        )
        writer.path.unlink()
        if replacement == "fifo":
            os.mkfifo(writer.path)
        else:
            writer.path.symlink_to("/dev/zero")
        kind = "a FIFO (named pipe)" if replacement == "fifo" else "a character device"
        await wait_for(pilot, lambda: kind in _shown_reason(app), "the reason, in one line")
        await pilot.press("q")
        await wait_for(pilot, lambda: not app.is_running, "the app to quit")


async def test_a_fifo_named_like_a_newer_session_is_not_offered(
    tmp_path: Path, make_app: Any
) -> None:
    writer = _writer(tmp_path)
    app = make_app(cwd="/nowhere", open_path=writer.path, follow=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, SessionScreen) and app.screen.live.following,
            "following",
        )
        screen = app.screen
        assert isinstance(screen, SessionScreen)
        writer.append_message({"role": "user", "content": "second prompt"})  # the watch is on
        await wait_for(pilot, lambda: screen.loaded.leaf_id == writer.leaf_id, "the prompt")
        os.mkfifo(writer.path.parent / "2099-01-01T00-00-00-000Z-fifo.jsonl")
        newer = SessionWriter.new(writer.path.parent, "/home/ada/code/calc-kit")
        newer.append_message({"role": "user", "content": "a real newer session"})
        await wait_for(pilot, lambda: screen.live.newer_session == newer.path, "the real one")
