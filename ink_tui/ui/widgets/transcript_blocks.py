"""Blocks rendered lazily: the rendering side of the transcript (see ``transcript.py``).

:class:`LazyBlocks` renders a block to strips when it comes into view, at the current width, and
keeps them in a bounded ``LRUCache`` (keyed by the block, piece, width, render generation and
the block's version). A huge block (:attr:`BlockSpec.huge`) is handed to the render worker
(``transcript_work.py``): it is cut in pieces there and only the pieces on screen are rendered,
there too; until a piece arrives its lines show ``⋯``. Whenever a height changes (an estimate
replaced, a piece rendered), the view keeps its top line, its bottom or the block it was sent
to in place, so nothing jumps.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Final

from rich.console import RenderableType
from rich.segment import Segment
from rich.style import Style
from textual import on
from textual.cache import LRUCache
from textual.geometry import Size
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
    render_strips,
)

__all__ = ["GUTTER", "BlockSpec", "LazyBlocks"]

GUTTER = 2
_WAITING: Final = [Segment("⋯", Style(dim=True))]  # a piece of a huge block not rendered yet


@dataclass(frozen=True, slots=True)
class BlockSpec:
    """One block of the transcript: its key, how to render it, a cheap height estimate, and
    whether it is huge (rendered in the worker, in pieces when it renders to :class:`Pieces`)."""

    key: str
    render: Callable[[], RenderableType | Pieces | None]
    estimate: int = 3
    huge: bool = False


class LazyBlocks(ScrollView):
    """Blocks rendered as they come into view (huge ones in a worker), kept in place."""

    def __init__(
        self, cache_size: int, *, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(id=id, classes=classes)
        self._specs: list[BlockSpec] = []
        self._layout = BlockLayout()
        self._strips: LRUCache[CacheKey, list[Strip]] = LRUCache(cache_size)
        self._versions: dict[str, int] = {}  # bumped when one block must be rendered again
        self._worker = RenderWorker(self)
        self._generation = 0  # bumped when every block must be rendered again
        self._highlight: re.Pattern[str] | None = None
        self._width = 0
        self._stick_to_bottom = False
        self._quiet = False
        self._pending_key: str | None = None
        self._pending_above = 0  # lines shown above the block held in place

    # -- content -----------------------------------------------------------------------------

    def _forget_all(self, *, layout: bool = True) -> None:
        """Render every block again; with ``layout``, from estimated heights and uncut."""
        self._generation += 1
        self._strips.clear()
        self._worker.forget()
        if layout:
            self._layout.reset(self._specs)

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

    def _scroll_quietly(self, y: float) -> None:
        """Scroll without reporting a new top block (the caller chose where to be)."""
        self._quiet = True
        try:
            self.scroll_to(y=y, animate=False, immediate=True)
        finally:
            self._quiet = False

    def _line(self, index: int, line: int) -> list[Segment] | None:
        """Line ``line`` of block ``index`` as rendered (``⋯`` in a piece not rendered yet)."""
        where = self._layout.locate(index, line)
        if where is None:
            return None  # the blank line after a block cut in pieces
        piece, line = where
        strips = self._strips.get(self._cache_key(index, piece))
        if strips is None:
            waiting = piece != WHOLE or self._specs[index].huge  # the worker has it
            return _WAITING if line == 0 and waiting else None
        return list(strips[line]) if line < len(strips) else None
