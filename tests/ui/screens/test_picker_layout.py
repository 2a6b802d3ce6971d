"""Pilot tests of the picker at the sizes people run it: columns that fit their values, narrow
terminals (80x24, 40x12), the preview below or in place of the list, and the focus after coming
back from a session opened through the filter. Assertions read the screen as the terminal
would show it."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Input
from waiting import wait_for

from ink_tui.paths import project_dir
from ink_tui.ui.app import InkApp
from ink_tui.ui.screens.picker import PickerScreen
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.widgets.preview import SessionPreview
from ink_tui.ui.widgets.session_list import SessionList

CWD = "/home/ada/code/widgets"
NOW = 1_800_000_000.0
TS = "2027-01-15T08:00:00.000Z"
LONG_TITLE = "Refactor the billing pipeline so that invoices come from the ledger"


@pytest.fixture
def app(make_app: Any) -> InkApp:
    """The app on the picker of :data:`CWD`, its clock stopped at :data:`NOW`."""
    made: InkApp = make_app(cwd=CWD, clock=lambda: NOW)
    return made


def _write(
    tmp_path: Path, name: str, title: str, *, messages: int = 2, leaves: int = 1, age: float = 7200
) -> Path:
    """A session of ``messages`` messages (a user/assistant chain) and ``leaves`` branches, its
    mtime ``age`` seconds before :data:`NOW`. Written line by line: big counts stay cheap."""
    folder = project_dir(tmp_path / "sessions", CWD)
    folder.mkdir(parents=True, exist_ok=True)
    header = {"type": "session", "version": 1, "id": f"{name}-0000", "timestamp": TS, "cwd": CWD}
    header["model"] = {"provider": "anthropic", "modelId": "claude-sonnet-4-5"}
    lines = [json.dumps(header)]
    parent: str | None = None
    for index in range(messages):
        if index % 2 == 0:
            message: dict[str, Any] = {"role": "user", "content": title if index == 0 else "go"}
        else:
            message = {
                "role": "assistant",
                "blocks": [{"type": "text", "text": "ok"}],
                "usage": {"inputTokens": 1, "outputTokens": 1},
                "stopReason": "end_turn",
            }
        entry_id = f"{index:016x}"
        record = {"type": "message", "id": entry_id, "parentId": parent, "timestamp": TS}
        record["message"] = message
        lines.append(json.dumps(record))
        parent = entry_id
    for branch in range(leaves - 1):  # more leaves under the first prompt
        record = {"type": "message", "id": f"b{branch:015x}", "parentId": f"{0:016x}"}
        record.update(timestamp=TS, message={"role": "assistant", "blocks": [], "usage": {}})
        record["message"]["stopReason"] = "end_turn"
        lines.append(json.dumps(record))
    lines.append(json.dumps({"type": "position", "leafId": parent}))
    path = folder / f"{name}.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.utime(path, (NOW - age, NOW - age))
    return path


async def _picker(app: InkApp, pilot: Pilot[Any], rows: int) -> SessionList:
    def ready() -> bool:
        screen = app.screen
        return (
            isinstance(screen, PickerScreen)
            and not screen.scanning
            and screen.query_one(SessionList).row_count == rows
        )

    await wait_for(pilot, ready, f"{rows} picker rows")
    return app.screen.query_one(SessionList)


def _screen(app: InkApp) -> list[str]:
    """The screen's lines as the terminal shows them (no colour)."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system=None,
        record=True,
        legacy_windows=False,
    )
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text(styles=False).splitlines()


def _row_line(app: InkApp, text: str) -> str:
    """The one screen line holding ``text``."""
    found = [line for line in _screen(app) if text in line]
    assert len(found) == 1, (text, _screen(app))
    return found[0]


# -- columns fit their values ---------------------------------------------------------------------


async def test_big_counts_are_abbreviated_never_cut(tmp_path: Path, app: InkApp) -> None:
    _write(tmp_path, "big", "long running chat", messages=49_911, leaves=1_234)
    async with app.run_test(size=(120, 30)) as pilot:
        table = await _picker(app, pilot, 1)
        line = _row_line(app, "long running chat")
        assert " 49.9k " in line  # 49,911 messages, whole
        assert " 1234 " in line  # 1,234 branches, whole
        assert "…" not in line.split("long running chat", 1)[1]
        assert table.highlighted is not None and table.highlighted.message_count == 49_911


async def test_counts_under_ten_thousand_are_exact(tmp_path: Path, app: InkApp) -> None:
    _write(tmp_path, "mid", "a busy week", messages=9_998, leaves=408)
    async with app.run_test(size=(120, 30)) as pilot:
        await _picker(app, pilot, 1)
        line = _row_line(app, "a busy week")
        assert " 9998 " in line and " 408 " in line


# -- narrow terminals -----------------------------------------------------------------------------


async def _narrow_rows(tmp_path: Path, app: InkApp, size: tuple[int, int]) -> tuple[str, str]:
    _write(tmp_path, "one", LONG_TITLE, messages=12, age=7200)
    _write(tmp_path, "two", "Quick fix for the login form", messages=30_000, age=3 * 86400)
    async with app.run_test(size=size) as pilot:
        await _picker(app, pilot, 2)
        return _row_line(app, "Refactor"), _row_line(app, "Quick")


