"""Every branch of a session as a flat list of its leaves; Enter shows the highlighted one.

The list is built by a thread worker from a snapshot of the session taken when the screen opens
(:func:`ink_tui.session.conversation.forks.build_branch_list`); the screen only fills the table when
the worker's message arrives, and keeps the line under it in step with the cursor.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static
from textual.worker import get_current_worker

from ink_tui.humanize import plural
from ink_tui.logs import unforeseen
from ink_tui.session.conversation.forks import BranchList, SessionSnapshot, build_branch_list
from ink_tui.session.reading.errors import SessionError
from ink_tui.session.reading.reader import SessionFile, open_session
from ink_tui.ui.keymap import bind
from ink_tui.ui.options import follow_theme
from ink_tui.ui.render.safe import plain
from ink_tui.ui.widgets.branch_list import BranchTable, describe_leaf, short_id
from ink_tui.ui.widgets.footer import InkFooter
from ink_tui.ui.widgets.keeper import SessionKeeper

__all__ = ["BranchesScreen"]


def _title(listing: BranchList) -> Text:
    text = plain("Branches", "bold")
    text.append_text(plain(f"  ·  {plural(len(listing.rows), 'leaf', 'leaves')}"))
    current = listing.current_leaf_id
    if current is None:
        text.append_text(plain("  ·  current: the empty branch (null leaf)"))
    elif listing.current_row is None:
        text.append_text(plain(f"  ·  current: entry {short_id(current)} (not a leaf)"))
    else:
        turns = plural(listing.current_turns, "turn")
        text.append_text(plain(f"  ·  current: ● {short_id(current)} ({turns})"))
    if listing.moves:
        text.append_text(plain(f"  ·  {plural(len(listing.moves), 'position marker')}", "dim"))
    if listing.stray_labels:
        stray = plural(len(listing.stray_labels), "label")
        text.append_text(plain(f"  ·  {stray} naming no entry", "dim"))
    return text


class BranchesScreen(Screen[str | None]):
    """Choose a leaf: Enter returns its id (the session view shows that branch), Esc cancels."""

    VERTICAL_BREAKPOINTS = [(0, "-short"), (24, "-tall")]  # a short screen: a 2-line detail

    BINDINGS: ClassVar[list[BindingType]] = [  # moving: the list's own keys
        bind("open", "choose", "Show branch"),
        bind("back", "cancel", "Back", show=True),
        bind("label", "label", "Label the leaf", show=True),
    ]

    @dataclass
    class Built(Message):
        listing: BranchList

    @dataclass
    class Failed(Message):
        reason: str

    def __init__(self, session: SessionFile, current_leaf_id: str | None) -> None:
        super().__init__()
        self.snapshot = SessionSnapshot.of(session)  # on the event loop: the tail may append
        self.current_leaf_id = current_leaf_id
        self.listing: BranchList | None = None

    def compose(self) -> ComposeResult:
        yield Static(plain("Branches  ·  reading…", "bold"), id="branches-title")
        yield Static(id="branches-header")
        yield BranchTable(id="branches-list")
        yield Static(plain("reading the branches…", "dim"), id="branches-detail")
        yield SessionKeeper()
        yield InkFooter()

    def on_mount(self) -> None:
        self.query_one(BranchTable).focus()
        self._build()
        follow_theme(self, self.theme_changed)

    @work(thread=True, exclusive=True, group="branches")
    def _build(self) -> None:
        worker = get_current_worker()
        try:
            listing = build_branch_list(
                self.snapshot, self.current_leaf_id, cancelled=lambda: worker.is_cancelled
            )
        except (SessionError, OSError) as error:
            self.post_message(self.Failed(str(error)))
            return
        except Exception as error:  # a bug: logged, said in one line, never an app exit
            self.post_message(self.Failed(unforeseen(error, "listing the branches")))
            return
        if listing is not None:
            self.post_message(self.Built(listing))

    @on(Built)
    def _built(self, message: Built) -> None:
        self.listing = message.listing
        self.query_one("#branches-title", Static).update(_title(message.listing))
        self.query_one(BranchTable).show(message.listing)
        self._show_detail()

    @on(Failed)
    def _failed(self, message: Failed) -> None:
        detail = self.query_one("#branches-detail", Static)
        detail.update(plain(f"cannot list the branches: {message.reason}", "bold"))

    @on(BranchTable.Highlighted)
    def _highlighted(self, event: BranchTable.Highlighted) -> None:
        self._show_detail()

    @on(BranchTable.Selected)
    def _selected(self, event: BranchTable.Selected) -> None:
        event.stop()
        self.dismiss(event.row.id)

    def _show_detail(self) -> None:
        table = self.query_one(BranchTable)
        if self.listing is not None:
            self.query_one("#branches-header", Static).update(table.header())
            row = table.highlighted
            detail = self.query_one("#branches-detail", Static)
            detail.update(describe_leaf(row, self.listing) if row else plain("no leaf", "dim"))

    def theme_changed(self) -> None:
        """The app's theme changed: the list's lines are drawn again in its colours."""
        self.query_one(BranchTable).refresh_styles()

    def action_choose(self) -> None:
        row = self.query_one(BranchTable).highlighted
        if row is not None:
            self.dismiss(row.id)

    def action_label(self) -> None:
        """``L``: label the highlighted leaf's entry, as Ink's ``/tree`` does (empty removes)."""
        row = self.query_one(BranchTable).highlighted
        if row is not None:
            current = dict(row.labels).get(row.entry.id, "")
            self.query_one(SessionKeeper).label(self.snapshot.session.path, row.entry.id, current)

    @on(SessionKeeper.Kept)
    def _kept(self, message: SessionKeeper.Kept) -> None:
        self._reread()

    @work(thread=True, exclusive=True, group="branches")
    def _reread(self) -> None:
        """The file holds a new label: read it again, then list the branches again."""
        try:
            session = open_session(self.snapshot.session.path, warn=None)
        except (SessionError, OSError) as error:
            self.post_message(self.Failed(str(error)))
            return
        snapshot = SessionSnapshot.of(session)
        self.app.call_from_thread(self._rebuild, snapshot)

    def _rebuild(self, snapshot: SessionSnapshot) -> None:
        self.snapshot = snapshot
        self._build()

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_move(self, delta: int) -> None:
        self.query_one(BranchTable).cursor_row += delta

    def action_edge(self, where: str) -> None:
        self.query_one(BranchTable).action_edge(where != "top")
