"""Every branch of a session: the entry tree collapsed to its forks. Enter opens a leaf."""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Static, Tree
from textual.widgets.tree import TreeNode

from ink_tui.session.forks import ForkNode, ForkTree, build_fork_tree, first_line
from ink_tui.session.reader import SessionFile
from ink_tui.ui.render.safe import plain

__all__ = ["BranchesScreen", "ForkTreeView", "node_label"]

_ROOT_NOTES = {"orphan": "⚠ parent missing: ", "cycle": "⚠ parentId cycle broken here: "}


class ForkTreeView(Tree[ForkNode]):
    """The collapsed fork tree. Node data is the :class:`ForkNode`; labels are plain text."""

    DEFAULT_CSS = """
    ForkTreeView {
        background: $surface;
    }
    ForkTreeView > .forks--current {
        color: $accent;
        text-style: bold;
    }
    ForkTreeView > .forks--meta {
        color: $text-muted;
    }
    ForkTreeView > .forks--label {
        color: $secondary;
        text-style: italic;
    }
    ForkTreeView > .forks--move {
        color: $warning;
    }
    ForkTreeView > .forks--problem {
        color: $error;
    }
    """
    COMPONENT_CLASSES = {
        "forks--current",
        "forks--meta",
        "forks--label",
        "forks--move",
        "forks--problem",
    }

    def process_label(self, label: str | Text) -> Text:
        # Labels come from session text: never parse them as markup.
        text = label if isinstance(label, Text) else plain(label)
        return text.split()[0] if text.plain else text

    def style_of(self, name: str) -> Style:
        return self.get_component_rich_style(f"forks--{name}", partial=True)


def node_label(node: ForkNode, current_leaf_id: str | None, view: ForkTreeView) -> Text:
    """One line: mark, headline, time, size, id, labels and position markers."""
    meta = view.style_of("meta")
    text = Text()
    is_current = node.id == current_leaf_id
    if node.root_kind in _ROOT_NOTES:
        text.append_text(plain(_ROOT_NOTES[node.root_kind], view.style_of("problem")))
    if node.is_leaf:
        text.append_text(plain("● " if is_current else "○ ", view.style_of("current")))
    elif node.children:
        text.append_text(plain("⑂ " if len(node.children) > 1 else "", meta))
    prompt = node.prompt
    summary = node.summary
    headline = first_line(prompt or summary, 60)
    text.append_text(plain(headline, view.style_of("current") if is_current else ""))
    if prompt is not None and prompt != summary:
        text.append_text(plain(f"  → {first_line(summary, 36)}", meta))
    size = "1 entry" if node.count == 1 else f"{node.count} entries"
    text.append_text(plain(f"  · {node.time} · {size} · {node.id}", meta))
    for entry_id, label in node.labels:
        where = "" if entry_id == node.id else f" (on {entry_id})"
        text.append_text(plain(f"  # {label}{where}", view.style_of("label")))
    for move in node.moves:
        where = "here" if move.leaf_id == node.id else f"to {move.leaf_id}"
        text.append_text(plain(f"  ⤷ moved {where} (line {move.line})", view.style_of("move")))
    if is_current:
        text.append_text(plain("  ← current", view.style_of("current")))
    return text


def _notes(tree: ForkTree) -> Text:
    """The section under the tree: the current leaf, every position marker, stray labels."""
    text = Text()
    current = tree.current_leaf_id
    if current is None:
        text.append_text(plain("Current leaf: none (the empty branch)", "bold"))
    elif current in tree.node_of and tree.node_of[current].id == current:
        text.append_text(plain(f"Current leaf: {current}", "bold"))
    else:
        text.append_text(plain(f"Current leaf: {current} (not a leaf of the tree)", "bold"))
    text.append_text(plain(f"   {len(tree.leaf_ids)} leaves", "dim"))
    if tree.moves:
        text.append_text(plain("\nPosition markers, in file order:", "bold"))
        for move in tree.moves:
            text.append_text(plain(f"\n  {move.describe()}"))
    else:
        text.append_text(plain("\nNo position markers: the leaf is the last entry.", "dim"))
    for target, label in tree.stray_labels:
        text.append_text(plain(f"\n  label # {label} names {target}, not in the tree", "dim"))
    return text


