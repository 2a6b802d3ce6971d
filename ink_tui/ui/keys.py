"""Key maps as data: the keys that work everywhere, and a screen's keys as help and the command
palette list them. Below the screens, so the help screen needs no import of the app."""

from __future__ import annotations

from textual.binding import Binding, BindingType
from textual.screen import Screen

__all__ = ["APP_BINDINGS", "CHAT_BINDINGS", "screen_bindings"]

APP_BINDINGS: list[BindingType] = [
    Binding("q", "quit", "Quit"),
    Binding("question_mark", "help", "Help", key_display="?"),
    Binding("f1", "help", "Help", show=False),
    Binding("ctrl+p", "command_palette", "Commands", show=False),
]
"""The app's own keys (``InkApp.BINDINGS``)."""

CHAT_BINDINGS: list[BindingType] = [
    Binding("escape", "escape", "Interrupt / back"),
    Binding("ctrl+o", "pick_model", "Model"),
    Binding("ctrl+l", "compact", "Compact"),
    Binding("ctrl+t", "toggle_thinking", "Thinking"),
    Binding("pageup", "scroll_history('page_up')", "Page up", show=False),
    Binding("pagedown", "scroll_history('page_down')", "Page down", show=False),
    Binding("ctrl+home", "scroll_history('top')", "First message", show=False),
    Binding("ctrl+end", "scroll_history('bottom')", "Latest", show=False),
    # text, never the app's quit and help (no description: not listed anywhere)
    Binding("q", "typed('q')", show=False),
    Binding("question_mark", "typed('?')", show=False),
]
"""The chat pane's keys (``ChatScreen.BINDINGS``)."""


def screen_bindings(screen: Screen) -> list[Binding]:
    """The bindings a screen defines (with a description), then the app's."""
    found: list[Binding] = []
    for binding in [*getattr(screen, "BINDINGS", []), *APP_BINDINGS]:
        if isinstance(binding, Binding) and binding.description:
            found.append(binding)
    return found
