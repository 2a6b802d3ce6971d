"""Pilot: a session truncated or deleted while the view follows it or has it open (issue 11,
item 4). The view says what happened in one line naming the file, reads it again (or shows the
error screen naming it), never logs an unforeseen error, and ``q`` quits."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import hostile
import pytest
from waiting import wait_for, workers_finished

from ink_tui.paths import project_dir
from ink_tui.session.writing.writer import SessionWriter
from ink_tui.ui.screens.error import ErrorScreen
from ink_tui.ui.session_view.screen import SessionScreen

SIZE = (120, 40)


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(folder))
    return folder


def _writer(tmp_path: Path) -> SessionWriter:
    writer = SessionWriter.new(tmp_path / "sessions" / "p", "/home/ada/code/calc-kit")
    for n in range(3):
        writer.append_message({"role": "user", "content": f"prompt {n}"})
    return writer


def _notices(app: Any) -> str:
    return "\n".join(str(note.message) for note in app._notifications)


def _following(app: Any) -> bool:
    return isinstance(app.screen, SessionScreen) and app.screen.live.following


async def _quit(app: Any, pilot: Any, *, following: bool = False) -> None:
    if not following:  # (following, the watch runs until the app ends)
        await wait_for(pilot, workers_finished(app), "the workers")
    await pilot.press("q")
    await wait_for(pilot, lambda: not app.is_running, "the app to quit")


async def test_a_followed_file_that_shrank_is_read_again_and_followed_on(
    tmp_path: Path, make_app: Any, state: Path
) -> None:
    writer = _writer(tmp_path)
    app = make_app(cwd="/nowhere", open_path=writer.path, follow=True)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_for(pilot, lambda: _following(app), "following")
        lines = writer.path.read_bytes().splitlines(keepends=True)
        size = writer.path.stat().st_size
        kept = len(b"".join(lines[:2]))
        os.truncate(writer.path, kept)  # the header and the first prompt are left
        said = f"the file shrank ({size} -> {kept} bytes): reading it again from the start"
        await wait_for(pilot, lambda: said in _notices(app), "the notice")
        await wait_for(pilot, lambda: _following(app), "following again")
        screen = app.screen
        assert isinstance(screen, SessionScreen) and screen.loaded is not None
        assert [turn.prompt for turn in screen.loaded.turns] == ["prompt 0"]
        with writer.path.open("ab") as stream:  # Ink goes on writing
            stream.write(lines[2])
        await wait_for(
            pilot,
            lambda: screen.loaded is not None and screen.loaded.turns[-1].prompt == "prompt 1",
            "the appended prompt",
        )
        await _quit(app, pilot, following=True)
    assert not state.exists()


@pytest.mark.parametrize("how", ["emptied", "deleted"])
async def test_a_followed_file_emptied_or_deleted_is_the_error_screen_naming_it(
    tmp_path: Path, make_app: Any, state: Path, how: str
) -> None:
    writer = _writer(tmp_path)
    app = make_app(cwd="/nowhere", open_path=writer.path, follow=True)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_for(pilot, lambda: _following(app), "following")
        if how == "emptied":
            os.truncate(writer.path, 0)
            said, reason = "the file shrank", f"empty session file: {writer.path}"
        else:
            writer.path.unlink()
            said, reason = "the file was removed", f"session file not found: {writer.path}"
        await wait_for(pilot, lambda: said in _notices(app), "the notice")
        await wait_for(pilot, lambda: isinstance(app.screen, ErrorScreen), "the error screen")
        assert app.screen.error.message == reason
        await _quit(app, pilot)
    assert not state.exists()


@pytest.mark.parametrize("how", ["truncated", "deleted"])
async def test_a_file_truncated_or_deleted_while_open_is_said_in_one_line(
    tmp_path: Path, make_app: Any, state: Path, how: str
) -> None:
    """The records of the branch shown stay in memory (a huge image too): the view goes on
    showing them when the file is cut or removed, with no error."""
    item = hostile.build(project_dir(tmp_path / "sessions", hostile.CWD), "huge-image")
    app = make_app(sessions_dir=tmp_path / "sessions", cwd=hostile.CWD, open_path=item.path)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, SessionScreen) and app.screen.loaded is not None,
            "the view",
        )
        await wait_for(pilot, workers_finished(app), "the view's workers")
        if how == "truncated":
            os.truncate(item.path, 200)
        else:
            item.path.unlink()
        for key in "gjjjG":
            await pilot.press(key)
        await wait_for(pilot, workers_finished(app), "the keys' work")
        assert isinstance(app.screen, SessionScreen)  # it holds what it shows: nothing read back
        assert app.is_running
        await _quit(app, pilot)
    assert not state.exists()
