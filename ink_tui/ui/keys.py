"""Key maps as data: the keys that work everywhere, and a screen's keys as help and the command
palette list them. Below the screens, so the help screen needs no import of the app."""

from __future__ import annotations

from textual.binding import Binding, BindingType
from textual.screen import Screen

__all__ = ["APP_BINDINGS", "screen_bindings"]

APP_BINDINGS: list[BindingType] = [
    Binding("q", "quit", "Quit"),
    Binding("question_mark", "help", "Help", key_display="?"),
    Binding("f1", "help", "Help", show=False),
    Binding("ctrl+p", "command_palette", "Commands", show=False),
]
"""The app's own keys (``InkApp.BINDINGS``)."""


def screen_bindings(screen: Screen) -> list[Binding]:
    """The bindings a screen defines (with a description), then the app's."""
    found: list[Binding] = []
    for binding in [*getattr(screen, "BINDINGS", []), *APP_BINDINGS]:
        if isinstance(binding, Binding) and binding.description:
            found.append(binding)
    return found
