"""The branches screen's list: one DataTable row per leaf, and the detail of the highlighted one.

Columns, left to right: the mark (``●`` the current leaf, ``⤷`` a position marker moved the leaf
into this branch), its labels, where it leaves the current branch (``turn 12 · 3f9a0c1e``), its
age, its size beyond that point, and its last prompt, which takes what is left and is the only
cell elided. When the table is narrow the size, then the age, then the fork point are hidden
(the detail line under the table still says them). Every cell is built with
:func:`ink_tui.ui.render.safe.plain`: prompts, labels and ids are session text.
"""

from __future__ import annotations

from datetime import datetime
from typing import Final

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.widgets import DataTable

from ink_tui.humanize import human_size, plural, relative_age
from ink_tui.session.entrytext import first_line, short_time
from ink_tui.session.forks import BranchList, LeafRow
from ink_tui.ui.options import app_now
from ink_tui.ui.render.safe import plain

__all__ = ["BranchTable", "describe_leaf", "fork_cell", "leaf_age"]

CURRENT_MARK: Final = "●"
MOVED_MARK: Final = "⤷"
ID_WIDTH: Final = 8
_ROOTS: Final = {"root": "own root", "orphan": "⚠ parent missing", "cycle": "⚠ parentId cycle"}

# (key, header, width); the labels column is sized to its widest cell, the prompt takes the rest.
_FIXED: Final = (
    ("mark", "", 1),
    ("labels", "labels", 0),
    ("fork", "from", 22),
    ("age", "age", 8),
    ("size", "size", 9),
    ("prompt", "last prompt", 0),
)
_NUMERIC: Final = frozenset({"size"})
_MIN_PROMPT: Final = 24
_MIN_LABELS: Final = 12  # the labels column: as wide as its widest cell, up to a fifth of the
# table but at least this (the detail line shows every label whole)
_DROP_ORDER: Final = ("size", "age", "fork")


def short_id(entry_id: str) -> str:
    return entry_id[:ID_WIDTH]


def fork_cell(row: LeafRow) -> str:
    """Where the leaf's branch leaves the current one: ``turn 12 · 3f9a0c1e``."""
    if row.is_current:
        return "current branch"
    if row.fork_id is None:
        return _ROOTS[row.root_kind]
    turn = f"turn {row.fork_turn:,}" if row.fork_turn else "start"
    return f"{turn} · {short_id(row.fork_id)}"


def leaf_age(row: LeafRow, now: float) -> str:
    """The leaf's age from its timestamp (``?`` when it is not an ISO time)."""
    try:
        stamp = datetime.fromisoformat(row.timestamp).timestamp()
    except ValueError:
        return "?"
    return relative_age(stamp, now)


def _labels_text(row: LeafRow) -> str:
    return "  ".join(f"#{label}" for _, label in row.labels)


def describe_leaf(row: LeafRow, listing: BranchList) -> Text:
    """The detail of one leaf: its id, time and line, where it forks, labels, markers."""
    text = Text()
    head = "● current leaf" if row.is_current else "leaf"
    text.append_text(plain(f"{head} {row.id}", "bold"))
    text.append_text(plain(f"  ·  {short_time(row.timestamp)}  ·  line {row.entry.line:,}"))
    text.append_text(plain(f"  ·  ends with: {first_line(row.summary, 60)}", "dim"))
    size = f"{plural(row.own_entries, 'entry', 'entries')}, {human_size(row.own_bytes)}"
    if row.is_current:
        where = (
            f"since the last fork, after entry {row.fork_id} (turn {row.fork_turn:,})"
            if row.fork_id is not None
            else "from the root: the session has no fork on this branch"
        )
        line = f"the current branch ({plural(listing.current_turns, 'turn')}): {size} {where}"
    elif row.fork_id is not None:
        turn = f"turn {row.fork_turn:,}" if row.fork_turn else "before the first prompt"
        line = f"leaves the current branch after entry {row.fork_id} ({turn}): {size} of its own"
    else:
        line = f"shares nothing with the current branch ({_ROOTS[row.root_kind]}): {size}"
    text.append_text(plain(f"\n{line}"))
    if row.labels:
        labels = "  ".join(f"#{label} (on {short_id(target)})" for target, label in row.labels)
        text.append_text(plain(f"\nlabels: {labels}"))
    if row.moves:
        moved = "; ".join(move.describe() for move in row.moves[:4])
        more = f"; and {len(row.moves) - 4} more" if len(row.moves) > 4 else ""
        text.append_text(plain(f"\nposition markers: {moved}{more}"))
    return text


