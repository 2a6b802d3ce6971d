"""Pilot tests of the changes view (``D`` in the session view): the files, their diffs, the
turns, Enter back to the session on a turn, Esc back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import changesdata
from changesdata import CWD, SessionScript
from waiting import wait_for

from ink_tui.paths import project_dir
from ink_tui.session import open_session
from ink_tui.session.conversation.view import build_turns
from ink_tui.ui.screens.changes import ChangesScreen, diff_text
from ink_tui.ui.session_view.screen import SessionScreen

HOSTILE = "x \x1b]0;pwned\x07 [bold red]markup[/] y"


async def session_view(pilot: Any) -> SessionScreen:
    def ready() -> bool:
        screen = pilot.app.screen
        return isinstance(screen, SessionScreen) and screen.loaded is not None

    await wait_for(pilot, ready, "the session view with its session loaded")
    screen = pilot.app.screen
    assert isinstance(screen, SessionScreen)
    return screen


async def changes_view(pilot: Any) -> ChangesScreen:
    await session_view(pilot)
    await pilot.press("D")

    def ready() -> bool:
        screen = pilot.app.screen
        return isinstance(screen, ChangesScreen) and screen.files_list.option_count > 0

    await wait_for(pilot, ready, "the changes view with its files")
    screen = pilot.app.screen
    assert isinstance(screen, ChangesScreen)
    return screen


def option_texts(screen: ChangesScreen) -> list[str]:
    options = screen.files_list
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def diff_shows(pilot: Any, screen: ChangesScreen, text: str) -> str:
    def shown() -> bool:
        return text in str(screen.diff.content)

    await wait_for(pilot, shown, f"the diff to show {text!r}")
    return str(screen.diff.content)


async def cursor_on(pilot: Any, view: SessionScreen, key: str) -> None:
    """Until the session view's tree has its cursor on row ``key``."""

    def there() -> bool:
        node = view.session_tree.cursor
        return node is not None and node.key == key

    await wait_for(pilot, there, f"the tree's cursor on {key}")


def row_of_call(path: Path, call_id: str) -> str:
    """The session view's row key of the tool call ``call_id``."""
    session = open_session(path, warn=None)
    for turn in build_turns(list(session.entries)):
        for item in turn.items:
            if item.tool is not None and item.tool.call_id == call_id:
                return item.key
    raise AssertionError(call_id)


async def test_d_lists_the_files_with_their_net_change_and_failures(
    tmp_path: Path, make_app: Any
) -> None:
    path = changesdata.changes_session(tmp_path / "sessions")
    app = make_app(sessions_dir=tmp_path / "sessions", cwd=CWD, open_path=path)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await changes_view(pilot)
        assert option_texts(screen) == [
            "calc/main.py  +6 -2  3 turns  ✗ 1 failed",
            "NOTES.md  +4 -0  new  2 turns  ✗ 1 failed",
            "calc/old.py  ?  turn 3",
        ]
        title = str(screen.title_line.content)
        assert "3 files" in title and "+10 -2" in title and "1 not reconstructed" in title
        shown = await diff_shows(pilot, screen, "+def mul(a, b):")
        assert "-def add(a, b):" in shown and "✗ failed edit in turn 2: Error: not found" in shown
        await pilot.press("j")
        await diff_shows(pilot, screen, "+No division yet.")
        await pilot.press("j")
        shown = await diff_shows(pilot, screen, "not reconstructed")
        assert "nothing shows its content before turn 3" in shown


async def test_t_shows_the_turns_and_their_own_diffs(tmp_path: Path, make_app: Any) -> None:
    path = changesdata.changes_session(tmp_path / "sessions")
    app = make_app(sessions_dir=tmp_path / "sessions", cwd=CWD, open_path=path)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await changes_view(pilot)
        await pilot.press("t")
        texts = option_texts(screen)
        assert texts[:4] == [
            "calc/main.py  +6 -2  3 turns  ✗ 1 failed",
            "   turn 1 · add type hints to calc/main.py",
            "   turn 2 · write notes  ✗ 1 failed",
            "   turn 3 · add mul",
        ]
        await pilot.press("j", "j")
        shown = await diff_shows(pilot, screen, "turn 2")
        assert "failed edit: Error: not found" in shown and "-def div(a, b):" in shown
        await pilot.press("t")  # back to the files, the cursor on the file of the turn
        assert len(option_texts(screen)) == 3 and screen.files_list.highlighted == 0


async def test_enter_goes_back_to_the_session_on_the_turn(tmp_path: Path, make_app: Any) -> None:
    path = changesdata.changes_session(tmp_path / "sessions")
    app = make_app(sessions_dir=tmp_path / "sessions", cwd=CWD, open_path=path)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await changes_view(pilot)
        await pilot.press("t", "j", "j", "j", "enter")  # calc/main.py, turn 3
        view = await session_view(pilot)
        expected = row_of_call(path, "call_6")  # the edit through the absolute path
        await cursor_on(pilot, view, expected)
        screen = await changes_view(pilot)
        await pilot.press("j", "enter")  # NOTES.md: its first change, the write of turn 2
        view = await session_view(pilot)
        expected = row_of_call(path, "call_5")
        await cursor_on(pilot, view, expected)
        assert screen is not pilot.app.screen


