"""The branches list: one line per leaf (a Line-API view), and the highlighted leaf's detail.

Columns, left to right: the mark (``●`` the current leaf, ``⤷`` a position marker moved the leaf
into this branch), its labels, where it leaves the current branch (``turn 12 · 3f9a0c1e``), its
age, its size beyond that point, and its last prompt, which takes what is left and is the only
cell elided. When the table is narrow the size, then the age, then the fork point are hidden
(the detail line under the table still says them).

Rows are not widgets: :class:`BranchTable` draws only the lines on screen (``render_line``),
each built on first use and kept in an LRU cache, so a list of thousands of leaves costs what
its visible lines cost. Every cell is built with :func:`ink_tui.ui.render.safe.plain`: prompts,
labels and ids are session text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Final

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import BindingType
from textual.geometry import Size
from textual.message import Message

from ink_tui.humanize import human_size, plural, relative_age
from ink_tui.session.conversation.entrytext import first_line, short_time
from ink_tui.session.conversation.forks import BranchList, LeafRow
from ink_tui.session.reading.timestamps import timestamp_seconds
from ink_tui.ui.keymap import bind
from ink_tui.ui.options import app_now
from ink_tui.ui.render.cut import cut_label
from ink_tui.ui.render.safe import plain
from ink_tui.ui.widgets.cursor_list import CursorList

__all__ = ["BranchTable", "describe_leaf", "fork_cell", "leaf_age", "short_id"]

CURRENT_MARK: Final = "●"
MOVED_MARK: Final = "⤷"
ID_WIDTH: Final = 8
GAP: Final = 2  # spaces between columns
_ROOTS: Final = {"root": "own root", "orphan": "⚠ parent missing", "cycle": "⚠ parentId cycle"}

# (key, header, width); the labels column is sized to its widest cell, the prompt takes the rest.
_COLUMNS: Final = (
    ("mark", "", 1),
    ("labels", "labels", 0),
    ("fork", "from", 22),
    ("age", "age", 8),
    ("size", "size", 9),
    ("prompt", "last prompt", 0),
)
_RIGHT: Final = frozenset({"size"})
_MIN_PROMPT: Final = 24
_MIN_LABELS: Final = 12  # labels: as wide as the widest cell, up to a fifth of the width, at
# least this (the detail line shows every label whole)
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
    stamp = timestamp_seconds(row.timestamp)
    return "?" if stamp is None else relative_age(stamp, now)


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


@dataclass(frozen=True, slots=True)
class _Layout:
    width: int
    columns: tuple[tuple[str, int], ...]  # shown columns and their widths


class BranchTable(CursorList):
    """Every leaf of a session, newest first; the cursor starts on the current one."""

    BINDINGS: ClassVar[list[BindingType]] = [bind("open", "select", "Show branch", show=True)]
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "branch-table--cursor",
        "branch-table--current",
        "branch-table--label",
        "branch-table--muted",
    }
    CURSOR_CLASS = "branch-table--cursor"
    DEFAULT_CSS = """
    BranchTable { background: $surface; }
    BranchTable > .branch-table--cursor { background: $primary 35%; }
    BranchTable:focus > .branch-table--cursor { background: $primary 55%; }
    BranchTable > .branch-table--current { color: $accent; text-style: bold; }
    BranchTable > .branch-table--label { color: $secondary; }
    BranchTable > .branch-table--muted { color: $text-muted; }
    """

    class Highlighted(Message):
        """The cursor moved to ``row`` (``None``: the list is empty)."""

        def __init__(self, row: LeafRow | None) -> None:
            super().__init__()
            self.row = row

    class Selected(Message):
        """Enter (or a second click) on ``row``."""

        def __init__(self, row: LeafRow) -> None:
            super().__init__()
            self.row = row

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.listing: BranchList | None = None
        self.fitted = _Layout(0, ())

    # -- content -------------------------------------------------------------------------------

    @property
    def rows(self) -> list[LeafRow]:
        return self.listing.rows if self.listing is not None else []

    @property
    def row_count(self) -> int:
        return len(self.rows)

    @property
    def highlighted(self) -> LeafRow | None:
        rows = self.rows
        return rows[self.cursor_row] if 0 <= self.cursor_row < len(rows) else None

    def select(self, index: int) -> None:
        self.post_message(self.Selected(self.rows[index]))

    def cursor_moved(self) -> None:
        self.post_message(self.Highlighted(self.highlighted))

    def show(self, listing: BranchList) -> None:
        """Show ``listing``, the cursor on the current leaf (else the newest)."""
        self.listing = listing
        self._relayout()
        current = next((i for i, row in enumerate(listing.rows) if row.is_current), 0)
        self.cursor_row = current
        self.call_after_refresh(self.scroll_to_cursor)  # once the new size is laid out

    def header(self) -> Text:
        """The column titles, aligned with the rows (the screen shows them above the list)."""
        text = Text(no_wrap=True, overflow="ellipsis")
        for index, (key, width) in enumerate(self.fitted.columns):
            title = next(title for k, title, _ in _COLUMNS if k == key)
            text.append(" " * GAP if index else " ")
            text.append(title.rjust(width) if key in _RIGHT else title.ljust(width))
        return text

    def _text_width(self, width: int) -> int:
        """The width the lines get: the widget's, less the vertical scrollbar's room."""
        return width - self.styles.scrollbar_size_vertical

    def _relayout(self) -> None:
        self.fitted = self._fit(self._text_width(self.size.width or self.app.size.width))
        self._lines.clear()
        self.virtual_size = Size(self.fitted.width, len(self.rows))
        self.refresh()

    def _fit(self, width: int) -> _Layout:
        """Column widths: the fixed ones, labels as wide as needed, the prompt the rest."""
        widest = max((len(_labels_text(row)) for row in self.rows), default=0)
        widths = {key: fixed for key, _, fixed in _COLUMNS if fixed}
        if widest:
            widths["labels"] = max(len("labels"), min(widest, max(_MIN_LABELS, width // 5)))

        def room() -> int:  # what the prompt gets: the width less the columns and gaps
            return width - 1 - sum(widths.values()) - GAP * len(widths)

        for candidate in (None, *_DROP_ORDER):
            if candidate is not None:
                del widths[candidate]
            if room() >= _MIN_PROMPT:
                break
        if "labels" in widths and room() < _MIN_PROMPT:  # labels give up room, to a minimum
            widths["labels"] -= max(0, min(widths["labels"] - _MIN_LABELS, _MIN_PROMPT - room()))
        widths["prompt"] = max(8, room())
        return _Layout(width, tuple((key, widths[key]) for key, _, _ in _COLUMNS if key in widths))

    # -- drawing -------------------------------------------------------------------------------

    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(f"branch-table--{name}", partial=True)

    def row_text(self, index: int, width: int) -> Text:
        row = self.rows[index]
        current = self._style("current") if row.is_current else Style()
        mark = CURRENT_MARK if row.is_current else (MOVED_MARK if row.moves else "")
        prompt = row.prompt if row.prompt is not None else "(no prompt on this branch)"
        cells = {
            "mark": plain(mark, self._style("current")),
            "labels": plain(_labels_text(row), self._style("label")),
            "fork": plain(fork_cell(row), current or self._style("muted")),
            "age": plain(leaf_age(row, app_now(self))),
            "size": plain(human_size(row.own_bytes)),
            "prompt": plain(first_line(prompt), current),
        }
        text = Text(no_wrap=True)  # as wide as the columns: the view scrolls sideways past it
        for column, (key, cell_width) in enumerate(self.fitted.columns):
            cell = cut_label(cells[key], cell_width)
            if key in _RIGHT:
                cell.pad_left(cell_width - cell.cell_len)
            else:
                cell.pad_right(cell_width - cell.cell_len)
            text.append(" " * GAP if column else " ")
            text.append_text(cell)
        return text

    def on_resize(self, event: events.Resize) -> None:
        if self.listing is None:
            return
        if self._fit(self._text_width(event.size.width)) != self.fitted:
            self._relayout()
            self.post_message(self.Highlighted(self.highlighted))
        self.call_after_refresh(self.scroll_to_cursor)  # the cursor stays in sight
