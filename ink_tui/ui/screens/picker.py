"""The picker: recent sessions of this project (Tab: all projects, then every machine's), a
filter and a preview.

The screen coordinates; the rows are read by a thread worker that posts them in batches, the list
(:class:`SessionList`) draws and filters them, the preview (:class:`SessionPreview`) loads its own
session. Nothing here reads a file on the event loop.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Final

from textual import on
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Input, Static

from ink_tui.catalog import SessionSummary
from ink_tui.paths import project_dir
from ink_tui.ui.keys import PICKER_KEYS
from ink_tui.ui.messages import OpenChat, OpenSession
from ink_tui.ui.scope import Scope, next_scope
from ink_tui.ui.widgets import problem_rows, secret_rows
from ink_tui.ui.widgets.footer import InkFooter
from ink_tui.ui.widgets.keeper import SessionKeeper
from ink_tui.ui.widgets.machine_sync import MachineSync
from ink_tui.ui.widgets.picker_text import PickerPlace, empty_text, row_note, status_text
from ink_tui.ui.widgets.preview import SessionPreview
from ink_tui.ui.widgets.row_source import (
    IndexNotice,
    IndexProgress,
    RowsFound,
    RowsRefreshed,
    ScopeRows,
    SessionRowSource,
)
from ink_tui.ui.widgets.session_list import SessionList

if TYPE_CHECKING:
    from ink_tui.catalog.index.ahead import RowsAhead
    from ink_tui.catalog.index.listing import IndexedRows

__all__ = ["PickerScreen"]

REFRESH_SECONDS: Final = 3.0
_FILTER_HINT: Final = "filter by title, id or project (Enter opens the top match, Esc clears)"


class PickerScreen(Screen[None]):
    """Pick a session: Enter opens it, Space previews it, Tab widens the scope.

    The preview sits beside the list on a wide screen, below it on a narrow one, and in its
    place on a screen both narrow and short (``styles/picker.tcss``, by these breakpoints).
    """

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (20, "-tall")]

    BINDINGS = PICKER_KEYS

    def __init__(
        self, sessions_dir: Path, cwd: str, *, rows_ahead: RowsAhead | None = None
    ) -> None:
        super().__init__()
        self.rows_ahead = rows_ahead
        self.sessions_dir = Path(sessions_dir)
        self.cwd = cwd
        self.project_dir = project_dir(self.sessions_dir, cwd)
        self.scope: Scope = "project"
        self.scanning = False
        self._generation = 0
        self._started = False
        self._rows = ScopeRows()  # every scope's rows: one row per session, shared
        self.indexing: tuple[int, int] | None = None  # (bytes done, bytes to read)

    def compose(self) -> ComposeResult:
        yield Static(id="picker-status")
        yield Input(placeholder=_FILTER_HINT, id="filter")
        with Horizontal(id="picker-body"):
            with Vertical(id="picker-left"):
                yield SessionList(id="sessions")
                yield Static(id="picker-empty")
            yield SessionPreview(id="preview")
        yield Static(id="picker-note")
        yield InkFooter()
        yield SessionRowSource(self.sessions_dir, self.cwd, self.rows_ahead)
        yield SessionKeeper()
        yield MachineSync()

    def on_mount(self) -> None:
        self.query_one(SessionPreview).display = False
        self.query_one("#picker-empty").display = False
        self.query_one(SessionList).focus()
        self.set_interval(REFRESH_SECONDS, self._refresh)
        self.query_one(MachineSync).look()

    def _start_scan(self) -> None:
        self._generation += 1
        table = self.query_one(SessionList)
        if self._rows.has(self.scope):
            self.scanning = False
            rows = self._rows.rows(self.scope, sort=True)  # as last read, in any scope
            table.set_summaries(rows, scope=self.scope)
            self._refresh()
        else:
            self.scanning = True
            self._rows.show(self.scope, [])
            table.set_summaries([], scope=self.scope)
            source = self.query_one(SessionRowSource)
            first = source.rows_at_hand(self.scope)  # read while the app was loading
            if first is not None and first.rows:
                # Shown once the app has started, in its first frame: put in the table now,
                # while Textual mounts and lays out the screen, they would be drawn for nothing.
                self.app.call_later(self._show_first, first, self.scope, self._generation)
            else:
                source.scan(self.scope, self._generation, first)
        self._update_status()

    def _show_first(self, first: IndexedRows, scope: Scope, generation: int) -> None:
        """The first rows, read ahead of the app; the worker adds the rest once they are drawn
        (:meth:`SessionList.signal_drawn`), then brings the index up to date."""
        if generation != self._generation:  # the scope changed meanwhile: read it again later
            self._rows.forget(scope)
            return
        rows = list(first.rows or [])
        self._rows.show(scope, rows)
        table = self.query_one(SessionList)
        table.set_summaries(rows, scope=scope)
        source = self.query_one(SessionRowSource)
        source.painted.clear()
        table.signal_drawn(source.painted)
        source.scan(scope, generation, first)
        self._update_status()

    @on(RowsFound)
    def _rows_found(self, message: RowsFound) -> None:
        if message.generation != self._generation:
            return  # a scan of the other scope, cancelled
        table = self.query_one(SessionList)
        if message.whole:
            self._rows.show(self.scope, message.summaries)
            table.update_summaries(message.summaries, scope=self.scope)
            table.signal_drawn(self.query_one(SessionRowSource).painted)
        else:
            self._rows.extend(self.scope, message.summaries)
            if message.summaries:
                table.extend(message.summaries)
        if message.done:
            self.scanning = False
            self.indexing = None
        self._update_status()

    @on(IndexProgress)
    def _index_progress(self, message: IndexProgress) -> None:
        if message.generation == self._generation and self.scanning:
            self.indexing = (message.done, message.total)
            self._update_status()

    @on(IndexNotice)
    def _index_notice(self, message: IndexNotice) -> None:
        self.notify(message.text, severity="warning", timeout=8)

    def on_screen_suspend(self) -> None:
        # A blinking cursor under another screen would repaint that screen twice a second.
        self.query_one("#filter", Input).cursor_blink = False

    def on_screen_resume(self) -> None:
        if not self._started and self.is_current:
            # Read rows only once the picker is shown: opened straight on a session, the app
            # keeps the picker aside, and its scan would compete with the session's first paint.
            self._started = True
            self._start_scan()
        elif self._started:
            self._refresh()  # back from a session: what it saw (Ink writing, a rename) shows now
        filter_input = self.query_one("#filter", Input)
        filter_input.cursor_blink = True
        if filter_input.has_focus:  # back from a session: keys act on the list (the filter kept)
            self.set_focus(self.query_one(SessionList))

    def _refresh(self) -> None:
        """Every few seconds: clock-dependent cells, then files that changed (in a worker)."""
        if not self.is_current:
            return  # a session is open on top: nothing to keep fresh
        self.query_one(SessionList).tick()
        if self.scanning:
            return
        known = {summary.path: (summary.mtime, summary.size) for summary in self._current()}
        self.query_one(SessionRowSource).restat(self.scope, self._generation, known)

    @on(RowsRefreshed)
    def _rows_refreshed(self, message: RowsRefreshed) -> None:
        scope = message.scope
        if not self._rows.has(scope) or (scope == self.scope and self.scanning):
            return  # that scope is being read from the start: its scan has the last word
        # Rows read for a scope no longer shown are kept all the same: they are the rows of
        # every scope (the change is in the index now, and no later update will report it).
        if message.whole is not None:
            self._rows.refreshed(scope, message.whole)
        else:
            self._rows.changed(scope, message.changed, message.removed)
        if scope != self.scope:
            return
        table = self.query_one(SessionList)
        if message.whole is not None:
            table.update_summaries(self._current(), scope=self.scope)
        else:
            table.set_summaries(self._current(), scope=self.scope)
        self._update_status()

    def _current(self) -> list[SessionSummary]:
        return self._rows.rows(self.scope)

    # -- what the user sees ------------------------------------------------------------------

    def _update_status(self) -> None:
        table = self.query_one(SessionList)
        sync = self.query_one(MachineSync)
        place = PickerPlace(self.sessions_dir, self.project_dir, self.cwd, self.scope, sync.mirrors)
        status = status_text(
            place,
            total=len(self._current()),
            query=table.query_text,
            shown=len(table.shown),
            only=table.only,
            indexing=self.indexing,
            scanning=self.scanning,
            syncing=sync.syncing,
            machines=tuple(sorted({row.machine for row in self._current() if row.machine})),
        )
        self.query_one("#picker-status", Static).update(status)
        empty = self.query_one("#picker-empty", Static)
        shown = not (table.shown or self.scanning)
        empty.display = shown
        table.set_class(shown, "-empty")
        if shown:
            empty.update(empty_text(place, query=table.query_text, only=table.only))
        self._update_note()

    def _update_note(self) -> None:
        table = self.query_one(SessionList)
        text = row_note(table.highlighted, table.only)
        note = self.query_one("#picker-note", Static)
        note.display = text is not None
        note.update(text or "")

    @on(SessionList.Highlighted, "#sessions")
    def _highlighted(self, event: SessionList.Highlighted) -> None:
        preview = self.query_one(SessionPreview)
        if preview.display:
            preview.show(self.query_one(SessionList).highlighted)
        self._update_note()

    @on(SessionList.Selected, "#sessions")
    def _selected(self, event: SessionList.Selected) -> None:
        event.stop()
        self.action_open()

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.query_one(SessionList).set_query(event.value)
        self._update_status()

    @on(Input.Submitted, "#filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        table = self.query_one(SessionList)
        if table.shown:
            table.cursor_row = 0
            self.set_focus(table)  # back from the session, keys act on the list (filter kept)
            self.post_message(OpenSession(table.shown[0].path))

    # -- actions -----------------------------------------------------------------------------

    def action_open(self) -> None:
        if (row := self._highlighted_row()) is not None:
            self.post_message(OpenSession(row.path))

    # y r d u P X: the keeper asks, then does it (u and P need no row)
    def action_copy_session(self) -> None:
        if (row := self._highlighted_row()) is not None:
            self.query_one(SessionKeeper).copy(row.id or "", row.path)

    def action_rename_session(self) -> None:
        if (row := self._highlighted_row()) is not None:
            self.query_one(SessionKeeper).rename(row.path, row.name or "")

    def action_delete_session(self) -> None:
        if (row := self._highlighted_row()) is not None:
            self.query_one(SessionKeeper).delete(row.path, row.title, self.sessions_dir)

    def action_undo_delete(self) -> None:
        self.query_one(SessionKeeper).undo()

    def action_prune_orphans(self) -> None:
        self.query_one(SessionKeeper).prune(self.sessions_dir)

    def _highlighted_row(self) -> SessionSummary | None:
        row = self.query_one(SessionList).highlighted
        if row is None:
            self.notify("no session highlighted", timeout=3)
        return row

    @on(SessionKeeper.Kept)
    def _kept(self, message: SessionKeeper.Kept) -> None:
        self._refresh()  # the row renamed, gone or back: read it again now

    def action_search_sessions(self) -> None:
        """Search what was said in every session (its own screen; Esc comes back here)."""
        from ink_tui.ui.screens.search import SearchScreen

        self.app.push_screen(SearchScreen(self.sessions_dir, self.cwd))

    def action_usage_stats(self) -> None:
        """Tokens and cost of the sessions (its own screen; Esc comes back here)."""
        from ink_tui.ui.screens.stats import StatsScreen

        self.app.push_screen(
            StatsScreen(self.sessions_dir, self.cwd, all_projects=self.scope != "project")
        )

    def action_sync_machines(self) -> None:
        """Sync every machine into its mirror (in a worker; the status line shows how far)."""
        self.query_one(MachineSync).sync()
        self._update_status()

    @on(MachineSync.Changed)
    def _sync_changed(self, message: MachineSync.Changed) -> None:
        self._update_status()
        if message.synced:
            self._refresh()  # the mirrors' new sessions, when they are listed

    def action_new_session(self) -> None:
        """A chat on a new session in this project (the file appears with its first record)."""
        self.post_message(OpenChat(None))

    def action_toggle_preview(self) -> None:
        self._show_preview(not self.query_one(SessionPreview).display)

    def _show_preview(self, shown: bool) -> None:
        preview = self.query_one(SessionPreview)
        preview.display = shown
        self.query_one("#picker-body").set_class(shown, "-previewing")
        table = self.query_one(SessionList)
        if shown:
            preview.show(table.highlighted)
        elif self.focused is None:  # the list was hidden under the preview: it had the focus
            self.set_focus(table)

    def action_toggle_scope(self) -> None:
        self.scope = next_scope(self.scope, mirrors=self.query_one(MachineSync).mirrors)
        self._start_scan()

    def action_toggle_problems(self) -> None:
        """Show only the sessions with a problem (``ink-tui check`` would flag), or all again."""
        self.query_one(SessionList).toggle_row_filter(problem_rows.FILTER)
        self._update_status()

    def action_toggle_secrets(self) -> None:
        """Show only the sessions holding secrets, or all again."""
        self.query_one(SessionList).toggle_row_filter(secret_rows.FILTER)
        self._update_status()

    def action_list_secrets(self) -> None:
        """The secrets the session holds, masked (its own screen; Enter goes to the record)."""
        from ink_tui.ui.screens.secrets import SecretsScreen

        if (row := self._highlighted_row()) is not None:
            self.app.push_screen(SecretsScreen(row.path, row.title, row.machine))

    def action_scrub_session(self) -> None:
        if (row := self._highlighted_row()) is not None:
            self.query_one(SessionKeeper).scrub(row.path, row.title)

    def action_filter(self) -> None:
        filter_input = self.query_one("#filter", Input)
        if filter_input.has_focus:
            raise SkipAction()  # "/" in the filter is text
        self.set_focus(filter_input)  # at once, not after a refresh

    def action_escape(self) -> None:
        filter_input = self.query_one("#filter", Input)
        if filter_input.has_focus:
            filter_input.value = ""
            self.query_one(SessionList).focus()
        elif self.query_one(SessionPreview).display:
            self._show_preview(False)
        elif filter_input.value:
            filter_input.value = ""

    def action_move(self, delta: int) -> None:
        self.query_one(SessionList).action_move(delta)

    def action_edge(self, where: str) -> None:
        self.query_one(SessionList).action_edge(0 if where == "top" else 1)

    def action_scroll_preview(self, delta: int) -> None:
        self.query_one(SessionPreview).scroll_half_page(delta)
