"""The footer every screen docks: Textual's :class:`~textual.widgets.Footer`, rebuilt only when
the keys it shows change.

Textual's footer rebuilds all its keys each time the screen says its bindings changed, and the
screen says so for every focus move, every screen pushed or popped and every reactive declared
with ``bindings=True``, whether or not a shown key changed: opening a session said it about a
dozen times before the first frame, and each rebuild made and styled every key again (a sixth of
the app's work in a typical session-view journey). This footer waits until the batch of changes
has been handled, then rebuilds once, and only when the keys it would show differ.
"""

from __future__ import annotations

from typing import Any

from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer

__all__ = ["InkFooter", "shown_keys"]

ShownKeys = tuple[tuple[Binding, bool, str], ...]


def shown_keys(screen: Screen[Any], palette_key: str) -> ShownKeys:
    """What a footer on ``screen`` shows, in order: each shown binding with whether it is
    enabled and its tooltip, then the command palette's key (``palette_key``) when bound."""
    active = screen.active_bindings
    shown = [
        (binding, enabled, tooltip)
        for (_node, binding, enabled, tooltip) in active.values()
        if binding.show
    ]
    palette = active.get(palette_key)
    if palette is not None:
        _node, binding, enabled, tooltip = palette
        shown.append((binding, enabled, tooltip))
    return tuple(shown)


class InkFooter(Footer):
    """A :class:`~textual.widgets.Footer` that rebuilds once per batch of binding changes, and
    only when the keys it shows change."""

    def __init__(self) -> None:
        super().__init__()
        self.rebuild_pending = False  # a look at the bindings is asked for and not made yet
        self.shown: ShownKeys | None = None  # the keys of the last rebuild

    def bindings_changed(self, screen: Screen[Any]) -> None:
        """The screen's bindings changed: look at them once the messages already queued are
        handled (every change among them seen by that one look)."""
        if self.rebuild_pending:
            return
        self.rebuild_pending = True
        self.call_after_refresh(self._rebuild_if_changed, screen)

    def _rebuild_if_changed(self, screen: Screen[Any]) -> None:
        self.rebuild_pending = False  # a change from now on asks for a look of its own
        if not self.is_attached or screen is not self.screen:
            return
        shown = shown_keys(screen, self.app.COMMAND_PALETTE_BINDING)
        if shown == self.shown:
            return
        if self.app.app_focus:  # else Textual's footer waits for the focus to come back
            self.shown = shown
        super().bindings_changed(screen)
