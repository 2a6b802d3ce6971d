"""The streaming reply is drawn as chunks of finished parts plus the unfinished rest: put together
they show what the whole reply shows, and a repaint draws only the rest (the chunks, once full,
are never drawn again)."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console
from textual.app import App, ComposeResult
from textual.widgets import Static
from waiting import wait_for

from ink_tui.agent.providers.assemble import StreamEvent
from ink_tui.ui.render.streamed_markdown import StreamedMarkdown
from ink_tui.ui.widgets.chat_stream import CHUNK_CHARS, StreamView

WIDTH = 80
SECTION = (
    "A paragraph about **retries** and `fetch_json`, long enough to wrap at eighty columns "
    "when the terminal is narrow.\n\n"
    "- one item\n- another item\n\n"
    "```python\ndef f(x):\n    return x * 2\n```\n\n"
)


def _plain(renderable: Any) -> list[str]:
    console = Console(file=io.StringIO(), width=WIDTH, color_system=None)
    lines = console.render_lines(renderable, console.options, pad=False)
    return ["".join(segment.text for segment in line).rstrip() for line in lines]


class StreamApp(App[None]):
    def compose(self) -> ComposeResult:
        yield StreamView(id="chat-stream")


async def test_the_chunks_and_the_rest_draw_what_the_whole_reply_draws() -> None:
    text = SECTION * 120 + "The last paragraph, still arriving"
    app = StreamApp()
    async with app.run_test(size=(WIDTH, 40)):
        view = app.query_one(StreamView)
        for start in range(0, len(text), 60):
            view.feed(StreamEvent("text", text=text[start : start + 60]))
            if start % 1200 == 0:
                view.repaint()
        view.repaint()
        chunks = list(view.query(".stream-chunk").results(Static))
        assert len(chunks) >= len(text) // CHUNK_CHARS - 1 >= 4
        drawn = [line for chunk in chunks for line in _plain(chunk.content)]  # type: ignore[arg-type]
        drawn += _plain(view.query_one("#stream-rest", Static).content)  # type: ignore[arg-type]
    assert drawn == _plain(StreamedMarkdown(text))


async def test_a_repaint_draws_the_rest_and_leaves_full_chunks_alone() -> None:
    app = StreamApp()
    async with app.run_test(size=(WIDTH, 40)) as pilot:
        view = app.query_one(StreamView)
        view.feed(StreamEvent("text", text=SECTION * 80))
        view.repaint()
        chunks = list(view.query(".stream-chunk").results(Static))
        before = [chunk.content for chunk in chunks]
        rest = view.query_one("#stream-rest", Static)
        rest_before = rest.content
        view.feed(StreamEvent("text", text="More text of the paragraph being written"))
        view.repaint()
        full = zip(before[:-1], (chunk.content for chunk in chunks[:-1]), strict=True)
        assert all(old is new for old, new in full)  # the same objects: never drawn again
        assert rest.content is not rest_before
        view.clear()
        await wait_for(pilot, lambda: not view.query(".stream-chunk"), "the chunks gone")
        assert not view.display
