"""Pilot tests of the picker's two scopes (this project, Tab: all projects): a change the app
made or saw shows in every scope, whoever brought the index up to date first."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from waiting import wait_for, workers_finished

from ink_tui.catalog.index import CatalogIndex, update_index
from ink_tui.ui.screens.picker import PickerScreen
from ink_tui.ui.widgets.session_list import SessionList


def _rename(path: Path, leaf: str | None, name: str) -> None:
    """A ``session_info`` record appended, as Ink's /name (or another ink-tui) writes it."""
    record = {
        "type": "session_info",
        "id": f"name{len(name):04d}",
        "parentId": leaf,
        "timestamp": "2026-12-01T00:00:00.000Z",
        "name": name,
    }
    with path.open("a", encoding="utf-8") as stream:
        stream.write(json.dumps(record) + "\n")


async def _settled(pilot: Any) -> PickerScreen:
    await wait_for(pilot, workers_finished(pilot.app), "the picker's workers to finish")
    screen = pilot.app.screen
    assert isinstance(screen, PickerScreen)
    return screen


def _title_of(app: Any, path: Path) -> str | None:
    for summary in app.screen.query_one(SessionList).shown:
        if summary.path == path:
            return summary.title
    return None


async def test_a_rename_seen_in_all_projects_shows_in_this_project_too(
    sessions_tree: Any, make_app: Any
) -> None:
    """The index was brought up to date by the other scope's refresh: this scope's rows, read
    before the rename, are still compared with the index and updated."""
    app = make_app(sessions_dir=sessions_tree.base, cwd=sessions_tree.cwd)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _settled(pilot)
        home = app.screen.query_one(SessionList).shown[1]
        await pilot.press("tab")
        screen = await _settled(pilot)
        assert screen.scope == "all"
        _rename(home.path, home.leaf_id, "Renamed in all projects")
        screen._refresh()  # what the interval timer does every few seconds
        await _settled(pilot)
        assert _title_of(app, home.path) == "Renamed in all projects"
        await pilot.press("tab")  # back to this project: its rows were read before the rename
        await _settled(pilot)
        assert screen.scope == "project"
        assert _title_of(app, home.path) == "Renamed in all projects"


async def test_a_change_indexed_by_someone_else_still_reaches_the_rows(
    sessions_tree: Any, make_app: Any
) -> None:
    """A followed session (or a search, or another ink-tui) updated the index while the picker
    was not looking: the next refresh finds nothing new in the index, yet the rows are stale."""
    app = make_app(sessions_dir=sessions_tree.base, cwd=sessions_tree.cwd)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _settled(pilot)
        home = app.screen.query_one(SessionList).shown[2]
        _rename(home.path, home.leaf_id, "Renamed while followed")
        with CatalogIndex.open() as index:  # not the picker: the session view, a search…
            update_index(index, sessions_tree.base, None)
        screen._refresh()
        await _settled(pilot)
        assert _title_of(app, home.path) == "Renamed while followed"


async def test_back_from_a_session_its_change_shows_at_once(
    sessions_tree: Any, make_app: Any
) -> None:
    """Ink wrote to the session while it was open (the view saw it): back in the picker, the
    row shows it at once, not at the next periodic refresh."""
    from ink_tui.ui.session_view.screen import SessionScreen

    app = make_app(sessions_dir=sessions_tree.base, cwd=sessions_tree.cwd)
    async with app.run_test(size=(120, 40)) as pilot:
        await _settled(pilot)
        first = app.screen.query_one(SessionList).shown[0]
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, SessionScreen), "the session view")
        await wait_for(pilot, lambda: getattr(app.screen, "loaded", None) is not None, "loaded")
        _rename(first.path, first.leaf_id, "Renamed while it was open")
        await pilot.press("escape")
        await _settled(pilot)
        assert _title_of(app, first.path) == "Renamed while it was open"
