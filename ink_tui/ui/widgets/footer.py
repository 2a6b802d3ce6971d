"""The footer every screen docks: the keys of the part with the focus, drawn as one line.

Textual's :class:`~textual.widgets.Footer` makes a widget for every key and makes them all
again, each styled from scratch, every time the screen says its bindings changed, which it says
for every focus move and every reactive declared with ``bindings=True``: on a typical screen the
key widgets were half of the app's widgets and a fifth of its work. This footer is one
Line-API widget. It looks at the bindings once per batch of changes, lays the keys out as
Textual's footer does (``ui/widgets/footer_line.py``, the look the snapshots hold) only when
they differ, and draws them from six component styles. A click presses the key under the
pointer (a bell when it is off), the pointer shows a key's tooltip, and the wheel scrolls keys
that do not fit.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget

from ink_tui.ui.widgets.footer_line import (
    FooterLine,
    Part,
    Piece,
    ShownKey,
    ShownKeys,
    footer_line,
    shown_keys,
)

__all__ = ["InkFooter"]

SCROLL_STEP = 4  # cells the wheel moves keys that do not fit


class InkFooter(Widget, can_focus=False):
    """The keys of the focused part of the screen, one line docked at the bottom."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "ink-footer--item",
        "ink-footer--key",
        "ink-footer--description",
        "ink-footer--label",
        "ink-footer--hover",
        "ink-footer--border",
    }
    DEFAULT_CSS = """
    InkFooter {
        dock: bottom;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
        & > .ink-footer--item { background: $footer-item-background; }
        & > .ink-footer--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        & > .ink-footer--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        & > .ink-footer--label {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        & > .ink-footer--hover {
            color: $footer-key-foreground;
            background: $block-hover-background;
        }
        & > .ink-footer--border { color: $foreground 20%; }
    }
    """

    def __init__(self) -> None:
        super().__init__()
        self.rebuild_pending = False  # a look at the bindings is asked for and not made yet
        self.shown: tuple[ShownKeys, ShownKeys] | None = None  # the keys of the last layout
        self.line = FooterLine((), (), ())
        self.hovered: int | None = None  # the key under the pointer
        self.scrolled = 0  # cells of the left-hand keys scrolled out of sight

    @property
    def keys(self) -> tuple[ShownKey, ...]:
        """The keys shown, left to right, the command palette's last."""
        return self.line.keys

    # -- following the screen's bindings ------------------------------------------------------

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)
        self.bindings_changed(self.screen)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen[Any]) -> None:
        """The screen's bindings changed: look at them once the messages already queued are
        handled (every change among them seen by that one look)."""
        if self.rebuild_pending:
            return
        self.rebuild_pending = True
        self.call_after_refresh(self._relayout_if_changed, screen)

    def _relayout_if_changed(self, screen: Screen[Any]) -> None:
        self.rebuild_pending = False  # a change from now on asks for a look of its own
        if not self.is_attached or screen is not self.screen or not self.app.app_focus:
            return  # without the app's focus the screen's bindings lack the focused part's
        shown = shown_keys(screen, self.app.COMMAND_PALETTE_BINDING)
        if shown == self.shown:
            return
        self.shown = shown
        palette = shown[1] if self.app.ENABLE_COMMAND_PALETTE else ()
        self.line = footer_line(shown[0], palette, self.app.get_key_display)
        self.scrolled = min(self.scrolled, self._scroll_limit())
        self._hover_at_pointer()
        self.refresh()

    # -- drawing --------------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base = self.rich_style
        if y or width <= 0:
            return Strip.blank(width, base)
        right_width = min(self.line.right_width, width)
        left_width = width - right_width
        left = Strip(self._segments(self.line.left, base))
        left = left.crop_extend(self.scrolled, self.scrolled + left_width, base)
        if not right_width:
            return left
        right = Strip(self._segments(self.line.right, base)).crop(0, right_width)
        return Strip.join([left, right])

    def _segments(self, pieces: tuple[Piece, ...], base: Style) -> list[Segment]:
        style_of = self.get_component_rich_style
        item = base + style_of("ink-footer--item", partial=True)
        hover = base + style_of("ink-footer--hover")
        parts = {
            Part.KEY: style_of("ink-footer--key", partial=True),
            Part.DESCRIPTION: style_of("ink-footer--description", partial=True),
            Part.LABEL: style_of("ink-footer--label", partial=True),
            Part.BORDER: Style(color=style_of("ink-footer--border").color),
            Part.PAD: Style(),
        }
        segments = []
        for piece in pieces:
            if piece.item is None:  # between keys: the footer's own look
                style = base + parts.get(piece.part, Style())
            else:
                style = hover if piece.item == self.hovered else item
                if not self.line.keys[piece.item].enabled:
                    style += Style(dim=True)
                style += parts[piece.part]
            segments.append(Segment(piece.text, style))
        return segments

    # -- the pointer ------------------------------------------------------------------------------

    def key_at(self, x: int) -> int | None:
        """The index of the key drawn at cell ``x`` of the footer (``None``: no key there)."""
        width = self.size.width
        right_width = min(self.line.right_width, width)
        if x >= width - right_width:
            return _item_at(self.line.right, x - (width - right_width))
        return _item_at(self.line.left, x + self.scrolled)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self._hover(self.key_at(event.x))

    def on_leave(self, event: events.Leave) -> None:
        self._hover(None)

    def on_resize(self, event: events.Resize) -> None:
        self.scrolled = min(self.scrolled, self._scroll_limit())  # keys that fit now show whole
        self._hover_at_pointer()

    def _hover_at_pointer(self) -> None:
        """Light the key under the pointer, if the pointer is on the footer (the keys or their
        place changed under it)."""
        pointer = self.app.mouse_position
        over = self.mouse_hover and self.region.contains(pointer.x, pointer.y)
        self._hover(self.key_at(pointer.x - self.region.x) if over else None, force=True)

    def _hover(self, item: int | None, *, force: bool = False) -> None:
        if item == self.hovered and not force:
            return
        self.hovered = item
        self.tooltip = self.line.keys[item].tooltip or None if item is not None else None
        self.refresh()

    def on_mouse_down(self, event: events.MouseDown) -> None:
        item = self.key_at(event.x)
        if item is None:
            return
        key = self.line.keys[item]
        if key.enabled:
            self.app.simulate_key(key.key)
        else:
            self.app.bell()

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        self._scroll(SCROLL_STEP, event)

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        self._scroll(-SCROLL_STEP, event)

    def on_mouse_scroll_right(self, event: events.MouseScrollRight) -> None:
        self._scroll(SCROLL_STEP, event)

    def on_mouse_scroll_left(self, event: events.MouseScrollLeft) -> None:
        self._scroll(-SCROLL_STEP, event)

    def _scroll(self, cells: int, event: events.MouseEvent) -> None:
        scrolled = max(0, min(self.scrolled + cells, self._scroll_limit()))
        if scrolled != self.scrolled:
            self.scrolled = scrolled
            self._hover(self.key_at(event.x), force=True)  # another key is under the pointer
            self.refresh()
            event.stop()

    def _scroll_limit(self) -> int:
        room = self.size.width - min(self.line.right_width, self.size.width)
        return max(0, self.line.left_width - room)


def _item_at(pieces: tuple[Piece, ...], x: int) -> int | None:
    """The key of the piece covering cell ``x`` of ``pieces`` laid end to end."""
    start = 0
    for piece in pieces:
        end = start + cell_len(piece.text)
        if start <= x < end:
            return piece.item
        start = end
    return None
