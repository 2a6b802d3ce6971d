"""Huge texts in pieces: a block too big to render at once, rendered piece by piece.

A prompt, a tool output, a thinking or a ``write`` of a big file can hold megabytes. Rendering
one whole (wrapping 50 MB, or highlighting 200,000 lines) takes minutes; the replay renders only
the pieces on screen (:class:`Pieces`, read by the transcript). :func:`spans` cuts a text into
pieces of at most :data:`PIECE_CHARS` characters and :data:`PIECE_LINES` lines, at a newline when
there is one, else at a space; the newline between two pieces is in neither. Each piece is made
safe by itself (``ui/render/safe.py``); colours of tool output carry over from piece to piece
(:func:`sgr_prefixes`).

Pure: no widget state, no Textual.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from rich.console import Group, RenderableType
from rich.text import Text

__all__ = [
    "HUGE_CHARS",
    "PIECE_CHARS",
    "PIECE_LINES",
    "PREVIEW_CUT",
    "Piece",
    "Pieces",
    "is_huge",
    "line_numbers",
    "sgr_prefixes",
    "shortened",
    "spans",
]

HUGE_CHARS: Final = 20_000
"""A text longer than this is shown in pieces (below it, one renderable as always)."""
PIECE_CHARS: Final = 4_000
PIECE_LINES: Final = 100
_SGR: Final = re.compile(r"\x1b\[([0-9;:]*)m")
_KEEP_SGR: Final = 16  # colour sequences carried into a piece (since the last reset)


def is_huge(text: str) -> bool:
    return len(text) > HUGE_CHARS


@dataclass(frozen=True, slots=True)
class Piece:
    """One piece of a block: how to render it and what its height is likely to be."""

    render: Callable[[], RenderableType]
    lines: int = 1  # source lines
    chars: int = 0
    heavy: bool = False  # costly to render (syntax highlighting): rendered in a worker
    preview: Callable[[], RenderableType] | None = None  # shown until a heavy piece is rendered

    def estimate(self, width: int) -> int:
        return max(1, self.lines + self.chars // max(20, width - 4))


@dataclass(frozen=True, slots=True)
class Pieces:
    """A block rendered piece by piece, only as far as it is on screen."""

    parts: Sequence[Piece]


PREVIEW_CUT: Final = "… too long to preview whole (Enter opens the session)"


def shortened(
    block: RenderableType | Pieces, pieces: int = 3, note: str = PREVIEW_CUT
) -> RenderableType:
    """``block`` as one renderable: a huge one cut after its first ``pieces`` pieces, ``note``
    saying so (for a preview or the chat pane, never for the session view)."""
    if not isinstance(block, Pieces):
        return block
    shown = [piece.render() for piece in block.parts[:pieces]]
    if len(block.parts) > pieces:
        shown.append(Text(note, "dim italic"))
    return Group(*shown)


def spans(
    text: str, *, chars: int = PIECE_CHARS, lines: int = PIECE_LINES, paragraphs: bool = False
) -> list[tuple[int, int]]:
    """``(start, end)`` of each piece of ``text``. With ``paragraphs`` a piece ends at a blank
    line when one is in reach (Markdown: a paragraph is never cut when it need not be)."""
    result: list[tuple[int, int]] = []
    size, position = len(text), 0
    while position < size:
        end = min(size, position + chars)
        count = text.count("\n", position, end)
        if count > lines:
            end = position + max(1, (end - position) * lines // count)
        if end >= size:
            result.append((position, size))
            break
        cut = _cut(text, position, end, paragraphs)
        result.append((position, cut))
        position = cut + 1 if text.startswith("\n", cut) else cut  # the newline is in neither
    return result


def _cut(text: str, start: int, end: int, paragraphs: bool) -> int:
    """Where a piece from ``start`` ends (``end`` at the latest)."""
    if paragraphs:
        blank = text.rfind("\n\n", start + (end - start) // 4, end)
        if blank > start:
            return blank
    newline = text.rfind("\n", start, end + 1)
    if newline >= start:
        return newline
    space = text.rfind(" ", start + (end - start) // 2, end)
    if space > start:
        return space + 1
    escape = text.rfind("\x1b", max(start + 1, end - 32), end)  # never cut a colour sequence
    return escape if escape > start else end


def line_numbers(text: str, cuts: Sequence[tuple[int, int]]) -> list[int]:
    """The number of the first line of each piece (1 for the first)."""
    numbers: list[int] = []
    line, previous = 1, 0
    for start, _end in cuts:
        line += text.count("\n", previous, start)
        numbers.append(line)
        previous = start
    return numbers


def sgr_prefixes(text: str, cuts: Sequence[tuple[int, int]]) -> list[str]:
    """For each piece, the colour sequences in force where it starts (since the last reset), so
    that a piece rendered by itself has the colours it has in the whole text."""
    if "\x1b" not in text:
        return [""] * len(cuts)
    prefixes: list[str] = []
    active: list[str] = []
    matches: Iterator[re.Match[str]] = _SGR.finditer(text)
    pending = next(matches, None)
    for start, _end in cuts:
        while pending is not None and pending.end() <= start:
            codes = pending.group(1)
            if codes in ("", "0"):
                active.clear()
            else:
                active = [*active[-(_KEEP_SGR - 1) :], pending.group()]
            pending = next(matches, None)
        prefixes.append("".join(active))
    return prefixes
