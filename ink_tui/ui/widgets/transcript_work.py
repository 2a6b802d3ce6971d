"""The transcript's rendering machinery: strips from renderables, huge blocks' piece layout, and
the backlog its render worker drains.

A huge block (:class:`~ink_tui.ui.render.pieces.Pieces`) is laid out as a :class:`PiecePlan`:
each piece's height (estimated until it is rendered) and where it starts. The transcript hands
the work on huge blocks (cutting one into pieces, rendering a piece) to a thread worker through a
:class:`Backlog`: the newest request first (what the user looks at now), one request per key.
"""

from __future__ import annotations

import re
import threading
from bisect import bisect_right
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import accumulate, pairwise
from typing import Generic, TypeVar

from rich.console import Console, RenderableType
from rich.segment import Segment
from rich.style import Style
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget
from textual.worker import get_current_worker

from ink_tui.logs import unforeseen
from ink_tui.ui.render.pieces import Piece, Pieces

__all__ = [
    "BACKLOG",
    "Backlog",
    "CacheKey",
    "PiecePlan",
    "Planned",
    "RenderWorker",
    "Rendered",
    "highlight_line",
    "render_strips",
    "run_job",
]

BACKLOG = 64
"""Requests kept waiting at most; older ones are dropped (asked again if still on screen)."""

K = TypeVar("K", bound=Hashable)
J = TypeVar("J")
CacheKey = tuple[str, int, int, int, int]
"""Block key, piece (``-1``: the block whole; ``-2``: cutting it in pieces), render width,
render generation, block version."""
WHOLE, PLAN = -1, -2


def highlight_line(
    segments: Iterable[Segment], pattern: re.Pattern[str], style: Style
) -> list[Segment]:
    """``segments`` (one rendered line) with the text matching ``pattern`` restyled."""
    line = list(segments)
    text = "".join(segment.text for segment in line)
    spans = [match.span() for match in pattern.finditer(text) if match.end() > match.start()]
    if not spans:
        return line
    result: list[Segment] = []
    position = 0
    for segment in line:
        start, end = position, position + len(segment.text)
        position = end
        if segment.control or not any(a < end and b > start for a, b in spans):
            result.append(segment)
            continue
        cuts = sorted({start, end, *(x for span in spans for x in span if start < x < end)})
        for left, right in pairwise(cuts):
            piece = segment.text[left - start : right - start]
            inside = any(a <= left and right <= b for a, b in spans)
            piece_style = (segment.style or Style()) + style if inside else segment.style
            result.append(Segment(piece, piece_style))
    return result


def render_strips(
    console: Console,
    renderable: RenderableType | None,
    width: int,
    pattern: re.Pattern[str] | None = None,
    match_style: Style | None = None,
) -> list[Strip]:
    """``renderable`` rendered at ``width``, the text matching ``pattern`` highlighted."""
    if renderable is None:
        return []
    options = console.options.update(width=max(1, width), height=None)
    strips: list[Strip] = []
    for line in console.render_lines(renderable, options, pad=False):
        if pattern is not None and match_style is not None:
            line = highlight_line(line, pattern, match_style)
        strips.append(Strip(line))
    return strips


class StackedHeights:
    """Things laid one under the other: their heights, where each starts, which holds a line.
    (The transcript's blocks, and a huge block's pieces.)"""

    def __init__(self, heights: list[int]) -> None:
        self.heights = heights
        self.offsets: list[int] = []
        self.relayout()

    def relayout(self) -> None:
        self.offsets = [0, *accumulate(self.heights)]

    @property
    def height(self) -> int:
        return self.offsets[-1]

    def index_at(self, line: int) -> int:
        """The one holding ``line`` (clamped to the first and the last)."""
        return max(0, min(len(self.heights) - 1, bisect_right(self.offsets, line) - 1))


class PiecePlan(StackedHeights):
    """The layout of a huge block: its pieces, their heights, where each starts."""

    def __init__(self, pieces: Sequence[Piece], heights: list[int]) -> None:
        self.pieces = pieces
        super().__init__(heights)

    def at(self, line: int) -> int:
        """The piece holding ``line`` (of the block)."""
        return self.index_at(line)

    def between(self, top: int, bottom: int) -> range:
        """The pieces seen between lines ``top`` and ``bottom`` (and one either side)."""
        if not self.pieces or bottom <= 0 or top >= self.height:
            return range(0)
        first, last = self.at(max(0, top)), self.at(max(0, bottom - 1))
        return range(max(0, first - 1), min(len(self.pieces), last + 2))

    def set_height(self, piece: int, height: int) -> bool:
        """A piece was rendered: its real height. True when it changed."""
        if self.heights[piece] == height:
            return False
        self.heights[piece] = height
        self.relayout()
        return True


