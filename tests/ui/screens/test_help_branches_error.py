"""Pilot tests of the help and error screens: what a user sees and what the keys do (the
branches screen: ``test_branches.py``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hosting import ScreenHost
from testdata import session_file as fixture
from textual.geometry import Region
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Static
from waiting import wait_for

from ink_tui.session import SessionError, open_session
from ink_tui.ui.messages import GoBack
from ink_tui.ui.screens.error import ErrorScreen
from ink_tui.ui.screens.help import HelpScreen
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.widgets.transcript import Transcript

SIZE = (120, 40)
TS = "2026-10-05T12:34:56.789Z"
HEADER = {"type": "session", "version": 1, "id": "0b4f6a52", "timestamp": TS, "cwd": "/p"}


def user(entry_id: str, parent: str | None, text: str = "hi") -> dict[str, Any]:
    message = {"role": "user", "content": text}
    return {
        "type": "message",
        "id": entry_id,
        "parentId": parent,
        "timestamp": TS,
        "message": message,
    }


def write_session(path: Path, *lines: dict[str, Any] | str) -> Path:
    out = [json.dumps(HEADER)] + [x if isinstance(x, str) else json.dumps(x) for x in lines]
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


class Host(ScreenHost):
    """The bare host, answering GoBack as the app does."""

    def on_go_back(self, message: GoBack) -> None:
        """As the real app does with a single screen above the base one."""
        self.pop_screen()


def static_text(screen: Screen[Any], selector: str) -> str:
    content = screen.query_one(selector, Static).content
    return content.plain if hasattr(content, "plain") else str(content)


def shown_lines(widget: Transcript) -> str:
    region = Region(0, 0, widget.size.width, widget.size.height)
    return "\n".join(strip.text for strip in widget.render_lines(region))


# -- help ----------------------------------------------------------------------------------------


async def test_help_lists_the_session_keys_and_closes() -> None:
    app = Host(lambda: HelpScreen(SessionScreen(Path("unused.jsonl"))))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), "the help screen")
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        text = static_text(screen, "#help-keys")
        keys = {row.keys.split(", ")[0] for row in screen.rows}
        for key in ("[", "]", "/", "n", "t", "o", "y", "b", "q", "?", "ctrl+p"):
            assert key in keys, key
        assert "Next match" in text and "Previous match" in text  # show=False keys are listed
        assert "j, ↓" in text and "Branches" in text and "Quit" in text
        assert "[, {" in text and "], }" in text  # { and } go by turn too
        assert text.index("This screen") < text.index("Everywhere")
        assert "command palette (ctrl+p)" in static_text(screen, "#help-palette")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, HelpScreen), "the help to close")


@pytest.mark.parametrize("key", ["q", "question_mark"])
async def test_help_closes_on_q_and_question_mark(key: str) -> None:
    app = Host(lambda: HelpScreen(SessionScreen(Path("unused.jsonl"))))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), "the help screen")
        await pilot.press(key)
        await wait_for(pilot, lambda: not isinstance(app.screen, HelpScreen), "the help to close")
        assert app.is_running  # q closed the help, it did not quit


# -- error ---------------------------------------------------------------------------------------


def error_of(path: Path) -> SessionError:
    with pytest.raises(SessionError) as caught:
        open_session(path, warn=None)
    return caught.value


async def open_error(pilot: Pilot[Any]) -> ErrorScreen:
    await wait_for(
        pilot, lambda: bool(getattr(pilot.app.screen, "rows", None)), "the error view's lines"
    )
    screen = pilot.app.screen
    assert isinstance(screen, ErrorScreen)
    return screen


def nth_line(path: Path, number: int) -> str:
    lines = [x for x in path.read_text(encoding="utf-8").split("\n") if x.strip()]
    return lines[number - 1]


async def test_error_screen_shows_the_reason_and_the_offending_line() -> None:
    path = fixture("interior-corrupt.jsonl")
    app = Host(lambda: ErrorScreen(path, error_of(path)))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_error(pilot)
        banner = static_text(screen, "#error-banner")
        assert "session line 6: invalid JSON" in banner
        assert str(path) in banner and "line 6" in banner
        lines = shown_lines(screen.query_one(Transcript))
        assert " 6 " + nth_line(path, 6)[:60] in lines  # numbered, in view on open
        view = screen.query_one(Transcript)
        bad = nth_line(path, 6)[:60]
        await pilot.press("G")
        await wait_for(pilot, lambda: bad not in shown_lines(view), "the end, line 6 out of view")
        await pilot.press("n")
        await wait_for(pilot, lambda: bad in shown_lines(view), "line 6 in view again")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ErrorScreen), "the view to close")


async def test_error_screen_shows_escapes_and_markup_literally(tmp_path: Path) -> None:
    lines = [user(f"u{i}", f"u{i - 1}" if i else None) for i in range(30)]
    evil = '{"type":"message", \x1b]0;pwned\x07 [bold]oops[/bold] [red]'
    path = write_session(tmp_path / "evil.jsonl", *lines[:5], "", evil, *lines[5:])
    error = error_of(path)
    assert error.line == 7
    app = Host(lambda: ErrorScreen(path, error))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_error(pilot)
        shown = shown_lines(screen.query_one(Transcript))
        assert "7 " + '{"type":"message", ␛]0;pwned␇ [bold]oops[/bold] [red]' in shown
        assert "\x1b" not in shown and "\x07" not in shown
        assert screen.rows[6].number is None  # the blank line: shown, unnumbered


async def test_error_screen_cuts_a_2mb_line(tmp_path: Path) -> None:
    big = '{"type":"message","id":"x' + "y" * 2_000_000
    path = write_session(tmp_path / "big.jsonl", user("u1", None), big, user("u2", "u1"))
    error = error_of(path)
    app = Host(lambda: ErrorScreen(path, error))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_error(pilot)
        shown = shown_lines(screen.query_one(Transcript))
        more = len(big) - 2000
        assert f"…({more}morecharacters)" in "".join(shown.split())


async def test_error_screen_finds_the_entry_of_a_broken_chain() -> None:
    path = fixture("broken-chain.jsonl")
    session = open_session(path, warn=None)
    with pytest.raises(SessionError) as caught:
        from ink_tui.session import branch

        branch(session)
    app = Host(lambda: ErrorScreen(path, caught.value))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_error(pilot)
        assert screen.line == session.by_id[str(session.leaf_id)].line
        assert f"line {screen.line}" in static_text(screen, "#error-banner")


async def test_error_screen_through_the_app(tmp_path: Path, make_app: Any) -> None:
    path = fixture("interior-corrupt.jsonl")
    (tmp_path / "sessions").mkdir()
    app = make_app(open_path=path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_error(pilot)
        assert "session line 6: invalid JSON" in static_text(screen, "#error-banner")
        assert nth_line(path, 6)[:60] in shown_lines(screen.query_one(Transcript))
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ErrorScreen), "the view to close")
        assert app.is_running
