"""Pilot tests of the picker's filter of sessions with problems (``!``).

``!`` shows only the sessions ``ink-tui check`` would flag, as far as the listing sees (a torn
tail, the last turn's dangling calls, one Ink cannot open or hides for a reason other than being
empty), says so on the status line and names the highlighted row's problem; ``!`` again shows
every session. The filter stays on across Tab, typed filters and refreshes.
"""

from __future__ import annotations

import io
import os
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from testdata import TREE_HOME, TREE_HOME_CWD, copy_session
from textual.widgets import Input, Static
from waiting import wait_for, workers_finished

from ink_tui.ui.app import InkApp
from ink_tui.ui.screens.help import HelpScreen, help_rows
from ink_tui.ui.screens.picker import PickerScreen
from ink_tui.ui.widgets.session_list import SessionList

PROBLEMS = ["torn-half", "dangling-last-turn", "interior-corrupt"]
FINE = ["minimal", "compaction", "branch-position"]


def _folder(base: Path, cases: list[str], *, project: str = TREE_HOME) -> list[Path]:
    paths = []
    for age, case in enumerate(cases):
        path = copy_session(base / project, case)
        when = time.time() - 3600 - 60 * age  # none live; newest first in the order given
        os.utime(path, (when, when))
        paths.append(path)
    return paths


def _static_text(app: InkApp, selector: str) -> str:
    widget = app.screen.query_one(selector, Static)
    console = Console(file=io.StringIO(), width=200, color_system=None, legacy_windows=False)
    console.print(widget.content)
    return console.file.getvalue()  # type: ignore[attr-defined]


def _shown(app: InkApp) -> list[str]:
    return [summary.path.stem for summary in app.screen.query_one(SessionList).shown]


async def _ready(app: InkApp, pilot: Any) -> PickerScreen:
    await wait_for(pilot, workers_finished(app), "the picker's workers to finish")
    assert isinstance(app.screen, PickerScreen)
    return app.screen


async def test_bang_shows_only_the_sessions_with_problems_and_again_all(
    tmp_path: Path, make_app: Any
) -> None:
    base = tmp_path / "sessions"
    _folder(base, [FINE[0], PROBLEMS[0], FINE[1], PROBLEMS[1], FINE[2], PROBLEMS[2]])
    app = make_app(sessions_dir=base, cwd=TREE_HOME_CWD)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(app, pilot)
        assert len(_shown(app)) == 6
        assert "problems" not in _static_text(app, "#picker-status")
        await pilot.press("exclamation_mark")
        await _ready(app, pilot)
        assert _shown(app) == PROBLEMS  # in the listing's order
        status = _static_text(app, "#picker-status")
        assert "6 sessions" in status
        assert "only sessions with problems: 3  (! shows all)" in status
        note = _static_text(app, "#picker-note")  # the cursor is on the torn session
        assert "Problem: torn tail: line 9 is not read (invalid JSON" in note
        await pilot.press("j")
        await wait_for(
            pilot,
            lambda: "1 dangling tool call (call_3)" in _static_text(app, "#picker-note"),
            "the dangling call named",
        )
        await pilot.press("j")
        await wait_for(
            pilot,
            lambda: (
                "hides this one: SessionError: session line 6: invalid JSON"
                in _static_text(app, "#picker-note")
            ),
            "Ink's reason for the corrupt one",
        )
        await pilot.press("exclamation_mark")
        await _ready(app, pilot)
        assert len(_shown(app)) == 6
        assert "problems" not in _static_text(app, "#picker-status")
        table = app.screen.query_one(SessionList)
        assert table.highlighted is not None
        assert table.highlighted.path.stem == "interior-corrupt"  # the cursor stayed on it


async def test_the_filter_holds_across_tab_and_a_typed_filter(
    tmp_path: Path, make_app: Any
) -> None:
    base = tmp_path / "sessions"
    _folder(base, [FINE[0], PROBLEMS[0]])
    _folder(base, [FINE[1], PROBLEMS[1]], project="home-bo-elsewhere")
    app = make_app(sessions_dir=base, cwd=TREE_HOME_CWD)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(app, pilot)
        await pilot.press("exclamation_mark")
        await _ready(app, pilot)
        assert _shown(app) == [PROBLEMS[0]]
        await pilot.press("tab")
        await _ready(app, pilot)
        assert sorted(_shown(app)) == sorted(PROBLEMS[:2])
        assert "only sessions with problems: 2" in _static_text(app, "#picker-status")
        await pilot.press("slash", *"elsewhere")
        await _ready(app, pilot)
        assert app.screen.query_one("#filter", Input).value == "elsewhere"
        assert _shown(app) == [PROBLEMS[1]]
        await pilot.press("exclamation_mark")  # typed into the filter, not the key
        assert app.screen.query_one("#filter", Input).value == "elsewhere!"


async def test_no_problem_says_so_and_how_to_see_every_session(
    tmp_path: Path, make_app: Any
) -> None:
    base = tmp_path / "sessions"
    _folder(base, FINE)
    app = make_app(sessions_dir=base, cwd=TREE_HOME_CWD)
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(app, pilot)
        await pilot.press("exclamation_mark")
        await _ready(app, pilot)
        assert _shown(app) == []
        empty = _static_text(app, "#picker-empty")
        assert "No session has a problem" in empty and "! shows every session again" in empty


async def test_a_session_torn_while_the_picker_is_open_joins_the_filtered_rows(
    tmp_path: Path, make_app: Any
) -> None:
    base = tmp_path / "sessions"
    minimal, *_ = _folder(base, FINE)
    app = make_app(sessions_dir=base, cwd=TREE_HOME_CWD)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _ready(app, pilot)
        await pilot.press("exclamation_mark")
        await _ready(app, pilot)
        assert _shown(app) == []
        with minimal.open("ab") as stream:  # a crash mid-write
            stream.write(b'{"type":"message","id":"u9","parentId":"a1","timest')
        screen._refresh()  # what the interval timer does every few seconds
        await _ready(app, pilot)
        assert _shown(app) == ["minimal"]
        assert "only sessions with problems: 1" in _static_text(app, "#picker-status")


async def test_the_key_is_in_the_help(tmp_path: Path, make_app: Any) -> None:
    app = make_app(sessions_dir=tmp_path / "sessions", cwd=TREE_HOME_CWD)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _ready(app, pilot)
        rows = {row.keys: row.description for row in help_rows(screen)}
        assert rows["!"] == "Problems only"
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), "the help screen")
