"""Search in the session view: the query line, the matches, and where the user is among them.

The search runs over the rows the screen has loaded (:meth:`SessionSearch.set_rows`). While a big
session is still loading, it searches what is there, says so, and runs again by itself when the
whole branch arrives, keeping the match the user is on; a query typed before anything loaded
waits for the first rows.

Only the user moves to a match: Enter goes to the first one, ``n``/``N`` to the next or previous.
A search that runs again by itself (a load completed, the branch grew) updates the marks and the
count and never moves the view. It posts :class:`SessionSearch.Found` for the screen to mark the
matches (and reveal one, when the user asked) and :class:`SessionSearch.Status` with the line to
show.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from textual import on
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input

from ink_tui.session.rows import search_turns
from ink_tui.session.view import Turn

__all__ = ["SessionSearch", "match_pattern"]


def match_pattern(query: str) -> re.Pattern[str] | None:
    """The pattern that highlights ``query`` in the replay (case-insensitive, literal)."""
    return re.compile(re.escape(query), re.IGNORECASE) if query else None


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
    BINDINGS = [Binding("escape", "close", "Close the search", show=False)]

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

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.query_text = ""
        self.matches: list[str] = []
        self.index = -1  # the match the user is on (-1: none yet)
        self._answer_due = False  # Enter's search has not answered yet: its result moves
        self._turns: list[Turn] | None = None
        self._row_labels: dict[str, str] = {}
        self._loading = True

    @property
    def is_open(self) -> bool:
        return self.has_class("-open")

    async def open(self) -> None:
        """Show the query line (made the first time: most views are never searched)."""
        self.add_class("-open")
        if not self.query(Input):
            await self.mount(Input(placeholder="search the session (Enter: find, Esc: close)"))
        line = self.query_one(Input)
        line.value = ""
        line.focus()

    def action_close(self) -> None:
        self.remove_class("-open")
        self.post_message(self.Closed(self))

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.remove_class("-open")
        self.post_message(self.Closed(self))
        self.query_text = event.value
        self.matches, self.index = [], -1
        self._answer_due = True
        self._run(keep=None)

    def set_rows(
        self, turns: list[Turn], row_labels: dict[str, str], *, loading: bool = False
    ) -> None:
        """The rows to search changed (a load arrived, the branch grew, labels changed)."""
        self._turns, self._row_labels, self._loading = turns, row_labels, loading
        if self.query_text:
            current = self.matches[self.index] if 0 <= self.index < len(self.matches) else None
            self._run(keep=current, quiet=True)

    def _run(self, *, keep: str | None, quiet: bool = False) -> None:
        query = self.query_text
        if not query:
            self.post_message(self.Status(self, ""))
            self.post_message(self.Found(self, None, frozenset(), ""))
            return
        if self._turns is None:
            self.post_message(
                self.Status(self, f"searching for {query!r}… (the session is loading)")
            )
            return
        self.matches = search_turns(self._turns, query, self._row_labels)
        move = not quiet or self._answer_due  # only the user's own search moves the view
        self._answer_due = False
        keys = frozenset(self.matches)
        if not self.matches:
            self.index = -1
            self.post_message(self.Found(self, None, keys, query))
            self.post_message(self.Status(self, f"no match for {query!r}{self._loading_note()}"))
            return
        if move:
            self.index = 0
        else:  # stay where the user is; on none ("match 0 of …"): n and N go from there
            self.index = self.matches.index(keep) if keep is not None and keep in keys else -1
        self.post_message(self.Found(self, self.matches[0] if move else None, keys, query))
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

    def step(self, delta: int) -> None:
        """``n`` / ``N``: the next or previous match."""
        if not self.matches:
            self.post_message(
                self.Status(self, "no search: press / to search" if not self.query_text else "")
            )
            if self.query_text:
                self._run(keep=None)
            return
        if self.index < 0:  # on none yet: n goes to the first, N to the last
            self.index = 0 if delta > 0 else len(self.matches) - 1
        else:
            self.index = (self.index + delta) % len(self.matches)
        self.post_message(
            self.Found(self, self.matches[self.index], frozenset(self.matches), self.query_text)
        )
        self._say()
