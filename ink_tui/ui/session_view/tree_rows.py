"""The session tree's rows as data (no Textual): what each row says, and which rows are shown.

The top rows are a placeholder (a first row standing for the turns not read yet), the edge rows of
a window (:mod:`.edges`) and one row per turn. A turn's rows (its items) are made when it first
opens; a tool call with a result has the result's row under it (``↳`` and the output's first
line), and a ``task`` call opens onto its subagent's rows (:mod:`.child_rows`). Every row stands
for a transcript key (the replay's block): a result's row and a subagent's rows stand for their
call's.

:class:`BranchRows` keeps the rows and the flat list of those shown (each row's ancestors are
open), changing it in place as rows open, close or arrive, so a branch of thousands of turns
costs what its changes cost. Labels are made here (numbers, labels, running calls, search marks,
turn times), each row's ``version`` counting its changes so that drawn lines can be kept.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Literal

from rich.text import Text

from ink_tui.session.conversation.view import Item, Turn, TurnChanges
from ink_tui.ui.session_view.edges import EDGE_EARLIER, EDGE_LATER, edge_text
from ink_tui.ui.session_view.tree_labels import RowLabels, result_label

__all__ = ["BranchRows", "RowKind", "TreeRow", "one_line", "walk"]

RowKind = Literal["placeholder", "edge", "turn", "item", "result", "child"]
_DIM = "dim italic"


def one_line(label: Text) -> Text:
    """A label's first line (a row is one line; labels are session text)."""
    return label.split()[0] if "\n" in label.plain else label


@dataclass(eq=False, slots=True)
class TreeRow:
    """One row of the tree: what it stands for and says, and the rows under it."""

    kind: RowKind
    key: str | None  # the transcript key it stands for (None: the placeholder)
    label: Text
    tail: int = 0  # the label's last characters never cut (a call's status, a turn's time)
    expandable: bool = False
    expanded: bool = False
    children: list[TreeRow] = field(default_factory=list)
    parent: TreeRow | None = None
    depth: int = 0
    turn: Turn | None = None  # the turn it shows, or holds the item it shows
    item: Item | None = None  # the item it shows (a call's result row: the call)
    entry_id: str | None = None  # a subagent's row: the child's entry it shows
    version: int = 0  # counts changes of its label

    @property
    def text(self) -> str:
        """The label as plain text."""
        return self.label.plain

    @property
    def is_last(self) -> bool:
        """Whether no row comes after it under its parent (its guide ends here)."""
        return self.parent is None or self.parent.children[-1] is self

    def relabel(self, label: Text, tail: int = 0) -> None:
        self.label, self.tail = one_line(label), tail
        self.version += 1

    def adopt(self, row: TreeRow, position: int | None = None) -> TreeRow:
        """Put ``row`` (and the rows under it) under this row, last or at ``position``."""
        row.parent = self
        for below in walk([row]):
            below.depth = below.parent.depth + 1 if below.parent is not None else 0
        if position is None:
            self.children.append(row)
        else:
            self.children.insert(position, row)
        return row


def walk(rows: Iterable[TreeRow]) -> Iterator[TreeRow]:
    """``rows`` and every row under them, depth first, in order (closed ones too)."""
    for row in rows:
        yield row
        yield from walk(row.children)


