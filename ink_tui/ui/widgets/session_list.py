"""The picker's list of sessions: one DataTable row per session file, filterable.

Every cell is built with :func:`ink_tui.ui.render.safe.plain`: titles, ids, folder names and
model names all come from session files and are untrusted.

Each fixed column is as wide as the widest text it can hold (counts are abbreviated to at most
five characters, ``49.9k``), so no number or age is ever cut. When the list is narrow, the less
important columns go first (size, model, branches, project), then the title shrinks. The state
column (``● live``, ``hidden``) is there only while a row shown needs it. Texts are cut by
:func:`~ink_tui.ui.render.cut.cut_label` (by cell width, as every label).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Final

from rich.style import Style
from rich.text import Text
from textual import events
from textual.fuzzy import Matcher
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import DataTable

from ink_tui.catalog import SessionSummary
from ink_tui.humanize import COUNT_WIDTH, compact_count, human_size, relative_age
from ink_tui.session.writing.ownwrites import LIVE_SECONDS, own_writes
from ink_tui.ui.keymap import bind
from ink_tui.ui.options import app_now
from ink_tui.ui.render.cut import cut_label
from ink_tui.ui.render.safe import plain

__all__ = ["SessionList", "human_size", "is_live", "relative_age"]

LIVE_MARK: Final = "● live"
HIDDEN_MARK: Final = "hidden"

# (key, header, width); the title column takes what is left. Widths hold every value whole:
# the state marks are 6 wide, "12mo ago" 8, "1023.9 KB" 9, counts COUNT_WIDTH.
_FIXED: Final = (
    ("state", "", 6),
    ("title", "title", 0),
    ("project", "project", 24),
    ("age", "age", 8),
    ("messages", "msgs", COUNT_WIDTH),
    ("model", "model", 28),
    ("branches", "br", COUNT_WIDTH - 1),
    ("size", "size", 9),
)
_NUMERIC: Final = frozenset({"messages", "branches", "size"})
_MIN_TITLE: Final = 28  # columns are hidden (in _DROP_ORDER) to keep this much for the title
_FLOOR_TITLE: Final = 6  # below that the title still gets this much: the age and counts stay
_DROP_ORDER: Final = ("size", "model", "branches", "project")  # when the list is narrow


def is_live(summary: SessionSummary, now: float) -> bool:
    """Something other than ink-tui changed the file in the last
    :data:`~ink_tui.session.writing.ownwrites.LIVE_SECONDS` seconds (a running Ink writes it):
    ink-tui's own rename or label does not count. Reads no file: the ledger of ink-tui's writes
    is read in the row workers (:data:`ink_tui.session.writing.ownwrites.own_writes`)."""
    quiet = own_writes.quiet_since(summary.path, summary.mtime, summary.size)
    return now - quiet < LIVE_SECONDS


def _score(matcher: Matcher, summary: SessionSummary) -> float:
    return max(
        matcher.match(summary.title),
        matcher.match(summary.id or summary.file_name),
        matcher.match(summary.project_folder),
    )


class SessionList(DataTable):
    """Sessions, newest first (or best fuzzy match first while a filter is typed)."""

    BINDINGS = [bind("open", "select_cursor", "Open", show=True)]
    COMPONENT_CLASSES = {"session-list--live", "session-list--hidden", "session-list--muted"}
    DEFAULT_CSS = """
    SessionList > .session-list--live { color: $success; text-style: bold; }
    SessionList > .session-list--hidden { color: $text-muted; text-style: italic; }
    SessionList > .session-list--muted { color: $text-muted; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=False)
        self.summaries: list[SessionSummary] = []
        self.show_project = False
        self.query_text = ""
        self.row_filter: Callable[[SessionSummary], bool] | None = None  # rows it keeps
        self.shown: list[SessionSummary] = []  # the rows, in table order
        self._layout: tuple[int, frozenset[str]] = (0, frozenset())  # title width, dropped
        self._widths: dict[str, int] = {}  # column key -> its width (texts are cut to it)
        self._drawn: threading.Event | None = None

    # -- content -----------------------------------------------------------------------------

    def set_summaries(self, summaries: Iterable[SessionSummary], *, show_project: bool) -> None:
        """Replace every row (a scope switch or a refresh); the cursor stays on its session."""
        self.summaries = list(summaries)
        self.show_project = show_project
        self.rebuild()

    def update_summaries(self, summaries: Iterable[SessionSummary], *, show_project: bool) -> None:
        """Rows read again: the same sessions in the same order are updated cell by cell;
        otherwise the rows are rebuilt, the cursor on its session and the scroll kept."""
        before = [summary.path for summary in self.summaries]
        self.summaries = list(summaries)
        same = [summary.path for summary in self.summaries] == before
        if same and self.columns and show_project == self.show_project and not self.row_filter:
            fresh = {summary.path: summary for summary in self.summaries}
            shown, self.shown = self.shown, [fresh[summary.path] for summary in self.shown]
            now = self._now()
            keys = [key for key, _, _ in _FIXED if key not in self._layout[1]]
            if self._fit() == self._layout:  # else a row went live (or stopped): rebuilt below
                for old, summary in zip(shown, self.shown, strict=True):
                    if old == summary:
                        continue  # most rows: nothing to redraw
                    for key, cell in zip(keys, self._row(summary, now), strict=True):
                        self.update_cell(str(summary.path), key, cell)
                return
        self.show_project = show_project
        scrolled = self.scroll_y
        self.rebuild()
        self.scroll_to(y=scrolled, animate=False, immediate=True)

    def extend(self, summaries: list[SessionSummary]) -> None:
        """Rows read by the scan: appended in listing order (re-ranked while filtering)."""
        self.summaries.extend(summaries)
        if self.query_text or self.row_filter or not self.columns:
            self.rebuild()
            return
        self.shown.extend(summaries)
        if self._fit() != self._layout:  # a live row among them: the state column shows
            self.rebuild()
            return
        self._add(summaries, self._now())

    def set_query(self, query: str) -> None:
        """Narrow the rows to the fuzzy matches of ``query`` (empty: every row)."""
        if query != self.query_text:
            self.query_text = query
            self.rebuild(keep_cursor=False)

    def set_row_filter(self, keep: Callable[[SessionSummary], bool] | None) -> None:
        """Show only the rows ``keep`` keeps (``None``: every row), the cursor on its session
        when it is still shown; kept across new rows, refreshes and a scope switch."""
        self.row_filter = keep
        self.rebuild()

    @property
    def highlighted(self) -> SessionSummary | None:
        """The session under the cursor."""
        row = self.cursor_row
        return self.shown[row] if 0 <= row < len(self.shown) else None

    def rebuild(self, *, keep_cursor: bool = True) -> None:
        """Redraw every row (columns sized to the widget's width)."""
        current = self.highlighted if keep_cursor else None
        self.shown = self._filtered()
        self.clear(columns=True)
        self._layout = width, dropped = self._fit()
        self._widths = {}
        for key, header, fixed in _FIXED:
            if key in dropped:
                continue
            label = Text(header, justify="right" if key in _NUMERIC else "left")
            self._widths[key] = fixed or width
            self.add_column(label, width=fixed or width, key=key)
        self._add(self.shown, self._now())
        if current is not None:
            for index, summary in enumerate(self.shown):
                if summary.path == current.path:
                    self.move_cursor(row=index)
                    break

    def tick(self) -> None:
        """Refresh the cells that depend on the clock: the age and the live marker (the state
        column comes and goes with the rows that need it)."""
        if self.columns and self._fit() != self._layout:
            self.rebuild()
            return
        now = self._now()
        state = "state" not in self._layout[1]
        for summary in self.shown:
            key = str(summary.path)
            if state:
                self.update_cell(key, "state", self._state_cell(summary, now))
            self.update_cell(key, "age", self._cell(relative_age(summary.mtime, now), summary))

    def index_of(self, path: Path) -> int | None:
        for index, summary in enumerate(self.shown):
            if summary.path == path:
                return index
        return None

    def _now(self) -> float:
        return app_now(self)

    def signal_drawn(self, event: threading.Event) -> None:
        """Set ``event`` once rows are drawn: after the next frame that holds them is rendered
        (an idle screen is not enough: rows just added are laid out and drawn a frame later)."""
        self._drawn = event

    def render_lines(self, crop: Region) -> list[Strip]:
        lines = super().render_lines(crop)
        if self._drawn is not None and self.row_count:
            self.call_later(self._drawn.set)  # once this frame is written, not halfway through
            self._drawn = None
        return lines

    # -- building rows -----------------------------------------------------------------------

    def _filtered(self) -> list[SessionSummary]:
        keep = self.row_filter
        kept = self.summaries if keep is None else [row for row in self.summaries if keep(row)]
        if not self.query_text.strip():
            return list(kept)
        matcher = Matcher(self.query_text.strip())
        scored = [(_score(matcher, summary), summary) for summary in kept]
        ranked = [(score, index, s) for index, (score, s) in enumerate(scored) if score > 0]
        ranked.sort(key=lambda item: (-item[0], item[1]))
        return [summary for _, _, summary in ranked]

    def _needs_state(self) -> bool:
        """Whether a row shown is live or hidden (else the state column is left out)."""
        now = self._now()
        return any(is_live(row, now) or not row.listed_by_ink for row in self.shown)

    def _fit(self) -> tuple[int, frozenset[str]]:
        """The title's width, and the columns left out so that it gets at least its minimum."""
        width = (self.size.width or self.app.size.width) - 2  # the vertical scrollbar
        dropped = set() if self.show_project else {"project"}
        if not self._needs_state():
            dropped.add("state")
        for candidate in (None, *_DROP_ORDER):
            if candidate is not None:
                dropped.add(candidate)
            used = sum(
                fixed + 2 * self.cell_padding
                for key, _, fixed in _FIXED
                if fixed and key not in dropped
            )
            title = width - used - 2 * self.cell_padding
            if title >= _MIN_TITLE:
                break
        return max(_FLOOR_TITLE, title), frozenset(dropped)

    def _add(self, summaries: list[SessionSummary], now: float) -> None:
        rows = []
        keys = []
        for summary in summaries:
            rows.append(self._row(summary, now))
            keys.append(str(summary.path))
        for key, row in zip(keys, rows, strict=True):
            self.add_row(*row, key=key)

    def _style(self, name: str) -> Style:
        try:
            return self.get_component_rich_style(name, partial=True)
        except KeyError:  # pragma: no cover - styles not applied yet
            return Style()

    def _cell(
        self, text: str, summary: SessionSummary, *, right: bool = False, key: str = ""
    ) -> Text:
        style = self._style("session-list--hidden") if not summary.listed_by_ink else Style()
        cell = plain(text, style)
        if key in self._widths:  # cut here: the table's own cut leaves "修 …" before a wide one
            cell = cut_label(cell, self._widths[key])
        cell.no_wrap = True
        cell.overflow = "ellipsis"
        if right:
            cell.justify = "right"
        return cell

    def _state_cell(self, summary: SessionSummary, now: float) -> Text:
        if is_live(summary, now):
            return plain(LIVE_MARK, self._style("session-list--live"))
        if not summary.listed_by_ink:
            return plain(HIDDEN_MARK, self._style("session-list--hidden"))
        return Text("")

    def _row(self, summary: SessionSummary, now: float) -> list[Text]:
        model = summary.model.reference if summary.model is not None else "—"
        title = summary.title or summary.file_name
        project = self._cell(summary.project_folder, summary, key="project")
        project.stylize(self._style("session-list--muted"))
        cells = {
            "state": self._state_cell(summary, now),
            "title": self._cell(title, summary, key="title"),
            "project": project,
            "age": self._cell(relative_age(summary.mtime, now), summary),
            "messages": self._cell(compact_count(summary.message_count), summary, right=True),
            "model": self._cell(model, summary, key="model"),
            "branches": self._cell(compact_count(summary.leaf_count), summary, right=True),
            "size": self._cell(human_size(summary.size), summary, right=True),
        }
        dropped = self._layout[1]
        return [cells[key] for key, _, _ in _FIXED if key not in dropped]

    # -- events ------------------------------------------------------------------------------

    def on_resize(self, event: events.Resize) -> None:
        if self.columns and self._fit() != self._layout:
            self.rebuild()
