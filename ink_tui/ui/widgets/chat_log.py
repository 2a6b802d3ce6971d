"""The conversation of the chat pane: messages and notes, then the reply being streamed.

The log stays anchored at the bottom while text arrives, until the user scrolls up (Textual's
``anchor()``); scrolling back to the bottom anchors it again.
"""

from __future__ import annotations

from typing import Any, Literal

from rich.console import RenderableType
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from ink_tui.agent.providers.assemble import StreamEvent
from ink_tui.ui.render.chat import message_block, streaming_block
from ink_tui.ui.render.safe import plain
from ink_tui.ui.render.streamed_markdown import StreamedMarkdown

__all__ = ["STREAM_REFRESH", "ChatLog", "Scroll"]

STREAM_REFRESH = 0.05  # seconds between repaints of a streaming reply
Scroll = Literal["page_up", "page_down", "top", "bottom"]


class ChatLog(VerticalScroll):
    """Messages (kept, so that they can be redrawn), notes, and the streaming reply."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.show_thinking = True
        self._shown: list[tuple[Static, dict[str, Any]]] = []
        self._unsent: Static | None = None  # the user message until it is written
        self._thinking = ""
        self._reply = StreamedMarkdown()
        self._calls: list[str] = []
        self._repaint_pending = False

    def compose(self) -> ComposeResult:
        yield Static(plain("loading the session…", "dim"), id="chat-stream")

    def on_mount(self) -> None:
        self.anchor()

    @property
    def _stream(self) -> Static:
        return self.query_one("#chat-stream", Static)

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
        return block

    def add_message(self, message: dict[str, Any], *, unsent: bool = False) -> None:
        """A message; ``unsent``: the user's, shown at once, written when the model answers."""
        block = self.add(message_block(message, show_thinking=self.show_thinking))
        self._shown.append((block, message))
        if unsent:
            self._unsent = block

    def end_unsent(self) -> None:
        """The user message was written (or never will be): nothing goes before it any more."""
        self._unsent = None

    def add_arrived(self, messages: list[dict[str, Any]]) -> None:
        """What another writer appended (and the closure of calls it left open), shown before
        the user message still unsent: the order of the file."""
        for message in messages:
            block = self.add(
                message_block(message, show_thinking=self.show_thinking), before=self._unsent
            )
            self._shown.append((block, message))

    def note(self, text: str, style: str = "dim") -> None:
        self.add(plain(text, style), classes="chat-note")

    def fail(self, text: str) -> None:
        """The chat cannot start: say why where the conversation would be."""
        self._stream.update(plain(text, "bold red"))

    def ready(self) -> None:
        """The session is loaded: the loading line goes."""
        self.clear_stream()

    def set_show_thinking(self, show: bool) -> None:
        """Show or hide thinking, in the messages shown so far and in the streaming reply."""
        self.show_thinking = show
        for block, message in self._shown:
            if any(b.get("type") == "thinking" for b in message.get("blocks") or ()):
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
        if event.kind == "text":
            self._reply.feed(event.text)
        elif event.kind == "thinking":
            self._thinking += event.text
        elif event.kind == "tool_call_start":
            self._calls.append(event.name)
        if not self._repaint_pending:
            self._repaint_pending = True
            self.set_timer(STREAM_REFRESH, self._repaint)

    def _repaint(self) -> None:
        self._repaint_pending = False
        if not (self._thinking or self._reply.text or self._calls):
            return  # cleared since the repaint was asked for
        thinking = self._thinking if self.show_thinking else ""
        self._stream.display = True
        self._stream.update(streaming_block(thinking, self._reply, self._calls))

    def clear_stream(self) -> None:
        """The reply was recorded (it is shown as a message) or dropped."""
        self._thinking, self._reply, self._calls = "", StreamedMarkdown(), []
        self._stream.update("")
        self._stream.display = False
