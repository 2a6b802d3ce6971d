"""The replay pane: the branch as one continuous transcript (Line API, rendered lazily).

Each block (a turn's prompt or one item under it) is rendered to strips only when it comes into
view, at the current width, and kept in a bounded cache (an ``LRUCache`` keyed by the block, the
width and the render generation, as toolong's Line-API views keep theirs): a long session read
from end to end holds only the last :data:`CACHED_BLOCKS` renderings. A block's height stays
known once it was rendered, so one that was dropped and is rendered again does not move the
view. Blocks not rendered yet have an estimated height; when a block's real height replaces its
estimate, the view keeps its top line (or the bottom, when the view sat there) in place, so
nothing jumps. Text matching the search (:meth:`Transcript.set_highlight`) is highlighted in every
block, whatever renders it (Markdown, code, tool output).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Final

from rich.console import RenderableType
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

__all__ = ["CACHED_BLOCKS", "BlockSpec", "Transcript", "highlight_line"]

GUTTER = 2
CACHED_BLOCKS: Final = 400
"""Rendered blocks kept (a screen shows a few dozen at most; the rest is the scroll history)."""

_CacheKey = tuple[str, int, int]  # block key, width, render generation


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


@dataclass(frozen=True, slots=True)
class BlockSpec:
    """One block of the transcript: its key, how to render it, a cheap height estimate."""

    key: str
    render: Callable[[], RenderableType | None]
    estimate: int = 3


class Transcript(ScrollView, can_focus=True):
    """A lazily rendered, virtually scrolled transcript of blocks."""

    DEFAULT_CSS = """
    Transcript {
        background: $surface;
    }
    Transcript > .transcript--gutter {
        color: $accent;
    }
    Transcript > .transcript--match {
        background: $warning 70%;
        color: $background;
        text-style: bold;
    }
    """
    COMPONENT_CLASSES = {"transcript--gutter", "transcript--match"}

    @dataclass
    class TopChanged(Message):
        """The block at the top of the view changed (the user scrolled)."""

        transcript: Transcript
        key: str

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, Transcript.TopChanged)

    @dataclass
    class BlockClicked(Message):
        transcript: Transcript
        key: str

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._specs: list[BlockSpec] = []
        self._index: dict[str, int] = {}
        self._heights: list[int] = []
        self._offsets: list[int] = [0]
        self._strips: LRUCache[_CacheKey, list[Strip]] = LRUCache(CACHED_BLOCKS)
        self._generation = 0  # bumped when every block must be rendered again
        self._highlight: re.Pattern[str] | None = None
        self._width = 0
        self.selected_key: str | None = None
        self._last_top: str | None = None
        self._stick_to_bottom = False
        self._quiet = False
        self._pending_key: str | None = None
        self._pending_above = 0  # lines shown above the block held in place

    # -- content -----------------------------------------------------------------------------

    def set_blocks(self, specs: Sequence[BlockSpec], *, keep_position: bool = False) -> None:
        """Replace every block. With ``keep_position`` the top block stays at the top."""
        anchor = self.top_key() if keep_position else None
        self._specs = list(specs)
        self._index = {spec.key: index for index, spec in enumerate(self._specs)}
        self._heights = [max(1, spec.estimate) + 1 for spec in self._specs]
        self._forget_all()
        self._relayout()
        if anchor is not None and anchor in self._index:
            self.scroll_to_key(anchor, select=False)
        self.refresh()

    def _forget_all(self) -> None:
        self._generation += 1
        self._strips.clear()

    def invalidate(self) -> None:
        """Render every block again (display options changed), keeping the view in place."""
        anchor = self.top_key()
        self._forget_all()
        self._heights = [max(1, spec.estimate) + 1 for spec in self._specs]
        self._relayout()
        if anchor is not None:
            self.scroll_to_key(anchor, select=False)
        self.refresh()

    def append_blocks(self, specs: Sequence[BlockSpec]) -> None:
        """Add blocks at the end (a followed session grew)."""
        if not specs:
            return
        for spec in specs:
            self._index[spec.key] = len(self._specs)
            self._specs.append(spec)
            self._heights.append(max(1, spec.estimate) + 1)
        self._relayout()
        self.refresh()

    def refresh_block(self, key: str) -> None:
        """Forget one block's rendering (its content changed); it renders again when seen."""
        cache_key = (key, self._width, self._generation)
        if key in self._index and cache_key in self._strips:
            self._strips.discard(cache_key)
            self.refresh()

    def set_highlight(self, pattern: re.Pattern[str] | None) -> None:
        """Highlight the text matching ``pattern`` in every block (``None``: no highlight)."""
        if pattern != self._highlight:
            self._highlight = pattern
            self._forget_all()
            self.refresh()

    @property
    def keys(self) -> list[str]:
        return [spec.key for spec in self._specs]

    @property
    def cached_blocks(self) -> int:
        """How many rendered blocks the cache holds."""
        return len(self._strips)

    def block_strips(self, index: int) -> list[Strip]:
        """Block ``index`` as rendered at the current width (rendering it if needed)."""
        self._render_block(index)
        return self._strips.get(self._cache_key(index)) or []

    # -- geometry ----------------------------------------------------------------------------

    def _relayout(self) -> None:
        offsets = [0]
        for height in self._heights:
            offsets.append(offsets[-1] + height)
        self._offsets = offsets
        self.virtual_size = Size(self._content_width(), offsets[-1])

    def _content_width(self) -> int:
        return max(1, self.scrollable_content_region.width)

    def _block_at(self, y: int) -> int:
        return max(0, min(len(self._specs) - 1, bisect_right(self._offsets, y) - 1))

    def _cache_key(self, index: int) -> _CacheKey:
        return (self._specs[index].key, self._width, self._generation)

    def _check_width(self) -> None:
        """A new width (a resize, a scrollbar that came or went): render again at it."""
        if self._content_width() != self._width:
            self._width = self._content_width()
            self._strips.clear()
            self._relayout()  # the virtual width follows, or a horizontal scrollbar appears

    def _render_block(self, index: int) -> bool:
        """Render block ``index`` if needed. True when its height changed."""
        self._check_width()
        cache_key = self._cache_key(index)
        if cache_key in self._strips:
            return False
        renderable = self._specs[index].render()
        strips: list[Strip] = []
        if renderable is not None:
            console = self.app.console
            options = console.options.update(width=max(1, self._width - GUTTER), height=None)
            pattern = self._highlight
            match_style = self.get_component_rich_style("transcript--match") if pattern else None
            for line in console.render_lines(renderable, options, pad=False):
                if pattern is not None and match_style is not None:
                    line = highlight_line(line, pattern, match_style)
                strips.append(Strip(line))
        strips.append(Strip.blank(0))
        self._strips.set(cache_key, strips)
        changed = len(strips) != self._heights[index]
        self._heights[index] = len(strips)
        return changed

    def _pinned_offset(self) -> float | None:
        """Where the block last scrolled to programmatically must be, or ``None``."""
        key = self._pending_key
        if key is None or key not in self._index:
            return None
        top = max(0, self._offsets[self._index[key]] - self._pending_above)
        return float(min(top, self.max_scroll_y))

    def _ensure_visible_rendered(self) -> None:
        """Render what the viewport shows; keep the top (or bottom) line where it was."""
        if not self._specs:
            return
        self._check_width()
        pinned = self._pinned_offset()
        if pinned is not None and self.scroll_y != pinned:
            self._scroll_quietly(pinned)
        height = self.scrollable_content_region.height
        at_bottom = self._stick_to_bottom or (
            self.scroll_y >= self.max_scroll_y and self.max_scroll_y > 0
        )
        top = int(self.scroll_y)
        anchor = self._block_at(top)
        anchor_line = top - self._offsets[anchor]
        for _ in range(50):
            changed = False
            first = self._block_at(int(self.scroll_y))
            last = self._block_at(int(self.scroll_y) + height)
            for index in range(first, last + 1):
                changed |= self._render_block(index)
            if not changed:
                if self._stick_to_bottom and self.scroll_y != self.max_scroll_y:
                    self._scroll_quietly(self.max_scroll_y)
                break
            self._relayout()
            pinned = self._pinned_offset()
            if pinned is not None:
                self._scroll_quietly(pinned)
            elif at_bottom:
                self._scroll_quietly(self.max_scroll_y)
            else:
                target = self._offsets[anchor] + min(anchor_line, self._heights[anchor] - 1)
                self._scroll_quietly(target)

    # -- navigation --------------------------------------------------------------------------

    def top_key(self) -> str | None:
        if not self._specs:
            return None
        return self._specs[self._block_at(int(self.scroll_y))].key

    def scroll_to_key(self, key: str, *, select: bool = True, above: int = 0) -> None:
        """Bring block ``key`` to the top of the view (rendering it first), with ``above``
        lines of what comes before it still in sight."""
        index = self._index.get(key)
        if index is None:
            return
        if select:
            self.selected_key = key
        for neighbour in range(max(0, index - 2), min(len(self._specs), index + 3)):
            if self._render_block(neighbour):
                self._relayout()
        self._stick_to_bottom = False
        self._last_top = key
        self._pending_key, self._pending_above = key, above
        self._scroll_quietly(max(0, self._offsets[index] - above))
        self.refresh()

    def _scroll_quietly(self, y: float) -> None:
        """Scroll without reporting a new top block (the caller chose where to be)."""
        self._quiet = True
        try:
            self.scroll_to(y=y, animate=False, immediate=True)
        finally:
            self._quiet = False

    def scroll_to_end_of_transcript(self) -> None:
        self._stick_to_bottom = True
        self._pending_key = None
        for index in range(max(0, len(self._specs) - 3), len(self._specs)):
            self._render_block(index)
        self._relayout()
        self._scroll_quietly(self.max_scroll_y)
        self.refresh()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if new_value < self.max_scroll_y:
            self._stick_to_bottom = False
        if self._quiet:
            return  # our own scroll to a block: the selection is already right
        if not (self.has_focus or self.is_mouse_over):
            return  # a layout change moved the view, not the user
        self._pending_key = None  # the user scrolls: stop holding the chosen block in place
        key = self.top_key()
        if key is not None and key != self._last_top:
            self._last_top = key
            self.post_message(self.TopChanged(self, key))

    def on_click(self, event: events.Click) -> None:
        if not self._specs:
            return
        index = self._block_at(int(self.scroll_y) + event.y)
        self.selected_key = self._specs[index].key
        self.refresh()
        self.post_message(self.BlockClicked(self, self._specs[index].key))

    # -- Line API ----------------------------------------------------------------------------

    def render_lines(self, crop: Region) -> list[Strip]:
        self._ensure_visible_rendered()
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        absolute = int(self.scroll_y) + y
        base = self.rich_style
        if not self._specs or absolute >= self._offsets[-1]:
            return Strip.blank(width, base)
        index = self._block_at(absolute)
        strips = self._strips.get(self._cache_key(index))
        line = absolute - self._offsets[index]
        if strips is None or line >= len(strips):
            return Strip.blank(width, base)
        selected = self._specs[index].key == self.selected_key
        gutter_style = self.get_component_rich_style("transcript--gutter") if selected else base
        gutter = Segment("▌ " if selected else "  ", gutter_style)
        strip = Strip([gutter, *strips[line]])
        return strip.crop_extend(0, width, base)
