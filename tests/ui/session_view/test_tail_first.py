"""Pilot tests of big sessions opened from their end: the first paint, then the whole branch."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from shared_fixtures import SHARED_FIXTURES
from testdata import SESSIONS
from viewtext import header_text, replay_text
from waiting import DEFAULT_TIMEOUT, wait_for, workers_finished

import ink_tui.ui.session_view.loader as session_load
from ink_tui.ui.screens.error import ErrorScreen
from ink_tui.ui.session_view.screen import EARLIER_PLACEHOLDER, SessionScreen
from ink_tui.ui.session_view.tree import SessionTree


def _fixtures() -> list[Path]:
    files = sorted(SESSIONS.glob("*.jsonl"))
    if SHARED_FIXTURES.is_dir():  # Ink's own fixtures too, read in place, when beside us
        files += sorted(SHARED_FIXTURES.glob("*.jsonl"))
    return files


def _view(screen: SessionScreen) -> tuple[list[str], str, str]:
    tree = screen.query_one(SessionTree)
    return (
        [node.text for node in tree.top_rows],
        replay_text(screen),
        header_text(screen),
    )


@pytest.mark.parametrize("path", _fixtures(), ids=lambda path: f"{path.parent.name}/{path.name}")
async def test_the_view_read_from_the_end_ends_equal_to_the_whole_read(
    path: Path, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(cwd="/nowhere", open_path=path)
    monkeypatch.setattr(session_load, "TAIL_FIRST_BYTES", 0)  # every file opens from its end
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: _whole_shown(app), "the tail, then the whole file, read")
        screen = app.screen
        if isinstance(screen, ErrorScreen):
            return  # Ink cannot open it: the error view, whichever way it was read
        assert isinstance(screen, SessionScreen) and screen.loaded is not None
        await wait_for(pilot, workers_finished(app), "the view settled")
        from_the_end, first = _view(screen), screen.loaded
        monkeypatch.setattr(session_load, "TAIL_FIRST_BYTES", 1 << 62)
        screen.reload()
        await wait_for(pilot, lambda: screen.loaded is not first, "the whole file read again")
        await wait_for(pilot, workers_finished(app), "the view settled again")
        assert _view(screen) == from_the_end


def _whole_shown(app: Any) -> bool:
    """The error view, or the session view showing the whole branch (not its first look)."""
    screen = app.screen
    if isinstance(screen, ErrorScreen):
        return True
    return (
        isinstance(screen, SessionScreen)
        and screen.loaded is not None
        and not screen.loaded.partial
    )


def _big_session(folder: Path, *, corrupt: bool = False) -> Path:
    from bigload import big_session

    path = big_session(folder, entries=400)
    if corrupt:  # a bad line early in the file: the end reads fine, Ink cannot open it
        lines = path.read_bytes().split(b"\n")
        lines[5] = b'{"type":"message","id":"oops",'
        path.write_bytes(b"\n".join(lines))
    return path


def _hold_whole_read(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    release = threading.Event()
    original = session_load.open_session

    def held(*args: Any, **kwargs: Any) -> Any:
        assert release.wait(DEFAULT_TIMEOUT), "the test never released the whole read"
        return original(*args, **kwargs)

    monkeypatch.setattr(session_load, "TAIL_FIRST_BYTES", 0)
    monkeypatch.setattr(session_load, "open_session", held)
    return release


async def test_a_file_found_invalid_after_its_end_was_shown_switches_to_the_error_view(
    tmp_path: Path, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _big_session(tmp_path / "p", corrupt=True)
    release = _hold_whole_read(monkeypatch)
    app = make_app(cwd="/nowhere", open_path=path)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, SessionScreen)
                and app.screen.loaded is not None
                and app.screen.loaded.from_tail
            ),
            "the last turns, read from the end",
        )
        release.set()
        await wait_for(pilot, lambda: isinstance(app.screen, ErrorScreen), "the error view")
        assert "session line 6: invalid JSON" in str(app.screen.query_one("#error-banner").render())


async def test_g_before_the_start_is_read_shows_a_placeholder_and_lands_there_when_read(
    tmp_path: Path, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _big_session(tmp_path / "p")
    release = _hold_whole_read(monkeypatch)
    app = make_app(cwd="/nowhere", open_path=path)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, SessionScreen) and app.screen.loaded is not None,
            "the last turns",
        )
        screen = app.screen
        assert isinstance(screen, SessionScreen)
        tree = screen.query_one(SessionTree)
        await pilot.press("g")
        await wait_for(pilot, lambda: tree.cursor_row == 0, "the cursor at the top")
        assert tree.cursor.text == EARLIER_PLACEHOLDER
        release.set()
        await wait_for(
            pilot,
            lambda: (
                screen.loaded is not None
                and not screen.loaded.partial
                and tree.cursor is tree.top_rows[0]
            ),
            "the whole branch, the cursor on its first turn",
        )
        assert tree.cursor.text.strip().startswith("1 ")
