"""Pilot journeys of the picker over every machine: Tab reaches the mirrors only when there are
some, their rows name their machine, and ``M`` syncs the machines of the settings (a real sshd
on 127.0.0.1) with the progress in the status line and the new sessions listed at the end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from sshserver import ssh_server
from waiting import wait_for, workers_finished

from ink_tui.archive.machines import add_machine
from ink_tui.paths import config_file, machines_dir
from ink_tui.ui.screens.picker import PickerScreen
from ink_tui.ui.widgets.machine_sync import MachineSync
from ink_tui.ui.widgets.session_list import SessionList

CWD = "/home/me/api"
OTHER = "/home/me/web"


async def _settled(pilot: Any) -> PickerScreen:
    await wait_for(pilot, workers_finished(pilot.app), "the picker's workers to finish")
    screen = pilot.app.screen
    assert isinstance(screen, PickerScreen)
    return screen


def _status(screen: PickerScreen) -> str:
    content = screen.query_one("#picker-status").render()
    return content.plain if isinstance(content, Text) else str(content)


def mirrored(path: Path, machine: str) -> Path:
    """A session moved into ``machine``'s mirror, as a sync brings it (ink-tui writes none)."""
    target = machines_dir() / machine / path.parent.name / path.name
    target.parent.mkdir(parents=True, exist_ok=True)
    return path.rename(target)


def _on_screen(app: Any, text: str) -> bool:
    """Whether ``text`` is on the screen as the user sees it (a notification included)."""
    return text in app.export_screenshot().replace("&#160;", " ")


def _rows(screen: PickerScreen) -> list[tuple[str, str | None]]:
    return [(row.title, row.machine) for row in screen.query_one(SessionList).shown]


async def test_tab_goes_through_every_machine_when_one_is_mirrored(
    tmp_path: Path, make_app: Any, write_session: Any
) -> None:
    base = tmp_path / "sessions"
    write_session(base / "home-me-api", CWD, ["fix the retry here"], age=60)
    write_session(base / "home-me-web", OTHER, ["style the web page"], age=120)
    mirrored(write_session(tmp_path / "devbox", CWD, ["fix it on the dev box"]), "devbox")
    app = make_app(sessions_dir=base, cwd=CWD)
    async with app.run_test(size=(140, 30)) as pilot:
        screen = await _settled(pilot)
        assert _rows(screen) == [("fix the retry here", None)]
        assert "Tab: all projects" in _status(screen)
        await pilot.press("tab")
        screen = await _settled(pilot)
        assert len(_rows(screen)) == 2 and "Tab: all machines" in _status(screen)
        await pilot.press("tab")
        screen = await _settled(pilot)
        assert screen.scope == "machines"
        assert _status(screen).startswith("All machines  ·  3 sessions")
        assert _rows(screen) == [
            ("fix the retry here", None),
            ("style the web page", None),
            ("fix it on the dev box", "devbox"),
        ]
        lines = [screen.query_one(SessionList).render_line(y).text for y in range(5)]
        assert any("machine" in line for line in lines[:1])  # the column's header
        assert any("devbox" in line for line in lines) and any(
            "(this machine)" in line for line in lines
        )
        await pilot.press("tab")
        screen = await _settled(pilot)
        assert screen.scope == "project"


async def test_without_a_mirror_tab_only_switches_projects(
    tmp_path: Path, make_app: Any, write_session: Any
) -> None:
    base = tmp_path / "sessions"
    write_session(base / "home-me-api", CWD, ["fix the retry here"])
    app = make_app(sessions_dir=base, cwd=CWD)
    async with app.run_test(size=(140, 30)) as pilot:
        screen = await _settled(pilot)
        await pilot.press("tab")
        screen = await _settled(pilot)
        assert screen.scope == "all" and "Tab: this project" in _status(screen)
        await pilot.press("tab")
        assert (await _settled(pilot)).scope == "project"


async def test_m_with_no_machine_set_up_says_how_to_add_one(tmp_path: Path, make_app: Any) -> None:
    app = make_app(sessions_dir=tmp_path / "sessions", cwd=CWD)
    async with app.run_test(size=(140, 30), notifications=True) as pilot:
        await _settled(pilot)
        await pilot.press("M")
        await _settled(pilot)
        await wait_for(pilot, lambda: _on_screen(app, "no machine is set up"), "the note")


async def test_m_syncs_the_machines_and_lists_what_came(
    tmp_path: Path, make_app: Any, write_session: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "remote"
    write_session(source / "home-me-api", CWD, ["fixed over there"])
    with ssh_server(tmp_path / "sshd") as server:
        monkeypatch.setenv("RSYNC_RSH", server.rsh)
        add_machine("devbox", server.url(source))
        app = make_app(sessions_dir=tmp_path / "sessions", cwd=CWD)
        async with app.run_test(size=(140, 30), notifications=True) as pilot:
            screen = await _settled(pilot)
            sync = screen.query_one(MachineSync)
            assert sync.mirrors is False
            await pilot.press("M")
            assert "syncing machines" in _status(screen)
            screen = await _settled(pilot)
            assert sync.syncing is None and sync.mirrors is True
            await wait_for(pilot, lambda: _on_screen(app, "devbox: 1 new, 0 grown"), "the note")
            await pilot.press("tab", "tab")
            screen = await _settled(pilot)
            assert screen.scope == "machines"
            assert _rows(screen) == [("fixed over there", "devbox")]


async def test_this_project_holds_its_sessions_on_every_machine_by_the_path_map(
    tmp_path: Path, make_app: Any, write_session: Any
) -> None:
    """devbox ran the project in /srv/me/api; the path map says that is /home/me/api here."""
    base = tmp_path / "sessions"
    write_session(base / "home-me-api", CWD, ["fix the retry here"], age=60)
    there = write_session(tmp_path / "devbox" / "srv-me-api", "/srv/me/api", ["fixed there"])
    mirrored(there, "devbox")
    add_machine("devbox", "ssh://devbox")
    config = config_file()
    config.write_text(config.read_text() + 'paths = { "/srv/me" = "/home/me" }\n')
    app = make_app(sessions_dir=base, cwd=CWD)
    async with app.run_test(size=(140, 30)) as pilot:
        screen = await _settled(pilot)
        assert _rows(screen) == [("fix the retry here", None), ("fixed there", "devbox")]
        assert _status(screen).startswith("This project · home-me-api (here and on devbox)")
        lines = [screen.query_one(SessionList).render_line(y).text for y in range(3)]
        assert "machine" in lines[0] and "devbox" in lines[2]
        await pilot.press("tab", "tab")
        screen = await _settled(pilot)
        assert screen.scope == "machines"
        projects = {
            row.title: row.local_project or row.project_folder
            for row in screen.query_one(SessionList).shown
        }
        assert projects == {"fix the retry here": "home-me-api", "fixed there": "home-me-api"}
