"""Benchmark: repainting a streamed reply in the chat pane, part by part vs whole.

Run by hand (never in CI, never asserts on time): ``python tests/bench/bench_stream.py``.

A reply of Markdown (paragraphs, lists, fenced Python) arrives in 60-character deltas; the pane
repaints it every 20 deltas (about what a 50 ms repaint timer sees from a fast model). For each
reply size the figure is the time of one repaint when the reply reaches that size, the median of
:data:`RUNS` repaints, both ways in the same run:

- reference: the whole reply rendered as one Rich ``Markdown`` (what the pane did before);
- ink-tui: :class:`~ink_tui.ui.render.streamed_markdown.StreamedMarkdown`, which renders the
  finished parts once and only the unfinished rest at each repaint.
"""

from __future__ import annotations

import statistics
import time

from rich.console import Console, RenderableType

from ink_tui.ui.render.safe import markdown
from ink_tui.ui.render.streamed_markdown import StreamedMarkdown

SIZES = (10_000, 40_000, 100_000)
DELTA = 60
REPAINT_EVERY = 20
RUNS = 7
WIDTH = 118

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


def repaint(console: Console, renderable: RenderableType) -> float:
    start = time.perf_counter()
    console.render_lines(renderable, console.options)
    return time.perf_counter() - start


def measure(size: int) -> tuple[float, float]:
    """(reference, ink-tui) seconds for one repaint when the reply reaches ``size``."""
    console = Console(width=WIDTH, file=None, force_terminal=True, color_system="truecolor")
    text = (SECTION * (size // len(SECTION) + 1))[:size]
    reply = StreamedMarkdown()
    for index, start in enumerate(range(0, size - DELTA * RUNS, DELTA)):
        reply.feed(text[start : start + DELTA])
        if index % REPAINT_EVERY == 0:
            console.render_lines(reply, console.options)  # the repaints on the way there
    reference: list[float] = []
    ours: list[float] = []
    for run in range(RUNS):
        reply.feed(text[len(reply.text) : len(reply.text) + DELTA])
        ours.append(repaint(console, reply))
        reference.append(repaint(console, markdown(reply.text)))
        del run
    return statistics.median(reference), statistics.median(ours)


def main() -> None:
    print(f"one repaint of a streamed reply, width {WIDTH}, median of {RUNS}")
    print(f"{'reply':>8}  {'whole (ref)':>12}  {'ink-tui':>9}  {'ratio':>6}")
    for size in SIZES:
        reference, ours = measure(size)
        print(
            f"{size // 1000:>6} kB  {reference * 1000:>9.1f} ms  {ours * 1000:>6.1f} ms"
            f"  {reference / ours:>5.0f}x"
        )


if __name__ == "__main__":
    main()
