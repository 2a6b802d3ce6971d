"""What the session view opens over itself, each with what it needs and what to do with the
answer (explicit arguments: nothing here holds the view).

The timeline (``T``), the branches (``b``), Ink's tree (``I``), the changes (``D``) and the export
(``e``) screens,
the fork question of ``c`` from an earlier row; and what the keeper's writes (``r``, ``L``)
change in the branch shown, so the name or label shows at once.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.app import App

from ink_tui.agent.start import continue_point
from ink_tui.session.conversation.branchview import LoadedBranch
from ink_tui.session.conversation.rows import row_entry_id, row_label_target, row_text
from ink_tui.session.conversation.view import Turn
from ink_tui.ui.modals.chat import ForkScreen, fork_place
from ink_tui.ui.screens.changes import ChangesScreen, Jump

__all__ = [
    "ask_where_to_continue",
    "label_target",
    "open_branches",
    "open_changes",
    "open_export",
    "open_ink_tree",
    "open_timeline",
    "written",
]


def open_timeline(
    app: App[Any], turns: list[Turn], turn: str, chosen: Callable[[str], None]
) -> None:
    """``T``: every turn as a bar of its duration (``turn`` highlighted); Enter there calls
    ``chosen`` with that turn's row."""
    from ink_tui.ui.screens.timeline import TimelineScreen

    def answered(key: str | None) -> None:
        if key is not None:
            chosen(key)

    app.push_screen(TimelineScreen(turns, turn), answered)


def open_branches(app: App[Any], loaded: LoadedBranch, chosen: Callable[[str], None]) -> None:
    """``b``: every branch of the session; ``chosen`` gets the leaf of the one picked."""
    from ink_tui.ui.screens.branches import BranchesScreen

    def answered(leaf_id: str | None) -> None:
        if leaf_id is not None:
            chosen(leaf_id)

    # The screen copies what it lists (once, here): following goes on meanwhile.
    app.push_screen(BranchesScreen(loaded.session, loaded.leaf_id), answered)


def open_ink_tree(app: App[Any], path: Path, chosen: Callable[[str], None]) -> None:
    """``I``: the whole file as Ink's ``/tree`` lists it; ``chosen`` gets the entry picked (its
    branch opens read-only, as the branches screen's does)."""
    from ink_tui.ui.screens.ink_tree import InkTreeScreen

    def answered(entry_id: str | None) -> None:
        if entry_id is not None:
            chosen(entry_id)

    app.push_screen(InkTreeScreen(path), answered)


def open_changes(
    app: App[Any],
    path: Path,
    loaded: LoadedBranch,
    last: Jump | None,
    chosen: Callable[[Jump], None],
) -> None:
    """``D``: the files the branch changed (``last``: the jump made from there before);
    ``chosen`` gets the row picked there."""

    def answered(jump: Jump | None) -> None:
        if jump is not None:
            chosen(jump)

    # A copy of the rows (following may add to them meanwhile); none while partly read.
    turns = None if loaded.partial else [Turn(t.user, list(t.items)) for t in loaded.turns]
    screen = ChangesScreen(path, loaded.leaf_id, turns, loaded.session.cwd, last=last)
    app.push_screen(screen, answered)


def open_export(app: App[Any], path: Path, loaded: LoadedBranch) -> None:
    """``e``: the export screen for the branch shown; a notification names the file written."""
    from ink_tui.ui.screens.export import ExportDone, ExportScreen

    def done(result: ExportDone | None) -> None:
        if result is not None:
            app.notify(result.message, markup=False, timeout=8)

    title = loaded.header.get("name") or (loaded.turns[0].title if loaded.turns else "")
    session_id = str(loaded.session.header.get("id", ""))
    app.push_screen(ExportScreen(path, loaded.leaf_id, session_id, title), done)


def ask_where_to_continue(
    app: App[Any],
    loaded: LoadedBranch,
    row: str | None,
    number: Callable[[Turn], int],
    go: Callable[[str | None], None],
) -> None:
    """``c``: the chat pane goes on from the leaf, or (asked, when the cursor is on an earlier
    row, ``row``) from that row's entry, a new branch: ``go`` gets the entry to go on from."""
    entry_id = row_entry_id(loaded.turns, row) if row else None
    leaf = loaded.leaf_id
    point = continue_point(loaded.entries, entry_id) if entry_id else leaf
    if point == leaf:
        go(leaf)
        return

    def answered(answer: str | None) -> None:
        if answer is not None:
            go(point if answer == "fork" else leaf)

    text = row_text(loaded.turns, row) if row else ""
    app.push_screen(
        ForkScreen(fork_place(loaded.entries, loaded.turns, point, number, text)), answered
    )


def label_target(loaded: LoadedBranch, row: str | None) -> str | None:
    """The entry ``L`` labels on row ``row`` (None: the row shows none)."""
    return row_label_target(loaded.turns, row) if row else None


def written(loaded: LoadedBranch, what: str, text: str, target: str) -> set[str] | None:
    """The keeper wrote ``what`` (``rename``: the name ``text``; ``label``: label ``text`` on
    entry ``target``) to this session: apply it to the branch shown (following would bring it
    too; applying it twice changes nothing). Returns the rows relabelled (None: none)."""
    if what == "rename":
        loaded.header["name"] = text
        return None
    if what != "label":
        return None
    if text:
        loaded.labels[target] = text
    else:
        loaded.labels.pop(target, None)
    row = loaded.builder.row_for(target)
    return {row} if row is not None else set()
