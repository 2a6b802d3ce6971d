"""Pilot tests: an error nobody foresaw in a thread of the session view (following, loading, the
branches list) is logged with its traceback and shown as one line; the app goes on.

Waits are ``waiting.wait_for``; apps come from the ``make_app`` fixture.
"""

from __future__ import annotations

import errno
from pathlib import Path
from typing import Any

import pytest
from waiting import wait_for

import ink_tui.logs as logs
from ink_tui.session.writing.writer import SessionWriter
from ink_tui.ui.screens.error import ErrorScreen
from ink_tui.ui.session_view.screen import SessionScreen


@pytest.fixture
def log_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "logs"
    monkeypatch.setattr(logs, "log_dir", lambda: folder)
    return folder / logs.LOG_FILE_NAME


def _session(tmp_path: Path) -> Path:
    writer = SessionWriter.new(tmp_path / "sessions" / "p", "/home/ada/code/calc-kit")
    writer.append_message({"role": "user", "content": "a prompt"})
    return writer.path


def _notes(app: Any) -> str:
    return "\n".join(str(notification.message) for notification in app._notifications)


def _session_screen(pilot: Any) -> SessionScreen | None:
    screen = pilot.app.screen
    return screen if isinstance(screen, SessionScreen) and screen.loaded is not None else None


async def test_an_unforeseen_error_while_following_is_logged_and_stops_following(
    tmp_path: Path, make_app: Any, monkeypatch: pytest.MonkeyPatch, log_file: Path
) -> None:
    from ink_tui.session.live.tail import SessionTail

    def broken_poll(self: SessionTail) -> Any:
        raise RuntimeError("the tail broke")

    monkeypatch.setattr(SessionTail, "poll", broken_poll)
    app = make_app(open_path=_session(tmp_path), follow=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await wait_for(pilot, lambda: _session_screen(pilot), "the session view")
        line = (
            "following stopped: internal error in the follow thread: RuntimeError: the tail broke"
        )
        await wait_for(pilot, lambda: line in _notes(app), "the error's line")
        assert f"(traceback in {log_file})" in _notes(app)
        await wait_for(pilot, lambda: not screen.live.following, "following stopped")
        assert app.screen is screen and "LIVE" not in screen.query_one("#session-header").text
    assert "in broken_poll" in log_file.read_text()


async def test_a_folder_that_cannot_be_watched_stops_following_with_its_reason(
    tmp_path: Path, make_app: Any, monkeypatch: pytest.MonkeyPatch, log_file: Path
) -> None:
    import ink_tui.ui.follow as follow

    def gone(*args: Any, **kwargs: Any) -> Any:
        raise FileNotFoundError(errno.ENOENT, "No such file or directory")

    monkeypatch.setattr(follow.watchfiles, "watch", gone)
    path = _session(tmp_path)
    app = make_app(open_path=path, follow=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await wait_for(pilot, lambda: _session_screen(pilot), "the session view")
        line = f"following stopped: cannot watch {path.parent}: No such file or directory"
        await wait_for(pilot, lambda: line in _notes(app), "the reason")
        await wait_for(pilot, lambda: not screen.live.following, "following stopped")
    assert not log_file.exists()  # foreseen: no traceback


async def test_an_unforeseen_error_while_loading_is_logged_and_said(
    tmp_path: Path, make_app: Any, monkeypatch: pytest.MonkeyPatch, log_file: Path
) -> None:
    import ink_tui.ui.session_view.loader as session_load

    def broken_load(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the branch broke")

    monkeypatch.setattr(session_load, "load_branch", broken_load)
    app = make_app(open_path=_session(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        line = "internal error in reading the session: RuntimeError: the branch broke"
        await wait_for(pilot, lambda: line in _notes(app), "the error's line")
        screen = app.screen
        assert isinstance(screen, SessionScreen)
        status = str(screen.query_one("#search-status").render())
        assert line in status
        assert not screen.query("#load-progress")  # not reading any more
    assert "in broken_load" in log_file.read_text()


async def test_a_file_whose_size_cannot_be_read_is_said_as_one_line(
    tmp_path: Path, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _session(tmp_path)
    stat = Path.stat

    def denied(self: Path, **kwargs: Any) -> Any:
        if self == path:
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return stat(self, **kwargs)

    monkeypatch.setattr(Path, "stat", denied)
    app = make_app(open_path=path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await wait_for(
            pilot, lambda: isinstance(app.screen, ErrorScreen) and app.screen, "the error"
        )
        assert f"cannot read {path}: Permission denied" in screen.error.message


async def test_an_unforeseen_error_listing_the_branches_is_logged_and_said(
    tmp_path: Path, make_app: Any, monkeypatch: pytest.MonkeyPatch, log_file: Path
) -> None:
    import ink_tui.ui.screens.branches as branches

    def broken_list(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the list broke")

    monkeypatch.setattr(branches, "build_branch_list", broken_list)
    app = make_app(open_path=_session(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: _session_screen(pilot), "the session view")
        await pilot.press("b")
        line = "cannot list the branches: internal error in listing the branches: RuntimeError"

        def detail() -> str:
            screen = app.screen
            if not isinstance(screen, branches.BranchesScreen):
                return ""
            return str(screen.query_one("#branches-detail").render())

        await wait_for(pilot, lambda: line in detail(), "the error's line")
    assert "in broken_list" in log_file.read_text()
