"""Search in the session view: the query line, the matches, and where the user is among them.

The search runs over the rows the screen has loaded (:meth:`SessionSearch.set_rows`), in a
thread: the status line says "searching…" meanwhile and the view stays live. While a big session
is still loading, it searches what is there, says so, and runs again by itself when the whole
branch arrives, keeping the match the user is on; a query typed before anything loaded waits for
the first rows. As a followed session grows (:meth:`SessionSearch.grew`) only the new and changed
rows are searched, merged into the matches in transcript order.

Only the user moves to a match: Enter goes to the first one after the row the cursor was on when
``/`` was pressed, ``n``/``N`` to the first after the cursor's row or the last before it (round
the branch, as ``/`` and ``n`` do in an editor).
A search that runs again by itself (a load completed, a follow batch arrived) updates the marks
and the count and never moves the view. It posts :class:`SessionSearch.Found` for the screen to
mark the matches (and reveal one, when the user asked) and :class:`SessionSearch.Status` with
the line to show.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input
from textual.worker import get_current_worker

from ink_tui.logs import unforeseen
from ink_tui.session.conversation.rows import SearchMatches, changed_rows, search_turns
from ink_tui.session.conversation.view import Turn, TurnChanges
from ink_tui.ui.keymap import bind

__all__ = ["SessionSearch", "match_pattern", "matches_before"]


def match_pattern(query: str) -> re.Pattern[str] | None:
    """The pattern that highlights ``query`` in the replay (case-insensitive, literal)."""
    return re.compile(re.escape(query), re.IGNORECASE) if query else None


def _rows(turns: list[Turn]) -> Iterator[str]:
    for turn in turns:
        yield turn.key
        for item in turn.items:
            yield item.key


def _rows_back(turns: list[Turn]) -> Iterator[str]:
    for turn in reversed(turns):
        for item in reversed(turn.items):
            yield item.key
        yield turn.key


def matches_before(turns: list[Turn], found: SearchMatches, key: str) -> int | None:
    """How many of ``found`` come before row ``key`` in transcript order (None: no such row).

    Walks from both ends at once, so a row near either end (a session opens at its end) is
    placed after a few steps, and one in the middle of a million after half of them."""
    front = back = 0
    for ahead, behind in zip(_rows(turns), _rows_back(turns), strict=True):
        if ahead == key:
            return front
        if behind == key:
            return len(found) - back - (key in found)
        front += ahead in found
        back += behind in found
    return None


class SessionSearch(Vertical):
    """The ``/`` line and the state of the last search."""

    DEFAULT_CSS = """
    SessionSearch {
        height: auto;
        display: none;
    }
    SessionSearch.-open {
        display: block;
    }
    """
    BINDINGS = [bind("back", "close", "Close the search", show=True)]

    @dataclass
    class Found(Message):
        """Mark ``keys`` (the rows matching ``query``) and show match ``key`` (``None``: stay)."""

        search: SessionSearch
        key: str | None
        keys: frozenset[str]
        query: str

    @dataclass
    class Status(Message):
        """The line to show under the view (empty: nothing to say)."""

        search: SessionSearch
        text: str

    @dataclass
    class Closed(Message):
        """The query line closed (Enter or Esc): focus goes back to the view."""

        search: SessionSearch

    @dataclass
    class Scanned(Message):
        """A search of the whole branch ended (``keys``: the matches; ``error``: it failed)."""

        search: SessionSearch
        generation: int
        query: str
        keys: list[str] = field(default_factory=list)
        error: str = ""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.query_text = ""
        self.index = -1  # the match the user is on (-1: none yet)
        self._found: SearchMatches | None = None  # None: not searched yet, or searching
        self._turns: list[Turn] | None = None
        self._row_labels: dict[str, str] = {}
        self._loading = True
        self._generation = 0  # of the whole-branch search under way; older results are dropped
        self._scanning = False
        self._queued: set[str] = set()  # rows added or changed while the search ran
        self._keep: str | None = None  # the match to stay on once the search under way ends
        self._answer_due = False  # Enter's search has not answered yet: its result moves
        self._after: str | None = None  # the row the user was on when "/" was pressed

    @property
    def matches(self) -> list[str]:
        """The keys of the matching rows, in transcript order (empty while searching)."""
        return self._found.keys if self._found is not None else []

    @property
    def is_open(self) -> bool:
        return self.has_class("-open")

    def compose(self) -> ComposeResult:
        yield Input(placeholder="search the session (Enter: find, Esc: close)")

    def open(self, after: str | None = None) -> None:
        """Show the query line and give it the focus at once: the keys typed right after ``/``
        (``/fetch⏎`` typed fast, or pasted) are read into it, never as the view's keys. Its
        answer goes to the first match after row ``after`` (the cursor's)."""
        self._after = after
        self.add_class("-open")
        line = self.query_one(Input)
        line.value = ""
        self.screen.set_focus(line)

    def action_close(self) -> None:
        self.remove_class("-open")
        self.post_message(self.Closed(self))

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.remove_class("-open")
        self.post_message(self.Closed(self))
        self.query_text = event.value
        self.index = -1
        self._answer_due = True
        self._search(keep=None)

    def start(self, query: str, *, keep: str | None) -> None:
        """Search for ``query`` without moving: ``n``/``N`` then step on from row ``keep``."""
        self.query_text = query
        self.index = -1
        self._answer_due = False
        self.query_one(Input).value = query
        self._search(keep=keep)

    def set_rows(
        self, turns: list[Turn], row_labels: dict[str, str], *, loading: bool = False
    ) -> None:
        """New rows to search (a load arrived): the query, if any, is searched again."""
        self._turns, self._row_labels, self._loading = turns, row_labels, loading
        if self.query_text:
            self._search(keep=self._keep if self._scanning else self._current())

    def grew(
        self,
        turns: list[Turn],
        row_labels: dict[str, str],
        changes: Iterable[TurnChanges],
        relabelled: Iterable[str] = (),
    ) -> None:
        """The branch grew (a follow batch): search only the rows it added or changed."""
        self._turns, self._row_labels = turns, row_labels
        if not self.query_text:
            return
        changed = changed_rows(changes, relabelled)
        if self._scanning:
            self._queued |= changed  # merged when the search under way ends
            return
        found = self._found
        if found is None or not changed:
            return
        current = self._current()
        start = found.update(turns, changed, row_labels)
        if start is None:
            return
        if current is not None and self.index >= start:
            self.index = found.keys.index(current, start) if current in found else -1
        self._show(move=False)

    # -- searching the whole branch --------------------------------------------------------------

    def _current(self) -> str | None:
        matches = self.matches
        return matches[self.index] if 0 <= self.index < len(matches) else None

    def _search(self, *, keep: str | None) -> None:
        """Search the whole branch for the query, in a thread (one at a time)."""
        self._generation += 1
        self._found, self._queued, self._keep = None, set(), keep
        query = self.query_text
        if not query:
            self._scanning = False
            self.workers.cancel_group(self, "session-search")
            self.index = -1
            self.post_message(self.Status(self, ""))
            self.post_message(self.Found(self, None, frozenset(), ""))
            return
        if self._turns is None:
            self._scanning = False
            note = f"searching for {query!r}… (the session is loading)"
            self.post_message(self.Status(self, note))
            return
        self._scanning = True
        self.post_message(self.Status(self, f"searching for {query!r}…"))
        # A copy of the turn list: rows that arrive while it runs are queued and merged after.
        self._scan(list(self._turns), query, dict(self._row_labels), self._generation)

    @work(thread=True, exclusive=True, group="session-search")
    def _scan(
        self, turns: list[Turn], query: str, row_labels: dict[str, str], generation: int
    ) -> None:
        worker = get_current_worker()
        try:
            keys = search_turns(turns, query, row_labels, cancelled=worker.cancelled_event)
        except Exception as error:  # a bug: logged, and said in one line
            problem = unforeseen(error, "the session search")
            self.post_message(self.Scanned(self, generation, query, error=problem))
            return
        if not worker.is_cancelled:
            self.post_message(self.Scanned(self, generation, query, keys))

    @on(Scanned)
    def _scanned(self, message: Scanned) -> None:
        message.stop()
        if message.generation != self._generation or message.query != self.query_text:
            return  # a search replaced since
        self._scanning = False
        if message.error:
            self._answer_due = False
            self.post_message(self.Status(self, message.error))
            return
        found = SearchMatches(message.query, message.keys)
        if self._queued and self._turns is not None:
            found.update(self._turns, self._queued, self._row_labels)
        self._found, self._queued = found, set()
        move, self._answer_due = self._answer_due, False
        keep = self._keep
        self.index = found.keys.index(keep) if keep is not None and keep in found else -1
        self._show(move=move)

    # -- saying where the user is --------------------------------------------------------------

    def _show(self, *, move: bool) -> None:
        """Mark the matches and say how many; with ``move`` (the user asked), go to the first."""
        found = self._found
        if found is None:
            return
        query = found.query
        keys = frozenset(found.keys)
        if not found.keys:
            self.index = -1
            self.post_message(self.Found(self, None, keys, query))
            self.post_message(self.Status(self, f"no match for {query!r}{self._loading_note()}"))
            return
        if move:
            self.index = self._index_from(self._after, 1)
        self.post_message(self.Found(self, found.keys[self.index] if move else None, keys, query))
        self._say()

    def _loading_note(self) -> str:
        return " so far (still loading: searching again when it is done)" if self._loading else ""

    def _say(self) -> None:
        self.post_message(
            self.Status(
                self,
                f"match {self.index + 1:,} of {len(self.matches):,}{self._loading_note()}"
                "  (n next, N previous)",
            )
        )

    def _index_from(self, after: str | None, delta: int) -> int:
        """The match after row ``after`` (``delta`` 1) or before it (-1), round the branch;
        from no row: the first or the last."""
        found, count = self._found, len(self.matches)
        if after is None or found is None or self._turns is None:
            return 0 if delta > 0 else count - 1
        place = matches_before(self._turns, found, after)
        if place is None:
            return 0 if delta > 0 else count - 1
        if delta > 0:
            return (place + (after in found)) % count
        return (place - 1) % count

    def step(self, delta: int, *, after: str | None = None) -> None:
        """``n`` / ``N``: the first match after row ``after`` (the cursor's), or the last
        before it, round the branch."""
        query = self.query_text
        if not query:
            self.post_message(self.Status(self, "no search: press / to search"))
            return
        matches = self.matches
        if self._found is None:  # under way, or waiting for the first rows
            note = "" if self._scanning else " (the session is loading)"
            self.post_message(self.Status(self, f"searching for {query!r}…{note}"))
            return
        if not matches:
            self.post_message(self.Status(self, f"no match for {query!r}{self._loading_note()}"))
            return
        self.index = self._index_from(after, delta)
        self.post_message(self.Found(self, matches[self.index], frozenset(matches), query))
        self._say()
