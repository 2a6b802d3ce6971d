"""What every block is made of: the display options, a message's content (texts and image
placeholders), a row's label line, and a fixed piece of a block drawn in pieces.

Pure: no widget state (see ``blocks.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from rich.console import RenderableType
from rich.text import Text

from ink_tui.ui.render import palette
from ink_tui.ui.render.pieces import Piece, is_huge
from ink_tui.ui.render.safe import ansi_text, plain

__all__ = [
    "CUT_LINES",
    "OutputMode",
    "RenderOptions",
    "content_parts",
    "fixed_piece",
    "holds_huge",
    "image_note",
    "label_line",
]

OutputMode = Literal["hidden", "cut", "full"]
CUT_LINES = 12


@dataclass(frozen=True, slots=True)
class RenderOptions:
    """What the user chose to see."""

    show_thinking: bool = False
    output: OutputMode = "cut"
    expanded: frozenset[str] = frozenset()  # item keys whose output is shown in full
    thinking_open: frozenset[str] = frozenset()  # thinking items shown although thinking is off
    code_theme: str = "monokai"
    running: dict[str, float] = field(default_factory=dict)  # followed calls: key -> start
    now: float = 0.0  # the app's clock when ``running`` was last measured
    waiting: frozenset[str] = frozenset()  # calls whose result a live chat awaits (no clock)
    thinking_key: str = "t"  # the key that shows thinking, named in the hidden thinking's line
    output_key: str | None = "o"  # the key that shows a cut output whole (None: no such key)
    whole_replies: bool = False  # a huge reply as one renderable, never in pieces (the chat)


def image_note(block: dict[str, Any]) -> RenderableType:
    size = len(str(block.get("data", ""))) * 3 // 4
    mime = str(block.get("mimeType", "image"))
    return plain(f"[image {mime}, {size / 1024:.1f} KB]", f"italic {palette.current.argument}")


def content_parts(content: Any, *, colours: bool) -> list[RenderableType]:
    """A message or result content: text (ANSI-safe when ``colours``) and image placeholders."""
    if isinstance(content, str):
        return [ansi_text(content) if colours else plain(content)]
    parts: list[RenderableType] = []
    for block in content if isinstance(content, list) else ():
        if not isinstance(block, dict):
            continue
        if block.get("type") == "text":
            text = str(block.get("text", ""))
            parts.append(ansi_text(text) if colours else plain(text))
        elif block.get("type") == "image":
            parts.append(image_note(block))
    return parts


def label_line(label: str) -> Text:
    """How a row's label (a ``label`` record naming its entry) is shown: ``# label``."""
    return plain(f"# {label}", f"italic {palette.current.accent}")


def holds_huge(value: Any, depth: int = 3) -> bool:
    """Whether ``value`` (tool arguments) holds a huge string, a few levels down."""
    if isinstance(value, str):
        return is_huge(value)
    if depth and isinstance(value, dict):
        return any(holds_huge(inner, depth - 1) for inner in value.values())
    if depth and isinstance(value, list):
        return any(holds_huge(inner, depth - 1) for inner in value)
    return False


def fixed_piece(renderable: RenderableType) -> Piece:
    return Piece(lambda: renderable)
