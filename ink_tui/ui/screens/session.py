"""The session view: the branch's tree on the left, the replay on the right, kept in step."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from pathlib import Path

from rich.console import RenderableType
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Footer, Input, ProgressBar, Static, Tree

from ink_tui.session import SessionError, SessionFile, open_session
from ink_tui.session.branchview import LoadedBranch, load_branch
from ink_tui.session.view import Item, TurnChanges
from ink_tui.ui.render.blocks import RenderOptions, item_block, turn_block
from ink_tui.ui.screens.session_keys import SessionKeys
from ink_tui.ui.widgets.session_header import SessionHeader
from ink_tui.ui.widgets.session_tree import SessionTree
from ink_tui.ui.widgets.transcript import BlockSpec, Transcript

__all__ = ["SessionScreen"]


QUICK_ENTRIES = 1500  # a branch longer than this paints its tail first


def _estimate(text: str) -> int:
    """A cheap guess of a block's height (the real one replaces it once it is rendered)."""
    return min(text.count("\n", 0, 8000), 200) + 2


class SessionScreen(SessionKeys):
    """One session, read-only: nothing here writes to the file."""

    BINDINGS = [
        Binding("j,down", "move(1)", "Down", show=False),
        Binding("k,up", "move(-1)", "Up", show=False),
        Binding("g,home", "edge('top')", "Top", show=False),
        Binding("G,end", "edge('bottom')", "Bottom", show=False),
        Binding("left_square_bracket", "turn(-1)", "Prev turn", key_display="[", show=False),
        Binding("right_square_bracket", "turn(1)", "Next turn", key_display="]"),
        Binding("l", "expand", "Expand", show=False),
        Binding("h", "collapse", "Collapse", show=False),
        Binding("slash", "search", "Search", key_display="/"),
        Binding("n", "next_match(1)", "Next match", show=False),
        Binding("N", "next_match(-1)", "Previous match", show=False),
        Binding("t", "toggle_thinking", "Thinking"),
        Binding("o", "cycle_output", "Output"),
        Binding("y", "copy", "Copy"),
        Binding("b", "branches", "Branches"),
        Binding("f", "toggle_follow", "Follow"),
        Binding("c", "chat", "Continue"),
        Binding("F", "resume", "Resume following", show=False),
        Binding("s", "switch_newer", "Newer session", show=False),
        Binding("escape", "back", "Back", show=False),
    ]

    @dataclass
    class Loaded(Message):
        loaded: LoadedBranch

    @dataclass
    class LoadFailed(Message):
        error: SessionError
        session: SessionFile | None

    @dataclass
    class Progress(Message):
        done: int
        total: int

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, SessionScreen.Progress)

    def __init__(self, path: Path, leaf_id: str | None = None, *, follow: bool = False) -> None:
        super().__init__()
        self.init_following(follow)
        self.path = path
        self.leaf_id = leaf_id
        self.loaded: LoadedBranch | None = None
        self.options = RenderOptions()
        self._matches: list[str] = []
        self._match = -1
        self._from_transcript: set[str] = set()

    def compose(self) -> ComposeResult:
        yield SessionHeader(id="session-header")
        yield ProgressBar(id="load-progress", show_eta=False)
        with Horizontal(id="session-body"):
            yield SessionTree("branch", id="session-tree")
            yield Transcript(id="transcript")
        yield Input(placeholder="search the session (Enter: find, Esc: close)", id="search")
        yield Static("", id="search-status")
        yield Footer()

    def on_mount(self) -> None:
        tree = self.query_one(SessionTree)
        tree.show_root = False
        tree.auto_expand = False
        tree.focus()
        self.query_one("#search", Input).display = False
        self.query_one("#search-status", Static).display = False
        self._load()

    # -- loading -----------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="load")
    def _load(self) -> None:
        total = max(1, self.path.stat().st_size) if self.path.exists() else 1
        session: SessionFile | None = None
        try:
            session = open_session(
                self.path,
                warn=None,
                progress=partial(self._report, total),
                complete_only=self._follow_requested,
            )
            leaf = self.leaf_id or session.leaf_id
            if len(session.entries) > QUICK_ENTRIES:
                # A big session: paint its last turns first, then the whole branch.
                self.post_message(self.Loaded(load_branch(session, leaf, last=QUICK_ENTRIES)))
            self.post_message(self.Loaded(load_branch(session, leaf)))
        except SessionError as error:
            self.post_message(self.LoadFailed(error, session))
        except OSError as error:
            self.post_message(
                self.LoadFailed(
                    SessionError(f"cannot read {self.path}: {error.strerror}", path=self.path), None
                )
            )

    def reload(self, leaf_id: str | None = None) -> None:
        """Read the file again from the start (and show ``leaf_id``'s branch, if given)."""
        self.leaf_id = leaf_id
        if not self.query(ProgressBar):
            self.mount(ProgressBar(id="load-progress", show_eta=False), after="#session-header")
        self._load()

    def on_unmount(self) -> None:
        self.stop_watching()

    def _report(self, total: int, done: int) -> None:
        self.post_message(self.Progress(done, total))

    @on(Progress)
    def _progress(self, message: Progress) -> None:
        for bar in self.query(ProgressBar):
            bar.update(total=message.total, progress=message.done)

    @on(LoadFailed)
    def _failed(self, message: LoadFailed) -> None:
        from ink_tui.ui.screens.error import ErrorScreen

        self.app.switch_screen(ErrorScreen(self.path, message.error))

    @on(Loaded)
    def _loaded(self, message: Loaded) -> None:
        self._show_loaded(message.loaded)

    def _show_loaded(self, loaded: LoadedBranch) -> None:
        tree = self.query_one(SessionTree)
        previous = self.loaded
        moved_to = None  # where the user went while the first, partial load was shown
        partial_shown = previous is not None and previous.earlier > 0
        if partial_shown and tree.cursor_node is not None and tree.cursor_line != tree.last_line:
            moved_to = tree.cursor_node.data
        self.loaded = loaded
        self.query(ProgressBar).remove()  # a hidden bar still animates: take it out
        self.query_one(SessionHeader).show(loaded)
        tree.show_turns(loaded.turns, loaded.labels, first_number=0 if loaded.earlier else 1)
        transcript = self.query_one(Transcript)
        transcript.set_blocks(self._blocks())
        transcript.scroll_to_end_of_transcript()
        if loaded.earlier:
            self._status(f"showing the last turns; reading the {loaded.earlier} earlier entries…")
            self.call_after_refresh(self._select_last)
            return
        if previous is not None and previous.earlier:
            self._status("")
            if moved_to is not None:
                self.call_after_refresh(self._reveal, moved_to)
            else:
                self.call_after_refresh(self._select_last)
            if self._follow_requested:
                self._follow_requested = False
                self.call_after_refresh(self.start_following)
            return
        session = loaded.session
        if session.dropped_final_line is not None:
            dropped = session.dropped_final_line
            self.notify(
                f"torn final line {dropped.line} ignored: {dropped.reason}",
                severity="warning",
                timeout=8,
            )
        elif not session.ends_with_newline:
            self.notify("the final record has no newline (a crash mid-write?)", severity="warning")
        self.call_after_refresh(self._select_last)
        if self._follow_requested:
            self._follow_requested = False
            self.call_after_refresh(self.start_following)

    def _select_last(self) -> None:
        tree = self.query_one(SessionTree)
        if tree.last_line >= 0:
            tree.move_cursor_to_line(tree.last_line)

    def _blocks(self) -> list[BlockSpec]:
        assert self.loaded is not None
        specs: list[BlockSpec] = []
        tree = self.query_one(SessionTree)
        for turn in self.loaded.turns:
            if turn.user is not None:
                render = partial(turn_block, turn, tree.turn_number(turn))
                specs.append(BlockSpec(turn.key, render, _estimate(turn.prompt)))
            for item in turn.items:
                estimate = _estimate(item.text) if item.tool is None else 6
                specs.append(BlockSpec(item.key, partial(self._render_item, item), estimate))
        return specs

    def blocks_for(self, changes: list[TurnChanges]) -> list[BlockSpec]:
        """Blocks for turns and rows that arrived while following, in transcript order."""
        tree = self.query_one(SessionTree)
        specs: list[BlockSpec] = []
        for change in changes:
            for turn in change.new_turns:
                if turn.user is not None:
                    render = partial(turn_block, turn, tree.turn_number(turn))
                    specs.append(BlockSpec(turn.key, render, _estimate(turn.prompt)))
            for _turn, item in change.new_items:
                estimate = _estimate(item.text) if item.tool is None else 6
                specs.append(BlockSpec(item.key, partial(self._render_item, item), estimate))
        return specs

    def _render_item(self, item: Item) -> RenderableType | None:
        return item_block(item, self.options)

    # -- keeping tree and transcript in step -------------------------------------------------

    @on(Tree.NodeHighlighted, "#session-tree")
    def _node_highlighted(self, event: Tree.NodeHighlighted[str]) -> None:
        key = event.node.data
        if key is None or event.node is not self.query_one(SessionTree).cursor_node:
            return  # stale: the cursor moved on (expanding a turn shifts the lines under it)
        if key in self._from_transcript:  # the transcript moved the cursor: do not scroll it back
            self._from_transcript.discard(key)
            return
        self.query_one(Transcript).scroll_to_key(key)

    @on(Tree.NodeSelected, "#session-tree")
    def _node_selected(self, event: Tree.NodeSelected[str]) -> None:
        """Enter: open or close a node; on a tool call, also show its whole output or cut it."""
        node = event.node
        if node.allow_expand:
            tree = self.query_one(SessionTree)
            node.collapse() if node.is_expanded else tree.open_node(node)
        if node.data is not None and not node.data.endswith(":turn"):
            self._toggle_full_output(node.data)

    @on(Transcript.TopChanged)
    def _transcript_scrolled(self, event: Transcript.TopChanged) -> None:
        transcript = self.query_one(Transcript)
        if transcript.scroll_y < transcript.max_scroll_y:
            self.pause_following()
        self._reveal(event.key, from_transcript=True)

    @on(Transcript.BlockClicked)
    def _transcript_clicked(self, event: Transcript.BlockClicked) -> None:
        self._reveal(event.key, from_transcript=True)

    def _reveal(self, key: str, *, from_transcript: bool = False) -> None:
        tree = self.query_one(SessionTree)
        node = tree.node_for(key)
        if node is None:
            return
        if from_transcript:
            if tree.cursor_node is node:
                return
            self._from_transcript.add(key)
        tree.reveal(node)
        if not from_transcript:
            self.query_one(Transcript).scroll_to_key(key)

    def theme_changed(self) -> None:
        """Rendered content takes its colours from the theme: draw it again."""
        self.query_one(Transcript).invalidate()
        if self.loaded is not None:
            self.query_one(SessionHeader).show(
                self.loaded, live=self.following, last_write=self.last_write
            )
            self.query_one(SessionTree).relabel()

    def _set_options(self, options: RenderOptions) -> None:
        self.options = options
        self.query_one(Transcript).invalidate()