async def test_d_then_enter_again_walks_through_each_turn_of_the_file(
    tmp_path: Path, make_app: Any
) -> None:
    path = changesdata.changes_session(tmp_path / "sessions")
    app = make_app(sessions_dir=tmp_path / "sessions", cwd=CWD, open_path=path)
    # calc/main.py: turn 1 (call_2), turn 2 (the failed call_4), turn 3 (call_6), then round
    expected = [row_of_call(path, call) for call in ("call_2", "call_4", "call_6", "call_2")]
    async with app.run_test(size=(120, 36)) as pilot:
        for number, key in enumerate(expected):
            screen = await changes_view(pilot)
            assert screen.files_list.highlighted == 0  # the file of the last jump
            turn = [1, 2, 3, 1][number]
            await diff_shows(pilot, screen, f"Enter shows turn {turn} in the session ({turn} of 3")
            await pilot.press("enter")
            view = await session_view(pilot)
            await cursor_on(pilot, view, key)


async def test_the_file_is_read_when_the_view_holds_only_its_last_turns(
    tmp_path: Path, make_app: Any
) -> None:
    path = changesdata.changes_session(tmp_path / "sessions")
    app = make_app(sessions_dir=tmp_path / "sessions", cwd=CWD, open_path=path)
    async with app.run_test(size=(120, 36)) as pilot:
        await session_view(pilot)
        screen = ChangesScreen(path, None, None, "")
        await pilot.app.push_screen(screen)
        await wait_for(pilot, lambda: screen.files_list.option_count == 3, "the files")
        assert option_texts(screen)[0] == "calc/main.py  +6 -2  3 turns  ✗ 1 failed"


async def test_escape_goes_back_where_it_was(tmp_path: Path, make_app: Any) -> None:
    path = changesdata.changes_session(tmp_path / "sessions")
    app = make_app(sessions_dir=tmp_path / "sessions", cwd=CWD, open_path=path)
    async with app.run_test(size=(120, 36)) as pilot:
        view = await session_view(pilot)
        tree = view.session_tree  # the view moves the cursor to the last row once shown
        await wait_for(pilot, lambda: tree.at_last_row, "the cursor")
        before = tree.cursor
        await changes_view(pilot)
        await pilot.press("escape")
        assert await session_view(pilot) is view and view.session_tree.cursor is before


async def test_a_session_without_changes_says_so(tmp_path: Path, make_app: Any) -> None:
    run = SessionScript(project_dir(tmp_path / "sessions", CWD))
    run.prompt("just talk")
    run.answer()
    app = make_app(sessions_dir=tmp_path / "sessions", cwd=CWD, open_path=run.path)
    async with app.run_test(size=(120, 36)) as pilot:
        await session_view(pilot)
        await pilot.press("D")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ChangesScreen), "the view")
        screen = pilot.app.screen
        assert isinstance(screen, ChangesScreen)
        await diff_shows(pilot, screen, "no file was changed through edit or write")
        await pilot.press("enter")  # nothing to jump to: the view stays
        assert pilot.app.screen is screen


async def test_file_content_is_shown_literally(tmp_path: Path, make_app: Any) -> None:
    run = SessionScript(project_dir(tmp_path / "sessions", CWD))
    run.prompt("go")
    run.write("evil.txt", HOSTILE + "\n")
    app = make_app(sessions_dir=tmp_path / "sessions", cwd=CWD, open_path=run.path)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await changes_view(pilot)
        shown = await diff_shows(pilot, screen, "markup")
        assert "\x1b" not in shown and "[bold red]markup[/]" in shown


def test_long_diffs_are_capped_with_a_note() -> None:
    from ink_tui.session.analysis.changediff import diff_lines

    lines = diff_lines(None, "".join(f"{n}\n" for n in range(3000)))
    text = diff_text(lines, limit=100).plain
    assert text.count("\n") == 100 and "⋯ 2,901 more lines" in text


async def test_a_new_theme_redraws_the_diff_in_its_colours(tmp_path: Path, make_app: Any) -> None:
    from rich.text import Text

    from ink_tui.ui.render import palette

    path = changesdata.changes_session(tmp_path / "sessions")
    app = make_app(sessions_dir=tmp_path / "sessions", cwd=CWD, open_path=path)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await changes_view(pilot)
        await pilot.press("j")
        await diff_shows(pilot, screen, "+No division yet.")

        def added_style() -> str:
            content = screen.diff.content
            assert isinstance(content, Text)
            start = content.plain.index("+No division yet.")
            return next(str(s.style) for s in content.spans if s.start <= start < s.end)

        before = added_style()
        app.theme = "textual-light"
        await wait_for(pilot, lambda: added_style() != before, "the diff in the new colours")
        assert added_style() == palette.current.ok
        assert screen.files_list.highlighted == 1 and len(option_texts(screen)) == 3


async def test_a_click_on_a_file_goes_to_its_first_turn(tmp_path: Path, make_app: Any) -> None:
    path = changesdata.changes_session(tmp_path / "sessions")
    app = make_app(sessions_dir=tmp_path / "sessions", cwd=CWD, open_path=path)
    async with app.run_test(size=(120, 36)) as pilot:
        await changes_view(pilot)
        await pilot.click("#changes-files", offset=(2, 1))  # NOTES.md, the second line
        view = await session_view(pilot)
        await cursor_on(pilot, view, row_of_call(path, "call_5"))
