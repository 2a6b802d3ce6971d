"""The picker's list of sessions: one line per session file, filterable, drawn with the Line API.

Only the lines on screen are drawn (:class:`~ink_tui.ui.widgets.cursor_list.CursorList`: a bounded
cache of drawn lines), so the first frame of a project of a thousand sessions draws the thirty
it shows, where a ``DataTable`` built every cell of every row before its first frame. The
column names are a header line that stays while the rows scroll.

Every cell is built with :func:`ink_tui.ui.render.safe.plain`: titles, ids, folder names and
model names all come from session files and are untrusted.

The columns, their widths and which go first when the list is narrow are
:mod:`ink_tui.ui.widgets.session_columns`'s. Texts are cut by
:func:`~ink_tui.ui.render.cut.cut_label` (by cell width, as every label).
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Iterable
from pathlib import Path
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.strip import Strip

from ink_tui.catalog import SessionSummary
from ink_tui.humanize import THIS_MACHINE, compact_count, human_size, relative_age
from ink_tui.ui.keymap import bind
from ink_tui.ui.options import app_now
from ink_tui.ui.render.cut import cut_label
from ink_tui.ui.render.safe import plain
from ink_tui.ui.scope import Scope
from ink_tui.ui.widgets.cursor_list import CursorList
from ink_tui.ui.widgets.row_filter import RowFilter
from ink_tui.ui.widgets.session_columns import (
    CELL_PADDING,
    COLUMNS,
    HIDDEN_MARK,
    LIVE_MARK,
    NUMERIC,
    fit_columns,
    fuzzy_ranked,
    is_live,
)

__all__ = ["SessionList", "SessionMessage", "human_size", "is_live", "relative_age"]


class SessionMessage(Message):
    """What :class:`SessionList` says of a session (``@on(…, "#id")`` matches its list)."""

    def __init__(self, sessions: SessionList, summary: SessionSummary | None) -> None:
        super().__init__()
        self.sessions = sessions
        self.summary = summary

    @property
    def control(self) -> SessionList:
        return self.sessions


class SessionList(CursorList, inherit_bindings=False):
    """Sessions, newest first (or best fuzzy match first while a filter is typed).

    Posts :class:`SessionList.Highlighted` when the cursor lands on another session (or the rows
    change under it) and :class:`SessionList.Selected` on Enter or a second click."""

    class Highlighted(SessionMessage):
        """The session under the cursor (``None``: no row)."""

    class Selected(SessionMessage):
        """Enter (or a second click) on a session."""

        def __init__(self, sessions: SessionList, summary: SessionSummary) -> None:
            super().__init__(sessions, summary)
            self.summary: SessionSummary = summary

    # j/k/g/G are the picker's (they move the list while the preview has the focus too).
    BINDINGS: ClassVar[list[BindingType]] = [
        bind("open", "select", "Open", show=True),
        *CursorList.UNLISTED_KEYS,
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "session-list--cursor",
        "session-list--header",
        "session-list--live",
        "session-list--hidden",
        "session-list--muted",
        "session-list--secrets",
    }
    CURSOR_CLASS = "session-list--cursor"
    HEADER_LINES = 1
    DEFAULT_CSS = """
    SessionList { background: $surface; color: $foreground; overflow-x: hidden; }
    SessionList > .session-list--header { text-style: bold; background: $panel; }
    SessionList > .session-list--cursor {
        background: $block-cursor-blurred-background;
        color: $block-cursor-blurred-foreground;
        text-style: $block-cursor-blurred-text-style;
    }
    SessionList:focus > .session-list--cursor {
        background: $block-cursor-background;
        color: $block-cursor-foreground;
        text-style: $block-cursor-text-style;
    }
    SessionList > .session-list--live { color: $success; text-style: bold; }
    SessionList > .session-list--hidden { color: $text-muted; text-style: italic; }
    SessionList > .session-list--secrets { color: $warning; text-style: bold; }
    SessionList > .session-list--muted { color: $text-muted; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.summaries: list[SessionSummary] = []
        self.scope: Scope = "project"
        self.query_text = ""
        self.only: RowFilter | None = None  # the rows it keeps (! problems, $ secrets), else all
        self.shown: list[SessionSummary] = []  # the rows, in list order
        self._layout: tuple[int, frozenset[str]] = (0, frozenset())  # title width, dropped
        self._widths: dict[str, int] = {}  # column key -> its width (texts are cut to it)
        self._now_drawn = 0.0  # the clock reading the drawn lines show (ages, live marks)
        self._drawn: threading.Event | None = None
        self._last_highlighted: Path | None = None

    # -- content -----------------------------------------------------------------------------

    def set_summaries(self, summaries: Iterable[SessionSummary], *, scope: Scope) -> None:
        """Replace every row (a scope switch or a refresh); the cursor stays on its session.
        The scope says which columns there are (the project's and the machine's)."""
        self.summaries = list(summaries)
        self.scope = scope
        self.rebuild()

    def update_summaries(self, summaries: Iterable[SessionSummary], *, scope: Scope) -> None:
        """Rows read again: the cursor stays on its session and the scroll where it was."""
        self.summaries = list(summaries)
        self.scope = scope
        scrolled = self.scroll_y
        self.rebuild()
        self.scroll_to(y=scrolled, animate=False, immediate=True)

    def extend(self, summaries: list[SessionSummary]) -> None:
        """Rows read by the scan: appended in listing order (re-ranked while filtering)."""
        self.summaries.extend(summaries)
        if self.query_text or self.only or not self._widths:
            self.rebuild()
            return
        self.shown.extend(summaries)
        if self._fit() != self._layout:  # a live row among them: the state column shows
            self.rebuild()
            return
        self._rows_changed()

    def set_query(self, query: str) -> None:
        """Narrow the rows to the fuzzy matches of ``query`` (empty: every row)."""
        if query != self.query_text:
            self.query_text = query
            self.rebuild(keep_cursor=False)

    def set_row_filter(self, only: RowFilter | None) -> None:
        """Show only the rows ``only`` keeps (``None``: every row), the cursor on its session
        when it is still shown; kept across new rows, refreshes and a scope switch."""
        self.only = only
        self.rebuild()

    def toggle_row_filter(self, only: RowFilter) -> None:
        """``only``'s rows, or every row again when ``only`` is the filter on."""
        self.set_row_filter(None if self.only is only else only)

    @property
    def highlighted(self) -> SessionSummary | None:
        """The session under the cursor."""
        row = self.cursor_row
        return self.shown[row] if 0 <= row < len(self.shown) else None

    def rebuild(self, *, keep_cursor: bool = True) -> None:
        """Lay the columns out for the widget's width again and show the rows anew, the cursor
        on its session when it is still shown (else on the first row)."""
        current = self.highlighted if keep_cursor else None
        self.shown = self._filtered()
        self._layout = width, dropped = self._fit()
        self._widths = {key: fixed or width for key, _, fixed in COLUMNS if key not in dropped}
        cursor = 0
        if current is not None:
            cursor = next(
                (i for i, summary in enumerate(self.shown) if summary.path == current.path), 0
            )
        self._rows_changed()
        self.cursor_row = cursor

    def tick(self) -> None:
        """Refresh what depends on the clock: the ages and the live marks (the state column
        comes and goes with the rows that need it)."""
        if self._widths and self._fit() != self._layout:
            self.rebuild()
            return
        self.refresh_styles()

    def index_of(self, path: Path) -> int | None:
        for index, summary in enumerate(self.shown):
            if summary.path == path:
                return index
        return None

    def column_keys(self) -> list[str]:
        """The columns shown, in order (``state``, ``title``, ``project``, …)."""
        return list(self._widths)

    def row_cells(self, index: int) -> list[Text]:
        """Row ``index``'s cells as drawn (each cut to its column), one per shown column."""
        cells = self._cells(self.shown[index], self._now())
        return [cut_label(cells[key], width) for key, width in self._widths.items()]

    def _now(self) -> float:
        return app_now(self)

    def signal_drawn(self, event: threading.Event) -> None:
        """Set ``event`` once rows are drawn: after the next frame that holds them is rendered
        (an idle screen is not enough: rows just added are laid out and drawn a frame later)."""
        self._drawn = event

    def render_lines(self, crop: Region) -> list[Strip]:
        lines = super().render_lines(crop)
        if self._drawn is not None and self.shown:
            self.call_later(self._drawn.set)  # once this frame is written, not halfway through
            self._drawn = None
        return lines

    # -- what CursorList asks ----------------------------------------------------------------

    @property
    def row_count(self) -> int:
        return len(self.shown)

    def select(self, index: int) -> None:
        self.post_message(self.Selected(self, self.shown[index]))

    def cursor_moved(self) -> None:
        summary = self.highlighted
        path = None if summary is None else summary.path
        if path != self._last_highlighted:
            self._last_highlighted = path
            self.post_message(self.Highlighted(self, summary))

    def line_key(self, index: int, width: int, cursor: bool) -> Hashable:
        return (self.shown[index].path, cursor, width)

    def row_text(self, index: int, width: int) -> Text:
        cells = self._cells(self.shown[index], self._now_drawn)
        return self._line(cells[key] for key in self._widths)

    def fill_style(self, cursor: bool) -> Style:
        if not cursor:
            return self.rich_style
        # The whole style: its "auto" text colour made to contrast with the cursor's background.
        return self.rich_style + self.get_component_rich_style(self.CURSOR_CLASS)

    def draw_row(self, index: int, width: int, cursor: bool) -> Strip:
        """The row's line, each cell its own segments (a screenshot places each at its column,
        whatever width its font gives a wide character)."""
        base = self.fill_style(cursor)
        cells = self._cells(self.shown[index], self._now_drawn)
        return self._strip((cells[key] for key in self._widths), base)

    def header_row(self, y: int, width: int) -> Strip:
        style = self._style("session-list--header")
        labels = (
            Text(header, justify="right" if key in NUMERIC else "left")
            for key, header, _ in COLUMNS
            if key in self._widths
        )
        return self._strip(labels, self.rich_style + style).extend_cell_length(
            width, self.rich_style + style
        )

    def _strip(self, cells: Iterable[Text], base: Style) -> Strip:
        """Cells padded to their columns' widths, on ``base``, each drawn apart."""
        console = self.app.console
        segments: list[Segment] = []
        for column, cell in enumerate(self._padded(cells)):
            # Its column in the style's meta: a screenshot draws each cell at its own column.
            cell.stylize_before(base + Style.from_meta({"column": column}))
            segments.extend(cell.render(console))
        return Strip(segments)

    def refresh_styles(self) -> None:
        self._now_drawn = self._now()
        super().refresh_styles()

    # -- building rows -----------------------------------------------------------------------

    def _rows_changed(self) -> None:
        self.virtual_size = Size(self.size.width, len(self.shown) + self.HEADER_LINES)
        self._last_highlighted = None  # the rows changed under the cursor: say it again
        self.refresh_styles()

    def _line(self, cells: Iterable[Text]) -> Text:
        """Cells padded to their columns' widths, in one line."""
        line = Text(no_wrap=True, end="")
        for cell in self._padded(cells):
            line.append_text(cell)
        return line

    def _padded(self, cells: Iterable[Text]) -> Iterable[Text]:
        """Each cell cut to its column and padded to its width (right-aligned when numeric)."""
        pad = " " * CELL_PADDING
        for cell, width in zip(cells, self._widths.values(), strict=True):
            right = cell.justify == "right"
            cut = cut_label(cell, width)
            gap = " " * (width - cut.cell_len)
            padded = Text(no_wrap=True, end="")
            padded.append(pad + gap if right else pad)
            padded.append_text(cut)
            padded.append(pad if right else gap + pad)
            yield padded

    def _filtered(self) -> list[SessionSummary]:
        keep = None if self.only is None else self.only.keep
        kept = self.summaries if keep is None else [row for row in self.summaries if keep(row)]
        query = self.query_text.strip()
        return fuzzy_ranked(kept, query) if query else list(kept)

    def _fit(self) -> tuple[int, frozenset[str]]:
        """The title's width, and the columns left out (:func:`fit_columns`)."""
        now = self._now()
        return fit_columns(
            (self.size.width or self.app.size.width) - 2,  # the vertical scrollbar
            show_project=self.scope != "project",
            show_machine=self.scope == "machines" or any(row.machine for row in self.shown),
            needs_state=any(is_live(row, now) or not row.listed_by_ink for row in self.shown),
            show_secrets=any(row.secrets for row in self.shown),
        )

    def _style(self, name: str) -> Style:
        try:
            return self.get_component_rich_style(name, partial=True)
        except KeyError:  # pragma: no cover - styles not applied yet
            return Style()

    def _cell(self, text: str, summary: SessionSummary, *, right: bool = False) -> Text:
        style = self._style("session-list--hidden") if not summary.listed_by_ink else Style()
        cell = plain(text, style)
        cell.no_wrap = True
        if right:
            cell.justify = "right"
        return cell

    def _state_cell(self, summary: SessionSummary, now: float) -> Text:
        if is_live(summary, now):
            return plain(LIVE_MARK, self._style("session-list--live"))
        if not summary.listed_by_ink:
            return plain(HIDDEN_MARK, self._style("session-list--hidden"))
        return Text("")

    def _secrets_cell(self, summary: SessionSummary) -> Text:
        count = summary.secret_count
        if not count:
            return Text("")
        return Text(compact_count(count), self._style("session-list--secrets"), justify="right")

    def _cells(self, summary: SessionSummary, now: float) -> dict[str, Text]:
        model = summary.model.reference if summary.model is not None else "—"
        project = self._cell(summary.local_project or summary.project_folder, summary)
        project.stylize(self._style("session-list--muted"))
        machine = self._cell(summary.machine or THIS_MACHINE, summary)
        machine.stylize(self._style("session-list--muted"))
        return {
            "state": self._state_cell(summary, now),
            "machine": machine,
            "title": self._cell(summary.title or summary.file_name, summary),
            "project": project,
            "age": self._cell(relative_age(summary.mtime, now), summary),
            "messages": self._cell(compact_count(summary.message_count), summary, right=True),
            "model": self._cell(model, summary),
            "branches": self._cell(compact_count(summary.leaf_count), summary, right=True),
            "secrets": self._secrets_cell(summary),
            "size": self._cell(human_size(summary.size), summary, right=True),
        }

    # -- events ------------------------------------------------------------------------------

    def on_resize(self, event: events.Resize) -> None:
        if self._fit() != self._layout:
            self.rebuild()
        else:
            self._rows_changed()
