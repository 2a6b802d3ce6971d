"""The tree of the current branch: one node per user turn, its items underneath."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from rich.text import Text
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from ink_tui.session.view import Item, Turn
from ink_tui.ui.render import palette
from ink_tui.ui.render.blocks import status_mark
from ink_tui.ui.render.safe import plain

__all__ = ["SessionTree", "item_label", "turn_label"]

Node = TreeNode[str]
_ITEM_ICONS = {
    "text": ("¶ ", ""),
    "thinking": ("· thinking ", "dim italic"),
    "orphan_result": ("⚠ result with no call ", "error"),
    "compaction": ("⟳ compaction ", "bold warning"),
    "branch_summary": ("⑂ branch summary ", "warning"),
    "thinking_level": ("· thinking level ", "dim"),
    "session_info": ("· name ", "dim"),
    "label": ("· label ", "dim"),
}


def _first_line(text: str, width: int = 60) -> str:
    for line in text.split("\n"):
        if line.strip():
            line = line.strip()
            return line if len(line) <= width else line[: width - 1] + "…"
    return ""


def turn_label(turn: Turn, number: int, label: str | None) -> Text:
    shown = f"{number:>3} " if number > 0 else "  · "  # unknown while earlier turns load
    title = Text.assemble((shown, "dim"), plain(_first_line(turn.title), "bold"))
    if label:
        title.append_text(plain(f"  # {label}", f"italic {palette.current.accent}"))
    return title


def item_label(item: Item, label: str | None, running: dict[str, float] | None = None) -> Text:
    if item.tool is not None:
        tool = item.tool
        text = Text.assemble(
            plain(tool.name, "bold"),
            " ",
            plain(_first_line(tool.key_argument, 40), palette.current.argument),
            " ",
            status_mark(tool, (running or {}).get(item.key)),
        )
    else:
        icon, style = _ITEM_ICONS.get(item.kind, ("", ""))
        style = style.replace("warning", palette.current.warning).replace(
            "error", palette.current.error
        )
        detail = _first_line(item.text)
        if item.kind == "compaction":
            tokens = item.entry.record.get("tokensBefore", "?")
            detail = f"({tokens} tokens before)"
        elif item.kind == "thinking":
            detail = f"({len(item.text)} chars)"
        text = Text.assemble(plain(icon, style), plain(detail, style))
    if label:
        text.append_text(plain(f"  # {label}", f"italic {palette.current.accent}"))
    return text


class SessionTree(Tree[str]):
    """Node data is the transcript key of the row the node stands for."""

    DEFAULT_CSS = """
    SessionTree {
        background: $surface;
    }
    """

    def __init__(self, label: str, *, id: str | None = None) -> None:
        super().__init__(label, id=id)
        self._labels: dict[str, str] = {}
        self._turn_of: dict[str, Turn] = {}  # item key -> its turn
        self._turn_by_key: dict[str, Turn] = {}
        self._turn_node: dict[str, Node] = {}
        self._node_for_key: dict[str, Node] = {}
        self._populated: set[str] = set()
        self._numbers: dict[str, int] = {}
        self._prompts = 0
        self._bulk = False

    def process_label(self, label: str | Text) -> Text:
        # Labels are built from untrusted text: never parse them as markup.
        text = label if isinstance(label, Text) else plain(label)
        return text.split()[0] if "\n" in text.plain else text

    @contextmanager
    def bulk(self) -> Iterator[None]:
        """Add or relabel many nodes, invalidating the tree once at the end."""
        self._bulk = True
        try:
            yield
        finally:
            self._bulk = False
            self._invalidate()

    def _invalidate(self) -> None:
        # While thousands of turns are added at once, invalidate once at the end, not per node.
        if not self._bulk:
            super()._invalidate()

    def show_turns(
        self, turns: list[Turn], labels: dict[str, str], *, first_number: int = 1
    ) -> None:
        """Rebuild the tree: one node per turn; a turn's items are added when it first opens."""
        self.clear()
        self.root.expand()
        self._labels = labels
        self._turn_of = {}
        self._turn_by_key = {}
        self._turn_node = {}
        self._node_for_key = {}
        self._populated = set()
        self._numbers = {}
        self._prompts = first_number - 1 if first_number > 0 else -(10**9)
        with self.bulk():
            for turn in turns:
                self.add_turn(turn, labels)
        if self.root.children:
            self._populate(self.root.children[-1])
            self.root.children[-1].expand()

    def turn_number(self, turn: Turn) -> int:
        """The number shown for a turn (prompts count from 1)."""
        return self._numbers.get(turn.key, 0)

    def add_turn(self, turn: Turn, labels: dict[str, str]) -> Node:
        """Add a turn node at the end (its items are added when it first opens)."""
        self._labels = labels
        if turn.user is not None:
            self._prompts += 1
        number = self._prompts
        self._numbers[turn.key] = number
        label = labels.get(turn.user_id) if turn.user is not None else None
        node = self.root.add(turn_label(turn, number, label), data=turn.key)
        node.allow_expand = True
        self._node_for_key[turn.key] = node
        self._turn_node[turn.key] = node
        self._turn_by_key[turn.key] = turn
        for item in turn.items:
            self._turn_of[item.key] = turn
        return node

    def add_item(self, turn: Turn, item: Item) -> None:
        """A row arrived under a turn: show it if the turn's rows are already shown."""
        self._turn_of[item.key] = turn
        turn_node = self._turn_node.get(turn.key)
        if turn_node is not None and turn.key in self._populated:
            self._add_item_node(turn_node, item)

    def refresh_item(self, item: Item, running: dict[str, float] | None = None) -> None:
        """A tool call got its result (or its running time changed): relabel it."""
        node = self._node_for_key.get(item.key)
        if node is None:
            return
        node.set_label(item_label(item, self._labels.get(item.entry.id), running))
        if item.tool is not None and item.tool.result is not None and not node.children:
            node.allow_expand = True
            node.add_leaf(self._result_label(item), data=item.key)

    def relabel(
        self, labels: dict[str, str] | None = None, *, only: set[str] | None = None
    ) -> None:
        """Build shown labels again: all (the theme changed) or those of the entry ids ``only``."""
        if labels is not None:
            self._labels = labels
        for turn_key, node in self._turn_node.items():
            turn = self._turn_by_key[turn_key]
            if only is not None and turn.user_id not in only:
                if turn_key in self._populated:
                    for item in turn.items:
                        if item.entry.id in only:
                            self.refresh_item(item)
                continue
            label = self._labels.get(turn.user_id) if turn.user is not None else None
            node.set_label(turn_label(turn, self._numbers.get(turn_key, 0), label))
            if turn_key in self._populated:
                for item in turn.items:
                    self.refresh_item(item)

    def refresh_key(self, key: str, running: dict[str, float]) -> None:
        turn = self._turn_of.get(key)
        if turn is None:
            return
        for item in turn.items:
            if item.key == key:
                self.refresh_item(item, running)

    @staticmethod
    def _result_label(item: Item) -> Text:
        assert item.tool is not None
        preview = _first_line(item.tool.output, 60) or "(empty output)"
        style = palette.current.error if item.tool.status == "error" else "dim"
        return plain(f"↳ {preview}", style)

    def _add_item_node(self, turn_node: Node, item: Item) -> None:
        item_node_label = item_label(item, self._labels.get(item.entry.id))
        if item.tool is not None and item.tool.result is not None:
            node = turn_node.add(item_node_label, data=item.key)
            node.add_leaf(self._result_label(item), data=item.key)
        else:
            node = turn_node.add_leaf(item_node_label, data=item.key)
        self._node_for_key.setdefault(item.key, node)

    def _populate(self, turn_node: Node) -> None:
        """Add the items of a turn node, once."""
        if turn_node.data is None or turn_node.data in self._populated:
            return
        turn = self._turn_by_key.get(turn_node.data)
        if turn is None:
            return
        self._populated.add(turn_node.data)
        for item in turn.items:
            self._add_item_node(turn_node, item)

    def _on_tree_node_expanded(self, event: Tree.NodeExpanded[str]) -> None:
        if event.node.parent is self.root:
            self._populate(event.node)

    def open_node(self, node: Node) -> None:
        """Expand a node, adding a turn's items first so they are there at once."""
        if node.parent is self.root:
            self._populate(node)
        node.expand()

    def node_for(self, key: str) -> Node | None:
        """The node standing for a transcript key (its turn's items are added if needed)."""
        node = self._node_for_key.get(key)
        if node is None and key in self._turn_of:
            turn_node = self._turn_node.get(self._turn_of[key].key)
            if turn_node is not None:
                self._populate(turn_node)
                node = self._node_for_key.get(key)
        return node

    def reveal(self, node: Node) -> None:
        """Expand the node's ancestors and put the cursor on it."""
        parent = node.parent
        while parent is not None and parent is not self.root:
            self.open_node(parent)
            parent = parent.parent
        _ = self._tree_lines  # rebuild line numbers after expanding (Textual builds lazily)
        self.move_cursor(node)
