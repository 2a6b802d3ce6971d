"""The changes view's list at the sizes people run it (issue 19): one line per file and per turn
at 120 columns, titles cut with ``…``, long paths shortened from the left keeping the file name
(never cut mid-name), down to 40 columns. Assertions read the screen as the terminal shows it."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from changesdata import CWD, SessionScript
from rich.console import Console
from waiting import wait_for

from ink_tui.paths import project_dir
from ink_tui.ui.app import InkApp
from ink_tui.ui.screens.changes import ChangesScreen
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.widgets.changes_rows import cut_end, fit_file_line, shorten_path

LONG_TITLE = (
    "Refactor the session view so that the tree pane can be resized and the header never gets "
    "cut at 120 columns, then update the docs"
)
DEEP = "src/components/very/deeply/nested/folder/structure/Widget.tsx"
LONG_NAME = "ink_tui/ui/screens/session_opens_and_more.py"


def _session(tmp_path: Path) -> Path:
    run = SessionScript(project_dir(tmp_path / "sessions", CWD))
    run.prompt(LONG_TITLE)
    run.write(LONG_NAME, "a\n")
    run.write(DEEP, "b\n")
    run.write("README.md", "c\n")
    run.answer()
    run.prompt("Now add tests for the layout of the changes screen with very long turn titles")
    run.edit("README.md", "c", "d", error="not found")
    run.write("fake\nline.py", "e\n")
    run.answer()
    return run.path


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


async def _list_lines(tmp_path: Path, make_app: Any, size: tuple[int, int]) -> list[str]:
    """The list's column of the changes view with its turns shown, one entry per screen line."""
    path = _session(tmp_path)
    app = make_app(sessions_dir=tmp_path / "sessions", cwd=CWD, open_path=path)
    async with app.run_test(size=size) as pilot:

        def session_ready() -> bool:
            screen = pilot.app.screen
            return isinstance(screen, SessionScreen) and screen.loaded is not None

        await wait_for(pilot, session_ready, "the session view")
        await pilot.press("D")

        def listed() -> bool:
            screen = pilot.app.screen
            return isinstance(screen, ChangesScreen) and screen.files_list.option_count == 4

        await wait_for(pilot, listed, "the changes view with its files")
        await pilot.press("t")
        screen = pilot.app.screen
        assert isinstance(screen, ChangesScreen)
        await wait_for(pilot, lambda: screen.files_list.option_count == 9, "the turns")
        await pilot.pause()
        width = screen.files_list.region.width
        rows = _screen(pilot.app)[1 : 1 + 9]
        return [row[1:width].rstrip() for row in rows]  # the list pads its options by 1


async def test_every_file_and_turn_is_one_line_at_120_columns(
    tmp_path: Path, make_app: Any
) -> None:
    lines = await _list_lines(tmp_path, make_app, (120, 36))
    assert lines[0].startswith("session_opens_and_more.py  +1 -0")  # the file name whole
    assert lines[1].startswith("   turn 1 · Refactor the session view") and lines[1][-1] == "…"
    assert lines[2] == "…/structure/Widget.tsx  +1 -0  new  turn 1"
    assert lines[4] == "README.md  +1 -0  new  2 turns  ✗ 1 failed"
    assert lines[6].startswith("   turn 2 · Now add tests") and lines[6].endswith("…  ✗ 1 failed")
    assert lines[7] == "fake␊line.py  +1 -0  new  turn 2"  # a newline in a name: shown
    assert lines[8].startswith("   turn 2 · Now add tests")


async def test_at_40_columns_paths_keep_their_file_name(tmp_path: Path, make_app: Any) -> None:
    lines = await _list_lines(tmp_path, make_app, (40, 24))
    files = [lines[0], lines[2], lines[4], lines[7]]
    assert files[1] in ("…/Widget.tsx", "Widget.tsx")
    assert files[2].startswith("README.md")
    assert files[3].startswith("fake␊line.py")
    assert files[0].startswith("session_open") and "/" not in files[0]  # cut only at its end
    assert all(line.startswith("   turn ") for line in (lines[1], lines[3], lines[5], lines[8]))


def test_paths_are_shortened_by_whole_folders_from_the_left() -> None:
    assert shorten_path(DEEP, 80) == DEEP
    assert shorten_path(DEEP, 30) == "…/folder/structure/Widget.tsx"
    assert shorten_path(DEEP, 22) == "…/structure/Widget.tsx"
    assert shorten_path(DEEP, 21) == "…/Widget.tsx"
    assert shorten_path(DEEP, 10) == "Widget.tsx"
    assert shorten_path(DEEP, 7) == "Widget…"  # only when the name alone is wider
    assert shorten_path("数据/结构化/很长的名字.py", 14) == "很长的名字.py"  # cells, not characters


def test_a_file_line_gives_up_folders_then_the_summary_end() -> None:
    summary = "+6 -2  3 turns  ✗ 1 failed"
    assert fit_file_line("calc/main.py", summary, 60) == ("calc/main.py", summary)
    assert fit_file_line(DEEP, summary, 52) == ("…/structure/Widget.tsx", summary)
    assert fit_file_line(DEEP, summary, 30) == ("Widget.tsx", "+6 -2  3 turns  ✗…")
    assert fit_file_line(DEEP, summary, 12) == ("…/Widget.tsx", "")


def test_a_cut_leaves_no_space_before_the_ellipsis() -> None:
    assert cut_end("结构化 数据结构", 8) == "结构化…"
    assert cut_end("ab cd", 4) == "ab…"
    assert cut_end("short", 5) == "short"
