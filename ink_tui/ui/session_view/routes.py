"""The session view: the branch's tree beside the replay, kept in step (its keys:
:mod:`.screen`).

The screen composes its parts and routes what they say: the tree (:mod:`.tree`), the replay
(:mod:`.replay`), the search (:mod:`.search`), following (:mod:`.following`), playback
(:mod:`.playback`), subagents (:mod:`.children`), the header, the :class:`PaneSplit` sizing the
tree, the keeper. Each part owns its state and does its own job; what one asks of another comes
here as a message and goes on as a call. Which turns the tree and the replay hold is the
:class:`~.window.TurnWindow` model's choice; the screen shows what it chose. The screen's keys
(:mod:`.keys`, :mod:`.screen`) are typed actions, each calling the part that does the job.
Loading runs in a worker thread; what is shown changes in handlers. Nothing here writes the file.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual import getters, on
from textual.app import ComposeResult
from textual.screen import Screen

from ink_tui.humanize import breadcrumb
from ink_tui.paths import mirrored_machine
from ink_tui.session.conversation.branchview import LoadedBranch
from ink_tui.session.conversation.rows import find_item, match_row
from ink_tui.ui.options import follow_theme
from ink_tui.ui.screens.changes import Jump
from ink_tui.ui.session_view import opens
from ink_tui.ui.session_view.children import ChildArrival, SessionChildren
from ink_tui.ui.session_view.edges import is_edge
from ink_tui.ui.session_view.following import LiveFollow
from ink_tui.ui.session_view.header import HeaderState, SessionHeader
from ink_tui.ui.session_view.loader import BranchLoader, loading_note, torn_note
from ink_tui.ui.session_view.panes import SessionPanes
from ink_tui.ui.session_view.playback import SessionPlayback
from ink_tui.ui.session_view.replay import SessionReplay
from ink_tui.ui.session_view.search import SessionSearch, match_pattern
from ink_tui.ui.session_view.tree import SessionTree
from ink_tui.ui.widgets.banner import Banner
from ink_tui.ui.widgets.footer import InkFooter
from ink_tui.ui.widgets.keeper import SessionKeeper
from ink_tui.ui.widgets.status_line import StatusLine
from ink_tui.ui.widgets.transcript import Transcript

__all__ = ["EARLIER_PLACEHOLDER", "NARROW_BELOW", "SessionRoutes"]

EARLIER_PLACEHOLDER = "⋯ earlier turns: still reading the session (g lands at the start then)"
NARROW_BELOW = 100  # columns: below this the tree is hidden (v shows it above the replay)


class SessionRoutes(Screen[None]):
    """One session, read-only: its parts and the routes between them (its keys:
    :class:`~.screen.SessionScreen`)."""

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (NARROW_BELOW, "-wide")]

    def __init__(
        self,
        path: Path,
        leaf_id: str | None = None,
        *,
        follow: bool = False,
        arrival: tuple[str | None, str | None] = (None, None),
        parent: str | None = None,
        child: ChildArrival | None = None,
    ) -> None:
        super().__init__()
        self.path = path
        self.parent_title = parent  # a subagent session opened from its parent's task call
        self.leaf_id = leaf_id
        self._arrival = arrival  # (entry id, search): where a search across sessions lands
        self._child_arrival = child  # a subagent to open over this view once it is read
        self.loaded: LoadedBranch | None = None
        self.last_jump: Jump | None = None  # the changes view's last Enter (D goes on from it)
        self._fallback_title = ""
        self._row_labels: dict[str, str] = {}
        self._follow_after_load = follow
        self._reading = False  # a load runs: following waits for the whole branch

    def compose(self) -> ComposeResult:
        yield SessionHeader(id="session-header")
        yield Banner(id="follow-banner", classes="error-banner")
        yield BranchLoader(id="loader")
        yield SessionPanes(self.path, id="session-body")
        yield SessionPlayback(id="playback")
        yield SessionSearch(id="search")
        yield StatusLine(id="search-status")
        yield LiveFollow(id="live")
        yield SessionKeeper()
        yield InkFooter()

    panes = getters.query_one(SessionPanes)
    session_tree = getters.query_one(SessionTree)
    transcript = getters.query_one(SessionReplay)
    live = getters.query_one(LiveFollow)
    playback = getters.query_one(SessionPlayback)
    search = getters.query_one(SessionSearch)
    loader = getters.query_one(BranchLoader)
    status = getters.query_one(StatusLine)
    keeper = getters.query_one(SessionKeeper)
    subagents = getters.query_one(SessionChildren)

    def on_resize(self) -> None:
        self.refresh_bindings()  # the breakpoint may have changed what v does
        self.focus_view()  # and whether the tree is shown

    def on_mount(self) -> None:
        self.session_tree.focus()
        self.call_after_refresh(self.focus_view)
        follow_theme(self, self.theme_changed)
        self.reload(self.leaf_id)

    # -- loading -----------------------------------------------------------------------------

    def reload(self, leaf_id: str | None = None) -> None:
        """Read the file again from the start (and show ``leaf_id``'s branch, if given)."""
        self.leaf_id = leaf_id
        self._reading = True
        self.loader.load(self.path, leaf_id, complete_only=self._follow_after_load)

    @on(BranchLoader.Failed)
    def _failed(self, message: BranchLoader.Failed) -> None:
        from ink_tui.ui.screens.error import ErrorScreen

        self.app.switch_screen(ErrorScreen(self.path, message.error))

    @on(BranchLoader.Broke)
    def _broke(self, message: BranchLoader.Broke) -> None:
        self.loader.done()
        self._reading = self._follow_after_load = False
        self.status.say(message.line, "load")
        self.notify(message.line, severity="error", timeout=15)

    @on(BranchLoader.Loaded)
    def _loaded(self, message: BranchLoader.Loaded) -> None:
        self._fallback_title = message.title
        self._show_loaded(message.loaded)

    def _show_loaded(self, loaded: LoadedBranch) -> None:
        tree = self.session_tree
        first_look = self.loaded is not None and self.loaded.partial
        # Where the user went while the first look was shown ("": nowhere, None: the start).
        moved_to = tree.cursor_key if first_look and tree.cursor and not tree.at_last_row else ""
        self.loaded = loaded
        self._row_labels = loaded.row_labels()
        self.loader.done()
        self.show_header()
        self.panes.show(loaded, self._row_labels, EARLIER_PLACEHOLDER if loaded.partial else None)
        self.search.set_rows(loaded.turns, self._row_labels, loading=loaded.partial)
        if loaded.partial:
            self.status.say(loading_note(loaded, following=self._follow_after_load), "load")
            self.call_after_refresh(self.loader.painted.set)  # the whole read may go on
            self.call_after_refresh(tree.land_at_end())  # unless a key moved it
            return
        self._reading = False
        self.status.say("", "load")
        if first_look:
            if moved_to:
                self.call_after_refresh(self.reveal, moved_to)
            else:
                self.call_after_refresh(tree.to_edge, bottom=moved_to == "")
        else:
            torn = torn_note(loaded.session)
            if torn is not None:
                self.notify(torn, severity="warning", timeout=8)
            self.call_after_refresh(self._arrive, tree.land_at_end())  # unless a key moved it
            if self._child_arrival is not None:
                arrival, self._child_arrival = self._child_arrival, None
                session_id = str(loaded.session.header.get("id", ""))
                # after _arrive: the parent lands on the task call, not on its last row
                self.call_after_refresh(
                    self.subagents.arrive, arrival, self.path, session_id, loaded.turns
                )
        if self._follow_after_load:
            self._follow_after_load = False
            self.call_after_refresh(self._start_following)

    def _arrive(self, land: Callable[[], None]) -> None:
        """On the last row (``land``: unless a key moved the cursor first); opened from a search
        across sessions: on the match, its words set."""
        (entry_id, words), self._arrival = self._arrival, (None, None)
        loaded = self.loaded
        key = None
        if (entry_id is not None or words) and loaded is not None:
            if entry_id is not None:
                key = match_row(loaded.turns, entry_id, words or "", self._row_labels)
            if words:
                self.search.start(words, keep=key)
            if key is None:
                self.notify("the match is not on this branch any more", severity="warning")
        item = find_item(loaded.turns, key) if key is not None and loaded is not None else None
        if item is not None and words:
            self.transcript.open_match(item, words)  # thinking or output shown where it matched
        self.reveal(key) if key is not None else land()

    def session_title(self) -> str:
        """The title the picker shows: the session's name, else its first prompt."""
        name = self.loaded.header.get("name") if self.loaded is not None else None
        return name or self._fallback_title

    def show_header(self) -> None:
        if self.loaded is None:
            return
        title = self.session_title()
        if self.parent_title is not None:  # the breadcrumb: Esc goes back to the parent's call
            title = breadcrumb(self.parent_title, title)
        machine = mirrored_machine(self.path)  # from the path: no file is looked at
        state = HeaderState(title, self.loaded, self.live.header_state, machine)
        self.query_one(SessionHeader).show(state)

    # -- keeping tree and replay in step -----------------------------------------------------

    @on(SessionTree.WentBack)
    def _went_back(self, message: SessionTree.WentBack) -> None:
        self.live.pause()  # up, away from the end: following keeps the view still

    @on(SessionChildren.OpenChild)
    def _open_child(self, message: SessionChildren.OpenChild) -> None:
        """A subagent's own view over this one, titled ``parent ▸ task ▸ child``."""
        where = (message.entry_id, message.search)
        title, follow = self.session_title(), message.follow
        child = type(self)(  # a session view like this one
            message.path, message.leaf_id, parent=title, follow=follow, arrival=where
        )
        self.app.push_screen(child)

    @on(Transcript.TopChanged)
    def _transcript_scrolled(self, event: Transcript.TopChanged) -> None:
        replay = self.transcript
        if replay.scroll_y < replay.max_scroll_y:
            self.live.pause()  # away from the end (the panes move the tree's cursor)

    def reveal(self, key: str) -> None:
        """The tree's cursor and the replay on row ``key`` (the window moves to it if needed)."""
        self.panes.reveal(key)

    def jump_to_end(self) -> None:
        """The branch's last row, in the tree and the replay."""
        self.panes.jump_to_end()

    def focus_view(self) -> None:
        """Focus the tree when it is shown (its cursor in sight). A narrow view with the tree
        hidden focuses nothing: every key goes to the screen's bindings (the replay, focused,
        would take a layout change for the user scrolling and move the cursor)."""
        if self.search.is_open:
            return
        shown = not self.has_class("-narrow") or self.has_class("-tree-toggled")
        self.transcript.can_focus = shown
        if not shown:
            self.set_focus(None)
            return
        tree = self.session_tree
        tree.focus()
        tree.scroll_to_cursor()

    def _cursor_row(self) -> str | None:
        """The key of the row under the tree's cursor (None: none, or a window's edge)."""
        key = self.session_tree.cursor_key
        return None if is_edge(key) else key

    # -- the search ----------------------------------------------------------------------------

    @on(SessionSearch.Found)
    def _found(self, message: SessionSearch.Found) -> None:
        self.transcript.set_highlight(match_pattern(message.query))
        self.session_tree.mark_matches(message.keys)
        key = message.key
        if key is None:
            return
        item = find_item(self.loaded.turns, key) if self.loaded is not None else None
        if item is not None:
            self.transcript.open_match(item, message.query)
        self.live.pause()
        self.reveal(key)

    @on(SessionSearch.Status)
    def _search_status(self, message: SessionSearch.Status) -> None:
        self.status.say(message.text, "search")

    @on(SessionSearch.Closed)
    def _search_closed(self, message: SessionSearch.Closed) -> None:
        self.focus_view()

    # -- following, playback, the keeper ---------------------------------------------------------

    def _start_following(self) -> None:
        if self.loaded is not None and self.live.start(self.loaded):
            self.jump_to_end()

    @on(LiveFollow.Reopen)
    def _reopen(self, message: LiveFollow.Reopen) -> None:
        self._follow_after_load = True
        self.reload(message.leaf_id)

    @on(LiveFollow.Grew)
    def _grew(self, message: LiveFollow.Grew) -> None:
        """Show new turns and rows, calls that got their result, and changed labels."""
        loaded = self.loaded
        if loaded is None:
            return
        self.panes.grow(message.changes)
        if message.relabelled:
            self.relabel_rows(message.relabelled)
        self.search.grew(loaded.turns, self._row_labels, message.changes, message.relabelled)
        self.subagents.answered(message.changes)
        if not self.live.paused:
            self.jump_to_end()

    def relabel_rows(self, changed: set[str]) -> None:
        """The labels of rows ``changed`` changed (``self.loaded.labels``): show them."""
        if self.loaded is not None:
            self._row_labels = self.loaded.row_labels()
            self.panes.set_row_labels(self._row_labels, changed)

    @on(LiveFollow.Changed)
    def _follow_changed(self, message: LiveFollow.Changed) -> None:
        live = self.live
        self.show_header()
        self.query_one(Banner).say(live.trouble.note if live.trouble is not None else "")
        self.status.say(live.status, "follow")

    @on(LiveFollow.Running)
    def _calls_running(self, message: LiveFollow.Running) -> None:
        self.session_tree.set_running(message.running, message.now, message.changed)
        self.transcript.set_running(message.running, message.now, message.changed)

    @on(SessionPlayback.Moved)
    def _played(self, message: SessionPlayback.Moved) -> None:
        self.reveal(message.key)

    @on(SessionKeeper.Kept)
    def _kept(self, message: SessionKeeper.Kept) -> None:
        """The keeper wrote to this session: the name or the label shows at once."""
        loaded, what = self.loaded, message.what
        if loaded is None or message.path != self.path:
            return
        if what == "rename" and self.leaf_id is not None:
            return  # the name is the current branch's
        changed = opens.written(loaded, what, message.text, message.target)
        if what == "rename":
            self.show_header()
        elif changed is not None:
            self.relabel_rows(changed)

    def theme_changed(self) -> None:
        """Rendered content takes its colours from the theme: draw it again."""
        self.transcript.invalidate()
        if self.loaded is not None:
            self.show_header()
            self.session_tree.relabel()
