"""The reply being streamed, drawn so that a repaint costs the same at 100 kB as at 1 kB.

Textual turns a widget's whole content into lines each time the widget changes, so one widget
holding a growing reply costs more at every repaint (a quarter of a second at 100 kB here,
``tests/bench/bench_stream.py``).
Here the reply is split where :class:`~ink_tui.ui.render.streamed_markdown.StreamedMarkdown`
splits it: finished parts go into chunk widgets of about :data:`CHUNK_CHARS` characters, each
repainted only while it fills up, and the unfinished rest (with the tool calls announced) into
one small widget repainted every time. Put together they draw what the whole reply draws.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from ink_tui.agent.providers.assemble import StreamEvent
from ink_tui.ui.render import palette
from ink_tui.ui.render.safe import plain
from ink_tui.ui.render.streamed_markdown import StreamedMarkdown

__all__ = ["CHUNK_CHARS", "StreamView"]

CHUNK_CHARS = 4000  # Markdown characters per chunk widget (about a hundred lines)


class StreamView(Vertical):
    """Thinking (dim), the finished parts in chunks, then the rest and the calls announced."""

    DEFAULT_CSS = """
    StreamView {
        height: auto;
    }
    StreamView > Static {
        height: auto;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.show_thinking = True
        self._thinking = ""
        self._reply = StreamedMarkdown()
        self._calls: list[str] = []
        self._chunks: list[tuple[Static, int]] = []  # each chunk and its first part
        self._placed = 0  # parts given to a chunk
        self._chunk_size = 0  # characters in the last chunk
        self._thinking_shown: str | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="stream-thinking")
        yield Static(id="stream-rest")

    @property
    def has_content(self) -> bool:
        return bool(self._thinking or self._reply.text or self._calls)

    @property
    def text(self) -> str:
        """The reply's text so far."""
        return self._reply.text

    def feed(self, event: StreamEvent) -> None:
        """A delta: text, thinking or a tool call (shown at the next :meth:`repaint`)."""
        if event.kind == "text":
            self._reply.feed(event.text)
        elif event.kind == "thinking":
            self._thinking += event.text
        elif event.kind == "tool_call_start":
            self._calls.append(event.name)

    def show(self, renderable: RenderableType) -> None:
        """A line in the reply's place (loading, or why the chat cannot start)."""
        self.display = True
        self.query_one("#stream-rest", Static).update(renderable)

    def repaint(self) -> None:
        """Draw what changed since the last repaint."""
        self.display = True
        thinking = self._thinking if self.show_thinking else ""
        if thinking != self._thinking_shown:
            self._thinking_shown = thinking
            shown = self.query_one("#stream-thinking", Static)
            shown.display = bool(thinking)
            shown.update(plain(thinking, "dim italic"))
        self._place_parts()
        rest: list[RenderableType] = [self._reply.section(self._placed, rest=True)]
        rest += [plain(f"▸ {name} …", palette.current.accent) for name in self._calls]
        if not self.has_content:
            rest = [plain("…", "dim")]
        self.query_one("#stream-rest", Static).update(Group(*rest))

    def _place_parts(self) -> None:
        """Finished parts go into the last chunk until it is full, then into a new one; each
        chunk that got parts is drawn again (a full chunk never is after that)."""
        reply = self._reply
        if self._placed == reply.part_count:
            return
        changed = max(len(self._chunks) - 1, 0)  # the first chunk that gets new parts
        while self._placed < reply.part_count:
            if not self._chunks or self._chunk_size >= CHUNK_CHARS:
                chunk = Static(classes="stream-chunk")
                self.mount(chunk, before="#stream-rest")
                self._chunks.append((chunk, self._placed))
                self._chunk_size = 0
            self._chunk_size += reply.part_size(self._placed)
            self._placed += 1
        starts = [first for _, first in self._chunks] + [self._placed]
        for index in range(changed, len(self._chunks)):
            chunk, first = self._chunks[index]
            chunk.update(reply.section(first, starts[index + 1]))

    def clear(self) -> None:
        """The reply was recorded (it is shown as a message) or dropped."""
        for chunk, _ in self._chunks:
            chunk.remove()
        self._chunks.clear()
        self._thinking, self._reply, self._calls = "", StreamedMarkdown(), []
        self._placed = self._chunk_size = 0
        self._thinking_shown = None
        self.query_one("#stream-thinking", Static).update("")
        self.query_one("#stream-rest", Static).update("")
        self.display = False
