"""How a huge prompt, text, thinking, tool output or written file is shown: in pieces.

Each function returns the :class:`~ink_tui.ui.render.pieces.Piece` list of one huge text, each
piece made safe by itself through ``ui/render/safe.py`` (never Rich markup). The pieces look as
the whole text would, but for a line break where a piece ends inside a line, a Markdown
paragraph cut where no blank line was in reach, and syntax highlighting that starts afresh at
each piece of a written file (:data:`~ink_tui.ui.render.pieces.PIECE_LINES` lines).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.text import Text

from ink_tui.safetext import visible
from ink_tui.ui.render.pieces import Piece, is_huge, line_numbers, sgr_prefixes, spans
from ink_tui.ui.render.safe import ansi_text, markdown, plain

__all__ = [
    "code_pieces",
    "content_is_huge",
    "content_pieces",
    "cut_lines",
    "markdown_pieces",
    "text_pieces",
]

Make = Callable[[str], RenderableType]


def content_is_huge(content: Any) -> bool:
    """Whether a message or result ``content`` (a string or blocks) holds a huge text."""
    if isinstance(content, str):
        return is_huge(content)
    blocks = content if isinstance(content, list) else ()
    return any(isinstance(block, dict) and is_huge(str(block.get("text", ""))) for block in blocks)


def _indented(make: Make, indent: int, style: str, text: str) -> RenderableType:
    return Padding(make(text), (0, 0, 0, indent), style=style) if indent or style else make(text)


def _piece(text: str, start: int, end: int, make: Make, indent: int, style: str) -> Piece:
    render = partial(_indented, make, indent, style, text[start:end])
    return Piece(render, text.count("\n", start, end) + 1, end - start)


def text_pieces(text: str, make: Make, *, indent: int = 0, style: str = "") -> list[Piece]:
    """``text`` in pieces, each rendered by ``make`` (``plain`` or a styled ``plain``)."""
    return [_piece(text, start, end, make, indent, style) for start, end in spans(text)]


def _ansi(prefix: str, text: str) -> Text:
    return ansi_text(prefix + text)


def ansi_pieces(text: str, *, indent: int = 0, style: str = "") -> list[Piece]:
    """Tool output in pieces: SGR colours kept, carried over from one piece to the next."""
    cuts = spans(text)
    prefixes = sgr_prefixes(text, cuts)
    return [
        _piece(text, start, end, partial(_ansi, prefix), indent, style)
        for (start, end), prefix in zip(cuts, prefixes, strict=True)
    ]


def content_pieces(
    content: Any,
    image_note: Callable[[dict[str, Any]], RenderableType],
    *,
    colours: bool,
    indent: int = 0,
    style: str = "",
) -> list[Piece]:
    """A message or result ``content``: its texts (huge ones in pieces) and image notes."""
    if isinstance(content, str):
        content = [{"type": "text", "text": content}]
    pieces: list[Piece] = []
    for block in content if isinstance(content, list) else ():
        if not isinstance(block, dict):
            continue
        if block.get("type") == "text":
            text = str(block.get("text", ""))
            if colours:
                pieces.extend(ansi_pieces(text, indent=indent, style=style))
            else:
                pieces.extend(text_pieces(text, plain, indent=indent, style=style))
        elif block.get("type") == "image":
            pieces.append(Piece(partial(_image, image_note, block, indent, style)))
    return pieces


def _image(
    note: Callable[[dict[str, Any]], RenderableType], block: dict[str, Any], indent: int, style: str
) -> RenderableType:
    return Padding(note(block), (0, 0, 0, indent), style=style)


def cut_lines(text: str, limit: int) -> tuple[str, int]:
    """``text`` cut after ``limit`` lines (as ``blocks`` cuts a short output), and how many
    lines were left out; only the kept part is ever scanned line by line."""
    total = text.count("\n") + 1
    if total <= limit:
        return text, 0
    position = -1
    for _ in range(limit):
        position = text.find("\n", position + 1)
    return text[:position], total - limit


def _markdown_piece(text: str, fenced: bool, gap: bool, theme: str) -> RenderableType:
    body = markdown(f"```\n{text}" if fenced else text, code_theme=theme)
    return Group(body, Text("")) if gap else body


def markdown_pieces(text: str, *, theme: str, indent: int = 0) -> list[Piece]:
    """Markdown in pieces cut at blank lines where it can; a piece that starts inside a code
    fence opens one, so code stays code."""
    pieces: list[Piece] = []
    fenced = False
    for start, end in spans(text, paragraphs=True):
        gap = text.startswith("\n\n", end)
        make = partial(_markdown_piece, fenced=fenced, gap=gap, theme=theme)
        pieces.append(_piece(text, start, end, make, indent, ""))
        fences = text.count("\n```", start, end) + text.startswith("```", start)
        fenced ^= fences % 2 == 1
    return pieces


def _code(lexer: str, theme: str, first: int, numbers: int, text: str) -> RenderableType:
    """Lines ``first`` on of a file, highlighted and numbered, the numbers ``numbers`` cells
    wide whatever this piece's last number (so every piece of the file lines up): the numbers
    Rich draws take what the piece needs, and a margin in the code's background the rest."""
    from rich.syntax import Syntax

    code = visible(text)
    syntax = Syntax(code, lexer, theme=theme, line_numbers=True, word_wrap=True, start_line=first)
    extra = numbers - (len(str(first + code.count("\n"))) + 2)
    if extra <= 0:
        return syntax
    background = Syntax.get_theme(theme).get_background_style()
    return Padding(syntax, (0, 0, 0, extra), style=background, expand=False)


def code_pieces(code: str, path: str, *, theme: str, indent: int = 0) -> list[Piece]:
    """A file's text in pieces, highlighted piece by piece, numbered as the whole file."""
    from rich.syntax import Syntax

    lexer = Syntax.guess_lexer(path, "")
    cuts = spans(code)
    firsts = line_numbers(code, cuts)
    numbers = len(str(firsts[-1] + code.count("\n", cuts[-1][0]))) + 2 if cuts else 3
    return [
        _piece(code, start, end, partial(_code, lexer, theme, first, numbers), indent, "")
        for (start, end), first in zip(cuts, firsts, strict=True)
    ]
