"""Keys typed fast after ``/`` (a quick typist, or a paste) go into the query line, never to
the view's own keys: ``/fetch⏎`` read in one go must not follow (``f``), show thinking (``t``) or
open the chat (``c``) in the session view, and ``/retry⏎`` must filter the picker.

Textual reads each key for the widget focused when the key is read, so the test posts all the
keys at once, as a terminal delivers a burst, instead of pressing them one by one (``pilot.press``
lets the app settle between keys and never shows the race).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual import events
from textual.widgets import Input
from waiting import wait_for

from ink_tui.paths import project_dir
from ink_tui.session.writing.writer import SessionWriter
from ink_tui.ui.screens.chat import ChatScreen
from ink_tui.ui.screens.picker import PickerScreen
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.widgets.session_list import SessionList

CWD = "/home/ada/code/calc-kit"


def _burst(app: Any, text: str, *, enter: bool = True) -> None:
    """Every key of ``text`` (then Enter) posted at once, as a terminal delivers a burst."""
    for char in text:
        key = "slash" if char == "/" else char
        app.post_message(events.Key(key, char))
    if enter:
        app.post_message(events.Key("enter", "\r"))


def _session(folder: Path, title: str) -> Path:
    writer = SessionWriter.new(folder, CWD)
    writer.append_message({"role": "user", "content": title})
    writer.append_message(
        {
            "role": "assistant",
            "blocks": [{"type": "text", "text": f"done: {title} fetch"}],
            "usage": {"inputTokens": 3, "outputTokens": 2},
            "stopReason": "end_turn",
        }
    )
    return Path(writer.path)


async def test_slash_then_a_fast_query_searches_and_triggers_no_view_key(
    tmp_path: Path, make_app: Any
) -> None:
    path = _session(tmp_path / "sessions" / "p", "make the fetch retry")
    app = make_app(cwd=CWD, open_path=path)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, SessionScreen) and app.screen.loaded is not None,
            "the session view",
        )
        screen = app.screen
        assert isinstance(screen, SessionScreen)
        thinking = screen.transcript.options.show_thinking
        _burst(app, "/fetch")
        await wait_for(pilot, lambda: screen.search.query_text == "fetch", "the search to run")
        await wait_for(pilot, lambda: len(screen.search.matches) == 2, "both matches")
        assert app.screen is screen and not isinstance(app.screen, ChatScreen)  # no c
        assert not screen.live.following  # no f
        assert screen.transcript.options.show_thinking == thinking  # no t
        _burst(app, "/needle/", enter=False)  # a "/" typed in the query line is text
        await wait_for(
            pilot, lambda: screen.query_one("#search Input", Input).value == "needle/", "text"
        )


async def test_slash_then_a_fast_filter_filters_the_picker(tmp_path: Path, make_app: Any) -> None:
    folder = project_dir(tmp_path / "sessions", CWD)
    _session(folder, "retry cleanup")
    _session(folder, "layout fix")
    app = make_app(cwd=CWD)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, PickerScreen)
                and len(app.screen.query_one(SessionList).shown) == 2
            ),
            "the picker's rows",
        )
        _burst(app, "/retry", enter=False)
        filter_input = app.screen.query_one("#filter", Input)
        await wait_for(pilot, lambda: filter_input.value == "retry", "the filter text")
        rows = app.screen.query_one(SessionList)
        await wait_for(pilot, lambda: len(rows.shown) == 1, "one matching session")
