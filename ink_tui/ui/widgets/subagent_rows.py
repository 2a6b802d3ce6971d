"""A ``task`` call's subagent session shown in place: the child's turns as rows under the call.

Under the call's node (after its result's row) come a head row saying which child it is and
whether it still runs, then the child's turns, each with its rows, as in the session's own tree.
Every row added stands for the call (its node data is the call's key: the replay stays on the
call), and remembers the child entry it shows, so Enter opens the child there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from rich.text import Text
from textual.widgets.tree import TreeNode

from ink_tui.humanize import plural
from ink_tui.session.conversation.branchview import LoadedBranch
from ink_tui.ui.render import palette
from ink_tui.ui.render.safe import plain
from ink_tui.ui.widgets.tree_labels import item_label, turn_label

__all__ = [
    "CHILD_ITEMS_SHOWN",
    "CHILD_TURNS_SHOWN",
    "ChildRows",
    "ChildState",
    "add_child_rows",
    "reading_row",
]

Node = TreeNode[str]
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


@dataclass(slots=True)
class ChildRows:
    """The rows added under one call node."""

    nodes: list[Node] = field(default_factory=list)  # directly under the call
    entries: dict[int, str] = field(default_factory=dict)  # node id -> child entry id
    by_entry: dict[str, Node] = field(default_factory=dict)  # child entry id -> its first row

    def shows(self, node: Node, entry_id: str) -> None:
        self.entries[node.id] = entry_id
        self.by_entry.setdefault(entry_id, node)


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


def reading_row(call: Node) -> Node:
    """The row shown while the child is looked for and read."""
    return call.add_leaf(plain("⤷ reading the subagent session…", "dim italic"), data=call.data)


def add_child_rows(call: Node, state: ChildState) -> ChildRows:
    """Add the child's rows under ``call``: a head row, then its turns (each with its rows)."""
    rows = ChildRows()
    head = call.add_leaf(_head(state), data=call.data)
    rows.nodes.append(head)
    loaded = state.loaded
    if loaded is None:
        return rows
    number = 0
    for count, turn in enumerate(loaded.turns):
        if count == CHILD_TURNS_SHOWN:
            left = len(loaded.turns) - count
            more = plain(f"⋯ {plural(left, 'more turn')}: Enter opens the subagent", "dim italic")
            rows.nodes.append(call.add_leaf(more, data=call.data))
            break
        if turn.user is not None:
            number += 1
        node = call.add(turn_label(turn, number, None), data=call.data)
        rows.nodes.append(node)
        if turn.user is not None:
            rows.shows(node, turn.user.id)
        for index, item in enumerate(turn.items):
            if index == CHILD_ITEMS_SHOWN:
                rest = plural(len(turn.items) - index, "more row")
                more = plain(f"⋯ {rest}: Enter opens the subagent", "dim italic")
                node.add_leaf(more, data=call.data)
                break
            label, tail = item_label(item, None)
            leaf = node.add_leaf(Text.assemble(label, tail), data=call.data)
            rows.shows(leaf, item.entry.id)
    return rows
