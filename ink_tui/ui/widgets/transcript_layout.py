"""Where each block of the transcript is: heights, offsets, huge blocks' pieces, anchors.

Pure geometry, no widget: a block's height (estimated until rendered, then real, plus the blank
line after it), where each block starts, and, for a huge block cut in pieces, its
:class:`~ink_tui.ui.widgets.transcript_work.PiecePlan`. An :data:`Anchor` names a line by its
block, piece and line in it, so that the view can keep it in place while heights change.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ink_tui.ui.render.pieces import Piece
from ink_tui.ui.widgets.transcript_work import PiecePlan, StackedHeights

__all__ = ["WHOLE", "Anchor", "BlockLayout"]

WHOLE = -1
"""The piece index of a block rendered whole (not cut in pieces)."""

Anchor = tuple[int, int, int]  # block index, piece (WHOLE: none), line in it


class _Spec(Protocol):
    @property
    def key(self) -> str: ...

    @property
    def estimate(self) -> int: ...


class BlockLayout(StackedHeights):
    """The blocks' heights and offsets, and the plans of the huge blocks cut in pieces."""

    def __init__(self) -> None:
        super().__init__([])
        self.keys: list[str] = []
        self.index: dict[str, int] = {}
        self.plans: dict[str, PiecePlan] = {}

    def reset(self, specs: Sequence[_Spec]) -> None:
        """These blocks, at their estimated heights, none cut in pieces."""
        self.keys = [spec.key for spec in specs]
        self.index = {key: index for index, key in enumerate(self.keys)}
        self.heights = [max(1, spec.estimate) + 1 for spec in specs]
        self.plans.clear()
        self.relayout()

    def append(self, specs: Sequence[_Spec]) -> None:
        for spec in specs:
            self.index[spec.key] = len(self.keys)
            self.keys.append(spec.key)
            self.heights.append(max(1, spec.estimate) + 1)
        self.relayout()

    def block_at(self, y: int) -> int:
        return self.index_at(y)

    def set_height(self, index: int, height: int) -> bool:
        """Block ``index`` was rendered (whole): its real height. True when it changed."""
        changed = height != self.heights[index]
        self.heights[index] = height
        return changed

    def plan(self, index: int, pieces: Sequence[Piece], heights: list[int]) -> bool:
        """Block ``index`` is cut in ``pieces`` (of these heights). True when its height
        changed."""
        plan = self.plans[self.keys[index]] = PiecePlan(pieces, heights)
        return self.set_height(index, plan.height + 1)

    def piece_height(self, index: int, piece: int, height: int) -> bool:
        """Piece ``piece`` of block ``index`` was rendered: its real height."""
        plan = self.plans.get(self.keys[index])
        if plan is None or piece >= len(plan.pieces) or not plan.set_height(piece, height):
            return False
        return self.set_height(index, plan.height + 1)

    def locate(self, index: int, line: int) -> tuple[int, int] | None:
        """``(piece, line in it)`` of line ``line`` of block ``index`` (``WHOLE`` for a block
        not cut in pieces); ``None`` for the blank line after a cut block."""
        plan = self.plans.get(self.keys[index])
        if plan is None:
            return WHOLE, line
        if line >= plan.height:
            return None
        piece = plan.at(line)
        return piece, line - plan.offsets[piece]

    def anchor(self, y: int) -> Anchor:
        """Line ``y`` of the transcript, by its block, piece and line in it."""
        index = self.block_at(y)
        line = y - self.offsets[index]
        where = self.locate(index, line)
        if where is None:
            return index, WHOLE, line
        return index, *where

    def anchor_y(self, anchor: Anchor) -> int:
        """Where ``anchor`` is now."""
        index, piece, line = anchor
        top = self.offsets[index]
        plan = self.plans.get(self.keys[index])
        if piece == WHOLE or plan is None or piece >= len(plan.pieces):
            return top + min(line, self.heights[index] - 1)
        return top + plan.offsets[piece] + min(line, max(0, plan.heights[piece] - 1))
