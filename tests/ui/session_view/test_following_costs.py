"""Pilot tests of what following costs the event loop: its first look at the file and the
folder happens in the watcher thread.

Waits are ``waiting.wait_for``; apps come from the ``make_app`` fixture.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from waiting import wait_for

import ink_tui.session.live.tail as tail_module
from ink_tui.session.writing.writer import SessionWriter
from ink_tui.ui.session_view.screen import SessionScreen


def _on_the_loop() -> bool:
    return threading.current_thread() is threading.main_thread()


async def test_starting_to_follow_reads_nothing_on_the_event_loop(
    tmp_path: Path, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    writer = SessionWriter.new(tmp_path / "sessions" / "p", "/home/ada/code/calc-kit")
    writer.append_message({"role": "user", "content": "a prompt"})
    on_loop: list[str] = []

    def stat(path: Any) -> Any:
        if _on_the_loop():
            on_loop.append(f"stat {path}")
        return os.stat(path)

    glob, opened = Path.glob, Path.open

    def globbing(self: Path, pattern: str) -> Any:
        if _on_the_loop():
            on_loop.append(f"glob {self}")
        return glob(self, pattern)

    def opening(self: Path, *args: Any, **kwargs: Any) -> Any:
        if _on_the_loop() and self == writer.path:
            on_loop.append(f"open {self}")
        return opened(self, *args, **kwargs)

    monkeypatch.setattr(tail_module, "os", SimpleNamespace(stat=stat))
    monkeypatch.setattr(Path, "glob", globbing)
    async with make_app(open_path=writer.path).run_test(size=(120, 40)) as pilot:

        def loaded() -> SessionScreen | None:
            screen = pilot.app.screen
            return screen if isinstance(screen, SessionScreen) and screen.loaded else None

        screen = await wait_for(pilot, loaded, "the session view")
        monkeypatch.setattr(Path, "open", opening)
        real_open = os.open

        def os_opening(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
            reading = not flags & (os.O_WRONLY | os.O_RDWR)  # the test's writer writes on it
            if reading and _on_the_loop() and Path(path) == writer.path:  # as open_regular does
                on_loop.append(f"os.open {path}")
            return real_open(path, flags, *args, **kwargs)

        monkeypatch.setattr(os, "open", os_opening)
        await pilot.press("f")
        await wait_for(pilot, lambda: screen.live.following, "following")
        writer.append_message({"role": "user", "content": "a new prompt"})
        await wait_for(
            pilot, lambda: screen.loaded.entries[-1].id == writer.leaf_id, "the new prompt"
        )
        newer = SessionWriter.new(writer.path.parent, "/home/ada/code/calc-kit")
        newer.append_message({"role": "user", "content": "a newer session"})
        await wait_for(pilot, lambda: screen.live.newer_session == newer.path, "the newer session")
    assert on_loop == []


async def test_opening_the_branches_while_following_copies_the_session_once(
    tmp_path: Path, make_app: Any
) -> None:
    from ink_tui.ui.screens.branches import BranchesScreen

    writer = SessionWriter.new(tmp_path / "sessions" / "p", "/home/ada/code/calc-kit")
    writer.append_message({"role": "user", "content": "a prompt"})
    app = make_app(open_path=writer.path, follow=True)
    async with app.run_test(size=(120, 40)) as pilot:

        def following() -> SessionScreen | None:
            screen = pilot.app.screen
            return screen if isinstance(screen, SessionScreen) and screen.live.following else None

        view = await wait_for(pilot, following, "following")
        await pilot.press("b")
        branches = await wait_for(
            pilot,
            lambda: isinstance(app.screen, BranchesScreen) and app.screen.listing and app.screen,
            "the branches",
        )
        assert isinstance(branches, BranchesScreen)
        # One copy, the snapshot's: it reads what it needs through the followed session.
        assert branches.snapshot.session is view.loaded.session
        before = len(branches.snapshot.entries)
        writer.append_message({"role": "user", "content": "written meanwhile"})
        await wait_for(pilot, lambda: view.loaded.leaf_id == writer.leaf_id, "followed")
        assert len(branches.snapshot.entries) == before  # the list stays as it was read
        assert len(view.loaded.session.entries) == before + 1