class BranchTable(DataTable[Text]):
    """Every leaf of a session, newest first; the cursor starts on the current one."""

    BINDINGS = [Binding("enter", "select_cursor", "Show branch")]
    COMPONENT_CLASSES = {"branch-table--current", "branch-table--label", "branch-table--muted"}
    DEFAULT_CSS = """
    BranchTable > .branch-table--current { color: $accent; text-style: bold; }
    BranchTable > .branch-table--label { color: $secondary; }
    BranchTable > .branch-table--muted { color: $text-muted; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=False)
        self.listing: BranchList | None = None
        self._layout: tuple[tuple[str, int], ...] = ()

    @property
    def highlighted(self) -> LeafRow | None:
        rows = self.listing.rows if self.listing is not None else []
        return rows[self.cursor_row] if 0 <= self.cursor_row < len(rows) else None

    def show(self, listing: BranchList) -> None:
        """Fill the table, the cursor on the current leaf (else the newest)."""
        self.listing = listing
        self.rebuild()
        current = next((i for i, row in enumerate(listing.rows) if row.is_current), 0)
        self.move_cursor(row=current, animate=False)

    def rebuild(self) -> None:
        if self.listing is None:
            return
        row_index = self.cursor_row
        self.clear(columns=True)
        self._layout = self._fit()
        for key, width in self._layout:
            header = next(header for k, header, _ in _FIXED if k == key)
            label = Text(header, justify="right" if key in _NUMERIC else "left")
            self.add_column(label, width=width, key=key)
        now = app_now(self)
        self.add_rows(self._cells(row, now) for row in self.listing.rows)
        if self.listing.rows:
            self.move_cursor(row=min(row_index, len(self.listing.rows) - 1), animate=False)

    def _fit(self) -> tuple[tuple[str, int], ...]:
        """Column widths: the fixed ones, labels as wide as needed, the prompt the rest."""
        rows = self.listing.rows if self.listing is not None else []
        width = (self.size.width or self.app.size.width) - 2  # the vertical scrollbar
        pad = 2 * self.cell_padding
        widest = max((len(_labels_text(row)) for row in rows), default=0)
        labels = min(widest, max(_MIN_LABELS, width // 5))
        widths = {key: fixed for key, _, fixed in _FIXED if fixed}
        if labels:
            widths["labels"] = max(len("labels"), labels)
        for candidate in (None, *_DROP_ORDER):
            if candidate is not None:
                del widths[candidate]
            prompt = width - sum(w + pad for w in widths.values()) - pad
            if prompt >= _MIN_PROMPT:
                break
        if "labels" in widths and prompt < _MIN_PROMPT:  # labels give up room, down to a minimum
            give = min(widths["labels"] - _MIN_LABELS, _MIN_PROMPT - prompt)
            if give > 0:
                widths["labels"] -= give
                prompt += give
        widths["prompt"] = max(8, prompt)
        return tuple((key, widths[key]) for key, _, _ in _FIXED if key in widths)

    def _style(self, name: str) -> Style:
        try:
            return self.get_component_rich_style(f"branch-table--{name}", partial=True)
        except KeyError:  # pragma: no cover - styles not applied yet
            return Style()

    def _cells(self, row: LeafRow, now: float) -> list[Text]:
        current = self._style("current") if row.is_current else Style()
        mark = CURRENT_MARK if row.is_current else (MOVED_MARK if row.moves else "")
        prompt = row.prompt if row.prompt is not None else "(no prompt on this branch)"
        cells = {
            "mark": plain(mark, self._style("current")),
            "labels": plain(_labels_text(row), self._style("label")),
            "fork": plain(fork_cell(row), current or self._style("muted")),
            "age": plain(leaf_age(row, now)),
            "size": plain(human_size(row.own_bytes)),
            "prompt": plain(first_line(prompt), current),
        }
        out = []
        for key, _ in self._layout:
            cell = cells[key]
            cell.no_wrap = True
            cell.overflow = "ellipsis"
            if key in _NUMERIC:
                cell.justify = "right"
            out.append(cell)
        return out

    def on_resize(self, event: events.Resize) -> None:
        if self.listing is not None and self._fit() != self._layout:
            self.rebuild()
