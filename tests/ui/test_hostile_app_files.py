"""Pilot: the session view, the branches screen and the picker over every hostile file (issue 11,
item 4), at the CI sizes of ``tests/hostile.py``.

The view opens each file (to its whole branch, or to the error screen naming it), answers
``G`` ``g`` ``j`` and lists the branches (``b``: a 100,000-fork star, a chain forking at every
entry); the picker lists each, previews it and opens it (to what the view opens it to; the view's
keys on it are the view's test). Never an unforeseen error (the log file
stays absent), never a hang (every wait has a limit), nothing written to the sessions folder.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import hostile
import pytest
from waiting import wait_for, workers_finished

from ink_tui.paths import project_dir
from ink_tui.ui.app import InkApp
from ink_tui.ui.screens.branches import BranchesScreen
from ink_tui.ui.screens.error import ErrorScreen
from ink_tui.ui.screens.picker import PickerScreen
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.widgets.session_list import SessionList

LOAD = 300.0  # seconds: a 100,000-entry branch on a loaded, shared machine
SIZE = (120, 40)


@pytest.fixture
def built(hostile_files: hostile.Built) -> hostile.Built:
    return hostile_files


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Where the log file would be written: it must never appear."""
    folder = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(folder))
    return folder


def _settled(app: InkApp) -> bool:
    """The error screen, or the session view with its whole branch shown."""
    screen = app.screen
    if isinstance(screen, ErrorScreen):
        return True
    return isinstance(screen, SessionScreen) and bool(screen.loaded) and not screen.loaded.partial


def _reason(item: hostile.Hostile) -> str:
    """What the error screen says after the path: the command line's line past ``<path>: ``."""
    assert item.error is not None
    return item.error.format(path=item.path).split(": ", 1)[1]


def _check_opened(app: InkApp, item: hostile.Hostile) -> None:
    """What opening ``item`` shows, settled: the error screen naming it and why, or its whole
    branch to the last record."""
    screen = app.screen
    if item.error is not None:
        assert isinstance(screen, ErrorScreen)
        assert screen.path == item.path
        assert screen.error.message.endswith(_reason(item))
        return
    assert isinstance(screen, SessionScreen)
    assert screen.loaded is not None
    assert hostile.MARKER in screen.loaded.turns[-1].items[-1].text


async def _check_view(app: InkApp, pilot: Any, item: hostile.Hostile) -> None:
    """The view (or the error screen) of ``item``, settled: what each must show, keys and all."""
    _check_opened(app, item)
    if item.error is not None:
        await wait_for(pilot, workers_finished(app), "the raw lines", timeout=LOAD)
        return
    for key in "Ggj":
        await pilot.press(key)
    await wait_for(pilot, workers_finished(app), "the keys' work", timeout=LOAD)
    await pilot.press("b")
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, BranchesScreen) and app.screen.listing,
        "the branches",
        timeout=LOAD,
    )
    branches = app.screen
    assert isinstance(branches, BranchesScreen) and branches.listing is not None
    assert branches.listing.current_row is not None
    assert branches.listing.current_row.entry.id == "end"
    await pilot.press("G")
    await pilot.press("g")
    await wait_for(pilot, workers_finished(app), "the branches' work", timeout=LOAD)
    await pilot.press("escape")
    await wait_for(pilot, lambda: isinstance(app.screen, SessionScreen), "back in the view")


@pytest.mark.parametrize("kind", hostile.slow_if_deep(hostile.KINDS))
async def test_the_session_view(
    built: dict[str, hostile.Hostile], make_app: Any, state: Path, kind: str
) -> None:
    item = built[kind]
    base = item.path.parent.parent
    before = hostile.snapshot(base)
    app = make_app(sessions_dir=base, cwd=hostile.CWD, open_path=item.path)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_for(pilot, lambda: _settled(app), "the file shown", timeout=LOAD)
        await _check_view(app, pilot, item)
        assert app.is_running
    assert not state.exists(), "an unforeseen error was logged"
    assert hostile.snapshot(base) == before


