"""The replay pane: the branch as one continuous transcript (Line API, rendered lazily).

Each block (a turn's prompt or one item under it) is rendered only when it comes into view and
kept in a bounded cache (:class:`~ink_tui.ui.widgets.transcript_blocks.LazyBlocks`, as toolong's
Line-API views keep theirs): a long session read from end to end holds only the last
:data:`CACHED_BLOCKS` renderings, and a huge block (a prompt of megabytes, a written file of
200,000 lines) is cut in pieces and rendered, only as far as it is on screen, in a worker. A
block's height stays known once it was rendered; when a real height replaces an estimate, the
view keeps its top line (or the bottom, when the view sat there) in place, so nothing jumps.
Text matching the search (:meth:`Transcript.set_highlight`) is highlighted in every block,
whatever renders it (Markdown, code, tool output). This class adds what the user does: moving
to a block, scrolling, clicking, the selected block's gutter.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from rich.segment import Segment
from textual import events
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip

from ink_tui.ui.widgets.transcript_blocks import BlockSpec, LazyBlocks
from ink_tui.ui.widgets.transcript_work import highlight_line

__all__ = ["CACHED_BLOCKS", "BlockSpec", "Transcript", "highlight_line"]

CACHED_BLOCKS: Final = 400
"""Rendered blocks (or pieces of a huge block) kept; a screen shows a few dozen at most."""


class Transcript(LazyBlocks, can_focus=True):
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
        super().__init__(CACHED_BLOCKS, id=id, classes=classes)
        self.selected_key: str | None = None
        self._last_top: str | None = None

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
