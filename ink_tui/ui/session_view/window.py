"""Which turns the session view holds: all of them, or a window over a very long branch.

A tree row and a replay block per row of a branch of a million turns (a file of a million tiny
records) would block the screen for seconds and take gigabytes. A branch of more than
:data:`WINDOW_TURNS` turns is shown that many at a time: the tree and the replay hold the same
window, and an edge row (``⋯ 998,000 earlier turns``) stands for the rest at either end.

- Moving onto an edge row (``k``, ``[``, ``]``, or scrolling the replay onto it) moves the
  window by half its size; the cursor lands on the turn next to where it was.
- ``g`` and ``G`` (and following) move the window to the branch's start and end.
- A search match, or any jump to a row outside the window, moves the window around that row.

A branch of up to :data:`WINDOW_TURNS` turns (nearly every session) is shown whole.

:class:`TurnWindow` is the arithmetic alone (no widget): each move says whether the window
moved, and the screen then shows :meth:`TurnWindow.shown` in the tree and the replay.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ink_tui.session.conversation.view import Turn, TurnChanges
from ink_tui.ui.session_view.edges import EDGE_EARLIER, EDGE_LATER

__all__ = ["WINDOW_TURNS", "Shown", "Span", "TurnWindow", "span_around", "turn_index"]

WINDOW_TURNS: Final = 1000
"""Turns the tree and the replay hold at most (a tree of 1,000 turns rebuilds in milliseconds)."""


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


@dataclass(frozen=True, slots=True)
class Shown:
    """What the tree and the replay show: ``turns``, numbered from ``first_number`` (0: not known
    yet, while earlier turns are read), the turns not held before and after them (``edges``), and
    the placeholder row standing for the turns not read yet (None: none)."""

    turns: list[Turn]
    first_number: int
    edges: tuple[int, int]
    placeholder: str | None


class TurnWindow:
    """The turns of a branch the session view holds: which, and where the window moves."""

    def __init__(self, size: int | None = None) -> None:
        self.size = size or WINDOW_TURNS
        self.turns: list[Turn] = []
        self.span = Span(0, 0, 0)
        self._placeholder: str | None = None
        self._held: set[str] | None = None  # the row keys in the window (made when first asked)

    # -- what is shown -------------------------------------------------------------------------

    def show(self, turns: list[Turn], placeholder: str | None) -> Shown:
        """A branch's last turns (all of them, when partial: the first look at a big file holds
        a few, and ``placeholder`` stands for the rest)."""
        self.turns, self._placeholder = turns, placeholder
        size = len(turns) if placeholder is not None else self.size
        self._set(span_ending(len(turns), size))
        return self.shown()

    def shown(self) -> Shown:
        """The turns of the window, and what stands for the rest."""
        span, turns = self.span, self.turns
        held = turns[span.lo : span.hi] if span.lo or span.hi < len(turns) else turns
        partial = self._placeholder is not None
        first = 0 if partial else 1 + sum(1 for turn in turns[: span.lo] if turn.user is not None)
        return Shown(held, first, (span.earlier, span.later), self._placeholder)

    def holds(self, key: str) -> bool:
        """Whether row ``key`` is in the window (an edge row is, while it stands for turns)."""
        if key == EDGE_EARLIER:
            return self.span.earlier > 0
        if key == EDGE_LATER:
            return self.span.later > 0
        if self._held is None:
            self._held = {
                row for turn in self.turns[self.span.lo : self.span.hi] for row in _keys(turn)
            }
        return key in self._held

    # -- moving --------------------------------------------------------------------------------

    def _set(self, span: Span) -> bool:
        if span == self.span:
            return False
        self.span, self._held = span, None
        return True

    def through_edge(self, edge: str) -> tuple[str | None, bool]:
        """The cursor reached an edge row: the window moves over the turns beyond it. Returns the
        key of the turn next to the edge (where the cursor goes; None: nothing beyond) and
        whether the window moved."""
        span = self.span
        target = span.lo - 1 if edge == EDGE_EARLIER else span.hi
        if not 0 <= target < len(self.turns):
            return None, False
        moved = self._set(span_around(target, len(self.turns), self.size))
        return self.turns[target].key, moved

    def bring(self, key: str) -> bool:
        """Make row ``key`` part of the window (it may be far away). Returns whether the window
        moved (not when it holds the row already, nor when the row is not on the branch)."""
        if self.holds(key):
            return False
        index = turn_index(self.turns, key)
        if index is None:
            return False
        return self._set(span_around(index, len(self.turns), self.size))

    def to_start(self) -> bool:
        """The window at the branch's start; whether it moved."""
        return self._set(span_around(0, len(self.turns), self.size))

    def to_end(self) -> bool:
        """The window at the branch's end; whether it moved."""
        return self._set(span_ending(len(self.turns), self.size))

    def grow(self, changes: list[TurnChanges]) -> list[TurnChanges]:
        """Turns and rows arrived while following (the branch's list of turns grew in place).
        Returns what of them the tree and the replay show: all, when the window reaches the end;
        else only calls answered (new turns and rows are beyond the later edge, which counts
        them: :attr:`span` says the new counts)."""
        span, total = self.span, len(self.turns)
        self.span = Span(span.lo, total if span.at_end else span.hi, total)
        if not span.at_end:
            return [TurnChanges(answered=change.answered) for change in changes if change.answered]
        if self._held is not None:
            for change in changes:
                for turn in change.new_turns:
                    self._held.update(_keys(turn))
                self._held.update(item.key for _turn, item in change.new_items)
        return changes


def _keys(turn: Turn) -> list[str]:
    return [turn.key, *(item.key for item in turn.items)]
