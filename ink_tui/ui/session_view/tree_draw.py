"""How a row of the session tree is drawn: guides, the open/closed icon, the label fitted to the
width (its figures at the right edge), the cursor on the label.

The look is that of Textual's ``Tree`` (the tree was one): ``├── ``/``└── `` guides four cells a
level, ``▶``/``▼`` before a row that opens, the guides under the cursor's row (and under the row
the mouse is over) in their own colours, the hovered row and the rows under it highlighted. A
line carries the same mouse metadata: ``line`` (its index) and ``toggle`` on the icon.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from rich.console import Console
from rich.style import Style
from rich.text import Text
from textual.strip import Strip
from textual.widget import Widget

from ink_tui.ui.render.cut import fit_label
from ink_tui.ui.session_view.tree_rows import TreeRow

__all__ = [
    "COMPONENT_CLASSES",
    "GUIDE_DEPTH",
    "ICON_CLOSED",
    "ICON_OPEN",
    "TREE_CSS",
    "LineStyles",
    "draw_line",
    "line_styles",
    "path_of",
]

ICON_CLOSED: Final = "▶ "
ICON_OPEN: Final = "▼ "
GUIDE_DEPTH: Final = 4  # cells per level
TOGGLE: Final = Style.from_meta({"toggle": True})
_GUIDES: Final = {
    "default": ("  ", "│ ", "└─", "├─"),
    "bold": ("  ", "┃ ", "┗━", "┣━"),
    "double": ("  ", "║ ", "╚═", "╠═"),
}

COMPONENT_CLASSES: Final = frozenset(
    f"tree--{name}"
    for name in (
        "label",
        "guides",
        "guides-hover",
        "guides-selected",
        "cursor",
        "highlight",
        "highlight-line",
    )
)

TREE_CSS: Final = """
SessionTree {
    background: $surface;
    color: $foreground;
    & > .tree--label {}
    & > .tree--guides { color: $surface-lighten-2; }
    & > .tree--guides-hover { color: $surface-lighten-2; }
    & > .tree--guides-selected { color: $block-cursor-blurred-background; }
    & > .tree--cursor {
        text-style: $block-cursor-blurred-text-style;
        background: $block-cursor-blurred-background;
    }
    & > .tree--highlight {}
    & > .tree--highlight-line { background: $block-hover-background; }
    &:focus {
        background-tint: $foreground 5%;
        & > .tree--cursor {
            color: $block-cursor-foreground;
            background: $block-cursor-background;
            text-style: $block-cursor-text-style;
        }
        & > .tree--guides { color: $surface-lighten-3; }
        & > .tree--guides-hover { color: $surface-lighten-3; }
        & > .tree--guides-selected { color: $block-cursor-background; }
    }
    &:light {
        & > .tree--guides { color: $surface-darken-1; }
        & > .tree--guides-hover { color: $block-cursor-background; }
        & > .tree--guides-selected { color: $block-cursor-background; }
    }
}
SessionTree:ansi {
    color: ansi_default;
    & > .tree--guides { color: $ansi-background; }
    &:nocolor > .tree--cursor { text-style: reverse; }
}
"""
"""The look of Textual's ``Tree``, for the session tree."""


@dataclass(frozen=True, slots=True)
class LineStyles:
    """The widget's styles a line is drawn with (its component classes, read once a line)."""

    base: Style
    highlight_line: Style  # a row the mouse is over, and the rows under it
    guides: Style
    guides_hover: Style
    guides_selected: Style
    guides_hidden: tuple[bool, bool, bool]  # base, hover, selected: transparent
    label: Style
    highlight: Style  # the label the mouse is over
    cursor: Style


def line_styles(widget: Widget) -> LineStyles:
    """``widget``'s styles for its lines, from its component classes."""
    part = widget.get_component_rich_style
    base_hidden, hover_hidden, selected_hidden = (
        widget.get_component_styles(f"tree--{name}").color.a == 0
        for name in ("guides", "guides-hover", "guides-selected")
    )
    return LineStyles(
        base=widget.rich_style,
        highlight_line=part("tree--highlight-line"),
        guides=part("tree--guides", partial=True),
        guides_hover=part("tree--guides-hover", partial=True),
        guides_selected=part("tree--guides-selected", partial=True),
        guides_hidden=(base_hidden, hover_hidden, selected_hidden),
        label=part("tree--label", partial=True),
        highlight=part("tree--highlight", partial=True),
        cursor=part("tree--cursor", partial=False),
    )


def path_of(row: TreeRow) -> list[TreeRow]:
    """The rows from the top row down to ``row``."""
    path = [row]
    while path[0].parent is not None:
        path.insert(0, path[0].parent)
    return path


def _guides(style: Style, hidden: bool) -> tuple[str, str, str, str]:
    """Space, vertical, terminator and cross, ``GUIDE_DEPTH`` cells each."""
    if hidden:
        return ("    ", "    ", "    ", "    ")
    lines = _GUIDES["bold" if style.bold else "double" if style.underline2 else "default"]
    depth = GUIDE_DEPTH - 2
    first, second, third, fourth = (f"{c[0]}{c[1] * depth} " for c in lines)
    return first, second, third, fourth


def draw_line(
    row: TreeRow,
    index: int,
    *,
    width: int,
    styles: LineStyles,
    cursor: TreeRow | None,
    hover: TreeRow | None,
    focused: bool,
    console: Console,
) -> Strip:
    """Row ``row`` (line ``index``) in ``width`` cells."""
    path = path_of(row)
    hovered = hover is not None and any(node is hover for node in path)
    line_style = (styles.highlight_line if hovered else styles.base) + Style(meta={"line": index})
    base_hidden, hover_hidden, selected_hidden = styles.guides_hidden
    is_hover = path[0] is hover
    selected = path[0] is cursor and focused
    guide_style, hidden = styles.guides, True
    guides = Text(style=line_style)
    for node in path[1:]:
        hidden = base_hidden
        if is_hover:
            guide_style, hidden = styles.guides + styles.guides_hover, hover_hidden
        if selected:
            guide_style, hidden = styles.guides + styles.guides_selected, selected_hidden
        space, vertical, _, _ = _guides(guide_style, hidden)
        if node is not row:
            guides.append(space if node.is_last else vertical, style=guide_style)
        is_hover = is_hover or node is hover
        selected = (selected or node is cursor) and focused
    if len(path) > 1:
        _, _, terminator, cross = _guides(guide_style, hidden)
        guides.append(terminator if row.is_last else cross, style=guide_style)
    label_style = styles.label
    if row is hover:
        label_style += styles.highlight
    if row is cursor:
        label_style += styles.cursor
    label = row.label.copy()
    label.stylize(label_style)
    icon = ((ICON_OPEN if row.expanded else ICON_CLOSED), line_style + TOGGLE)
    text = Text.assemble(icon if row.expandable else ("", line_style), label)
    text = fit_label(text, width - row.depth * GUIDE_DEPTH, row.tail)
    text.stylize(Style(meta={"node": id(row)}))
    guides.append(text)
    strip = Strip(guides.render(console), guides.cell_len)
    return strip.extend_cell_length(width, line_style)
