"""Benchmark: repainting a streamed reply in the chat pane, three ways, in the same run.

Run by hand (never in CI, never asserts on time): ``python tests/bench/bench_stream.py``.

A reply of Markdown (paragraphs, lists, fenced Python) arrives in 60-character deltas.

1. **Render only** (Rich, no app): the time of one render of the reply when it reaches 10, 40
   and 100 kB, median of :data:`RUNS`: the whole reply as one Rich ``Markdown`` (what the pane
   did first) against :class:`~ink_tui.ui.render.streamed_markdown.StreamedMarkdown` (finished
   parts rendered once).
2. **In the app, per repaint** (headless Textual app, 120x40): the CPU time of one repaint
   (update, layout and paint: ``pilot.pause()`` lets the screen refresh) when the reply reaches
   each size, median of :data:`RUNS`, each repaint after :data:`REPAINT_EVERY` deltas (what a
   50 ms repaint timer sees from a fast model): ink-tui's ``ChatLog`` (its ``StreamView``: the
   finished parts of a ``StreamedMarkdown`` in ``Static`` chunks, then the rest) against
   Textual's ``Markdown`` widget fed as ``MarkdownStream`` feeds it (``Markdown.append`` of the
   fragments that arrived since its last update).
3. **In the app, a whole reply** at a model's pace (a delta every :data:`PACE` seconds): the
   process CPU time from the first delta until the screen shows the end, the real ``ChatLog``
   (``stream_delta``, its 50 ms timer) against a ``Markdown`` widget fed through
   ``Markdown.get_stream()``; and the longest event-loop stall seen by a ticker meanwhile.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

from rich.console import Console, RenderableType
from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Markdown

from ink_tui.agent.providers.assemble import StreamEvent
from ink_tui.safetext import visible
from ink_tui.ui.render.safe import markdown
from ink_tui.ui.render.streamed_markdown import StreamedMarkdown
from ink_tui.ui.widgets.chat_log import STREAM_REFRESH, ChatLog

SIZES = (10_000, 40_000, 100_000)
DELTA = 60
REPAINT_EVERY = 20
RUNS = 7
WIDTH = 118
APP_SIZE = (120, 40)
PACE = 0.0025  # seconds between deltas: 24 kB/s, a fast model

SECTION = (
    "The retry loop swallows the error, so a **failed fetch** looks like an empty result. "
    "Here is what changes in `fetch_json` and why the tests did not catch it:\n\n"
    "- the exception is logged, then re-raised after the last attempt\n"
    "- the back-off doubles from 0.5 s and is capped at 8 s\n\n"
    "```python\ndef fetch_json(url: str, attempts: int = 3) -> dict:\n"
    "    for attempt in range(attempts):\n"
    "        try:\n            return _get(url).json()\n"
    "        except OSError:\n            if attempt == attempts - 1:\n                raise\n"
    "            time.sleep(min(8, 0.5 * 2**attempt))\n"
    "```\n\n"
)


def reply_text(size: int) -> str:
    return (SECTION * (size // len(SECTION) + 1))[:size]


def deltas(text: str) -> list[str]:
    return [text[start : start + DELTA] for start in range(0, len(text), DELTA)]


# -- 1. render only -----------------------------------------------------------------------------


def repaint(console: Console, renderable: RenderableType) -> float:
    start = time.perf_counter()
    console.render_lines(renderable, console.options)
    return time.perf_counter() - start


def measure(size: int) -> tuple[float, float]:
    """(reference, ink-tui) seconds for one render when the reply reaches ``size``."""
    console = Console(width=WIDTH, file=None, force_terminal=True, color_system="truecolor")
    text = reply_text(size)
    reply = StreamedMarkdown()
    for index, start in enumerate(range(0, size - DELTA * RUNS, DELTA)):
        reply.feed(text[start : start + DELTA])
        if index % REPAINT_EVERY == 0:
            console.render_lines(reply, console.options)  # the repaints on the way there
    reference: list[float] = []
    ours: list[float] = []
    for _ in range(RUNS):
        reply.feed(text[len(reply.text) : len(reply.text) + DELTA])
        ours.append(repaint(console, reply))
        reference.append(repaint(console, markdown(reply.text)))
    return statistics.median(reference), statistics.median(ours)


# -- 2. and 3. in the app -----------------------------------------------------------------------


class OursApp(App[None]):
    """The pane's conversation widget alone."""

    def compose(self) -> ComposeResult:
        yield ChatLog(id="chat-log")

    def on_mount(self) -> None:
        self.query_one(ChatLog).ready()


