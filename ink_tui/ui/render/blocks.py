"""One renderable per view row: how a turn or an item looks, in the replay and the chat pane.

Pure functions of the view rows (``ink_tui.session.conversation.view``) and display options; no
widget state. The session view's replay and the chat pane both draw their rows with these (the
chat through :class:`RenderOptions` fields of its own: its keys, the calls it waits on, replies
whole). Tool calls are drawn by ``tool_blocks.py``, the metadata rows by ``meta_blocks.py``.
"""

from __future__ import annotations

from functools import partial

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.text import Text

from ink_tui.session.conversation.skills import skill_summary
from ink_tui.session.conversation.view import Item, Turn
from ink_tui.ui.render import palette
from ink_tui.ui.render.block_parts import (
    CUT_LINES,
    OutputMode,
    RenderOptions,
    content_parts,
    fixed_piece,
    image_note,
    label_line,
)
from ink_tui.ui.render.huge import content_is_huge, content_pieces, markdown_pieces, text_pieces
from ink_tui.ui.render.meta_blocks import meta_block
from ink_tui.ui.render.pieces import Pieces, is_huge
from ink_tui.ui.render.safe import ansi_text, plain
from ink_tui.ui.render.streamed_markdown import StreamedMarkdown
from ink_tui.ui.render.tool_blocks import diff_block, status_mark, tool_block, tool_is_huge

__all__ = [
    "CUT_LINES",
    "OutputMode",
    "RenderOptions",
    "diff_block",
    "item_block",
    "item_is_huge",
    "label_line",
    "status_mark",
    "turn_block",
    "turn_is_huge",
]


def turn_is_huge(turn: Turn) -> bool:
    """Whether the prompt is too big to render at once (it is shown in pieces)."""
    return turn.user is not None and content_is_huge(turn.user.message.get("content"))


def item_is_huge(item: Item) -> bool:
    """Whether a row is too big to render at once (it is shown in pieces)."""
    return is_huge(item.text) if item.tool is None else tool_is_huge(item.tool)


def turn_block(turn: Turn, number: int, label: str | None = None) -> RenderableType | Pieces:
    """The user's prompt, as a header line (with the entry's label) and its text."""
    title = f"▌ You · turn {number}" if number > 0 else "▌ You"
    header = Text.assemble((title, "bold"), "  ", plain(turn.user_id, "dim"))
    if label:
        header.append("  ")
        header.append_text(label_line(label))
    skill = skill_summary(turn.prompt)
    if skill is not None:  # an expanded /skill: block: one line, as Ink's replay shows it
        return Group(header, Padding(plain(skill, palette.current.accent), (0, 0, 0, 2)))
    content = turn.user.message.get("content") if turn.user is not None else ""
    if content_is_huge(content):
        pieces = content_pieces(content, image_note, colours=False, indent=2)
        return Pieces([fixed_piece(header), *pieces])
    return Group(header, Padding(Group(*content_parts(content, colours=False)), (0, 0, 0, 2)))


def item_block(
    item: Item, options: RenderOptions, label: str | None = None
) -> RenderableType | Pieces | None:
    """The renderable for one row (under its label, if it has one), or ``None``; a huge row
    in :class:`Pieces`."""
    block = _item_body(item, options)
    if isinstance(block, Pieces):
        return Pieces([fixed_piece(label_line(label)), *block.parts]) if label else block
    if label and block is not None:
        return Group(label_line(label), block)
    return block


def _huge_item(item: Item, options: RenderOptions) -> Pieces | None:
    kind = item.kind
    if kind == "text" and not options.whole_replies:
        return Pieces(markdown_pieces(item.text, theme=options.code_theme))
    if kind == "thinking" and (options.show_thinking or item.key in options.thinking_open):
        pieces = text_pieces(item.text, partial(plain, style="dim italic"))
        return Pieces([fixed_piece(plain("▾ thinking", "dim italic")), *pieces])
    if kind == "orphan_result":
        header = plain("⚠ tool result with no call", palette.current.error)
        return Pieces([fixed_piece(header), *content_pieces(item.text, image_note, colours=True)])
    return None


def _item_body(item: Item, options: RenderOptions) -> RenderableType | Pieces | None:
    kind = item.kind
    huge = _huge_item(item, options) if item.tool is None and is_huge(item.text) else None
    if huge is not None:
        return huge
    if kind == "text":
        # (parts rendered once and kept: a reply recorded after streaming is drawn from the
        # parts its stream already rendered)
        return StreamedMarkdown(item.text, finished=True, code_theme=options.code_theme)
    if kind == "thinking":
        if not options.show_thinking and item.key not in options.thinking_open:
            hidden = f"▸ thinking ({len(item.text)} chars, {options.thinking_key} to show)"
            return plain(hidden, "dim italic")
        return Group(plain("▾ thinking", "dim italic"), plain(item.text, "dim italic"))
    if kind == "tool" and item.tool is not None:
        return tool_block(item, item.tool, options)
    if kind == "orphan_result":
        return Group(
            plain("⚠ tool result with no call", palette.current.error), ansi_text(item.text)
        )
    return meta_block(item)
