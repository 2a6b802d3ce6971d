"""The tree of the current branch: one node per user turn, its items underneath.

Every row fits the tree's width (:class:`~ink_tui.ui.widgets.fitted_tree.FittedTree`): a long
title or argument is cut with ``…`` (a tool row keeps its status mark), and a row's label
(``# label``) comes before its title so it is never the part cut away. Rows matching the search
are marked. The tree also knows how to move by turns: ``[`` goes to the start of the current
turn (from inside it) or of the previous one (from its start), ``]`` to the start of the next
turn (at the last one: to the branch's last row).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from rich.text import Text
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from ink_tui.session.analysis.turntime import TurnTime, turn_time
from ink_tui.session.conversation.view import Item, Turn, TurnChanges
from ink_tui.ui.render import palette
from ink_tui.ui.widgets.fitted_tree import FittedTree
from ink_tui.ui.widgets.tree_labels import (
    fit_label,
    item_label,
    result_label,
    turn_label,
    turn_tail,
)
from ink_tui.ui.widgets.window_edges import EDGE_EARLIER, EDGE_LATER, edge_text

__all__ = ["SessionTree", "fit_label", "item_label", "turn_label"]

Node = TreeNode[str]
MATCH_MARK = "◆ "


@dataclass(slots=True)
class _Row:
    """What a node shows: a turn, or an item under it."""

    turn: Turn
    item: Item | None = None


class SessionTree(FittedTree):
    """Node data is the transcript key of the row the node stands for."""

    DEFAULT_CSS = """
    SessionTree {
        background: $surface;
    }
    """

    def __init__(self, label: str, *, id: str | None = None) -> None:
        super().__init__(label, id=id)
        self._row_labels: dict[str, str] = {}  # row key -> label
        self._calls_running: dict[str, float] = {}
        self._now = 0.0
        self._matches: frozenset[str] = frozenset()
        self._rows: dict[str, _Row] = {}  # row key -> what it shows
        self._turn_node: dict[str, Node] = {}
        self._node_for_key: dict[str, Node] = {}
        self._populated: set[str] = set()
        self._answered: set[int] = set()  # ids of call nodes showing their result's row
        self._edges: dict[str, Node] = {}  # edge key -> the row standing for turns not held
        self._times: dict[str, TurnTime] = {}  # turn key -> how long it took (when labelled)
        self._numbers: dict[str, int] = {}
        self._prompts = 0
        self._bulk = False
        self.moves = 0  # cursor moves keys asked for (a landing scheduled before one gives way)

    # -- labels ------------------------------------------------------------------------------

    def _label(self, key: str) -> tuple[Text, Text]:
        row = self._rows[key]
        label = self._row_labels.get(key)
        if row.item is None:
            head = turn_label(row.turn, self._numbers.get(key, 0), label)
            tail = turn_tail(self.turn_time(row.turn))
        else:
            head, tail = item_label(row.item, label, self._calls_running, self._now)
        if key in self._matches:
            head = Text.assemble((MATCH_MARK, f"bold {palette.current.warning}"), head)
        return head, tail

    def _set_label(self, node: Node, key: str) -> None:
        head, tail = self._label(key)
        self.tails[node.id] = len(tail)
        node.set_label(Text.assemble(head, tail))

    @contextmanager
    def bulk(self) -> Iterator[None]:
        """Add or relabel many nodes, invalidating the tree once at the end."""
        self._bulk = True
        try:
            yield
        finally:
            self._bulk = False
            self._invalidate()

    def _invalidate(self) -> None:
        # While thousands of turns are added at once, invalidate once at the end, not per node.
        if not self._bulk:
            super()._invalidate()

    # -- content -----------------------------------------------------------------------------

    def show_turns(
        self,
        turns: list[Turn],
        row_labels: dict[str, str],
        *,
        first_number: int = 1,
        placeholder: str | None = None,
        edges: tuple[int, int] = (0, 0),
    ) -> None:
        """Rebuild the tree: one node per turn; a turn's items are added when it first opens.

        ``placeholder``: a first row standing for the turns not read yet (``g`` and ``[`` reach
        it; the view lands at the real start once it is read). ``edges``: how many turns of the
        branch come before and after these (a window over a long branch): a row stands for each
        side that has some."""
        self.clear()
        self.root.expand()
        self._row_labels = row_labels
        self._rows = {}
        self.tails = {}
        self._turn_node = {}
        self._node_for_key = {}
        self._populated = set()
        self._answered = set()
        self._edges = {}
        self._times = {}
        self._numbers = {}
        self._prompts = first_number - 1 if first_number > 0 else -(10**9)
        earlier, later = edges
        with self.bulk():
            if placeholder is not None:
                self.root.add_leaf(Text(placeholder, style="dim italic"))
            if earlier:
                self._add_edge(EDGE_EARLIER, earlier)
            for turn in turns:
                self.add_turn(turn)
            if later:
                self._add_edge(EDGE_LATER, later)
        last_turn = self._turn_node.get(turns[-1].key) if turns else None
        if last_turn is not None:
            self._populate(last_turn)
            last_turn.expand()

    def _add_edge(self, edge: str, count: int) -> None:
        self._edges[edge] = self.root.add_leaf(Text(edge_text(edge, count), "dim italic"), edge)

    def set_edges(self, earlier: int, later: int) -> None:
        """The counts of turns before and after the window changed (turns arrived)."""
        for edge, count in ((EDGE_EARLIER, earlier), (EDGE_LATER, later)):
            node = self._edges.get(edge)
            if node is not None:
                node.set_label(Text(edge_text(edge, count), "dim italic"))

    def turn_time(self, turn: Turn) -> TurnTime:
        """How long ``turn`` took and its tokens (measured once, when first asked)."""
        time = self._times.get(turn.key)
        if time is None:
            time = self._times[turn.key] = turn_time(turn)
        return time

    def turn_of_row(self, key: str) -> str | None:
        """The key of the turn holding row ``key`` (itself, for a turn's row)."""
        row = self._rows.get(key)
        return row.turn.key if row is not None else None

    def item_of(self, key: str) -> Item | None:
        """The item row ``key`` shows (None: a turn's row, an edge, or not held)."""
        row = self._rows.get(key)
        return row.item if row is not None else None

    def turn_number(self, turn: Turn) -> int:
        """The number shown for a turn (prompts count from 1)."""
        return self._numbers.get(turn.key, 0)

    def add_turn(self, turn: Turn) -> Node:
        """Add a turn node at the end (its items are added when it first opens)."""
        if turn.user is not None:
            self._prompts += 1
        self._numbers[turn.key] = self._prompts
        self._rows[turn.key] = _Row(turn)
        for item in turn.items:
            self._rows[item.key] = _Row(turn, item)
        head, tail = self._label(turn.key)
        node = self._append_turn_node(Text.assemble(head, tail) if tail else head, turn.key)
        self.tails[node.id] = len(tail)
        self._node_for_key[turn.key] = node
        self._turn_node[turn.key] = node
        return node

    def _append_turn_node(self, label: Text, key: str) -> Node:
        """``self.root.add(label, data=key, allow_expand=True)`` for 100,000 turns: Textual's
        ``add`` (8.2.8) copies every child first (quadratic), and ``set_label`` queues a refresh
        per node. Re-check on a Textual upgrade (test_session_view, test_hostile_app_files)."""
        root = self.root
        node = self._add_node(root, self.process_label(label), key)
        node._allow_expand = True
        root._updates += 1
        root._children.append(node)
        self._invalidate()
        return node

    def add_item(self, turn: Turn, item: Item) -> None:
        """A row arrived under a turn: show it if the turn's rows are already shown."""
        self._rows[item.key] = _Row(turn, item)
        turn_node = self._turn_node.get(turn.key)
        if turn_node is not None and turn.key in self._populated:
            self._add_item_node(turn_node, item)

    def refresh_item(self, item: Item) -> None:
        """A tool call got its result (or its label or running time changed): relabel it."""
        node = self._node_for_key.get(item.key)
        if node is None:
            return
        self._set_label(node, item.key)
        if item.tool is not None and item.tool.result is not None and node.id not in self._answered:
            self._answered.add(node.id)
            node.allow_expand = True
            node.add_leaf(result_label(item), data=item.key, before=0)

    def relabel(self, keys: set[str] | None = None) -> None:
        """Build shown labels again: all of them (the theme changed), or those of ``keys``."""
        for key, node in list(self._node_for_key.items()):
            if keys is None or key in keys:
                self._set_label(node, key)

    def set_row_labels(self, row_labels: dict[str, str], changed: set[str]) -> None:
        """The labels shown on rows changed (a ``label`` record arrived): relabel ``changed``."""
        self._row_labels = row_labels
        self.relabel(changed)

    def set_running(self, running: dict[str, float], now: float, keys: set[str]) -> None:
        """Calls still waiting for their result, and since when; relabel ``keys``."""
        self._calls_running, self._now = running, now
        self.relabel(keys)

    def mark_matches(self, keys: frozenset[str]) -> None:
        """Mark the rows matching the search (and unmark the others)."""
        changed = set(keys ^ self._matches)
        self._matches = keys
        self.relabel(changed)

    def _add_item_node(self, turn_node: Node, item: Item) -> None:
        if item.tool is not None and item.tool.result is not None:
            node = turn_node.add("", data=item.key)
            node.add_leaf(result_label(item), data=item.key)
            self._answered.add(node.id)
        elif item.tool is not None and item.tool.name == "task":  # opens onto its subagent
            node = turn_node.add("", data=item.key)
        else:
            node = turn_node.add_leaf("", data=item.key)
        self._set_label(node, item.key)
        self._node_for_key.setdefault(item.key, node)

    def _populate(self, turn_node: Node) -> None:
        """Add the items of a turn node, once."""
        if turn_node.data is None or turn_node.data in self._populated:
            return
        row = self._rows.get(turn_node.data)
        if row is None:
            return
        self._populated.add(turn_node.data)
        for item in row.turn.items:
            self._add_item_node(turn_node, item)

    def _on_tree_node_expanded(self, event: Tree.NodeExpanded[str]) -> None:
        if event.node.parent is self.root:
            self._populate(event.node)

    def open_node(self, node: Node) -> None:
        """Expand a node, adding a turn's items first so they are there at once."""
        if node.parent is self.root:
            self._populate(node)
        node.expand()

    def node_for(self, key: str) -> Node | None:
        """The node standing for a transcript key (its turn's items are added if needed)."""
        node = self._node_for_key.get(key) or self._edges.get(key)
        row = self._rows.get(key)
        if node is None and row is not None:
            turn_node = self._turn_node.get(row.turn.key)
            if turn_node is not None:
                self._populate(turn_node)
                node = self._node_for_key.get(key)
        return node

    def reveal(self, node: Node) -> None:
        """Expand the node's ancestors and put the cursor on it."""
        parent = node.parent
        while parent is not None and parent is not self.root:
            self.open_node(parent)
            parent = parent.parent
        # Textual numbers lines lazily and move_cursor reads a node's line number, stale right
        # after expanding: Tree._tree_lines (private, textual==8.2.8) rebuilds them. Re-check
        # on a Textual upgrade (tests/ui: search and [ ] reveal rows in collapsed turns).
        _ = self._tree_lines
        self.move_cursor(node)

    def grow(self, changes: list[TurnChanges]) -> None:
        """Turns and rows that arrived while following, and calls that got their result."""
        grown: set[str] = set()
        with self.bulk():
            for change in changes:
                for turn in change.new_turns:
                    self.add_turn(turn)
                for turn, item in change.new_items:
                    self.add_item(turn, item)
                    grown.add(turn.key)
                for item in change.answered:
                    self.refresh_item(item)
                    grown.update(row.turn.key for row in [self._rows.get(item.key)] if row)
            for key in grown:  # the turn took longer: measure and label it again
                self._times.pop(key, None)
            self.relabel(grown & self._turn_node.keys())

    # -- moving ------------------------------------------------------------------------------

    def move(self, delta: int) -> None:
        """One row down (``delta`` > 0) or up."""
        self.moves += 1
        (self.action_cursor_down if delta > 0 else self.action_cursor_up)()

    def to_edge(self, bottom: bool, *, moved: bool = False) -> None:
        """The first or the last row shown (``moved``: a key asked for it)."""
        self.moves += moved
        if self.last_line >= 0:
            self.move_cursor_to_line(self.last_line if bottom else 0)

    def land_at_end(self) -> Callable[[], None]:
        """A callback putting the cursor on the last row, unless a key moved it before it runs
        (a ``g`` pressed as the first look appears is never undone by the look's landing)."""
        moves = self.moves

        def land() -> None:
            if self.moves == moves:
                self.to_edge(bottom=True)

        return land

    def reveal_last(self) -> None:
        """Open the last turn and put the cursor on its last row."""
        if not self.root.children:
            return
        last_turn = self.root.children[-1]
        self.open_node(last_turn)
        self.reveal(last_turn.children[-1] if last_turn.children else last_turn)

    def _turn_of(self, node: Node | None) -> Node | None:
        while node is not None and node.parent is not None and node.parent is not self.root:
            node = node.parent
        return node if node is not None and node.parent is self.root else None

    def jump_turn(self, delta: int) -> None:
        """``[`` (``delta`` -1) and ``]`` (+1), as ``{`` and ``}`` move by paragraphs.

        ``[``: to the start of the current turn when inside it, else to the previous turn's
        start. ``]``: to the next turn's start; in the last turn, to the branch's last row.
        """
        turns = list(self.root.children)
        if not turns:
            return
        self.moves += 1
        cursor = self.cursor_node
        turn = self._turn_of(cursor)
        if turn is None:
            self.move_cursor(turns[0] if delta < 0 else turns[-1])
            return
        index = turns.index(turn)
        if delta < 0:
            self.move_cursor(turn if cursor is not turn else turns[max(0, index - 1)])
        elif index + 1 < len(turns):
            self.move_cursor(turns[index + 1])
        else:
            self.reveal_last()
