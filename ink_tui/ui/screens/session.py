"""The session view: the branch's tree beside the replay, kept in step.

The screen coordinates its parts, each doing one job and talking by messages (the tree, the
replay, the search, :class:`LiveFollow`, the header, the :class:`PaneSplit` sizing the tree). Its
keys are data (:mod:`.session_keys`); each action hands the key to the part that does the job.
Loading runs in a worker thread; what is shown changes in handlers. Nothing here writes the file.
"""

from __future__ import annotations

from pathlib import Path

from textual import getters, on
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Footer, Input, Tree

from ink_tui.humanize import breadcrumb
from ink_tui.session.conversation.branchview import LoadedBranch
from ink_tui.session.conversation.rows import find_item
from ink_tui.ui.screens.keeper import SessionKeeper
from ink_tui.ui.screens.session_children import ChildArrival, SessionChildren
from ink_tui.ui.screens.session_keys import SESSION_KEYS, SessionKeys
from ink_tui.ui.screens.session_live import LiveFollow
from ink_tui.ui.screens.session_load import BranchLoader, loading_note, torn_note
from ink_tui.ui.screens.session_opens import SessionOpens
from ink_tui.ui.screens.session_play import SessionPlayback
from ink_tui.ui.screens.session_window import TurnWindow
from ink_tui.ui.widgets.banner import Banner
from ink_tui.ui.widgets.pane_split import PaneSplit
from ink_tui.ui.widgets.session_header import HeaderState, SessionHeader
from ink_tui.ui.widgets.session_replay import SessionReplay
from ink_tui.ui.widgets.session_search import SessionSearch, match_pattern
from ink_tui.ui.widgets.session_tree import SessionTree
from ink_tui.ui.widgets.status_line import StatusLine
from ink_tui.ui.widgets.transcript import Transcript

__all__ = ["EARLIER_PLACEHOLDER", "NARROW_BELOW", "SessionScreen"]

EARLIER_PLACEHOLDER = "⋯ earlier turns: still reading the session (g lands at the start then)"
NARROW_BELOW = 100  # columns: below this the tree is hidden (v shows it above the replay)


