"""The session view's keys: moving, opening, searching, copying, branches, going back.

The base of :class:`~ink_tui.ui.screens.session.SessionScreen` (which provides the widgets, the
loaded branch and the tree/transcript sync used here).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from textual import on
from textual.widgets import Input, Static

from ink_tui.agent.start import continue_point
from ink_tui.session.view import find_item, row_entry_id, row_text, search_turns
from ink_tui.ui.messages import GoBack, OpenChat
from ink_tui.ui.render.blocks import OutputMode, RenderOptions
from ink_tui.ui.render.safe import plain
from ink_tui.ui.screens.session_live import LiveFollowing
from ink_tui.ui.widgets.session_tree import SessionTree

__all__ = ["SessionKeys"]

_OUTPUT_CYCLE: dict[OutputMode, OutputMode] = {"cut": "full", "full": "hidden", "hidden": "cut"}


class SessionKeys(LiveFollowing):
    """Key actions of the session view."""

    path: Path
    _matches: list[str]
    _match: int

    # Provided by the session screen.
    def _reveal(self, key: str, *, from_transcript: bool = False) -> None:
        raise NotImplementedError

    def _set_options(self, options: RenderOptions) -> None:
        raise NotImplementedError

    # -- actions -----------------------------------------------------------------------------

    def action_move(self, delta: int) -> None:
        tree = self.query_one(SessionTree)
        if delta < 0:
            self.pause_following()
        (tree.action_cursor_down if delta > 0 else tree.action_cursor_up)()

    def action_edge(self, where: str) -> None:
        if where == "bottom" and self.following:
            self.action_resume()
            return
        if where == "top":
            self.pause_following()
        tree = self.query_one(SessionTree)
        if tree.last_line >= 0:
            tree.move_cursor_to_line(0 if where == "top" else tree.last_line)

    def action_turn(self, delta: int) -> None:
        if delta < 0:
            self.pause_following()
        tree = self.query_one(SessionTree)
        turns = list(tree.root.children)
        if not turns:
            return
        current = tree.cursor_node
        while (
            current is not None and current.parent is not None and current.parent is not tree.root
        ):
            current = current.parent
        index = turns.index(current) if current in turns else -1
        target = turns[max(0, min(len(turns) - 1, index + delta))]
        tree.move_cursor(target)

    def action_expand(self) -> None:
        tree = self.query_one(SessionTree)
        node = tree.cursor_node
        if node is not None and node.allow_expand and not node.is_expanded:
            tree.open_node(node)

    def _toggle_full_output(self, key: str) -> None:
        item = find_item(self.loaded.turns, key) if self.loaded is not None else None
        if item is None or item.tool is None:
            return
        self._set_options(replace(self.options, expanded=frozenset(self.options.expanded ^ {key})))

    def action_collapse(self) -> None:
        tree = self.query_one(SessionTree)
        node = tree.cursor_node
        if node is None:
            return
        if node.is_expanded and node.children:
            node.collapse()
        elif node.parent is not None and node.parent is not tree.root:
            tree.move_cursor(node.parent)

    def action_toggle_thinking(self) -> None:
        self._set_options(replace(self.options, show_thinking=not self.options.show_thinking))
        self.notify(
            "thinking shown" if self.options.show_thinking else "thinking hidden", timeout=2
        )

    def action_cycle_output(self) -> None:
        mode = _OUTPUT_CYCLE[self.options.output]
        self._set_options(replace(self.options, output=mode, expanded=frozenset()))
        self.notify(f"tool output: {mode}", timeout=2)

    def action_copy(self) -> None:
        node = self.query_one(SessionTree).cursor_node
        if node is None or node.data is None or self.loaded is None:
            return
        text = row_text(self.loaded.turns, node.data)
        self.app.copy_to_clipboard(text)
        self.notify(f"copied {len(text)} characters", timeout=2)

    def action_search(self) -> None:
        search = self.query_one("#search", Input)
        search.value = ""
        search.display = True
        search.focus()

    @on(Input.Submitted, "#search")
    def _search_submitted(self, event: Input.Submitted) -> None:
        if self.loaded is None:
            return
        self._matches = search_turns(self.loaded.turns, event.value)
        self._match = -1
        event.input.display = False
        self.query_one(SessionTree).focus()
        if not self._matches:
            self._status(f"no match for {event.value!r}" if event.value else "")
            return
        self.action_next_match(1)

    def action_next_match(self, delta: int) -> None:
        if not self._matches:
            self._status("no search: press / to search")
            return
        self._match = (self._match + delta) % len(self._matches)
        self._status(f"match {self._match + 1} of {len(self._matches)}  (n next, N previous)")
        self._reveal(self._matches[self._match])

    def _status(self, text: str) -> None:

        status = self.query_one("#search-status", Static)
        status.update(plain(text))
        status.display = bool(text)

    def action_branches(self) -> None:
        if self.loaded is None:
            return
        from ink_tui.ui.screens.branches import BranchesScreen
        from ink_tui.ui.screens.session import SessionScreen

        def chosen(leaf_id: str | None) -> None:
            if leaf_id is not None and self.loaded is not None:
                self.app.push_screen(SessionScreen(self.path, leaf_id))

        self.app.push_screen(BranchesScreen(self.loaded.session, self.loaded.leaf_id), chosen)

    def action_chat(self) -> None:
        """Continue the session in the chat pane: from the leaf, or (asked) from this row."""
        if self.loaded is None:
            return
        node = self.query_one(SessionTree).cursor_node
        entry_id = row_entry_id(self.loaded.turns, node.data) if node and node.data else None
        leaf = self.loaded.leaf_id
        point = continue_point(self.loaded.entries, entry_id) if entry_id else leaf
        if point == leaf:
            self.stop_watching()
            self.post_message(OpenChat(self.path, leaf))
            return
        from ink_tui.ui.screens.chat_modals import ForkScreen

        def chosen(answer: str | None) -> None:
            if answer is None:
                return
            self.stop_watching()
            self.post_message(OpenChat(self.path, point if answer == "fork" else leaf))

        text = row_text(self.loaded.turns, node.data) if node and node.data else ""
        first = text.strip().splitlines()[0][:120] if text.strip() else "(this entry)"
        self.app.push_screen(ForkScreen(f"entry {point}: {first}"), chosen)

    def action_back(self) -> None:
        search = self.query_one("#search", Input)
        if search.display:
            search.display = False
            self.query_one(SessionTree).focus()
            return
        self.stop_watching()
        self.post_message(GoBack())
