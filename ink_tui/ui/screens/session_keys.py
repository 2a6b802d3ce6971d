"""The session view's keys: the key map, as data, and the actions that are more than a hand-over.

:data:`SESSION_KEYS` is the one table the screen's bindings, the footer, the help screen and the
command palette are all made from, each key a verb of :mod:`ink_tui.ui.keymap` (the same key
does the same on every screen). Each key names an action of
:class:`~ink_tui.ui.screens.session.SessionScreen`, which hands it to the part that does the job:
the tree moves, the search searches, following follows, and :class:`SessionKeys` does the rest
(display options, copying, continuing, the tree's place, going back).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, Final, Protocol

from textual.app import App
from textual.binding import BindingType
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.widget import Widget
from textual.widgets import Input

from ink_tui.agent.start import continue_point
from ink_tui.session.conversation.branchview import LoadedBranch
from ink_tui.session.conversation.rows import find_item, match_row, row_entry_id, row_text
from ink_tui.session.conversation.view import Turn
from ink_tui.ui.keymap import bind
from ink_tui.ui.messages import GoBack, OpenChat
from ink_tui.ui.render.blocks import OutputMode
from ink_tui.ui.render.safe import ansi_text, plain
from ink_tui.ui.screens.keeper import SessionKeeper
from ink_tui.ui.screens.session_live import LiveFollow
from ink_tui.ui.screens.session_play import SessionPlayback
from ink_tui.ui.widgets.pane_split import PaneSplit
from ink_tui.ui.widgets.session_replay import SessionReplay
from ink_tui.ui.widgets.session_search import SessionSearch
from ink_tui.ui.widgets.session_tree import SessionTree
from ink_tui.ui.widgets.window_edges import is_edge

__all__ = [
    "OUTPUT_CYCLE",
    "SESSION_KEYS",
    "SessionKeys",
    "SessionView",
    "shown_text",
]


# Shown in the footer: what fits in 120 columns with q and ? (? lists every key).
SESSION_KEYS: Final[list[BindingType]] = [
    bind("down", "keys('move', 1)", "Down"),
    bind("up", "keys('move', -1)", "Up"),
    bind("top", "edge('top')", "Top", priority=True),
    bind("bottom", "edge('bottom')", "Bottom", priority=True),
    bind("section_previous", "keys('turn', -1)", "Prev turn"),
    bind("tree", "keys('toggle_tree')", "Tree", show=True),  # acts only when narrow
    bind("narrower", "keys('tree_width', -5)", "Narrower tree"),
    bind("wider", "keys('tree_width', 5)", "Wider tree"),
    bind("section_next", "keys('turn', 1)", "Next turn", show=True),
    bind("expand", "keys('expand')", "Expand"),
    bind("collapse", "keys('collapse')", "Collapse"),
    bind("switch", "app.focus_next", "Tree / replay"),
    # priority: handled as it is read, so the keys typed after it go to the query line
    bind("find", "search", "Search", show=True, priority=True),
    bind("match_next", "keys('next_match', 1)", "Next match"),
    bind("match_previous", "keys('next_match', -1)", "Previous match"),
    bind("detail", "keys('toggle_thinking')", "Thinking"),
    bind("output", "keys('cycle_output')", "Output"),
    bind("copy", "keys('copy')", "Copy…", keys=("y",), show=True),
    bind("copy", "keys('copy')", keys=("Y",)),  # its old key: the same menu, listed nowhere
    bind("rename", "keys('keep', 'rename')", "Rename"),
    bind("label", "keys('keep', 'label')", "Label the entry"),
    bind("branches", "keys('branches')", "Branches", show=True),
    bind("ink_tree", "keys('ink_tree')", "Ink's tree (/tree)"),
    bind("timeline", "keys('timeline')", "Timeline of the turns"),
    bind("changes", "keys('changes')", "Changed files"),
    bind("follow", "toggle_follow", "Follow", show=True),
    bind("chat", "keys('chat')", "Continue", show=True),
    bind("export", "keys('export')", "Export"),
    bind("resume", "resume", "Resume following"),
    bind("newer", "keys('switch_newer')", "Newer session"),
    bind("play", "keys('play')", "Play back", show=True),
    # while playing back (the screen turns them off otherwise: Space opens a row then)
    bind("toggle", "play('pause')", "Pause / play", priority=True),  # the bar names these
    bind("toggle", "keys('toggle_row')", "Open / close the row"),
    bind("step", "play('step')", "Step one record"),
    bind("faster", "play('faster')", "Play faster"),
    bind("slower", "play('slower')", "Play slower"),
    bind("idle", "play('idle')", "Skip idle gaps or not"),
    bind("back", "keys('back')", "Back"),
]

OUTPUT_CYCLE: Final[dict[OutputMode, OutputMode]] = {
    "cut": "full",
    "full": "hidden",
    "hidden": "cut",
}


class SessionView(Protocol):
    """What the key actions need of the session screen."""

    path: Path
    leaf_id: str | None
    loaded: LoadedBranch | None

    @property
    def app(self) -> App[Any]: ...

    @property
    def session_tree(self) -> SessionTree: ...

    @property
    def transcript(self) -> SessionReplay: ...

    @property
    def live(self) -> LiveFollow: ...

    @property
    def search(self) -> SessionSearch: ...

    @property
    def playback(self) -> SessionPlayback: ...

    @property
    def keeper(self) -> SessionKeeper: ...

    def show_header(self) -> None: ...

    def session_title(self) -> str: ...

    def reveal(self, key: str, *, from_transcript: bool = False) -> None: ...

    def relabel_rows(self, changed: set[str]) -> None: ...

    @property
    def is_mounted(self) -> bool: ...

    @property
    def focused(self) -> Widget | None: ...

    def has_class(self, *class_names: str) -> bool: ...

    def toggle_class(self, *class_names: str) -> Any: ...

    def post_message(self, message: Message) -> bool: ...

    def call_after_refresh(self, callback: Callable[[], Any]) -> bool: ...

    def set_focus(self, widget: Widget | None) -> None: ...

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None: ...


def shown_text(turns: list[Turn], key: str) -> str:
    """What ``y`` copies: the row's text as the replay shows it (tool output without its
    escape sequences: colours dropped, other controls made visible)."""
    item = find_item(turns, key)
    if item is not None and item.tool is not None:
        head = plain(f"{item.tool.name} {item.tool.key_argument}").plain
        return f"{head}\n{ansi_text(item.tool.output).plain}"
    if item is not None and item.kind == "orphan_result":
        return ansi_text(item.text).plain
    return plain(row_text(turns, key)).plain


class SessionKeys:
    """The key actions that are more than a hand-over: opening rows, display options,
    copying, continuing in the chat pane, the tree's place, going back."""

    def __init__(self, view: SessionView) -> None:
        self.view = view

    def arrive(
        self,
        loaded: LoadedBranch | None,
        entry_id: str | None,
        words: str | None,
        row_labels: dict[str, str],
    ) -> str | None:
        """Opened from a search across sessions: the session's own search set to ``words``,
        the matching part of the entry shown; returns its row (None: not on this branch, or
        not opened from a search)."""
        if entry_id is None and not words:
            return None
        view = self.view
        key = None
        if loaded is not None and entry_id is not None:
            key = match_row(loaded.turns, entry_id, words or "", row_labels)
        if words:
            view.search.start(words, keep=key)
        if key is None or loaded is None:
            view.notify("the match is not on this branch any more", severity="warning")
            return None
        item = find_item(loaded.turns, key)
        if item is not None and words:
            view.transcript.open_match(item, words)  # thinking or output shown where it matched
        return key

    def enabled(self, action: str, parameters: tuple[object, ...]) -> bool:
        """Whether a key works now (the footer, the help and the palette show only those)."""
        view = self.view
        if (action, parameters) == ("keys", ("toggle_tree",)):  # only a narrow view hides it
            return view.has_class("-narrow")
        if action == "play":  # the playback keys: only while playing back (else Space opens)
            return view.is_mounted and view.playback.player is not None
        if action == "search":  # "/" in the query line is text (the footer leaves it out)
            return not isinstance(view.focused, Input)
        return True

    def move(self, delta: int) -> None:
        """``j``/``k``: one row down or up (up pauses following)."""
        if delta < 0:
            self.view.live.pause()
        self.view.session_tree.move(delta)

    def turn(self, delta: int) -> None:
        """``[``/``]`` (or ``{``/``}``): the previous or next turn (back pauses following)."""
        if delta < 0:
            self.view.live.pause()
        self.view.session_tree.jump_turn(delta)

    def next_match(self, delta: int) -> None:
        """``n`` / ``N``: the first match after the cursor's row, or the last before it."""
        self.view.search.step(delta, after=self.cursor_row())

    def switch_newer(self) -> None:
        self.view.live.switch_newer()

    def expand(self) -> None:
        tree = self.view.session_tree
        node = tree.cursor_node
        if node is not None and node.allow_expand and not node.is_expanded:
            tree.open_node(node)

    def collapse(self) -> None:
        tree = self.view.session_tree
        node = tree.cursor_node
        if node is None:
            return
        if node.is_expanded and node.children:
            node.collapse()
        elif node.parent is not None and node.parent is not tree.root:
            tree.move_cursor(node.parent)

    def toggle_full_output(self, key: str) -> None:
        view = self.view
        item = find_item(view.loaded.turns, key) if view.loaded is not None else None
        if item is None or item.tool is None:
            return
        replay = view.transcript
        expanded = frozenset(replay.options.expanded ^ {key})
        replay.set_options(replace(replay.options, expanded=expanded))

    def toggle_thinking(self) -> None:
        view, replay = self.view, self.view.transcript
        shown = not replay.options.show_thinking
        replay.set_options(replace(replay.options, show_thinking=shown, thinking_open=frozenset()))
        view.notify("thinking shown" if shown else "thinking hidden", timeout=2)

    def cycle_output(self) -> None:
        view, replay = self.view, self.view.transcript
        mode = OUTPUT_CYCLE[replay.options.output]
        replay.set_options(replace(replay.options, output=mode, expanded=frozenset()))
        view.notify(f"tool output: {mode}", timeout=2)

    def cursor_row(self) -> str | None:
        """The key of the row under the tree's cursor (None: none, or a window's edge)."""
        node = self.view.session_tree.cursor_node
        if node is None or node.data is None or is_edge(node.data):
            return None
        return node.data

    def copy(self) -> None:
        """``y``: the copy menu, the picker's with the selected message first (as it is
        shown: bash colours and other escape codes left out); Ink's ``/copy`` takes the branch
        shown."""
        view = self.view
        loaded = view.loaded
        if loaded is None:
            return
        row = self.cursor_row()
        message = shown_text(loaded.turns, row) if row is not None else None
        session_id = str(loaded.session.header.get("id", ""))
        view.keeper.copy(session_id, view.path, message, loaded.leaf_id)

    def toggle_row(self) -> None:
        """Space (not playing back): open or close the row, as the tree's own Space does."""
        node = self.view.session_tree.cursor_node
        if node is None or not node.allow_expand:
            return
        if node.is_expanded:
            node.collapse()
        else:
            self.view.session_tree.open_node(node)

    def chat(self) -> None:
        """Continue the session in the chat pane: from the leaf, or (asked) from this row."""
        view = self.view
        loaded = view.loaded
        if loaded is None:
            return
        node = view.session_tree.cursor_node
        row = node.data if node is not None and not is_edge(node.data) else None
        entry_id = row_entry_id(loaded.turns, row) if row else None
        leaf = loaded.leaf_id
        point = continue_point(loaded.entries, entry_id) if entry_id else leaf
        if point == leaf:
            view.live.stop_watching()
            view.post_message(OpenChat(view.path, leaf))
            return
        from ink_tui.ui.screens.chat_modals import ForkScreen, fork_place

        def chosen(answer: str | None) -> None:
            if answer is None:
                return
            view.live.stop_watching()
            view.post_message(OpenChat(view.path, point if answer == "fork" else leaf))

        text = row_text(loaded.turns, row) if row else ""
        where = fork_place(loaded.entries, loaded.turns, point, view.session_tree.turn_number, text)
        view.app.push_screen(ForkScreen(where), chosen)

    def tree_shown(self) -> bool:
        """Whether the tree is on screen: always when wide; when narrow, after ``v``."""
        return not self.view.has_class("-narrow") or self.view.has_class("-tree-toggled")

    def tree_width(self, delta: int) -> None:
        """ctrl+← / ctrl+→: the tree 5 % narrower or wider (kept for the next session views)."""
        if not self.view.has_class("-narrow"):
            self.view.session_tree.screen.query_one(PaneSplit).nudge(delta)

    def toggle_tree(self) -> None:
        self.view.toggle_class("-tree-toggled")
        self.view.call_after_refresh(self.focus_view)

    def focus_view(self) -> None:
        """Focus the tree when it is shown (its cursor in sight). A narrow view with the tree
        hidden focuses nothing: every key goes to the screen's bindings (the replay, focused,
        would take a layout change for the user scrolling and move the cursor)."""
        view = self.view
        if view.search.is_open:
            return
        shown = self.tree_shown()
        view.transcript.can_focus = shown
        if not shown:
            view.set_focus(None)
            return
        tree = view.session_tree
        tree.focus()
        if tree.cursor_node is not None:
            tree.scroll_to_node(tree.cursor_node, animate=False)

    def play(self) -> None:
        """``p``: play the branch back from the cursor's turn, or stop playing."""
        view = self.view
        view.live.pause()  # following would jump to the end under the playback
        node = view.session_tree.cursor_node
        view.playback.toggle(view.loaded, node.data if node is not None else None)

    def back(self) -> None:
        view = self.view
        if view.search.is_open:
            view.search.action_close()
            return
        if view.playback.active:
            view.playback.stop()
            return
        view.live.stop_watching()
        view.post_message(GoBack())