class BranchesScreen(ModalScreen[str | None]):
    """Choose a leaf: Enter on a leaf returns its id, Enter on a fork folds it, Esc cancels."""

    BINDINGS = [
        Binding("escape", "cancel", "Close"),
        Binding("enter", "choose", "Open leaf", show=False),
    ]

    @dataclass
    class Built(Message):
        tree: ForkTree

    def __init__(self, session: SessionFile, current_leaf_id: str | None) -> None:
        super().__init__()
        self.session = session
        self.current_leaf_id = current_leaf_id
        self.fork_tree: ForkTree | None = None
        self.tree_nodes: dict[str, TreeNode[ForkNode]] = {}

    def compose(self) -> ComposeResult:
        with Vertical(id="branches-dialog"):
            yield Static(plain("Branches", "bold"), id="branches-title")
            yield ForkTreeView("branches", id="branches-tree")
            with VerticalScroll(id="branches-notes-scroll"):
                yield Static(plain("reading the tree…", "dim"), id="branches-notes")
            yield Static(
                plain("Enter: open the leaf (on a fork: fold/unfold)   Esc: close"),
                id="branches-hint",
            )

    def on_mount(self) -> None:
        tree = self.query_one(ForkTreeView)
        tree.show_root = False
        tree.focus()
        self._build()

    @work(thread=True, exclusive=True, group="forks")
    def _build(self) -> None:
        self.post_message(self.Built(build_fork_tree(self.session, self.current_leaf_id)))

    @on(Built)
    def _built(self, message: Built) -> None:
        fork_tree = message.tree
        self.fork_tree = fork_tree
        view = self.query_one(ForkTreeView)
        view.clear()
        self.tree_nodes = {}
        stack: list[tuple[TreeNode[ForkNode], ForkNode]] = [
            (view.root, root) for root in reversed(fork_tree.roots)
        ]
        while stack:  # depth first, no recursion: chains can be deep
            parent, node = stack.pop()
            label = node_label(node, self.current_leaf_id, view)
            if node.children:
                added = parent.add(label, node, expand=True)
                stack.extend((added, child) for child in reversed(node.children))
            else:
                added = parent.add_leaf(label, node)
            self.tree_nodes[node.id] = added
        view.root.expand()
        name = self.session.session_id
        title = f"Branches of {name}: {len(fork_tree.leaf_ids)} leaves"
        self.query_one("#branches-title", Static).update(plain(title, "bold"))
        self.query_one("#branches-notes", Static).update(_notes(fork_tree))
        self.call_after_refresh(self._focus_current)

    def _focus_current(self) -> None:
        current = self.current_leaf_id
        node = self.tree_nodes.get(current) if current is not None else None
        if node is not None:
            view = self.query_one(ForkTreeView)
            if view.last_line >= 0:  # (reading it lays the lines out, giving nodes their line)
                view.move_cursor(node)

    @on(Tree.NodeSelected, "#branches-tree")
    def _selected(self, event: Tree.NodeSelected[ForkNode]) -> None:
        # Enter or a click. On a fork the tree itself folds or unfolds the node (auto_expand).
        if event.node.data is not None and event.node.data.is_leaf:
            event.stop()
            self.dismiss(event.node.data.id)

    def action_choose(self) -> None:
        """Enter when the tree does not have focus (e.g. from the command palette)."""
        node = self.query_one(ForkTreeView).cursor_node
        if node is not None and node.data is not None and node.data.is_leaf:
            self.dismiss(node.data.id)
        elif node is not None and node.allow_expand:
            node.toggle()

    def action_cancel(self) -> None:
        self.dismiss(None)
