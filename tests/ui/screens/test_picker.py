"""Pilot tests of the picker: every key, the scopes, the preview, the filter and safety."""

from __future__ import annotations

import io
import os
import time
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import Input, Static
from waiting import wait_for, workers_finished

from ink_tui.catalog import list_sessions
from ink_tui.humanize import cut
from ink_tui.paths import project_dir
from ink_tui.ui.app import InkApp
from ink_tui.ui.screens.picker import PickerScreen
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.widgets.preview import SessionPreview
from ink_tui.ui.widgets.session_list import SessionList, human_size, relative_age

HOSTILE_TITLE = "fix [bold red]x[/] now \x1b]0;pwned\x07 please"


@pytest.fixture
def picker_app(make_app: Any) -> Any:
    """``picker_app(tmp_path, sessions dir, cwd)``: the picker's app (``make_app``)."""

    def make(tmp_path: Path, base: Path, cwd: str) -> InkApp:
        app: InkApp = make_app(sessions_dir=base, cwd=cwd)
        return app

    return make


async def _ready(app: InkApp, pilot: Any) -> PickerScreen:
    """The picker once every worker finished and the messages they posted were handled."""
    await wait_for(pilot, workers_finished(app), "the picker's workers to finish")
    screen = app.screen
    assert isinstance(screen, PickerScreen)
    return screen


def _table(app: InkApp) -> SessionList:
    return app.screen.query_one(SessionList)


def _paths(app: InkApp) -> list[Path]:
    return [summary.path for summary in _table(app).shown]


def _static_text(app: InkApp, selector: str) -> str:
    """What a Static shows, as plain text (its renderable printed without colour)."""
    widget = app.screen.query_one(selector, Static)
    console = Console(file=io.StringIO(), width=200, color_system=None, legacy_windows=False)
    console.print(widget.content)
    return console.file.getvalue()  # type: ignore[attr-defined]


def _row_text(table: SessionList, index: int) -> list[str]:
    return [cell.plain for cell in table.row_cells(index)]


def _row_cells(table: SessionList, index: int) -> dict[str, str]:
    """The row's texts by column (the state column shows only while a row needs it)."""
    keys = table.column_keys()
    return dict(zip(keys, _row_text(table, index), strict=True))


# -- the list ---------------------------------------------------------------------------------


async def test_opens_on_this_projects_sessions_newest_first(
    tmp_path: Path, sessions_tree: Any, picker_app: Any
) -> None:
    app = picker_app(tmp_path, sessions_tree.base, sessions_tree.cwd)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(app, pilot)
        assert _paths(app) == sessions_tree.home_paths()
        mtimes = [summary.mtime for summary in _table(app).shown]
        assert mtimes == sorted(mtimes, reverse=True)
        table = _table(app)
        assert table.has_focus
        first = list_sessions(sessions_tree.base, sessions_tree.cwd)[0]
        row = _row_cells(table, 0)
        assert "state" not in row  # no session is live or hidden: no empty column
        assert row["title"] == first.title
        assert row["age"].endswith("ago")
        assert row["messages"] == str(first.message_count)
        assert row["model"] == first.model.reference
        assert row["branches"] == str(first.leaf_count)
        assert row["size"] == human_size(first.size)
        assert "project" not in table.column_keys()


async def test_tab_switches_to_all_projects_and_back(
    tmp_path: Path, sessions_tree: Any, picker_app: Any
) -> None:
    app = picker_app(tmp_path, sessions_tree.base, sessions_tree.cwd)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(app, pilot)
        await pilot.press("tab")
        await _ready(app, pilot)
        table = _table(app)
        assert set(_paths(app)) == set(sessions_tree.paths)
        assert _paths(app) == sessions_tree.paths  # newest first across projects
        labels = table.column_keys()
        assert "project" in labels
        projects = {_row_cells(table, i)["project"] for i in range(table.row_count)}
        assert projects == {cut(path.parent.name, 24) for path in sessions_tree.paths}
        assert "All projects" in _static_text(app, "#picker-status")
        await pilot.press("tab")
        await _ready(app, pilot)
        assert _paths(app) == sessions_tree.home_paths()
        assert "project" not in _table(app).column_keys()


