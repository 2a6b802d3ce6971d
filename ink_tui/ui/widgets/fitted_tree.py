"""A tree whose every row fits its width (the session view's tree and its parts).

A long label is cut with ``…`` where it would pass the tree's right edge, keeping its last
``tails[node.id]`` characters (a tool row's status, a turn's time): the part never cut, always
at the right edge, so the figures of every row line up whatever the script of its title. Labels
are session text: never parsed as markup, and only their first line is shown.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from ink_tui.ui.render.safe import plain
from ink_tui.ui.widgets.tree_labels import fit_label

__all__ = ["FittedTree"]

Node = TreeNode[str]


class FittedTree(Tree[str]):
    """Rows cut to the width, each keeping its never-cut tail."""

    def __init__(self, label: str, *, id: str | None = None) -> None:
        super().__init__(label, id=id)
        self.tails: dict[int, int] = {}  # node id -> characters of its label never cut
        self._build_width: int | None = None  # the content width, while the lines are built

    def process_label(self, label: str | Text) -> Text:
        # Labels are built from untrusted text: never parse them as markup.
        text = label if isinstance(label, Text) else plain(label)
        return text.split()[0] if "\n" in text.plain else text

    def _room(self, node: Node) -> int:
        """Cells left for ``node``'s label after its guides."""
        depth, parent = 0, node.parent
        while parent is not None and parent is not self.root:
            depth, parent = depth + 1, parent.parent
        width = self._build_width
        if width is None:
            width = self.scrollable_content_region.width
        return width - depth * self.guide_depth

    def _build(self) -> None:
        # Textual (pinned) asks get_label_width of every line here: measure the content width
        # once per build, not once per line (it costs tens of microseconds; 100,000 turns).
        self._build_width = self.scrollable_content_region.width
        try:
            super()._build()
        finally:
            self._build_width = None

    def render_label(self, node: Node, base_style: Style, style: Style) -> Text:
        text = super().render_label(node, base_style, style)
        return fit_label(text, self._room(node), self.tails.get(node.id, 0))

    def get_label_width(self, node: Node) -> int:
        # Asked for every line at each rebuild: measure, do not render (labels fit the room).
        icon = cell_len(self.ICON_NODE) if node.allow_expand else 0
        label = node.label
        width = (label.cell_len if isinstance(label, Text) else cell_len(label)) + icon
        room = self._room(node)
        if room <= 0:
            return width
        return room if self.tails.get(node.id) else min(width, room)  # a tail: at the edge