class SessionScreen(Screen[None]):
    """One session, read-only."""

    BINDINGS = SESSION_KEYS
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
        self.keys = SessionKeys(self)
        self.opens = SessionOpens(self)  # what the view opens over itself, and the keeper's writes
        self.window = TurnWindow(self)  # which turns the tree and the replay hold
        self._fallback_title = ""
        self._row_labels: dict[str, str] = {}
        self._follow_after_load = follow
        self._reading = False  # a load runs: following waits for the whole branch
        self._from_transcript: set[str] = set()

    def compose(self) -> ComposeResult:
        yield SessionHeader(id="session-header")
        yield Banner(id="follow-banner", classes="error-banner")
        yield BranchLoader(id="loader")
        with Horizontal(id="session-body"):
            yield SessionTree("branch", id="session-tree")
            yield PaneSplit(("branch", "replay"), id="session-split")  # drag it, or ctrl+← →
            yield SessionReplay(id="transcript")
        yield SessionPlayback(id="playback")
        yield SessionSearch(id="search")
        yield StatusLine(id="search-status")
        yield LiveFollow(id="live")
        yield SessionChildren()
        yield SessionKeeper()
        yield Footer()

    session_tree = getters.query_one(SessionTree)
    transcript = getters.query_one(SessionReplay)
    live = getters.query_one(LiveFollow)
    playback = getters.query_one(SessionPlayback)
    search = getters.query_one(SessionSearch)
    loader = getters.query_one(BranchLoader)
    status = getters.query_one(StatusLine)
    keeper = getters.query_one(SessionKeeper)
    subagents = getters.query_one(SessionChildren)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.keys.enabled(action, parameters)

    def on_resize(self) -> None:
        self.refresh_bindings()  # the breakpoint may have changed what v does
        self.keys.focus_view()  # and whether the tree is shown

    def on_mount(self) -> None:
        tree = self.session_tree
        tree.show_root = False
        tree.auto_expand = False
        tree.focus()
        self.call_after_refresh(self.keys.focus_view)
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
        previous = self.loaded
        first_look = previous is not None and previous.partial
        # Where the user went while the first look was shown ("": nowhere, None: the start).
        moved_to: str | None = ""
        if first_look and tree.cursor_node is not None and tree.cursor_line != tree.last_line:
            moved_to = tree.cursor_node.data
        self.loaded = loaded
        self._row_labels = loaded.row_labels()
        self.loader.done()
        self.show_header()
        placeholder = EARLIER_PLACEHOLDER if loaded.partial else None
        self.window.show(loaded.turns, self._row_labels, placeholder)
        self.search.set_rows(loaded.turns, self._row_labels, loading=loaded.partial)
        if loaded.partial:
            self._say_loading()
            self.call_after_refresh(self.loader.painted.set)  # the whole read may go on
            self.call_after_refresh(self.session_tree.land_at_end())  # unless a key moved it
            return
        self._reading = False
        self.status.say("", "load")
        if first_look:
            if moved_to is None:
                self.call_after_refresh(self.session_tree.to_edge, bottom=False)
            elif moved_to:
                self.call_after_refresh(self.reveal, moved_to)
            else:
                self.call_after_refresh(self.session_tree.to_edge, bottom=True)
        else:
            torn = torn_note(loaded.session)
            if torn is not None:
                self.notify(torn, severity="warning", timeout=8)
            self.call_after_refresh(self._arrive)
            if self._child_arrival is not None:
                self.call_after_refresh(self.subagents.arrive, self._child_arrival)
                self._child_arrival = None
        if self._follow_after_load:
            self._follow_after_load = False
            self.call_after_refresh(self._start_following)

    def _say_loading(self) -> None:
        self.status.say(loading_note(self.loaded, following=self._follow_after_load), "load")

    def _arrive(self) -> None:
        """On the last row; opened from a search across sessions: on the match, its words set."""
        (entry_id, words), self._arrival = self._arrival, (None, None)
        key = self.keys.arrive(self.loaded, entry_id, words, self._row_labels)
        self.reveal(key) if key is not None else self.session_tree.to_edge(bottom=True)

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
        self.query_one(SessionHeader).show(HeaderState(title, self.loaded, self.live.header_state))

    # -- keeping tree and transcript in step -------------------------------------------------

    @on(Tree.NodeHighlighted, "#session-tree")
    def _node_highlighted(self, event: Tree.NodeHighlighted[str]) -> None:
        key = event.node.data
        if key is None or event.node is not self.session_tree.cursor_node:
            return  # stale: the cursor moved on (expanding a turn shifts the lines under it)
        if self.window.is_edge(key):  # the turns beyond the window: show them
            self._from_transcript.discard(key)
            beyond = self.window.through_edge(key)
            if beyond is not None:
                self.reveal(beyond)
            return
        if key in self._from_transcript:  # the transcript moved the cursor: do not scroll it back
            self._from_transcript.discard(key)
            return
        self.transcript.scroll_to_key(key)

    @on(Tree.NodeSelected, "#session-tree")
    def _node_selected(self, event: Tree.NodeSelected[str]) -> None:
        """Enter: open or close a node; on a tool call, also show its whole output or cut it;
        on a ``task`` call (or its subagent's rows), open the subagent session."""
        node = event.node
        if self.subagents.open(node):
            return
        if node.allow_expand:
            node.collapse() if node.is_expanded else self.session_tree.open_node(node)
        if node.data is not None and not node.data.endswith(":turn"):
            self.keys.toggle_full_output(node.data)

    @on(Tree.NodeExpanded, "#session-tree")
    def _node_expanded(self, event: Tree.NodeExpanded[str]) -> None:
        self.subagents.expanded(event.node)  # a task call: its subagent's turns, in place

    @on(Transcript.TopChanged)
    def _transcript_scrolled(self, event: Transcript.TopChanged) -> None:
        transcript = self.transcript
        if transcript.scroll_y < transcript.max_scroll_y:
            self.live.pause()
        self.reveal(event.key, from_transcript=True)

    @on(Transcript.BlockClicked)
    def _transcript_clicked(self, event: Transcript.BlockClicked) -> None:
        self.reveal(event.key, from_transcript=True)

    def reveal(self, key: str, *, from_transcript: bool = False) -> None:
        """Put the tree's cursor on row ``key`` (and the replay on it, unless it moved first)."""
        tree = self.session_tree
        self.window.bring(key)  # a row far away: the window moves to it
        node = tree.node_for(key)
        if node is None:
            return
        if from_transcript:
            if tree.cursor_node is node:
                return
            self._from_transcript.add(key)
        tree.reveal(node)
        if not from_transcript:
            self.transcript.scroll_to_key(key)

    def jump_to_end(self) -> None:
        self.window.to_end()
        self.transcript.scroll_to_end_of_transcript()
        self.session_tree.reveal_last()

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
        self.keys.focus_view()

    # -- following ---------------------------------------------------------------------------

    def _start_following(self) -> None:
        if self.loaded is not None and self.live.start(self.loaded):
            self.jump_to_end()

    @on(LiveFollow.Reopen)
    def _reopen(self, message: LiveFollow.Reopen) -> None:
        self._follow_after_load = True
        self.reload(message.leaf_id)

    def on_live_follow_grew(self, message: LiveFollow.Grew) -> None:
        """Show new turns and rows, calls that got their result, and changed labels."""
        loaded = self.loaded
        if loaded is None:
            return
        tree, transcript = self.session_tree, self.transcript
        shown = self.window.grow(message.changes)
        tree.grow(shown)
        transcript.grow(shown)
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
            self.window.set_row_labels(self._row_labels)
            self.session_tree.set_row_labels(self._row_labels, changed)
            self.transcript.set_row_labels(self._row_labels, changed)

    @on(SessionKeeper.Kept)
    def _kept(self, message: SessionKeeper.Kept) -> None:
        self.opens.kept(message.what, message.path, message.text, message.target)

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

    # -- keys: each hands the job to the part that does it -------------------------------------

    def action_edge(self, where: str) -> None:
        if isinstance(self.focused, Input):
            raise SkipAction()  # Home/End/g/G in the search line are the line's
        if where == "bottom" and self.live.following:
            self.action_resume()
            return
        if where == "top":
            self.live.pause()
        self.window.to_end() if where == "bottom" else self.window.to_start()
        self.session_tree.to_edge(bottom=where == "bottom", moved=True)

    def action_search(self) -> None:
        if isinstance(self.focused, Input):
            raise SkipAction()  # "/" in the query line is text
        self.search.open(after=self.keys.cursor_row())

    def action_toggle_follow(self) -> None:
        if self.live.following:
            self.live.stop()
            self.notify("following stopped", timeout=2)
        elif self._reading:  # following part of the branch would miss the rest: wait for it
            self._follow_after_load = not self._follow_after_load
            self._say_loading()
        else:
            self._start_following()
            self.notify("following: new records appear as Ink writes them", timeout=3)

    def action_resume(self) -> None:  # to the end; following goes on if it was paused
        self.live.resume()
        self.jump_to_end()

    def action_play(self, key: str) -> None:
        if isinstance(self.focused, Input) or not self.playback.key(key):
            raise SkipAction()  # not playing back (or typing): the key is the widget's

    @on(SessionPlayback.Moved)
    def _played(self, message: SessionPlayback.Moved) -> None:
        self.reveal(message.key)

    def action_keys(self, name: str, *args: int | str) -> None:
        """Keys that only hand over, to :class:`SessionKeys` or :class:`SessionOpens`."""
        (getattr(self.keys, name, None) or getattr(self.opens, name))(*args)

    def theme_changed(self) -> None:
        """Rendered content takes its colours from the theme: draw it again."""
        self.transcript.invalidate()
        if self.loaded is not None:
            self.show_header()
            self.session_tree.relabel()
