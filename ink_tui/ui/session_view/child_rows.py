"""A ``task`` call's subagent session shown in place: the child's turns as rows under the call.

Under the call's row (after its result's row) come a head row saying which child it is and
whether it still runs, then the child's turns, each with its rows, as in the session's own tree.
Every row stands for the call (its key is the call's: the replay stays on the call) and knows the
child entry it shows, so Enter opens the child there. A long child shows its first
:data:`CHILD_TURNS_SHOWN` turns (and of a turn with many rows, its first
:data:`CHILD_ITEMS_SHOWN`), then a row saying what is left: opening a call never makes an
unbounded number of rows on the event loop.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from rich.text import Text

from ink_tui.humanize import plural
from ink_tui.session.conversation.branchview import LoadedBranch
from ink_tui.ui.render import palette
from ink_tui.ui.render.safe import plain
from ink_tui.ui.session_view.tree_labels import item_label, turn_label
from ink_tui.ui.session_view.tree_rows import BranchRows, TreeRow, one_line, walk

__all__ = [
    "CHILD_ITEMS_SHOWN",
    "CHILD_TURNS_SHOWN",
    "ChildState",
    "child_rows",
    "reading_row",
    "replace_child_rows",
]

CHILD_TURNS_SHOWN: Final = 200  # a longer child shows its first turns; Enter opens the rest
CHILD_ITEMS_SHOWN: Final = 100  # and of a turn with more rows, its first ones
HEAD: Final = "⤷ subagent "


@dataclass(frozen=True, slots=True)
class ChildState:
    """What is known of a call's child: its file and branch, or why it cannot be shown."""

    child_id: str | None  # the id its result names (None: a call still running, or imp-era)
    path: Path | None = None
    loaded: LoadedBranch | None = None
    running: bool = False  # Ink writes it now: a live lease, or written in the last seconds
    pending: bool = False  # the call has no result (running, or stopped without one)
    problem: str | None = None  # the file could not be read: why, in one line
    absent: str | None = None  # why no child file exists, as its task record says


def _short(child_id: str | None) -> str:
    return child_id[:8] if child_id else ""


def _head(state: ChildState) -> Text:
    loaded = state.loaded
    name = _short(state.child_id or (str(loaded.session.header.get("id", "")) if loaded else ""))
    if state.path is None:
        if state.absent is not None:  # the record says why none was kept (INK_CHILD_SESSIONS=0…)
            return plain(f"⤷ no subagent session: {state.absent}", "dim italic")
        if state.child_id is None:
            return plain("⤷ no subagent session found for this call yet", "dim italic")
        where = "not in children/ (pruned, or on another machine)"
        return plain(f"{HEAD}{name} is {where}", palette.current.warning)
    if loaded is None:
        return plain(f"{HEAD}{name}: {state.problem or 'cannot be read'}", palette.current.error)
    turns = sum(1 for turn in loaded.turns if turn.user is not None)
    counted = plural(turns, "turn")
    if state.running:
        mark = ("● running", f"bold {palette.current.ok}")
        return Text.assemble(plain(f"{HEAD}{name} · "), mark, plain(f" · {counted} so far"))
    if state.pending:
        stopped = (" · stopped without a result", palette.current.warning)
        return Text.assemble(plain(f"{HEAD}{name} · {counted}"), stopped)
    return plain(f"{HEAD}{name} · {counted} · Enter opens it", "dim")


def _row(call_key: str, label: Text, *, entry_id: str | None = None) -> TreeRow:
    return TreeRow("child", call_key, one_line(label), entry_id=entry_id)


def reading_row(call_key: str) -> TreeRow:
    """The row shown while the child is looked for and read."""
    return _row(call_key, plain("⤷ reading the subagent session…", "dim italic"))


def child_rows(call_key: str, state: ChildState) -> list[TreeRow]:
    """The rows under call ``call_key``: a head row, then the child's turns (each with its
    rows), the turns closed."""
    rows = [_row(call_key, _head(state))]
    loaded = state.loaded
    if loaded is None:
        return rows
    number = 0
    for count, turn in enumerate(loaded.turns):
        if count == CHILD_TURNS_SHOWN:
            left = len(loaded.turns) - count
            more = plain(f"⋯ {plural(left, 'more turn')}: Enter opens the subagent", "dim italic")
            rows.append(_row(call_key, more))
            break
        if turn.user is not None:
            number += 1
        entry = turn.user.id if turn.user is not None else None
        turn_row = _row(call_key, turn_label(turn, number, None), entry_id=entry)
        turn_row.expandable = True
        rows.append(turn_row)
        for index, item in enumerate(turn.items):
            if index == CHILD_ITEMS_SHOWN:
                rest = plural(len(turn.items) - index, "more row")
                more = plain(f"⋯ {rest}: Enter opens the subagent", "dim italic")
                turn_row.adopt(_row(call_key, more))
                break
            label, tail = item_label(item, None)
            turn_row.adopt(_row(call_key, Text.assemble(label, tail), entry_id=item.entry.id))
    return rows


def replace_child_rows(
    rows: BranchRows, call: TreeRow, state: ChildState, cursor: TreeRow | None
) -> TreeRow | None:
    """Show ``state``'s rows under ``call`` in place of those of a read before: the child's turns
    open before are open again. Returns the row showing the child entry ``cursor`` was on (where
    the cursor goes back to), if it was on one of the rows replaced."""
    before = [row for row in call.children if row.kind == "child"]
    at = _place(walk(before), cursor)
    opened = {row.entry_id for row in before if row.expanded and row.entry_id}
    new = child_rows(call.key or "", state)
    for row in new:
        row.expanded = row.expandable and row.entry_id in opened
    rows.set_children(call, new, keep="result")
    if at is None:
        return None
    return next((row for row, place in _places(walk(new)) if place == at), None)


def _place(rows: Iterable[TreeRow], target: TreeRow | None) -> tuple[str, int] | None:
    """Where ``target`` is among ``rows`` (see :func:`_places`), or ``None``."""
    return next((place for row, place in _places(rows) if row is target), None)


def _places(rows: Iterable[TreeRow]) -> Iterator[tuple[TreeRow, tuple[str, int]]]:
    """Each row of a child entry with its place: the entry's id, and which of that entry's rows
    it is (a message's text and each of its calls are rows of one entry)."""
    seen: dict[str, int] = {}
    for row in rows:
        if row.entry_id:
            seen[row.entry_id] = seen.get(row.entry_id, -1) + 1
            yield row, (row.entry_id, seen[row.entry_id])
