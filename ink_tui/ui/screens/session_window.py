"""Which turns the session view holds: all of them, or a window over a very long branch.

Textual's ``Tree`` keeps a node per row and lays every line out again at each change, and the
replay makes a block per row: a branch of a million turns (a file of a million tiny records)
blocked the screen for about 40 s and took gigabytes. A branch of more than
:data:`WINDOW_TURNS` turns is shown that many at a time: the tree and the replay hold the same
window, and an edge row (``⋯ 998,000 earlier turns``) stands for the rest at either end.

- Moving onto an edge row (``k``, ``[``, ``]``, or scrolling the replay onto it) moves the
  window by half its size; the cursor lands on the turn next to where it was.
- ``g`` and ``G`` (and following) move the window to the branch's start and end.
- A search match, or any jump to a row outside the window, moves the window around that row.

A branch of up to :data:`WINDOW_TURNS` turns (nearly every session) is shown whole, as before.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from ink_tui.session.conversation.view import Turn, TurnChanges
from ink_tui.ui.widgets.window_edges import EDGE_EARLIER, is_edge

if TYPE_CHECKING:
    from ink_tui.ui.screens.session import SessionScreen

__all__ = ["WINDOW_TURNS", "Span", "TurnWindow", "span_around", "turn_index"]

WINDOW_TURNS: Final = 1000
"""Turns the tree and the replay hold at most (a Tree of 1,000 turns rebuilds in milliseconds)."""


@dataclass(frozen=True, slots=True)
class Span:
    """Turns ``lo`` to ``hi`` (not included) of a branch of ``total`` turns."""

    lo: int
    hi: int
    total: int

    @property
    def earlier(self) -> int:
        return self.lo

    @property
    def later(self) -> int:
        return self.total - self.hi

    @property
    def at_end(self) -> bool:
        return self.hi == self.total


def span_around(index: int, total: int, size: int) -> Span:
    """A window of ``size`` turns with turn ``index`` in its middle (kept inside the branch)."""
    lo = max(0, min(index - size // 2, total - size))
    return Span(lo, min(total, lo + size), total)


def span_ending(total: int, size: int) -> Span:
    return Span(max(0, total - size), total, total)


def turn_index(turns: list[Turn], key: str) -> int | None:
    """The index of the turn holding row ``key`` (a turn or an item under it)."""
    for index, turn in enumerate(turns):
        if turn.key == key or any(item.key == key for item in turn.items):
            return index
    return None


class TurnWindow:
    """The part of the session view that chooses the turns its tree and replay hold."""

    def __init__(self, view: SessionScreen, size: int | None = None) -> None:
        self.view = view
        self.size = size or WINDOW_TURNS
        self.turns: list[Turn] = []
        self.span = Span(0, 0, 0)
        self._row_labels: dict[str, str] = {}
        self._placeholder: str | None = None

    is_edge = staticmethod(is_edge)

    def holds(self, key: str) -> bool:
        """Whether row ``key`` is in the window (an edge row is too)."""
        return self.view.session_tree.node_for(key) is not None

    def show(self, turns: list[Turn], row_labels: dict[str, str], placeholder: str | None) -> None:
        """Show a branch's last turns (all of them, when partial: the first look at a big file
        holds a few, and ``placeholder`` stands for the rest)."""
        self.turns, self._row_labels, self._placeholder = turns, row_labels, placeholder
        size = len(turns) if placeholder is not None else self.size
        self.span = span_ending(len(turns), size)
        self._paint()

    def set_row_labels(self, row_labels: dict[str, str]) -> None:
        self._row_labels = row_labels

    def _paint(self) -> None:
        span, turns = self.span, self.turns
        shown = turns[span.lo : span.hi] if span.lo or span.hi < len(turns) else turns
        first = 1 + sum(1 for turn in turns[: span.lo] if turn.user is not None)
        tree, replay = self.view.session_tree, self.view.transcript
        tree.show_turns(
            shown,
            self._row_labels,
            first_number=0 if self._placeholder is not None else first,
            placeholder=self._placeholder,
            edges=(span.earlier, span.later),
        )
        replay.show(shown, self._row_labels, tree.turn_number, edges=(span.earlier, span.later))

    def _move(self, span: Span) -> bool:
        if span == self.span:
            return False
        self.span = span
        self._paint()
        return True

    def through_edge(self, edge: str) -> str | None:
        """The cursor reached an edge row: show the turns beyond it. Returns the key of the turn
        next to the edge (where the cursor goes), or ``None`` when there is nothing beyond."""
        span = self.span
        target = span.lo - 1 if edge == EDGE_EARLIER else span.hi
        if not 0 <= target < len(self.turns):
            return None
        self._move(span_around(target, len(self.turns), self.size))
        return self.turns[target].key

    def bring(self, key: str) -> bool:
        """Make row ``key`` part of the window (it may be far away). False: it is not on the
        branch."""
        if self.holds(key):
            return True
        index = turn_index(self.turns, key)
        if index is None:
            return False
        self._move(span_around(index, len(self.turns), self.size))
        return True

    def to_start(self) -> None:
        self._move(span_around(0, len(self.turns), self.size))

    def to_end(self) -> None:
        self._move(span_ending(len(self.turns), self.size))

    def grow(self, changes: list[TurnChanges]) -> list[TurnChanges]:
        """Turns and rows arrived while following (the branch's list of turns grew in place).
        Returns what of them the tree and the replay show: all, when the window reaches the end;
        else only calls answered (new turns and rows are beyond the later edge, which counts
        them)."""
        span, total = self.span, len(self.turns)
        self.span = Span(span.lo, total if span.at_end else span.hi, total)
        if span.at_end:
            return changes
        self.view.session_tree.set_edges(span.earlier, self.span.later)
        self.view.transcript.set_edges(span.earlier, self.span.later)
        return [TurnChanges(answered=change.answered) for change in changes if change.answered]
