"""The conversation of the chat pane: messages and notes, then the reply being streamed.

The log stays anchored at the bottom while text arrives, until the user scrolls up (Textual's
``anchor()``); scrolling back to the bottom anchors it again.

Each message is one ``Static``, so the log keeps at most :data:`MAX_BLOCKS` of them (messages
and notes): older ones leave the DOM, and a line at the top counts the messages not shown
(those of the context before the pane opened, and those pruned since). The session view, a
Line-API view built for whole sessions, shows them all; the pane is for the exchange going
on. Pruning waits while the user reads further up, so nothing moves under their eyes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from rich.console import RenderableType
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from ink_tui.agent.providers.assemble import StreamEvent
from ink_tui.session.reading.recordtypes import json_list, json_object
from ink_tui.ui.render.chat import message_block
from ink_tui.ui.render.safe import plain
from ink_tui.ui.widgets.chat_stream import StreamView

__all__ = ["STREAM_REFRESH", "ChatLog", "Scroll"]

STREAM_REFRESH = 0.05  # seconds between repaints of a streaming reply
MAX_BLOCKS = 200  # messages and notes kept mounted
Scroll = Literal["page_up", "page_down", "top", "bottom"]


class ChatLog(VerticalScroll):
    """Messages (kept, so that they can be redrawn), notes, and the streaming reply."""

    max_blocks = MAX_BLOCKS

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.show_thinking = True
        self._shown: dict[Static, object] = {}  # the messages mounted, in order
        self._earlier = 0  # messages above the first one shown
        self._unsent: Static | None = None  # the user message until it is written
        self._repaint_pending = False

    def compose(self) -> ComposeResult:
        yield Static(id="chat-earlier")
        yield StreamView(id="chat-stream")

    def on_mount(self) -> None:
        self.query_one("#chat-earlier").display = False
        self._stream.show(plain("loading the session…", "dim"))
        self.anchor()
        self.watch(self, "scroll_y", self._scrolled, init=False)

    @property
    def _stream(self) -> StreamView:
        return self.query_one("#chat-stream", StreamView)

    # -- what is shown -----------------------------------------------------------------------

    def add(
        self,
        renderable: RenderableType,
        classes: str = "chat-message",
        before: Static | None = None,
    ) -> Static:
        """A block above the streaming reply (or above ``before``)."""
        block = Static(renderable, classes=classes)
        self.mount(block, before=before or self._stream)
        self._prune()
        return block

    def add_message(self, message: object, *, unsent: bool = False) -> None:
        """A message; ``unsent``: the user's, shown at once, written when the model answers."""
        block = self.add(message_block(message, show_thinking=self.show_thinking))
        self._shown[block] = message
        if unsent:
            self._unsent = block

    def set_earlier(self, count: int) -> None:
        """``count`` messages come before the first one shown."""
        self._earlier = count
        marker = self.query_one("#chat-earlier", Static)
        marker.display = count > 0
        marker.update(
            plain(
                f"… {count} earlier message{'' if count == 1 else 's'}, not shown here: the "
                "session view (Esc when idle) has the whole conversation",
                "dim",
            )
        )

    @property
    def following(self) -> bool:
        """The view is at the bottom (where new text is followed), not up in the history (an
        anchored log shorter than its window may sit at a negative offset)."""
        return self.max_scroll_y == 0 or self.scroll_offset.y >= self.max_scroll_y

    def _scrolled(self) -> None:
        if self.following:
            self._prune()

    def _prune(self) -> None:
        """Unmount the oldest blocks past :attr:`max_blocks`, unless the user reads up there."""
        blocks = [
            child
            for child in self.children
            if isinstance(child, Static)
            and (child.has_class("chat-message") or child.has_class("chat-note"))
        ]
        excess = len(blocks) - self.max_blocks
        if excess <= 0 or not self.following:
            return
        pruned = 0
        for block in blocks[:excess]:
            if block is self._unsent:
                break
            if self._shown.pop(block, None) is not None:
                pruned += 1
            block.remove()
        if pruned:
            self.set_earlier(self._earlier + pruned)

    def end_unsent(self) -> None:
        """The user message was written (or never will be): nothing goes before it any more."""
        self._unsent = None

    def add_arrived(self, messages: Sequence[object]) -> None:
        """What another writer appended (and the closure of calls it left open), shown before
        the user message still unsent: the order of the file."""
        for message in messages:
            block = self.add(
                message_block(message, show_thinking=self.show_thinking), before=self._unsent
            )
            self._shown[block] = message

    def note(self, text: str, style: str = "dim") -> None:
        self.add(plain(text, style), classes="chat-note")

    def fail(self, text: str) -> None:
        """The chat cannot start: say why where the conversation would be."""
        self._stream.show(plain(text, "bold red"))

    def ready(self) -> None:
        """The session is loaded: the loading line goes."""
        self.clear_stream()

    def set_show_thinking(self, show: bool) -> None:
        """Show or hide thinking, in the messages shown so far and in the streaming reply."""
        self.show_thinking = show
        self._stream.show_thinking = show
        for block, message in self._shown.items():
            if json_object(message) and any(  # a retained tail may hold a value of any kind
                json_object(b) and b.get("type") == "thinking"
                for b in json_list(message.get("blocks"))
            ):
                block.update(message_block(message, show_thinking=show))
        self._repaint()

    def scroll_history(self, where: Scroll) -> None:
        if where == "page_up":
            self.scroll_page_up(animate=False)
        elif where == "page_down":
            self.scroll_page_down(animate=False)
        elif where == "top":
            self.scroll_home(animate=False)
        else:
            self.scroll_end(animate=False)

    # -- the streaming reply -----------------------------------------------------------------

    def stream_delta(self, event: StreamEvent) -> None:
        """Text, thinking or a tool call arrived: repaint within :data:`STREAM_REFRESH`."""
        self._stream.feed(event)
        if not self._repaint_pending:
            self._repaint_pending = True
            self.set_timer(STREAM_REFRESH, self._repaint)

    def _repaint(self) -> None:
        self._repaint_pending = False
        if self._stream.has_content:  # (else cleared since the repaint was asked for)
            self._stream.repaint()

    def clear_stream(self) -> None:
        """The reply was recorded (it is shown as a message) or dropped."""
        self._stream.clear()