class Backlog(Generic[K, J]):
    """Requests for the render worker: the newest first, one per key, at most :data:`BACKLOG`.

    Shared by the event loop (:meth:`add`) and the worker thread (:meth:`take`); :meth:`add`
    says when no worker is draining it, so that the caller starts one.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._jobs: dict[K, J] = {}
        self._running: K | None = None
        self._busy = False

    def add(self, key: K, job: J) -> bool:
        """Queue ``job``; True when a worker must be started to drain the backlog."""
        with self._lock:
            if key == self._running:
                return False
            self._jobs.pop(key, None)
            self._jobs[key] = job
            while len(self._jobs) > BACKLOG:
                del self._jobs[next(iter(self._jobs))]
            start, self._busy = not self._busy, True
            return start

    def has(self, key: K) -> bool:
        with self._lock:
            return key == self._running or key in self._jobs

    def take(self) -> tuple[K, J] | None:
        """The newest request (``None``, and the worker ends, when there is none)."""
        with self._lock:
            if not self._jobs:
                self._busy = False
                self._running = None
                return None
            key = next(reversed(self._jobs))
            self._running = key
            return key, self._jobs.pop(key)

    def clear(self) -> None:
        with self._lock:
            self._jobs.clear()

    def pending(self) -> int:
        """Requests waiting or being worked on."""
        with self._lock:
            return len(self._jobs) + (self._running is not None)


def run_job(job: Callable[[], J]) -> J:
    """Run one request in the worker (tests hold the worker here)."""
    return job()


@dataclass
class Planned(Message):
    """The worker cut a huge block into pieces (``heights``: estimated at its width)."""

    cache_key: CacheKey
    pieces: Sequence[Piece]
    heights: list[int]


@dataclass
class Rendered(Message):
    """The worker rendered a huge block whole, or one of its pieces."""

    cache_key: CacheKey
    strips: list[Strip]


def _whole(cache_key: CacheKey) -> CacheKey:
    key, piece, width, generation, version = cache_key
    return key, max(piece, WHOLE), width, generation, version


def _job(
    cache_key: CacheKey,
    render: Callable[[], RenderableType | Pieces | None],
    console: Console,
    pattern: re.Pattern[str] | None,
    style: Style | None,
) -> Message:
    """In the worker: cut a block in pieces, or render a piece (or a block that renders small:
    a cut output, hidden thinking)."""
    width = cache_key[2]
    renderable = render()
    if isinstance(renderable, Pieces):
        heights = [piece.estimate(width) for piece in renderable.parts]
        return Planned(cache_key, renderable.parts, heights)
    strips = render_strips(console, renderable, width, pattern, style)
    if cache_key[1] == PLAN:
        return Rendered(_whole(cache_key), [*strips, Strip.blank(0)])
    return Rendered(cache_key, strips)


class RenderWorker:
    """Cuts huge blocks in pieces and renders pieces in a thread, the newest request first;
    posts :class:`Planned` and :class:`Rendered` to its widget."""

    def __init__(self, widget: Widget) -> None:
        self._widget = widget
        self._backlog: Backlog[CacheKey, Callable[[], Message]] = Backlog()

    def want(
        self,
        cache_key: CacheKey,
        render: Callable[[], RenderableType | Pieces | None],
        pattern: re.Pattern[str] | None,
        style: Style | None,
    ) -> None:
        """Ask for ``cache_key`` (rendered at its width), unless it is asked for already."""
        if self._backlog.has(cache_key):
            return
        job = partial(_job, cache_key, render, self._widget.app.console, pattern, style)
        if self._backlog.add(cache_key, job):
            self._widget.run_worker(self._drain, thread=True, group="transcript-render")

    def forget(self) -> None:
        """Drop every request still waiting (what it renders is out of date)."""
        self._backlog.clear()

    @property
    def pending(self) -> int:
        return self._backlog.pending()

    def _drain(self) -> None:
        worker = get_current_worker()
        while (request := self._backlog.take()) is not None:
            if worker.is_cancelled:
                return
            cache_key, job = request
            try:
                message = run_job(job)
            except Exception as error:  # a bug: said in the block, logged, never an app exit
                line = Strip([Segment(unforeseen(error, "rendering a huge block"))])
                message = Rendered(_whole(cache_key), [line, Strip.blank(0)])
            self._widget.post_message(message)