@pytest.mark.parametrize("kind", hostile.slow_if_deep(hostile.KINDS))
async def test_the_picker(
    built: dict[str, hostile.Hostile], make_app: Any, state: Path, kind: str
) -> None:
    item = built[kind]
    base = item.path.parent.parent
    before = hostile.snapshot(base)
    app = make_app(sessions_dir=base, cwd=hostile.CWD)
    special = kind in hostile.SPECIAL_KINDS  # not a file: passed over (a loop: said unreadable)
    expected = [item.path] if not special or kind == "loop" else []

    def shown() -> list[Path]:
        return [summary.path for summary in app.screen.query_one(SessionList).shown]

    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_for(pilot, workers_finished(app), "the listing", timeout=LOAD)
        assert isinstance(app.screen, PickerScreen)
        # the rows a finished worker posted are shown by a handler: wait for it, then check
        listed = lambda: workers_finished(app)() and shown() == expected  # noqa: E731
        await wait_for(pilot, listed, f"the listing to be {expected}", timeout=LOAD)
        if special:
            return
        await pilot.press("space")  # the preview
        await wait_for(pilot, workers_finished(app), "the preview", timeout=LOAD)
        await pilot.press("enter")
        await wait_for(pilot, lambda: _settled(app), "the file shown", timeout=LOAD)
        _check_opened(app, item)  # the view's keys on it: test_the_session_view
        await wait_for(pilot, workers_finished(app), "the view's work", timeout=LOAD)
        assert app.is_running
    assert not state.exists(), "an unforeseen error was logged"
    assert hostile.snapshot(base) == before


# -- unreadable files and sessions folders --------------------------------------------------------


def _refuse(monkeypatch: pytest.MonkeyPatch, name: str, refused: Path) -> None:
    """``os.<name>`` of ``refused`` fails as for mode 000 and another user (tests run as root)."""
    real = getattr(os, name)

    def guarded(path: Any, *args: Any, **kwargs: Any) -> Any:
        if os.fsdecode(os.fspath(path)) == str(refused):  # a str or a bytes path, as the OS
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, name, guarded)


async def test_an_unreadable_file_is_the_error_screen_naming_it(
    tmp_path: Path, make_app: Any, state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    item = hostile.build(project_dir(tmp_path / "sessions", hostile.CWD), "deep-json")
    _refuse(monkeypatch, "open", item.path)
    app = make_app(sessions_dir=tmp_path / "sessions", cwd=hostile.CWD, open_path=item.path)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ErrorScreen), "the error screen")
        assert app.screen.error.message == f"cannot read {item.path}: Permission denied"
        await wait_for(pilot, workers_finished(app), "its workers")
        await pilot.press("q")
        await wait_for(pilot, lambda: not app.is_running, "the app to quit")
    assert not state.exists()


async def test_the_picker_shows_an_unreadable_file_with_its_reason(
    tmp_path: Path, make_app: Any, state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    item = hostile.build(project_dir(tmp_path / "sessions", hostile.CWD), "deep-json")
    _refuse(monkeypatch, "open", item.path)
    app = make_app(sessions_dir=tmp_path / "sessions", cwd=hostile.CWD)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, workers_finished(app), "the listing")
        (summary,) = app.screen.query_one(SessionList).shown
        assert summary.path == item.path
        assert summary.hidden_reason is not None
        assert "Permission denied" in summary.hidden_reason
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ErrorScreen), "the error screen")
        assert app.screen.error.message == f"cannot read {item.path}: Permission denied"
        await wait_for(pilot, workers_finished(app), "its workers")
    assert not state.exists()


def _empty_text(app: InkApp) -> str:
    return str(app.screen.query_one("#picker-empty").render())


@pytest.mark.parametrize("problem", ["missing", "unreadable", "unreadable project"])
async def test_the_picker_says_why_a_sessions_folder_lists_nothing(
    tmp_path: Path, make_app: Any, state: Path, monkeypatch: pytest.MonkeyPatch, problem: str
) -> None:
    base = tmp_path / "sessions"
    expected = f"{base} does not exist"
    if problem != "missing":
        folder = hostile.build(project_dir(base, hostile.CWD), "deep-json").path.parent
        refused = base if problem == "unreadable" else folder
        _refuse(monkeypatch, "scandir", refused)
        expected = f"cannot read {refused}: Permission denied"
    app = make_app(sessions_dir=base, cwd=hostile.CWD)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, workers_finished(app), "the listing")
        if problem == "unreadable":  # the project's folder can be read: every project cannot
            assert app.screen.query_one(SessionList).shown
            await pilot.press("tab")
            await wait_for(pilot, workers_finished(app), "the listing of every project")
        await wait_for(pilot, lambda: expected in _empty_text(app), "the reason")
        assert not app.screen.query_one(SessionList).shown
        assert app.is_running
    assert not state.exists()
    assert problem != "missing" or not base.exists()  # nothing made