async def test_j_k_g_G_and_arrows_move_the_cursor(
    tmp_path: Path, sessions_tree: Any, picker_app: Any
) -> None:
    app = picker_app(tmp_path, sessions_tree.base, sessions_tree.cwd)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(app, pilot)
        table = _table(app)
        last = table.row_count - 1
        assert last >= 2
        await pilot.press("j")
        assert table.cursor_row == 1
        await pilot.press("down")
        assert table.cursor_row == 2
        await pilot.press("k")
        assert table.cursor_row == 1
        await pilot.press("up")
        assert table.cursor_row == 0
        await pilot.press("G")
        assert table.cursor_row == last
        await pilot.press("g")
        assert table.cursor_row == 0


async def test_enter_opens_the_highlighted_session(
    tmp_path: Path, sessions_tree: Any, picker_app: Any
) -> None:
    app = picker_app(tmp_path, sessions_tree.base, sessions_tree.cwd)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(app, pilot)
        await pilot.press("j", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, SessionScreen), "the session view")
        assert isinstance(app.screen, SessionScreen)
        assert app.screen.path == sessions_tree.home_paths()[1]
        await wait_for(pilot, workers_finished(app), "the session to load")


async def test_space_previews_the_last_turns_and_keeps_the_cursor(
    tmp_path: Path, sessions_tree: Any, write_session: Any, picker_app: Any
) -> None:
    home = sessions_tree.home
    path = write_session(home, sessions_tree.cwd, ["first prompt", "the very last prompt"], age=1)
    app = picker_app(tmp_path, sessions_tree.base, sessions_tree.cwd)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(app, pilot)
        await pilot.press("/")
        await pilot.press(*"very last")
        await pilot.press("escape")  # clears the filter: back to every row, on the list
        table = _table(app)
        assert table.has_focus
        await pilot.press("j", "k")  # row 0 is the new session
        assert table.highlighted is not None and table.highlighted.path == path
        preview = app.screen.query_one(SessionPreview)
        assert not preview.display
        await pilot.press("space")
        await _ready(app, pilot)
        assert preview.display
        text = _static_text(app, "#preview-body")
        assert "the very last prompt" in text
        assert table.cursor_row == 0 and table.has_focus
        await pilot.press("j")  # moving the cursor updates the preview
        await _ready(app, pilot)
        assert preview.summary is not None and preview.summary.path == table.shown[1].path
        assert "the very last prompt" not in _static_text(app, "#preview-body")
        assert table.cursor_row == 1
        await pilot.press("space")
        assert not preview.display
        await pilot.press("space")
        await _ready(app, pilot)
        assert preview.display
        await pilot.press("escape")
        assert not preview.display
        assert table.cursor_row == 1


async def test_preview_keeps_the_filter(
    tmp_path: Path, sessions_tree: Any, write_session: Any, picker_app: Any
) -> None:
    write_session(sessions_tree.home, sessions_tree.cwd, ["zebra crossing"], age=7200)
    app = picker_app(tmp_path, sessions_tree.base, sessions_tree.cwd)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(app, pilot)
        await pilot.press("/", *"zebra")
        await wait_for(pilot, lambda: _table(app).row_count == 1, "the filter to leave one row")
        app.screen.query_one(SessionList).focus()
        await pilot.press("space")
        await _ready(app, pilot)
        assert app.screen.query_one("#filter", Input).value == "zebra"
        assert "zebra crossing" in _static_text(app, "#preview-body")
        assert _table(app).shown[0].title == "zebra crossing"


# -- the filter -------------------------------------------------------------------------------


async def test_slash_filters_as_you_type_and_enter_opens_the_top_match(
    tmp_path: Path, sessions_tree: Any, write_session: Any, picker_app: Any
) -> None:
    path = write_session(sessions_tree.home, sessions_tree.cwd, ["quokka migration"], age=9000)
    app = picker_app(tmp_path, sessions_tree.base, sessions_tree.cwd)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(app, pilot)
        total = _table(app).row_count
        await pilot.press("slash")
        assert app.screen.query_one("#filter", Input).has_focus
        await pilot.press(*"quokka")
        await wait_for(pilot, lambda: _table(app).row_count < total, "the filter to apply")
        assert _table(app).row_count < total
        assert _paths(app)[0] == path
        assert "matching" in _static_text(app, "#picker-status")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, SessionScreen), "the session view")
        assert isinstance(app.screen, SessionScreen)
        assert app.screen.path == path
        await wait_for(pilot, workers_finished(app), "the session to load")


