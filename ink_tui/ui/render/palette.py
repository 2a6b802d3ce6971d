"""The colours of rendered session content, taken from the app's theme variables.

Rendered content (Rich renderables drawn into the transcript, tree labels, the header) cannot use
Textual CSS, so it reads its colours from here. The app sets :data:`current` from its theme's
variables (``$text-success``, ``$text-error``, ``$text-warning``, ``$text-accent``,
``$text-primary``, ``$text-secondary``) whenever the theme changes; nothing else names a colour.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rich.color import Color, ColorParseError

__all__ = ["Palette", "current", "use_theme"]


@dataclass(frozen=True, slots=True)
class Palette:
    ok: str = "green"
    error: str = "red"
    warning: str = "yellow"
    accent: str = "magenta"
    argument: str = "cyan"
    secondary: str = "blue"


current = Palette()
"""The palette in force (before any app starts: Rich's standard colours)."""


def _colour(variables: Mapping[str, str], name: str, fallback: str) -> str:
    value = variables.get(f"text-{name}") or variables.get(name) or fallback
    try:
        Color.parse(value)
    except ColorParseError:
        return fallback
    return value


def use_theme(variables: Mapping[str, str]) -> Palette:
    """Make the theme's colours the palette in force; returns it."""
    global current
    default = Palette()
    current = Palette(
        ok=_colour(variables, "success", default.ok),
        error=_colour(variables, "error", default.error),
        warning=_colour(variables, "warning", default.warning),
        accent=_colour(variables, "accent", default.accent),
        argument=_colour(variables, "primary", default.argument),
        secondary=_colour(variables, "secondary", default.secondary),
    )
    return current
