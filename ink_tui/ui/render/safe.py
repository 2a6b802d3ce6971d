"""The only door from session text to the screen.

Session text is untrusted: it can hold escape sequences (window title, OSC 52 clipboard writes,
screen clears, hyperlinks), control characters, bidi overrides and text that looks like Rich or
Textual markup; and it can hold secrets. Everything here returns Rich ``Text`` built from plain
strings (markup is never parsed) in which every secret the detector finds is masked
(``[REDACTED:<kind>:<fp8>]``, :func:`ink_tui.secrets.masked_text`: text with no clue of one
costs microseconds), SGR colour sequences became styles and every other control became visible.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.style import Style
from rich.text import Text

from ink_tui.safetext import keep_sgr, visible
from ink_tui.secrets import masked_text

if TYPE_CHECKING:  # imported when first used (markdown-it costs ~60 ms at start-up)
    from rich.markdown import Markdown

__all__ = ["ansi_text", "markdown", "plain"]


def plain(text: str, style: str | Style = "") -> Text:
    """Literal text with controls made visible; ``[bold]`` stays ``[bold]``."""
    return Text(visible(masked_text(text)), style=style)


def ansi_text(text: str) -> Text:
    """Tool output: SGR colours rendered, every other escape shown as ``␛…``."""
    return Text.from_ansi(keep_sgr(masked_text(text)), tab_size=4)


def markdown(text: str, *, code_theme: str = "monokai") -> Markdown:
    """Markdown with highlighted code; no terminal hyperlinks, controls made visible."""
    from rich.markdown import Markdown

    return Markdown(visible(masked_text(text)), code_theme=code_theme, hyperlinks=False)
