"""The session view's search line alone (ui/session_view/search.py), in a small app: ``/`` opens
it with the focus, Enter searches the branch (in a thread) and goes to the first match after the
cursor's row, Esc closes it, ``n``/``N`` step round the branch, and what the status line is told
(the count, no match, still loading, no search yet)."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.message import Message
from textual.widgets import Input, Static
from waiting import wait_for, workers_finished

from ink_tui.session.conversation.view import Item, Turn
from ink_tui.session.reading.reader import Entry
from ink_tui.ui.session_view.search import SessionSearch


def _entry(entry_id: str, content: str = "") -> Entry:
    message = {"role": "user", "content": content}
    return Entry({"type": "message", "id": entry_id, "parentId": None, "message": message}, 2, 0, 1)


def _turns() -> list[Turn]:
    """Six turns; the answers of turns 1, 3 and 5 say "lint"."""
    return [
        Turn(
            _entry(f"u{n}", f"prompt {n}"),
            [Item("text", _entry(f"b{n}"), 0, "lint passed" if n % 2 else "all good")],
        )
        for n in range(1, 7)
    ]


TURNS = _turns()
LINT = [TURNS[n].items[0].key for n in (0, 2, 4)]  # the rows that match "lint"


class SearchApp(App[None]):
    """The search line under a stand-in view, and what it says."""

    def __init__(self) -> None:
        super().__init__()
        self.said: list[Message] = []

    def compose(self) -> ComposeResult:
        yield Static("the view", id="view")
        yield SessionSearch(id="search")

    def on_session_search_found(self, message: SessionSearch.Found) -> None:
        self.said.append(message)

    def on_session_search_status(self, message: SessionSearch.Status) -> None:
        self.said.append(message)

    def on_session_search_closed(self, message: SessionSearch.Closed) -> None:
        self.said.append(message)


def _status(app: SearchApp) -> str | None:
    lines = [m.text for m in app.said if isinstance(m, SessionSearch.Status)]
    return lines[-1] if lines else None


def _found(app: SearchApp) -> list[Any]:
    return [m for m in app.said if isinstance(m, SessionSearch.Found)]


async def _open_and_type(pilot: Any, app: SearchApp, query: str, after: str | None = None) -> None:
    search = app.query_one(SessionSearch)
    search.open(after)
    await wait_for(pilot, lambda: isinstance(app.focused, Input), "the search line focused")
    await pilot.press(*query)


async def test_enter_searches_and_goes_to_the_first_match_after_the_cursor() -> None:
    app = SearchApp()
    async with app.run_test(size=(60, 8)) as pilot:
        search = app.query_one(SessionSearch)
        search.set_rows(TURNS, {})
        await _open_and_type(pilot, app, "LINT", after=TURNS[1].key)  # any case
        await pilot.press("enter")
        await wait_for(pilot, lambda: _found(app), "the matches")
        assert isinstance(app.said[0], SessionSearch.Closed) and not search.is_open
        found = _found(app)[-1]
        assert found.key == LINT[1] and found.keys == frozenset(LINT) and found.query == "LINT"
        assert _status(app) == "match 2 of 3  (n next, N previous)"
        search.step(1, after=LINT[1])  # n
        await wait_for(pilot, lambda: _found(app)[-1].key == LINT[2], "the next match")
        search.step(1, after=LINT[2])  # n past the last: round to the first
        await wait_for(pilot, lambda: _found(app)[-1].key == LINT[0], "the first match")
        assert _status(app) == "match 1 of 3  (n next, N previous)"
        search.step(-1, after=LINT[0])  # N before the first: round to the last
        await wait_for(pilot, lambda: _found(app)[-1].key == LINT[2], "the last match")


async def test_esc_closes_the_line_without_searching() -> None:
    app = SearchApp()
    async with app.run_test(size=(60, 8)) as pilot:
        search = app.query_one(SessionSearch)
        search.set_rows(TURNS, {})
        await _open_and_type(pilot, app, "lint")
        assert search.is_open
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.said, "the line closed")
        assert [type(m) for m in app.said] == [SessionSearch.Closed] and not search.is_open
        search.step(1)
        await wait_for(pilot, lambda: _status(app), "what n says")
        assert _status(app) == "no search: press / to search"


async def test_no_match_and_a_search_while_the_session_loads_are_said() -> None:
    app = SearchApp()
    async with app.run_test(size=(60, 8)) as pilot:
        search = app.query_one(SessionSearch)
        await _open_and_type(pilot, app, "lint")
        await pilot.press("enter")
        await wait_for(pilot, lambda: _status(app), "what the search says")
        assert _status(app) == "searching for 'lint'… (the session is loading)"
        search.set_rows(TURNS[:2], {}, loading=True)  # its first rows: searched at once
        await wait_for(pilot, lambda: _found(app), "the first match")
        assert _found(app)[-1].key == LINT[0]
        assert _status(app) == (
            "match 1 of 1 so far (still loading: searching again when it is done)"
            "  (n next, N previous)"
        )
        search.start("nowhere", keep=None)
        await wait_for(pilot, workers_finished(app), "the search done")
        assert (
            _status(app)
            == "no match for 'nowhere' so far (still loading: searching again when it is done)"
        )
        assert _found(app)[-1].key is None and _found(app)[-1].keys == frozenset()