async def test_filter_matches_ids_and_project_folders(
    tmp_path: Path, sessions_tree: Any, picker_app: Any
) -> None:
    app = picker_app(tmp_path, sessions_tree.base, sessions_tree.cwd)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(app, pilot)
        wanted = _table(app).shown[2]
        await pilot.press("/", *(wanted.id or "")[:13])
        await wait_for(pilot, lambda: _paths(app)[:1] == [wanted.path], "the id's session on top")
        assert _paths(app)[0] == wanted.path
        await pilot.press("escape", "tab")
        await _ready(app, pilot)
        await pilot.press("/", *"mei-work-web")
        await wait_for(
            pilot,
            lambda: (
                {row.project_folder for row in _table(app).shown} == {"Users-mei-work-web--client"}
            ),
            "only the project's rows",
        )
        assert _table(app).shown[0].project_folder == "Users-mei-work-web--client"


async def test_escape_clears_the_filter_and_returns_to_the_list(
    tmp_path: Path, sessions_tree: Any, picker_app: Any
) -> None:
    app = picker_app(tmp_path, sessions_tree.base, sessions_tree.cwd)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(app, pilot)
        total = _table(app).row_count
        await pilot.press("/", *"zzzzqqq")
        await wait_for(pilot, lambda: _table(app).row_count == 0, "the filter to match nothing")
        assert _table(app).row_count == 0
        assert "No session matches" in _static_text(app, "#picker-empty")
        await pilot.press("escape")
        await wait_for(pilot, lambda: _table(app).row_count == total, "every row again")
        assert app.screen.query_one("#filter", Input).value == ""
        assert _table(app).row_count == total
        assert _table(app).has_focus


# -- other keys -------------------------------------------------------------------------------


async def test_question_mark_reaches_help_and_q_quits(
    tmp_path: Path, sessions_tree: Any, picker_app: Any
) -> None:
    app = picker_app(tmp_path, sessions_tree.base, sessions_tree.cwd)
    asked: list[bool] = []
    app.action_help = lambda: asked.append(True)  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(app, pilot)
        await pilot.press("question_mark")
        assert asked == [True]
        await pilot.press("q")
        await wait_for(pilot, lambda: not app.is_running, "the app to quit")
        assert not app.is_running


async def test_bindings_have_descriptions(
    tmp_path: Path, sessions_tree: Any, picker_app: Any
) -> None:
    from textual.binding import Binding

    for binding in PickerScreen.BINDINGS:
        assert isinstance(binding, Binding) and binding.description


# -- empty state, live marker, hidden rows, hostile text -----------------------------------


async def test_empty_state_names_the_folders(tmp_path: Path, picker_app: Any) -> None:
    base = tmp_path / "nowhere"
    app = picker_app(tmp_path, base, "/home/ada/code/calc-kit")
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(app, pilot)
        text = _static_text(app, "#picker-empty")
        assert str(base) in text
        assert "home-ada-code-calc--kit" in text
        assert "--sessions-dir" in text and "INK_SESSIONS_DIR" in text
        assert "c starts a new session" in text
        assert _table(app).row_count == 0


async def test_live_marker_only_on_a_just_modified_file(
    tmp_path: Path, sessions_tree: Any, write_session: Any, picker_app: Any
) -> None:
    fresh = write_session(sessions_tree.home, sessions_tree.cwd, ["still typing"], age=2)
    old = write_session(sessions_tree.home, sessions_tree.cwd, ["long ago"], age=600)
    app = picker_app(tmp_path, sessions_tree.base, sessions_tree.cwd)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(app, pilot)
        table = _table(app)
        rows = {summary.path: _row_text(table, i) for i, summary in enumerate(table.shown)}
        assert "live" in rows[fresh][0]
        assert "live" not in rows[old][0]
        assert rows[old][2] == "10m ago"


