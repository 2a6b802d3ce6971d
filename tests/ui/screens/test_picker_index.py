"""Pilot tests of the picker over the catalog index: rows at once, reconciled in place."""

from __future__ import annotations

import io
import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import Input, Static
from waiting import wait_for, workers_finished

from ink_tui.catalog import list_sessions
from ink_tui.catalog.index import CatalogIndex, update_index
from ink_tui.catalog.index import listing as index_listing
from ink_tui.catalog.index.ahead import RowsAhead
from ink_tui.catalog.index.store import SCHEMA_VERSION, default_index_path
from ink_tui.ui.screens.picker import PickerScreen
from ink_tui.ui.widgets import row_source
from ink_tui.ui.widgets.session_list import SessionList


def _status(app: Any) -> str:
    widget = app.screen.query_one("#picker-status", Static)
    console = Console(file=io.StringIO(), width=300, color_system=None)
    console.print(widget.content)
    return str(console.file.getvalue())  # type: ignore[attr-defined]


def _build_index(base: Path) -> None:
    with CatalogIndex.open() as index:
        update_index(index, base, None)


def _hold_refresh(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """Hold the picker's index update until the returned event is set."""
    release = threading.Event()
    real = index_listing.refreshed_rows

    def held(*args: Any, **kwargs: Any) -> Any:
        assert release.wait(30), "the test never released the index update"
        return real(*args, **kwargs)

    monkeypatch.setattr(row_source, "refreshed_rows", held)
    return release


def _titles(app: Any) -> list[str]:
    return [summary.title for summary in app.screen.query_one(SessionList).shown]


async def test_rows_come_from_the_index_before_any_session_file_is_read(
    sessions_tree: Any, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    _build_index(sessions_tree.base)
    release = _hold_refresh(monkeypatch)

    def no_reading(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a session file was read for the first rows")

    monkeypatch.setattr(row_source, "iter_summaries", no_reading)
    app = make_app(sessions_dir=sessions_tree.base, cwd=sessions_tree.cwd)
    async with app.run_test(size=(120, 40)) as pilot:
        expected = [row.title for row in list_sessions(sessions_tree.base, sessions_tree.cwd)]
        await wait_for(pilot, lambda: _titles(app) == expected, "the indexed rows")
        release.set()
        await wait_for(pilot, workers_finished(app), "the index update")
        assert _titles(app) == expected


async def test_rows_read_ahead_of_the_app_are_shown_without_reading_the_index_again(
    sessions_tree: Any, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ink-tui`` reads the picker's first rows while it imports the app (RowsAhead): the
    picker shows those, and its worker only brings the index up to date."""
    _build_index(sessions_tree.base)
    release = _hold_refresh(monkeypatch)

    def no_reading(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the first rows were read again")

    monkeypatch.setattr(row_source, "indexed_rows", no_reading)
    monkeypatch.setattr(row_source, "iter_summaries", no_reading)
    ahead = RowsAhead.start(sessions_tree.base, sessions_tree.cwd)
    assert ahead.wait(30)
    app = make_app(sessions_dir=sessions_tree.base, cwd=sessions_tree.cwd, rows_ahead=ahead)
    async with app.run_test(size=(120, 40)) as pilot:
        expected = [row.title for row in list_sessions(sessions_tree.base, sessions_tree.cwd)]
        await wait_for(pilot, lambda: _titles(app) == expected, "the rows read ahead")
        release.set()
        await wait_for(pilot, workers_finished(app), "the index update")
        assert _titles(app) == expected
        monkeypatch.undo()
        await pilot.press("tab")  # another scope: read from the index (not read ahead)
        await wait_for(pilot, workers_finished(app), "every project")
        assert len(_titles(app)) > len(expected)


async def test_rows_are_reconciled_in_place_keeping_cursor_and_filter(
    sessions_tree: Any, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    _build_index(sessions_tree.base)
    rows = list_sessions(sessions_tree.base, sessions_tree.cwd)
    renamed = rows[1].path
    release = _hold_refresh(monkeypatch)
    app = make_app(sessions_dir=sessions_tree.base, cwd=sessions_tree.cwd)
    async with app.run_test(size=(120, 40)) as pilot:
        table = app.screen.query_one(SessionList)
        await wait_for(pilot, lambda: len(table.shown) == len(rows), "the indexed rows")
        await pilot.press("j")  # the cursor on the second row (the session to be renamed)
        assert table.highlighted is not None and table.highlighted.path == renamed
        leaf = table.highlighted.leaf_id
        record = {
            "type": "session_info",
            "id": "renamed1",
            "parentId": leaf,
            "timestamp": "2026-12-01T00:00:00.000Z",
            "name": "Renamed while the picker was open",
        }
        with renamed.open("a", encoding="utf-8") as stream:
            stream.write(json.dumps(record) + "\n")
        release.set()
        await wait_for(
            pilot,
            lambda: (
                table.highlighted is not None
                and table.highlighted.title == "Renamed while the picker was open"
            ),
            "the renamed row, updated under the cursor",
        )
        # written to now, it is the newest session: it moved to the top, the cursor with it
        assert table.highlighted.path == renamed and table.cursor_row == 0
        filter_input = app.screen.query_one("#filter", Input)
        await pilot.press("slash", *"Renamed", "escape")
        assert filter_input.value == ""  # escape in the filter clears it
        await pilot.press("slash", *"Renamed")
        await pilot.press("tab")  # all projects, then back: the filter kept
        await wait_for(pilot, workers_finished(app), "the other scope")
        assert filter_input.value == "Renamed"


async def test_with_no_index_rows_come_from_the_files_while_the_index_fills(
    sessions_tree: Any, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()
    real = index_listing.refreshed_rows

    def slow(*args: Any, progress: Any = None, **kwargs: Any) -> Any:
        if progress is not None:
            progress(1_000_000, 4_000_000)
        assert release.wait(30)
        return real(*args, progress=progress, **kwargs)

    monkeypatch.setattr(row_source, "refreshed_rows", slow)
    app = make_app(sessions_dir=sessions_tree.base, cwd=sessions_tree.cwd)
    async with app.run_test(size=(160, 40)) as pilot:
        expected = [row.path for row in list_sessions(sessions_tree.base, sessions_tree.cwd)]
        table = app.screen.query_one(SessionList)
        await wait_for(
            pilot,
            lambda: (
                [row.path for row in table.shown] == expected and "indexing 25%" in _status(app)
            ),
            "rows from the files, and the index filling",
        )
        release.set()
        await wait_for(pilot, workers_finished(app), "the index filled")
        assert "indexing" not in _status(app)
        with CatalogIndex.open() as index:
            assert index.connection.execute("SELECT count(*) FROM files").fetchone()[0] == len(
                expected
            )


async def test_an_index_from_a_newer_ink_tui_is_left_alone_with_one_notice(
    sessions_tree: Any, make_app: Any
) -> None:
    CatalogIndex.open().close()
    connection = sqlite3.connect(default_index_path())
    connection.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    connection.close()
    app = make_app(sessions_dir=sessions_tree.base, cwd=sessions_tree.cwd)
    async with app.run_test(size=(120, 40)) as pilot:
        expected = [row.path for row in list_sessions(sessions_tree.base, sessions_tree.cwd)]
        await wait_for(pilot, workers_finished(app), "the picker's rows")
        screen = app.screen
        assert isinstance(screen, PickerScreen)
        assert [row.path for row in screen.query_one(SessionList).shown] == expected
        notices = [n.message for n in app._notifications]
        assert len(notices) == 1 and "newer ink-tui" in notices[0]
