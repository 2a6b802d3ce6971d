"""Pilot tests of the search across sessions: typing, results, opening a match, scopes, safety."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from rich.console import Console
from textual.widgets import Input, Static
from waiting import wait_for, workers_finished

from ink_tui.paths import project_dir
from ink_tui.ui.screens.help import HelpScreen
from ink_tui.ui.screens.picker import PickerScreen
from ink_tui.ui.screens.search import SearchScreen
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.widgets.search_results import SearchResults

CWD = "/home/ada/p"


def _text(widget: Static) -> str:
    console = Console(file=io.StringIO(), width=300, color_system=None)
    console.print(widget.content)
    return str(console.file.getvalue())  # type: ignore[attr-defined]


def _line(**record: Any) -> str:
    return json.dumps(record, ensure_ascii=False) + "\n"


def _message(entry_id: str, parent: str | None, role: str, text: str, second: int) -> str:
    if role == "user":
        message: dict[str, Any] = {"role": "user", "content": text}
    else:
        message = {
            "role": "assistant",
            "blocks": [{"type": "text", "text": text}],
            "usage": {"inputTokens": 10, "outputTokens": 5},
            "stopReason": "end_turn",
        }
    stamp = f"2026-11-20T10:00:{second:02d}.000Z"
    return _line(type="message", id=entry_id, parentId=parent, timestamp=stamp, message=message)


def _forked_session(base: Path, cwd: str = CWD, name: str = "a") -> Path:
    """Two branches from one prompt: the old one holds the needle, the current one does not."""
    folder = project_dir(base, cwd)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"2026-11-20T10-00-00-000Z-{name}.jsonl"
    header = _line(type="session", version=1, id=f"sess-{name}", timestamp="2026-11-20T10:00:00Z")
    header = header.replace("}\n", f', "cwd": "{cwd}"}}\n')
    path.write_text(
        header
        + _message("u1", None, "user", "set up the retry queue", 1)
        + _message("a1", "u1", "assistant", "The retry queue is set up.", 2)
        + _message("u2", "a1", "user", "try the needlefish approach first", 3)
        + _message("a2", "u2", "assistant", "needlefish tried: it was slow.", 4)
        + _message("u3", "a1", "user", "use a plain list instead", 5)
        + _message("a3", "u3", "assistant", "Done with a plain list.", 6),
        encoding="utf-8",
    )
    return path


async def _search(pilot: Any, app: Any, query: str) -> SearchScreen:
    await wait_for(pilot, workers_finished(app), "the picker")
    assert isinstance(app.screen, PickerScreen)
    await pilot.press("s")
    await wait_for(pilot, lambda: isinstance(app.screen, SearchScreen), "the search screen")
    screen = app.screen
    await pilot.press(*query)
    # The query runs once typing pauses: under load a part of it ("pla") may run first.
    await wait_for(pilot, lambda: screen.answered == query, f"the hits for {query!r}")
    return screen


async def test_typing_finds_matches_and_enter_opens_the_branch_that_holds_them(
    tmp_path: Path, make_app: Any
) -> None:
    base = tmp_path / "sessions"
    _forked_session(base)
    app = make_app(sessions_dir=base, cwd=CWD)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _search(pilot, app, "needlefish")
        assert "2 hits in 1 session\n" in _text(screen.query_one("#search-note", Static))
        results = screen.query_one(SearchResults)
        assert results.chosen is not None and results.chosen.entry_id in ("u2", "a2")
        first = results.chosen.entry_id
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, SessionScreen)
                and app.screen.loaded is not None
                and app.screen.session_tree.cursor is not None
                and "needlefish" in app.screen.session_tree.cursor.text
            ),
            "the session, on the old branch, at the match",
        )
        session = app.screen
        assert isinstance(session, SessionScreen)
        assert session.loaded is not None and session.loaded.leaf_id == "a2"
        assert first in ("u2", "a2")
        await wait_for(pilot, lambda: session.search.matches, "the session's own search set")
        await pilot.press("n")
        await wait_for(
            pilot,
            lambda: "match" in str(session.query_one("#search-status").render()),
            "n stepping through the session's matches",
        )
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen, "back to the search, results kept")
        assert screen.query_one(SearchResults).hits
        assert screen.query_one(Input).value == "needlefish"
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, PickerScreen), "back to the picker")


async def test_tab_searches_every_project_and_a_bad_query_says_why(
    tmp_path: Path, make_app: Any
) -> None:
    base = tmp_path / "sessions"
    _forked_session(base)
    _forked_session(base, "/home/ada/other", "b")
    app = make_app(sessions_dir=base, cwd=CWD)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _search(pilot, app, "plain")
        note = screen.query_one("#search-note", Static)
        assert "in 1 session\n" in _text(note)
        await pilot.press("tab")
        await wait_for(pilot, lambda: "in 2 sessions" in _text(note), "both projects' hits")
        assert "All projects" in _text(screen.query_one("#search-scope", Static))
        screen.query_one(Input).value = "role:robot plain"
        await wait_for(pilot, lambda: "role: is one of" in _text(note), "the query's error")
        assert not screen.query_one(SearchResults).hits


async def test_hostile_text_in_hits_is_shown_as_visible_characters(
    tmp_path: Path, make_app: Any
) -> None:
    base = tmp_path / "sessions"
    path = _forked_session(base)
    with path.open("a", encoding="utf-8") as stream:
        # escape sequences are left out of the index; lone controls are shown visibly
        hostile = "needlefish [bold red]x[/] \u001b]0;pwned\u0007 \u001b[2J bell\u0007 \u009bc1"
        stream.write(_message("u4", "a3", "user", hostile, 7))
    app = make_app(sessions_dir=base, cwd=CWD)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await _search(pilot, app, "needlefish")
        results = screen.query_one(SearchResults)
        shown = [str(results.get_option_at_index(i).prompt) for i in range(results.option_count)]
        hostile_lines = [line for line in shown if "bell" in line]
        assert hostile_lines and "[bold red]x[/]" in hostile_lines[0]
        assert "pwned" not in hostile_lines[0]  # the whole OSC sequence, not only its ESC
        for control in ("\u001b", "\u0007", "\u009b"):
            assert all(control not in line for line in shown)


async def test_search_screen_opens_with_s_and_is_in_the_help_and_palette(
    tmp_path: Path, make_app: Any
) -> None:
    base = tmp_path / "sessions"
    _forked_session(base)
    app = make_app(sessions_dir=base, cwd=CWD)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, workers_finished(app), "the picker")
        descriptions = [binding.description for binding in PickerScreen.BINDINGS]
        assert "Search text" in descriptions
        commands = [command.title for command in app.get_system_commands(app.screen)]
        assert "Search text" in commands
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        assert "Search text" in _text(app.screen.query_one("#help-keys", Static))
