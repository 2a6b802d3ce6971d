"""What the session view opens over itself, and its writes through the keeper.

The timeline (``T``), the branches (``b``), Ink's tree (``I``), the changes (``D``) and the
export (``e``) screens, each pushed over the view with what it needs and a callback that shows
the row chosen there; and ``r``, ``L``: the keeper's rename and label, with the name or label
shown at once (``y``, the copy menu, is :meth:`SessionKeys.copy`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ink_tui.session.conversation.rows import row_label_target
from ink_tui.ui.widgets.window_edges import is_edge

if TYPE_CHECKING:
    from ink_tui.ui.screens.changes import Jump
    from ink_tui.ui.screens.session_keys import SessionView

__all__ = ["SessionOpens"]


class SessionOpens:
    """The screens the session view opens over itself; the keeper's writes to its session."""

    def __init__(self, view: SessionView) -> None:
        self.view = view
        self.last_jump: Jump | None = None  # the changes view's last Enter (D goes on from it)

    def timeline(self) -> None:
        """``T``: every turn as a bar of its duration; Enter there shows that turn here."""
        view, loaded = self.view, self.view.loaded
        if loaded is None:
            return
        from ink_tui.ui.screens.timeline import TimelineScreen

        node = view.session_tree.cursor_node
        turn = view.session_tree.turn_of_row(node.data) if node is not None and node.data else None

        def chosen(key: str | None) -> None:
            if key is not None:
                view.reveal(key)

        view.app.push_screen(TimelineScreen(loaded.turns, turn or ""), chosen)

    def keep(self, what: str) -> None:
        """``r``: rename the session; ``L``: label the row's entry (the keeper asks, then
        writes)."""
        view, loaded = self.view, self.view.loaded
        if loaded is None:
            return
        if what == "rename":
            view.keeper.rename(view.path, loaded.header.get("name", ""))
        elif what == "label":
            node = view.session_tree.cursor_node
            row = node.data if node is not None and not is_edge(node.data) else None
            entry_id = row_label_target(loaded.turns, row) if row else None
            if entry_id is None:
                view.notify("this row shows no entry to label", severity="warning", timeout=3)
                return
            view.keeper.label(view.path, entry_id, loaded.labels.get(entry_id, ""))

    def kept(self, what: str, path: Path | None, text: str, target: str) -> None:
        """The keeper wrote to this session: show the name or the label at once (following
        would bring them too; applying them twice changes nothing)."""
        view, loaded = self.view, self.view.loaded
        if loaded is None or path != view.path:
            return
        if what == "rename" and view.leaf_id is None:  # the name is the current branch's
            loaded.header["name"] = text
            view.show_header()
        elif what == "label":
            if text:
                loaded.labels[target] = text
            else:
                loaded.labels.pop(target, None)
            row = loaded.builder.row_for(target)
            view.relabel_rows({row} if row is not None else set())

    def branches(self) -> None:
        """The branches screen; a branch chosen there opens in a session view of its own."""
        view = self.view
        if view.loaded is None:
            return
        from ink_tui.ui.screens.branches import BranchesScreen
        from ink_tui.ui.screens.session import SessionScreen

        def chosen(leaf_id: str | None) -> None:
            if leaf_id is not None:
                view.app.push_screen(SessionScreen(view.path, leaf_id))

        # The screen copies what it lists (once, here): following goes on meanwhile.
        view.app.push_screen(BranchesScreen(view.loaded.session, view.loaded.leaf_id), chosen)

    def ink_tree(self) -> None:
        """``I``: the whole file as Ink's ``/tree`` lists it; the entry chosen there opens its
        branch in a session view of its own, read-only, as the branches screen does."""
        view = self.view
        from ink_tui.ui.screens.ink_tree import InkTreeScreen
        from ink_tui.ui.screens.session import SessionScreen

        def chosen(entry_id: str | None) -> None:
            if entry_id is not None:
                view.app.push_screen(SessionScreen(view.path, entry_id))

        view.app.push_screen(InkTreeScreen(view.path), chosen)

    def changes(self) -> None:
        """``D``: the files the branch changed; the row chosen there is shown here."""
        from ink_tui.ui.screens.changes import open_changes

        open_changes(self.view, self)

    def export(self) -> None:
        """The export screen for the branch shown; a notification names the file written."""
        view = self.view
        loaded = view.loaded
        if loaded is None:
            return
        from ink_tui.ui.screens.export import ExportDone, ExportScreen

        def done(result: ExportDone | None) -> None:
            if result is not None:
                view.notify(result.message, markup=False, timeout=8)

        title = loaded.header.get("name") or (loaded.turns[0].title if loaded.turns else "")
        session_id = str(loaded.session.header.get("id", ""))
        view.app.push_screen(ExportScreen(view.path, loaded.leaf_id, session_id, title), done)
