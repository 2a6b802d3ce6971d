"""The rows of the chat pane: each prompt, reply text, thinking, tool call (with its result and
status), compaction… is one ``Static`` drawn by the session view's own blocks
(``ui/render/blocks.py``), from the same view rows (:class:`~ink_tui.session.conversation.view.
TurnBuilder`), so a message looks the same in the chat pane and in the replay.

What is the chat's own: its display options (:func:`chat_options`: thinking shown, its keys
named, a reply always whole, calls it waits on), and a row too big to draw at once, which the
replay draws piece by piece as it scrolls into view, is cut here after its first pieces.
"""

from __future__ import annotations

from typing import Final

from rich.console import RenderableType
from rich.text import Text
from textual.widgets import Static

from ink_tui.session.conversation.view import Item, Turn
from ink_tui.ui.keymap import VERB, key_name
from ink_tui.ui.render.blocks import RenderOptions, item_block, turn_block
from ink_tui.ui.render.pieces import shortened

__all__ = ["CHAT_PIECES", "ChatRow", "Row", "chat_options", "row_renderable"]

Row = Turn | Item
CHAT_PIECES: Final = 10
"""Pieces of a huge row drawn in the chat pane (about 40 kB, 1,000 lines); a reply is whole."""
CUT_NOTE: Final = "… too long to show whole here: the session view (Esc when idle) shows all of it"


def chat_options() -> RenderOptions:
    """How the chat pane draws its rows: thinking shown (its key toggles it), outputs cut (no
    key shows one whole here), a reply whole however long (its Markdown parts were rendered
    as it streamed)."""
    return RenderOptions(
        show_thinking=True,
        thinking_key=key_name(VERB["detail"].typing[0]),
        output_key=None,
        whole_replies=True,
    )


def row_renderable(row: Row, options: RenderOptions, label: str | None = None) -> RenderableType:
    """One row as the replay draws it (a prompt unnumbered: the pane shows the last turns
    only), a huge one cut after :data:`CHAT_PIECES` pieces."""
    block = turn_block(row, 0, label) if isinstance(row, Turn) else item_block(row, options, label)
    return Text("") if block is None else shortened(block, CHAT_PIECES, CUT_NOTE)


class ChatRow(Static):
    """One row of the conversation, kept so that it can be drawn again (a call answered,
    thinking shown or hidden)."""

    def __init__(self, row: Row, renderable: RenderableType, messages: int) -> None:
        super().__init__(renderable, classes="chat-message")
        self.row = row
        self.messages = messages  # the messages this row stands for (counted once pruned)

    def draw(self, options: RenderOptions, label: str | None = None) -> None:
        self.update(row_renderable(self.row, options, label))
