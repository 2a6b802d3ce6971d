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

A huge block (:attr:`BlockSpec.huge`: a prompt or output of megabytes, a written file of 200,000
lines) never costs the event loop more than a look-up: a thread worker cuts it into pieces
(:class:`~ink_tui.ui.render.pieces.Pieces`) and renders the pieces on screen, newest request
first; until a piece arrives its lines show ``⋯``. The pieces share the bounded cache.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Final

from rich.console import RenderableType
from rich.segment import Segment
from rich.style import Style
from textual import events, on
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ink_tui.ui.render.pieces import Pieces
from ink_tui.ui.widgets.transcript_layout import WHOLE, BlockLayout
from ink_tui.ui.widgets.transcript_work import (
    PLAN,
    CacheKey,
    Planned,
    Rendered,
    RenderWorker,
    highlight_line,
    render_strips,
)

__all__ = ["CACHED_BLOCKS", "BlockSpec", "Transcript", "highlight_line"]

GUTTER = 2
CACHED_BLOCKS: Final = 400
"""Rendered blocks (or pieces of a huge block) kept; a screen shows a few dozen at most."""
_WAITING: Final = [Segment("⋯", Style(dim=True))]  # a piece of a huge block not rendered yet


@dataclass(frozen=True, slots=True)
class BlockSpec:
    """One block of the transcript: its key, how to render it, a cheap height estimate, and
    whether it is huge (rendered in the worker, in pieces when it renders to :class:`Pieces`)."""

    key: str
    render: Callable[[], RenderableType | Pieces | None]
    estimate: int = 3
    huge: bool = False


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
        self._layout = BlockLayout()
        self._strips: LRUCache[CacheKey, list[Strip]] = LRUCache(CACHED_BLOCKS)
        self._versions: dict[str, int] = {}  # bumped when one block must be rendered again
        self._worker = RenderWorker(self)
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
        self._forget_all()
        self._relayout()
        if anchor is not None and anchor in self._layout.index:
            self.scroll_to_key(anchor, select=False)
        self.refresh()

    def _forget_all(self, *, layout: bool = True) -> None:
        """Render every block again; with ``layout``, from estimated heights and uncut."""
        self._generation += 1
        self._strips.clear()
        self._worker.forget()
        if layout:
            self._layout.reset(self._specs)

    def invalidate(self) -> None:
        """Render every block again (display options changed), keeping the view in place."""
        anchor = self.top_key()
        self._forget_all()
        self._relayout()
        if anchor is not None:
            self.scroll_to_key(anchor, select=False)
        self.refresh()

    def append_blocks(self, specs: Sequence[BlockSpec]) -> None:
        """Add blocks at the end (a followed session grew)."""
        if not specs:
            return
        self._specs.extend(specs)
        self._layout.append(specs)
        self._relayout()
        self.refresh()

    def refresh_block(self, key: str) -> None:
        """Forget one block's rendering (its content changed); it renders again when seen."""
        if key in self._layout.index:
            self._versions[key] = self._versions.get(key, 0) + 1
            self._layout.plans.pop(key, None)
            self.refresh()

    def set_highlight(self, pattern: re.Pattern[str] | None) -> None:
        """Highlight the text matching ``pattern`` in every block (``None``: no highlight)."""
        if pattern != self._highlight:
            self._highlight = pattern
            self._forget_all(layout=False)  # the same text: the heights and pieces stay right
            self.refresh()

    @property
    def keys(self) -> list[str]:
        return [spec.key for spec in self._specs]

    @property
    def cached_blocks(self) -> int:
        """How many rendered blocks (or pieces of huge ones) the cache holds."""
        return len(self._strips)

    @property
    def rendering(self) -> int:
        """Huge blocks, or pieces of them, the worker has still to render."""
        return self._worker.pending

    def block_strips(self, index: int) -> list[Strip]:
        """Block ``index`` as rendered at the current width: the whole of it, rendered here and
        now if needed, every piece of a huge one too (for tests and small blocks)."""
        self._check_width()
        plan = self._layout.plans.get(self._specs[index].key)
        if plan is None and self._cache_key(index) not in self._strips:
            self._render_here(index)
            plan = self._layout.plans.get(self._specs[index].key)
        if plan is None:
            return self._strips.get(self._cache_key(index)) or []
        lines: list[Strip] = []
        for piece in range(len(plan.pieces)):
            cache_key = self._cache_key(index, piece)
            strips = self._strips.get(cache_key)
            if strips is None:
                strips = self._rendered_strips(plan.pieces[piece].render())
                self._stored(cache_key, strips)
            lines.extend(strips)
        self._relayout()
        return [*lines, Strip.blank(0)]

    # -- geometry ----------------------------------------------------------------------------

    def _relayout(self) -> None:
        self._layout.relayout()
        self.virtual_size = Size(self._content_width(), self._layout.height)

    def _content_width(self) -> int:
        return max(1, self.scrollable_content_region.width)

    def _cache_key(self, index: int, piece: int = WHOLE) -> CacheKey:
        key = self._specs[index].key
        width = self._width - GUTTER
        return (key, piece, width, self._generation, self._versions.get(key, 0))

    def _current(self, cache_key: CacheKey) -> int | None:
        """The index of the block ``cache_key`` is for, unless it is out of date."""
        key, piece, *_ = cache_key
        index = self._layout.index.get(key)
        if index is None or cache_key != self._cache_key(index, piece):
            return None
        return index

    def _check_width(self) -> None:
        """A new width (a resize, a scrollbar that came or went): render again at it."""
        if self._content_width() != self._width:
            self._width = self._content_width()
            self._strips.clear()
            self._worker.forget()
            self._relayout()  # the virtual width follows, or a horizontal scrollbar appears

    # -- rendering ---------------------------------------------------------------------------

    def _match_style(self) -> Style | None:
        return self.get_component_rich_style("transcript--match") if self._highlight else None

    def _rendered_strips(self, renderable: RenderableType | None) -> list[Strip]:
        width = self._width - GUTTER
        return render_strips(
            self.app.console, renderable, width, self._highlight, self._match_style()
        )

    def _render_block(self, index: int, top: int = 0, bottom: int = 0) -> bool:
        """Render block ``index`` if needed (of a huge one, the pieces seen between its lines
        ``top`` and ``bottom``, in the worker). True when its height changed."""
        self._check_width()
        spec = self._specs[index]
        plan = self._layout.plans.get(spec.key)
        if plan is not None:
            for piece in plan.between(top, bottom):
                self._want(self._cache_key(index, piece), plan.pieces[piece].render)
            return False
        if self._cache_key(index) in self._strips:
            return False
        if spec.huge:
            self._want(self._cache_key(index, PLAN), spec.render)
            return False
        return self._render_here(index)

    def _render_here(self, index: int) -> bool:
        """Render block ``index`` on the event loop (a huge one: cut it in pieces)."""
        renderable = self._specs[index].render()
        if isinstance(renderable, Pieces):
            width = self._width - GUTTER
            heights = [piece.estimate(width) for piece in renderable.parts]
            return self._layout.plan(index, renderable.parts, heights)
        return self._stored(
            self._cache_key(index), [*self._rendered_strips(renderable), Strip.blank(0)]
        )

    def _stored(self, cache_key: CacheKey, strips: list[Strip]) -> bool:
        """Keep the strips of a block or piece; True when the block's height changed."""
        self._strips.set(cache_key, strips)
        key, piece, *_ = cache_key
        index = self._layout.index[key]
        if piece == WHOLE:
            return self._layout.set_height(index, len(strips))
        return self._layout.piece_height(index, piece, len(strips))

    def _want(self, cache_key: CacheKey, render: Callable[[], object]) -> None:
        """Ask the worker to cut a huge block in pieces (``PLAN``) or to render one piece."""
        if cache_key not in self._strips:
            self._worker.want(cache_key, render, self._highlight, self._match_style())  # type: ignore[arg-type]

    @on(Planned)
    def _planned(self, message: Planned) -> None:
        message.stop()
        index = self._current(message.cache_key)
        if index is not None and self._specs[index].key not in self._layout.plans:
            plan = partial(self._layout.plan, index, message.pieces, message.heights)
            self._keep_in_place(plan)
            self.refresh()

    @on(Rendered)
    def _rendered(self, message: Rendered) -> None:
        message.stop()
        if self._current(message.cache_key) is not None:
            self._keep_in_place(partial(self._stored, message.cache_key, message.strips))
            self.refresh()

    # -- keeping the view in place -----------------------------------------------------------

    def _pinned_offset(self) -> float | None:
        """Where the block last scrolled to programmatically must be, or ``None``."""
        key = self._pending_key
        index = self._layout.index.get(key) if key is not None else None
        if index is None:
            return None
        top = max(0, self._layout.offsets[index] - self._pending_above)
        return float(min(top, self.max_scroll_y))

    def _keep_in_place(self, change: Callable[[], bool]) -> bool:
        """Apply ``change`` (True when heights changed) keeping the block held in place, the
        bottom (when the view sat there), or else the top line where it was."""
        if not self._specs:
            return change()
        at_bottom = self._stick_to_bottom or (
            self.scroll_y >= self.max_scroll_y and self.max_scroll_y > 0
        )
        anchor = self._layout.anchor(int(self.scroll_y))
        if not change():
            return False
        self._relayout()
        pinned = self._pinned_offset()
        if pinned is not None:
            self._scroll_quietly(pinned)
        elif at_bottom:
            self._scroll_quietly(self.max_scroll_y)
        else:
            self._scroll_quietly(self._layout.anchor_y(anchor))
        return True

    def _render_seen(self) -> bool:
        """Render what the viewport shows; True when a height changed."""
        top, height = int(self.scroll_y), self.scrollable_content_region.height
        changed = False
        layout = self._layout
        for index in range(layout.block_at(top), layout.block_at(top + height) + 1):
            start = layout.offsets[index]
            changed |= self._render_block(index, top - start, top + height - start)
        return changed

    def _ensure_visible_rendered(self) -> None:
        """Render what the viewport shows; keep the top (or bottom) line where it was."""
        if not self._specs:
            return
        self._check_width()
        pinned = self._pinned_offset()
        if pinned is not None and self.scroll_y != pinned:
            self._scroll_quietly(pinned)
        for _ in range(50):
            if not self._keep_in_place(self._render_seen):
                break
        if self._stick_to_bottom and self.scroll_y != self.max_scroll_y:
            self._scroll_quietly(self.max_scroll_y)

    # -- navigation --------------------------------------------------------------------------

    def top_key(self) -> str | None:
        if not self._specs:
            return None
        return self._specs[self._layout.block_at(int(self.scroll_y))].key

    def scroll_to_key(self, key: str, *, select: bool = True, above: int = 0) -> None:
        """Bring block ``key`` to the top of the view (rendering it first), with ``above``
        lines of what comes before it still in sight."""
        index = self._layout.index.get(key)
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
        self._scroll_quietly(max(0, self._layout.offsets[index] - above))
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
        index = self._layout.block_at(int(self.scroll_y) + event.y)
        self.selected_key = self._specs[index].key
        self.refresh()
        self.post_message(self.BlockClicked(self, self._specs[index].key))

    # -- Line API ----------------------------------------------------------------------------

    def render_lines(self, crop: Region) -> list[Strip]:
        self._ensure_visible_rendered()
        return super().render_lines(crop)

    def _line(self, index: int, line: int) -> list[Segment] | None:
        """Line ``line`` of block ``index`` as rendered (``⋯`` in a piece not rendered yet)."""
        where = self._layout.locate(index, line)
        if where is None:
            return None  # the blank line after a block cut in pieces
        piece, line = where
        strips = self._strips.get(self._cache_key(index, piece))
        if strips is None:
            return _WAITING if line == 0 and piece != WHOLE else None
        return list(strips[line]) if line < len(strips) else None

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        absolute = int(self.scroll_y) + y
        base = self.rich_style
        if not self._specs or absolute >= self._layout.height:
            return Strip.blank(width, base)
        index = self._layout.block_at(absolute)
        segments = self._line(index, absolute - self._layout.offsets[index])
        if segments is None:
            return Strip.blank(width, base)
        selected = self._specs[index].key == self.selected_key
        gutter_style = self.get_component_rich_style("transcript--gutter") if selected else base
        gutter = Segment("▌ " if selected else "  ", gutter_style)
        strip = Strip([gutter, *segments])
        return strip.crop_extend(0, width, base)