async def test_80x24_shows_title_age_and_counts_whole(tmp_path: Path, app: InkApp) -> None:
    first, second = await _narrow_rows(tmp_path, app, (80, 24))
    assert "Refactor the billing" in first
    assert " 2h ago " in first and " 12 " in first
    assert " 3d ago " in second and " 30.0k" in second


async def test_40x12_hides_columns_before_cutting_age_or_counts(
    tmp_path: Path, app: InkApp
) -> None:
    first, second = await _narrow_rows(tmp_path, app, (40, 12))
    assert "Refactor" in first and "Quick" in second  # the title keeps a place
    assert " 2h ago " in first and first.rstrip().endswith("12")
    assert " 3d ago " in second and second.rstrip().endswith("30.0k")
    assert len(first.rstrip()) <= 40


async def test_preview_stacks_below_the_list_at_80x24(tmp_path: Path, app: InkApp) -> None:
    _write(tmp_path, "one", LONG_TITLE, messages=12)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await _picker(app, pilot, 1)
        await pilot.press("space")
        preview = app.screen.query_one(SessionPreview)
        await wait_for(pilot, lambda: preview.display and preview.summary is not None, "preview")
        assert table.display and table.region.height >= 3  # the list is still there
        assert preview.region.y >= table.region.bottom  # below it
        assert preview.region.width >= 78  # the whole width
        assert any("Refactor the billing" in line for line in _screen(app))


async def test_preview_takes_the_whole_screen_at_40x12_and_space_gives_the_list_back(
    tmp_path: Path,
    app: InkApp,
) -> None:
    _write(tmp_path, "one", LONG_TITLE, messages=12, age=7200)
    _write(tmp_path, "two", "Quick fix for the login form", messages=4, age=86400)
    async with app.run_test(size=(40, 12)) as pilot:
        table = await _picker(app, pilot, 2)
        await pilot.press("j", "space")
        preview = app.screen.query_one(SessionPreview)
        await wait_for(pilot, lambda: preview.display and preview.summary is not None, "preview")
        assert preview.region.width >= 38 and table.region.width == 0
        assert preview.summary is not None and "Quick" in preview.summary.title
        await pilot.press("k")  # the keys still move through the sessions
        await wait_for(
            pilot,
            lambda: preview.summary is not None and "Refactor" in preview.summary.title,
            "the first session previewed",
        )
        await pilot.press("space")
        await wait_for(pilot, lambda: table.region.width >= 38, "the list back in place")
        assert not preview.display
        assert table.cursor_row == 0 and table.has_focus
        assert " 2h ago " in _row_line(app, "Refactor")


# -- focus after coming back ----------------------------------------------------------------------


async def test_back_from_a_session_opened_through_the_filter_keys_act_on_the_list(
    tmp_path: Path,
    app: InkApp,
) -> None:
    _write(tmp_path, "one", "quokka migration", age=60)
    _write(tmp_path, "two", "quokka import", age=120)
    _write(tmp_path, "three", "unrelated", age=180)
    async with app.run_test(size=(120, 30)) as pilot:
        table = await _picker(app, pilot, 3)
        await pilot.press("slash", *"quokka", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, SessionScreen), "the session view")
        await wait_for(pilot, lambda: getattr(app.screen, "loaded", None) is not None, "loaded")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, PickerScreen), "the picker")
        table = app.screen.query_one(SessionList)
        filter_input = app.screen.query_one("#filter", Input)
        assert table.has_focus and not filter_input.has_focus
        assert filter_input.value == "quokka" and filter_input.display
        assert [s.title for s in table.shown] == ["quokka migration", "quokka import"]
        await pilot.press("j")
        assert table.cursor_row == 1
        assert filter_input.value == "quokka"  # j moved the list, it was not typed
        await pilot.press("k", "q")
        await wait_for(None, lambda: not app.is_running, "q to quit, as everywhere on the list")
        assert filter_input.value == "quokka"


async def test_back_to_the_picker_the_list_has_the_focus_even_if_the_filter_had_it(
    tmp_path: Path,
    app: InkApp,
) -> None:
    """Typed fast, "/" then Enter can open a session while the filter has the focus (Enter went
    to the list before the focus moved): coming back, the list has it."""
    from ink_tui.ui.messages import OpenSession

    path = _write(tmp_path, "one", "quokka migration", age=60)
    _write(tmp_path, "two", "quokka import", age=120)
    async with app.run_test(size=(120, 30)) as pilot:
        await _picker(app, pilot, 2)
        await pilot.press("slash", *"quokka")
        filter_input = app.screen.query_one("#filter", Input)
        assert filter_input.has_focus
        app.screen.post_message(OpenSession(path))  # as the list's Enter would
        await wait_for(pilot, lambda: isinstance(app.screen, SessionScreen), "the session view")
        await wait_for(pilot, lambda: getattr(app.screen, "loaded", None) is not None, "loaded")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, PickerScreen), "the picker")
        table = app.screen.query_one(SessionList)
        assert table.has_focus and filter_input.value == "quokka"
        await pilot.press("j")
        assert table.cursor_row == 1 and filter_input.value == "quokka"