async def test_a_session_written_while_the_picker_is_open_shows_up_live(
    tmp_path: Path, sessions_tree: Any, write_session: Any, picker_app: Any
) -> None:
    app = picker_app(tmp_path, sessions_tree.base, sessions_tree.cwd)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _ready(app, pilot)
        total = _table(app).row_count
        path = write_session(sessions_tree.home, sessions_tree.cwd, ["brand new work"], age=0)
        screen._refresh()  # what the interval timer does every few seconds
        await _ready(app, pilot)
        table = _table(app)
        assert table.row_count == total + 1
        assert table.shown[0].path == path
        assert _row_text(table, 0)[0] == "● live"
        assert _row_text(table, 0)[1] == "brand new work"


async def test_hidden_rows_are_listed_with_the_reason(
    tmp_path: Path, sessions_tree: Any, picker_app: Any
) -> None:
    broken = sessions_tree.home / "2026-01-01T00-00-00-000Z-broken.jsonl"
    broken.write_text(
        '{"type":"session","version":1,"id":"x","timestamp":"t","cwd":"/"}\n{bad\n{}\n'
    )
    os.utime(broken, (time.time() - 4000, time.time() - 4000))
    app = picker_app(tmp_path, sessions_tree.base, sessions_tree.cwd)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(app, pilot)
        table = _table(app)
        index = table.index_of(broken)
        assert index is not None
        assert _row_text(table, index)[0] == "hidden"
        table.cursor_row = index
        await wait_for(
            pilot, lambda: "invalid JSON" in _static_text(app, "#picker-note"), "the row's reason"
        )
        assert "invalid JSON" in _static_text(app, "#picker-note")
        await pilot.press("space")
        await _ready(app, pilot)
        assert "hides this session" in _static_text(app, "#preview-body")


async def test_hostile_title_is_shown_literally(
    tmp_path: Path, sessions_tree: Any, write_session: Any, picker_app: Any
) -> None:
    write_session(sessions_tree.home, sessions_tree.cwd, [HOSTILE_TITLE], age=5)
    app = picker_app(tmp_path, sessions_tree.base, sessions_tree.cwd)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(app, pilot)
        title = _row_text(_table(app), 0)[1]
        assert "[bold red]x[/]" in title
        assert "\x1b" not in title and "\x07" not in title
        assert "pwned" in title
        await pilot.press("space")
        await _ready(app, pilot)
        body = _static_text(app, "#preview-body")
        assert "[bold red]x[/]" in body and "\x1b" not in body
        # nothing in the painted screen carries the raw escape sequence
        assert "\x1b]0;pwned" not in app.export_screenshot()


def test_relative_age_and_size() -> None:
    assert relative_age(100.0, 103.0) == "3s ago"
    assert relative_age(0.0, 180.0) == "3m ago"
    assert relative_age(0.0, 2 * 86400.0) == "2d ago"
    assert relative_age(10.0, 0.0) == "0s ago"
    assert human_size(812) == "812 B"
    assert human_size(4300) == "4.2 KB"
    assert project_dir("/x", "/a-b").name == "a--b"


async def test_a_key_for_the_highlighted_session_says_so_when_none_is_highlighted(
    tmp_path: Path, picker_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """y, r and d act on the highlighted row: with no row they say so and open nothing; u
    needs no row (here it says there is nothing to undo)."""
    base = tmp_path / "sessions"
    base.mkdir()
    app = picker_app(tmp_path, base, "/home/ada/nothing-here")
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await _ready(app, pilot)
        said: list[str] = []
        monkeypatch.setattr(app, "notify", lambda message, **_: said.append(str(message)))
        for key in ("y", "r", "d"):
            await pilot.press(key)
            await pilot.pause()
            assert app.screen is screen, key  # no question asked
        assert said == ["no session highlighted"] * 3
        await pilot.press("u")
        await wait_for(pilot, lambda: said[3:] == ["nothing to undo"], "u's answer")