class BranchRows:
    """The rows of the turns shown, and the list of those on screen (:attr:`visible`)."""

    def __init__(self) -> None:
        self.top: list[TreeRow] = []
        self.visible: list[TreeRow] = []
        self.labels = RowLabels()
        self._turn_rows: dict[str, TreeRow] = {}
        self._key_rows: dict[str, TreeRow] = {}  # key -> its first row (made so far)
        self._where: dict[str, tuple[Turn, Item | None]] = {}  # every row key of the turns
        self._edges: dict[str, TreeRow] = {}
        self._populated: set[str] = set()
        self._prompts = 0

    # -- labels ----------------------------------------------------------------------------------

    def _label(self, row: TreeRow) -> None:
        if row.kind == "turn" and row.turn is not None:
            row.relabel(*self.labels.turn(row.turn))
        elif row.kind == "item" and row.item is not None:
            row.relabel(*self.labels.item(row.item))
        elif row.kind == "result" and row.item is not None:
            row.relabel(result_label(row.item))
        # the placeholder, edges and a subagent's rows say what they were made with

    def relabel(self, keys: Iterable[str] | None = None) -> None:
        """Make labels again: all of them (the theme changed), or those of ``keys``."""
        rows = walk(self.top) if keys is None else (self._key_rows.get(key) for key in keys)
        for row in rows:
            if row is not None:
                self._label(row)

    def set_row_labels(self, row_labels: dict[str, str], changed: Iterable[str]) -> None:
        """The labels shown on rows changed (a ``label`` record arrived): relabel ``changed``."""
        self.labels.row_labels = row_labels
        self.relabel(changed)

    def set_running(self, running: dict[str, float], now: float, keys: Iterable[str]) -> None:
        """Calls still waiting for their result, and since when; relabel ``keys``."""
        self.labels.running, self.labels.now = running, now
        self.relabel(keys)

    def mark_matches(self, keys: frozenset[str]) -> None:
        """Mark the rows matching the search (and unmark the others)."""
        changed = keys ^ self.labels.matches
        self.labels.matches = keys
        self.relabel(changed)

    def turn_number(self, turn: Turn) -> int:
        """The number shown for a turn (prompts count from 1; 0: not known yet)."""
        return self.labels.numbers.get(turn.key, 0)

    # -- content ---------------------------------------------------------------------------------

    def show(
        self,
        turns: list[Turn],
        row_labels: dict[str, str],
        *,
        first_number: int = 1,
        placeholder: str | None = None,
        edges: tuple[int, int] = (0, 0),
    ) -> None:
        """Rows for these turns (``first_number``: the first prompt's; 0: not known), the last
        turn open. ``placeholder``: a first row standing for the turns not read yet. ``edges``:
        how many turns of the branch come before and after these: an edge row for each side
        that has some."""
        self.top, self.visible = [], []
        self._turn_rows, self._key_rows, self._where, self._edges = {}, {}, {}, {}
        self._populated = set()
        old = self.labels  # calls running and search marks stay; numbers and times are new
        self.labels = RowLabels(row_labels, old.running, old.now, old.matches)
        self._prompts = first_number - 1 if first_number > 0 else -(10**9)
        earlier, later = edges
        if placeholder is not None:
            self.top.append(TreeRow("placeholder", None, Text(placeholder, _DIM)))
        if earlier:
            self._add_edge(EDGE_EARLIER, earlier)
        for turn in turns:
            self.top.append(self._turn_row(turn))
        if later:
            self._add_edge(EDGE_LATER, later)
        self.visible = list(self.top)
        last = self._turn_rows.get(turns[-1].key) if turns else None
        if last is not None:
            self.expand(last)

    def _add_edge(self, edge: str, count: int) -> None:
        row = TreeRow("edge", edge, Text(edge_text(edge, count), _DIM))
        self._edges[edge] = row
        self.top.append(row)

    def set_edges(self, earlier: int, later: int) -> None:
        """The counts of turns before and after the window changed (turns arrived)."""
        for edge, count in ((EDGE_EARLIER, earlier), (EDGE_LATER, later)):
            row = self._edges.get(edge)
            if row is not None:
                row.relabel(Text(edge_text(edge, count), _DIM))

    def _turn_row(self, turn: Turn) -> TreeRow:
        if turn.user is not None:
            self._prompts += 1
        self.labels.numbers[turn.key] = self._prompts
        self._where[turn.key] = (turn, None)
        for item in turn.items:
            self._where[item.key] = (turn, item)
        row = TreeRow("turn", turn.key, Text(), expandable=True, turn=turn)
        self._label(row)
        self._turn_rows[turn.key] = self._key_rows[turn.key] = row
        return row

    def add_turn(self, turn: Turn) -> TreeRow:
        """A turn arrived (following): its row at the end (its items made when it opens)."""
        row = self._turn_row(turn)
        self.top.append(row)
        self.visible.append(row)
        return row

    def _item_row(self, turn: Turn, item: Item) -> TreeRow:
        tool = item.tool
        answered = tool is not None and tool.result is not None
        task = tool is not None and tool.name == "task"  # opens onto its subagent
        row = TreeRow("item", item.key, Text(), expandable=answered or task, turn=turn, item=item)
        self._label(row)
        if answered:
            row.adopt(self._result_row(turn, item))
        self._key_rows.setdefault(item.key, row)
        return row

    @staticmethod
    def _result_row(turn: Turn, item: Item) -> TreeRow:
        return TreeRow("result", item.key, one_line(result_label(item)), turn=turn, item=item)

    def _populate(self, row: TreeRow) -> None:
        """Make a turn row's rows, once."""
        if row.kind != "turn" or row.turn is None or row.turn.key in self._populated:
            return
        self._populated.add(row.turn.key)
        for item in row.turn.items:
            row.adopt(self._item_row(row.turn, item))

    def add_item(self, turn: Turn, item: Item) -> None:
        """A row arrived under a turn: shown if the turn's rows were made already."""
        self._where[item.key] = (turn, item)
        row = self._turn_rows.get(turn.key)
        if row is not None and turn.key in self._populated:
            self.add_under(row, self._item_row(turn, item))

    def answered(self, item: Item) -> None:
        """A tool call got its result (or its label or running time changed): relabel it, and
        put its result's row first under it."""
        row = self._key_rows.get(item.key)
        if row is None or row.kind != "item":
            return
        self._label(row)
        answered = item.tool is not None and item.tool.result is not None
        if answered and row.turn is not None and not any(r.kind == "result" for r in row.children):
            row.expandable = True
            self.add_under(row, self._result_row(row.turn, item), 0)

    def grow(self, changes: list[TurnChanges]) -> None:
        """Turns and rows that arrived while following, and calls that got their result."""
        grown: set[str] = set()
        for change in changes:
            for turn in change.new_turns:
                self.add_turn(turn)
            for turn, item in change.new_items:
                self.add_item(turn, item)
                grown.add(turn.key)
            for item in change.answered:
                self.answered(item)
                where = self._where.get(item.key)
                if where is not None:
                    grown.add(where[0].key)
        for key in grown:  # the turn took longer: measure and label it again
            self.labels.times.pop(key, None)
        self.relabel(grown & self._turn_rows.keys())

    # -- finding rows ----------------------------------------------------------------------------

    def row_for(self, key: str) -> TreeRow | None:
        """The row standing for a transcript key (a call's own row, not its result's); its
        turn's rows are made if needed. None: no such row here."""
        row = self._key_rows.get(key) or self._edges.get(key)
        if row is None and key in self._where:
            turn_row = self._turn_rows.get(self._where[key][0].key)
            if turn_row is not None:
                self._populate(turn_row)
                row = self._key_rows.get(key)
        return row

    def turn_of_row(self, key: str) -> str | None:
        """The key of the turn holding row ``key`` (itself, for a turn's row)."""
        where = self._where.get(key)
        return where[0].key if where is not None else None

    def item_of(self, key: str) -> Item | None:
        """The item row ``key`` shows (None: a turn's row, an edge, or not held)."""
        where = self._where.get(key)
        return where[1] if where is not None else None

    @staticmethod
    def turn_row_of(row: TreeRow) -> TreeRow:
        """The top row ``row`` is under (itself, for a top row)."""
        while row.parent is not None:
            row = row.parent
        return row

    def turn_target(self, cursor: TreeRow | None, delta: int) -> TreeRow | None:
        """Where ``[`` (``delta`` -1) and ``]`` (+1) go from ``cursor``, as ``{`` and ``}`` move
        by paragraphs: ``[`` to the start of the current turn from inside it, else of the
        previous one; ``]`` to the next turn's start. None: past the last turn (``]`` there goes
        to the branch's last row)."""
        tops = self.top
        if not tops:
            return None
        if cursor is None:
            return tops[0] if delta < 0 else tops[-1]
        turn = self.turn_row_of(cursor)
        index = next((i for i, row in enumerate(tops) if row is turn), 0)
        if delta < 0:
            return turn if cursor is not turn else tops[max(0, index - 1)]
        return tops[index + 1] if index + 1 < len(tops) else None

    # -- what is shown ---------------------------------------------------------------------------

    def index_of(self, row: TreeRow) -> int | None:
        """Where ``row`` is in :attr:`visible` (None: it is not shown)."""
        parent = row.parent
        while parent is not None:  # a row under a closed one is not looked for
            if not parent.expanded:
                return None
            parent = parent.parent
        try:
            return self.visible.index(row)
        except ValueError:
            return None

    def _below(self, row: TreeRow) -> list[TreeRow]:
        """The rows shown under ``row`` when it is open."""
        shown: list[TreeRow] = []
        for child in row.children:
            shown.append(child)
            if child.expanded:
                shown.extend(self._below(child))
        return shown

    def _end(self, index: int) -> int:
        """The index just past the rows shown under ``visible[index]``."""
        visible, depth = self.visible, self.visible[index].depth
        end = index + 1
        while end < len(visible) and visible[end].depth > depth:
            end += 1
        return end

    def _reflow(self, row: TreeRow) -> None:
        """The rows under ``row`` changed: show them again as they are now."""
        index = self.index_of(row)
        if index is not None:
            self.visible[index + 1 : self._end(index)] = self._below(row) if row.expanded else []

    def expand(self, row: TreeRow) -> bool:
        """Open ``row`` (a turn's rows are made first). Whether it was closed."""
        if not row.expandable or row.expanded:
            return False
        self._populate(row)
        row.expanded = True
        self._reflow(row)
        return True

    def collapse(self, row: TreeRow) -> bool:
        """Close ``row``. Whether it was open."""
        if not row.expanded:
            return False
        index = self.index_of(row)
        row.expanded = False
        if index is not None:
            del self.visible[index + 1 : self._end(index)]
        return True

    def add_under(self, parent: TreeRow, row: TreeRow, position: int | None = None) -> None:
        """Put ``row`` under ``parent`` (last, or at ``position``), shown if ``parent`` is."""
        parent.adopt(row, position)
        self._reflow(parent)

    def set_children(self, parent: TreeRow, rows: list[TreeRow], *, keep: RowKind) -> None:
        """Replace the rows under ``parent`` with ``rows``, after those of kind ``keep``."""
        parent.children = [row for row in parent.children if row.kind == keep]
        for row in rows:
            parent.adopt(row)
        self._reflow(parent)
