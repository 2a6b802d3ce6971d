"""Pilot tests (issue 19): the picker and the search screen with an index they must not use (a
symlink, a directory, read-only), and the search screen's honesty: a cut said, every word
marked, an impossible date refused."""

from __future__ import annotations

import io
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from searchtree import NOW, read_only, sqlite_read_only, write_session
from textual.widgets import Static
from waiting import wait_for, workers_finished

from ink_tui.catalog import list_sessions
from ink_tui.catalog.index import CatalogIndex, default_index_path, update_index
from ink_tui.ui.screens.picker import PickerScreen
from ink_tui.ui.screens.search import SearchScreen
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.widgets.search_results import SearchResults
from ink_tui.ui.widgets.session_list import SessionList

CWD = "/home/ada/p"
WORD = "quokkastride"


def _text(widget: Static) -> str:
    console = Console(file=io.StringIO(), width=300, color_system=None)
    console.print(widget.content)
    return str(console.file.getvalue())  # type: ignore[attr-defined]


def _tree(base: Path, sessions: int = 3, matches: int = 1) -> list[Path]:
    """``sessions`` sessions of :data:`CWD`, an hour apart, each holding :data:`WORD` in
    ``matches`` prompts."""
    return [
        write_session(
            base,
            CWD,
            f"s{number}",
            when=NOW - timedelta(hours=number),
            exchanges=[(f"the retry loop and {WORD} number {number}", "ok")] * matches,
        )
        for number in range(sessions)
    ]


def _indexed(base: Path) -> Path:
    with CatalogIndex.open() as index:
        update_index(index, base, None)
    return default_index_path()


def _symlink(base: Path) -> str:
    index = default_index_path()
    index.parent.mkdir(parents=True)
    index.symlink_to(base.parent / "nowhere.sqlite3")
    return "is a symlink"


def _directory(base: Path) -> str:
    index = default_index_path()
    index.mkdir(parents=True)
    return "is a directory, not a file"


Spoil = Callable[[Path], str]


@pytest.mark.parametrize("spoil", [_symlink, _directory], ids=["symlink", "directory"])
async def test_the_picker_lists_from_the_files_with_one_notice(
    tmp_path: Path, make_app: Any, spoil: Spoil
) -> None:
    base = tmp_path / "sessions"
    _tree(base)
    why = spoil(base)
    app = make_app(sessions_dir=base, cwd=CWD)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, workers_finished(app), "the picker's rows")
        assert isinstance(app.screen, PickerScreen)
        expected = [row.path for row in list_sessions(base, CWD)]
        assert [row.path for row in app.screen.query_one(SessionList).shown] == expected
        notices = [notice.message for notice in app._notifications]
        assert notices == [
            f"the index {default_index_path()} {why}: sessions are read from the files"
        ]
        await pilot.press("enter")  # a session opens from its file, as without an index
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, SessionScreen) and app.screen.loaded is not None,
            "the session opened",
        )
        assert app.screen.loaded.session.path == expected[0]
    assert not (base.parent / "nowhere.sqlite3").exists()


async def test_the_picker_with_a_read_only_index_lists_every_session(
    tmp_path: Path, make_app: Any
) -> None:
    base = tmp_path / "sessions"
    _tree(base)
    index = _indexed(base)
    _tree(base, sessions=5)  # two sessions the index does not know
    with read_only(index):
        app = make_app(sessions_dir=base, cwd=CWD)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_for(pilot, workers_finished(app), "the picker's rows")
            expected = [row.path for row in list_sessions(base, CWD)]
            assert [row.path for row in app.screen.query_one(SessionList).shown] == expected
            notices = [notice.message for notice in app._notifications]
            assert notices == [f"the index {index} is read-only: sessions are read from the files"]


async def _search(pilot: Any, app: Any, query: str) -> SearchScreen:
    await wait_for(pilot, workers_finished(app), "the picker")
    await pilot.press("s")
    await wait_for(pilot, lambda: isinstance(app.screen, SearchScreen), "the search screen")
    screen = app.screen
    assert isinstance(screen, SearchScreen)
    await wait_for(pilot, lambda: screen.ready, "the index ready for the search")
    await pilot.press(*query)
    await wait_for(pilot, lambda: screen.answered == query, f"the hits for {query!r}")
    return screen


async def test_the_search_screen_searches_the_files_without_a_read_only_index(
    tmp_path: Path, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = tmp_path / "sessions"
    _tree(base)
    index = _indexed(base)
    paths = _tree(base, sessions=5)  # s3 and s4: new since the index was made
    sqlite_read_only(monkeypatch)  # the picker reads it; the first write fails
    app = make_app(sessions_dir=base, cwd=CWD)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _search(pilot, app, WORD)
        results = screen.query_one(SearchResults)
        assert {hit.file for hit in results.hits} == set(paths)
        assert "5 hits in 5 sessions" in _text(screen.query_one("#search-note", Static))
        notices = [notice.message for notice in app._notifications]
        said = f"the index {index} is read-only: searching the files without it"
        assert said in notices
        assert not any("internal error" in notice for notice in notices)
        temporary = screen.searched.path
        assert temporary is not None and temporary.exists() and temporary != index
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, PickerScreen), "the picker")
        await wait_for(pilot, lambda: not temporary.exists(), "the temporary index deleted")


async def test_the_search_screen_says_when_the_limit_cut_hits(
    tmp_path: Path, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = tmp_path / "sessions"
    _tree(base, sessions=5, matches=2)
    monkeypatch.setattr("ink_tui.ui.screens.search.LIMIT", 3)
    app = make_app(sessions_dir=base, cwd=CWD)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await _search(pilot, app, WORD)
        note = _text(screen.query_one("#search-note", Static))
        assert note == "3 of 10 hits shown, from 3 of 5 sessions (the best sessions first)\n"
        results = screen.query_one(SearchResults)
        lines = [str(results.get_option_at_index(i).prompt) for i in range(results.option_count)]
        headings = [line for line in lines if "hits" in line]
        assert len(headings) == 3 and all(line.endswith("· 1 of 2 hits") for line in headings)


async def test_every_query_word_is_marked_in_the_results(tmp_path: Path, make_app: Any) -> None:
    base = tmp_path / "sessions"
    _tree(base, sessions=1)
    app = make_app(sessions_dir=base, cwd=CWD)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await _search(pilot, app, "retry loop")
        results = screen.query_one(SearchResults)
        prompt = results.get_option_at_index(1).prompt
        marked = [
            str(prompt)[span.start : span.end]
            for span in prompt.spans  # type: ignore[union-attr]
            if "reverse" in str(span.style)
        ]
        assert marked == ["retry", "loop"]


async def test_an_impossible_date_is_said_on_the_search_screen(
    tmp_path: Path, make_app: Any
) -> None:
    base = tmp_path / "sessions"
    _tree(base)
    app = make_app(sessions_dir=base, cwd=CWD)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _search(pilot, app, f"{WORD} after:2026-13-45")
        note = _text(screen.query_one("#search-note", Static))
        assert note == "after:2026-13-45 is not a date: there is no month 13 (01 to 12)\n"
        assert not screen.query_one(SearchResults).hits