class TextualApp(App[None]):
    """Textual's ``Markdown`` in an anchored scroll view, as toad streams a reply."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="log"):
            yield Markdown(id="reply")

    def on_mount(self) -> None:
        self.query_one("#log", VerticalScroll).anchor()


Feed = Callable[[str], Awaitable[None]]


async def per_repaint(app: App[None], feed_batch: Feed) -> dict[int, float]:
    """Median CPU seconds of one repaint (a batch of deltas, then the screen refreshed) when the
    reply reaches each size."""
    text = reply_text(max(SIZES) + DELTA * REPAINT_EVERY * (RUNS + 1))
    pieces = deltas(text)
    batch = DELTA * REPAINT_EVERY
    results: dict[int, float] = {}
    async with app.run_test(size=APP_SIZE) as pilot:
        await pilot.pause()
        sent = 0
        for size in SIZES:
            samples: list[float] = []
            while sent + batch <= size or len(samples) < RUNS:
                chunk = "".join(pieces[sent // DELTA : (sent + batch) // DELTA])
                sent += batch
                start = time.process_time()
                await feed_batch(chunk)
                await pilot.pause()
                spent = time.process_time() - start
                if sent > size - batch:
                    samples.append(spent)
            results[size] = statistics.median(samples)
    return results


async def ours_per_repaint() -> dict[int, float]:
    app = OursApp()

    async def feed(chunk: str) -> None:
        log = app.query_one(ChatLog)
        for start in range(0, len(chunk), DELTA):
            log._stream.feed(StreamEvent("text", text=chunk[start : start + DELTA]))
        log._repaint()

    return await per_repaint(app, feed)


async def textual_per_repaint() -> dict[int, float]:
    app = TextualApp()

    async def feed(chunk: str) -> None:
        await app.query_one(Markdown).append(visible(chunk))

    return await per_repaint(app, feed)


async def _ticker(stalls: list[float], stop: asyncio.Event) -> None:
    """The event loop's lateness, every 5 ms."""
    while not stop.is_set():
        before = time.perf_counter()
        await asyncio.sleep(0.005)
        stalls.append(time.perf_counter() - before - 0.005)


async def whole_reply(
    app: App[None], feed: Feed, finish: Callable[[], Awaitable[None]], size: int
) -> tuple[float, float]:
    """(CPU seconds, longest stall) for a reply of ``size`` streamed at :data:`PACE`."""
    pieces = deltas(reply_text(size))
    async with app.run_test(size=APP_SIZE) as pilot:
        await pilot.pause()
        stalls: list[float] = []
        stop = asyncio.Event()
        ticker = asyncio.create_task(_ticker(stalls, stop))
        start = time.process_time()
        for piece in pieces:
            await feed(piece)
            await asyncio.sleep(PACE)
        await finish()
        await pilot.pause()
        spent = time.process_time() - start
        stop.set()
        await ticker
    return spent, max(stalls, default=0.0)


async def ours_whole(size: int) -> tuple[float, float]:
    app = OursApp()

    async def feed(piece: str) -> None:
        app.query_one(ChatLog).stream_delta(StreamEvent("text", text=piece))

    async def finish() -> None:
        await asyncio.sleep(STREAM_REFRESH * 2)  # the last timed repaint

    return await whole_reply(app, feed, finish, size)


async def textual_whole(size: int) -> tuple[float, float]:
    app = TextualApp()
    stream: Any = None

    async def feed(piece: str) -> None:
        nonlocal stream
        if stream is None:
            stream = Markdown.get_stream(app.query_one(Markdown))
        await stream.write(visible(piece))

    async def finish() -> None:
        if stream is not None:
            await stream.stop()

    return await whole_reply(app, feed, finish, size)


def main() -> None:
    print(f"1. one render of a streamed reply (Rich only), width {WIDTH}, median of {RUNS}")
    print(f"{'reply':>8}  {'whole (ref)':>12}  {'ink-tui':>9}  {'ratio':>6}")
    for size in SIZES:
        reference, ours = measure(size)
        print(
            f"{size // 1000:>6} kB  {reference * 1000:>9.1f} ms  {ours * 1000:>6.1f} ms"
            f"  {reference / ours:>5.0f}x"
        )
    print(
        f"\n2. one repaint in the app (CPU: update + layout + paint), {APP_SIZE[0]}x{APP_SIZE[1]}, "
        f"every {REPAINT_EVERY} deltas, median of {RUNS}"
    )
    ours = asyncio.run(ours_per_repaint())
    theirs = asyncio.run(textual_per_repaint())
    print(f"{'reply':>8}  {'ChatLog':>9}  {'Markdown':>9}  {'ratio':>6}")
    for size in SIZES:
        print(
            f"{size // 1000:>6} kB  {ours[size] * 1000:>6.1f} ms  {theirs[size] * 1000:>6.1f} ms"
            f"  {theirs[size] / ours[size]:>5.1f}x"
        )
    asyncio.run(ours_whole(2_000))  # warm-up: first-time imports (Pygments lexers) not counted
    asyncio.run(textual_whole(2_000))
    print(f"\n3. a whole reply at one delta every {PACE * 1000:.1f} ms: process CPU, longest stall")
    header = ("reply", "ChatLog CPU", "Markdown CPU", "stall ours", "theirs")
    print(
        "  ".join(
            f"{name:>{width}}" for name, width in zip(header, (8, 12, 13, 11, 8), strict=True)
        )
    )
    for size in SIZES:
        ours_cpu, ours_stall = asyncio.run(ours_whole(size))
        theirs_cpu, theirs_stall = asyncio.run(textual_whole(size))
        print(
            f"{size // 1000:>6} kB  {ours_cpu:>10.2f} s  {theirs_cpu:>11.2f} s"
            f"  {ours_stall * 1000:>8.0f} ms  {theirs_stall * 1000:>5.0f} ms"
        )


if __name__ == "__main__":
    main()
