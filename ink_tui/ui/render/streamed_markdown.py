"""Markdown rendered part by part, so that a growing reply repaints only its unfinished end.

Rendering Markdown costs time in proportion to its length (about 6 ms per kilobyte here, code
highlighting included), and a streamed reply is repainted many times a second: rendering the
whole reply each time would block the event loop for a quarter of a second once it reaches
40 kB. A reply only grows at its end, so it is cut into parts at block boundaries that later
text cannot change (a blank line outside a code fence, followed by an unindented line that
neither continues a list nor starts HTML), each finished part is rendered once per width and
kept, and only the rest is rendered at each repaint. Text with a link reference definition
(``[id]: url``, which can serve links anywhere) is not cut at all, and nothing after a line
that may open an HTML block is cut: such a block runs to the next blank line whatever it
holds (a fence opener included), so what follows it cannot be read reliably line by line.

Each part after the first is rendered as Rich renders a block that follows another (behind a
one-line stand-in paragraph that is then dropped), so the parts put together render as the
whole text does (tested with hypothesis over the usual blocks). A single long block, such as
one big code fence, is still rendered whole at each repaint until it closes.

:meth:`StreamedMarkdown.section` renders a run of parts (and the rest) alone, exactly as they
render inside the whole: the chat pane shows a streaming reply as a few widgets of finished
parts, which are never repainted again, and one small widget for the unfinished rest.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from rich.console import Console, ConsoleOptions, RenderResult
from rich.segment import Segment
from textual.cache import LRUCache

from ink_tui.ui.render.safe import markdown

__all__ = ["Section", "StreamedMarkdown", "split_parts"]

_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_HTML = re.compile(r" {0,3}<")
_DEFINITION = re.compile(r"^ {0,3}\[[^\]\n]+\]:", re.MULTILINE)
_LIST_ITEM = re.compile(r"(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")
# Rich puts no blank line after a rule, so a part never starts right after one
_RULE = re.compile(r" {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_STAND_IN = "x\n\n"  # renders as one line, then the blank line Rich puts between blocks
_CACHE_SIZE = 2048  # rendered parts kept (a part is a few lines to a few hundred)

Lines = list[list[Segment]]
_rendered: LRUCache[tuple[str, bool, int, str], Lines] = LRUCache(_CACHE_SIZE)


def split_parts(text: str) -> tuple[list[str], str, bool]:
    """The finished parts of ``text``, its rest (which more text could still change), and
    whether the rest holds a line that may open an HTML block (then no later cut is safe)."""
    parts: list[str] = []
    start = 0  # where the current part begins
    fence: str | None = None  # the opening run of the fence we are inside
    may_end = False  # after a blank line outside a fence, not right after a rule
    after_rule = False
    position = 0
    while (end := text.find("\n", position)) >= 0:
        line = text[position:end]
        if fence is not None:
            closing = _FENCE.match(line)
            if closing and closing.group(1).startswith(fence) and not line[closing.end() :].strip():
                fence = None
        elif not line.strip():
            may_end = not after_rule
        elif _HTML.match(line):
            if may_end and line.startswith("<") and text[start:position].strip():
                parts.append(text[start:position])  # the blank line ended what came before
                start = position
            return parts, text[start:], True
        else:
            if may_end and _starts_block(line) and text[start:position].strip():
                parts.append(text[start:position])
                start = position
            may_end = False
            after_rule = _RULE.match(line) is not None
            opening = _FENCE.match(line)
            fence = opening.group(1) if opening is not None else None
        position = end + 1
    unfinished = text[position:]
    html = fence is None and _HTML.match(unfinished) is not None
    new_block = _starts_block(unfinished, finished=False) or (html and unfinished[:1] == "<")
    if may_end and new_block and text[start:position].strip():
        parts.append(text[start:position])  # (may_end is never set inside a fence)
        start = position
    return parts, text[start:], html


def _starts_block(line: str, *, finished: bool = True) -> bool:
    """A line after a blank line that no earlier block can take in.

    Of an unfinished line only the first character is known: a digit or ``-*+`` may still
    become a list item.
    """
    if not line or line[0].isspace() or line[0] == "<":  # "<": HTML blocks span blank lines
        return False
    if finished:
        return _LIST_ITEM.match(line) is None
    return not line[0].isdigit() and line[0] not in "-*+"


def _part_lines(
    console: Console, options: ConsoleOptions, part: str, first: bool, theme: str
) -> Lines:
    key = (part, first, options.max_width, theme)
    lines = _rendered.get(key)
    if lines is None:
        lines = _render(console, options, part, first, theme)
        _rendered.set(key, lines)
    return lines


def _render(console: Console, options: ConsoleOptions, part: str, first: bool, theme: str) -> Lines:
    # (lines not padded to the width: whoever draws them pads them, as the whole text's are)
    if first:
        return console.render_lines(markdown(part, code_theme=theme), options, pad=False)
    whole = markdown(_STAND_IN + part, code_theme=theme)
    return console.render_lines(whole, options, pad=False)[1:]


class StreamedMarkdown:
    """A Rich renderable for Markdown that grows at its end (:meth:`feed`).

    ``finished=True`` (a recorded message) caches the last part too; while streaming, the
    rest is rendered afresh at each repaint. ``code_theme``: the highlighting of code blocks.
    """

    def __init__(
        self, text: str = "", *, finished: bool = False, code_theme: str = "monokai"
    ) -> None:
        self.text = ""
        self.finished = finished
        self.code_theme = code_theme
        self._parts: list[str] = []
        self._rest = ""
        self._whole = False
        self._no_more_parts = False  # an HTML block may have begun: the rest grows as one
        self.feed(text)

    def feed(self, more: str) -> None:
        """Append text (the next delta of a streamed reply)."""
        if not more:
            return
        self.text += more
        if self._whole or _DEFINITION.search(self._rest + more):
            self._whole = True  # a reference definition may serve links in any part
            self._parts, self._rest = [], self.text
            return
        if self._no_more_parts:
            self._rest += more
            return
        parts, self._rest, self._no_more_parts = split_parts(self._rest + more)
        self._parts.extend(parts)

    @property
    def part_count(self) -> int:
        """How many finished parts (which later text cannot change) the text has."""
        return len(self._parts)

    def part_size(self, index: int) -> int:
        return len(self._parts[index])

    def section(self, start: int, stop: int | None = None, *, rest: bool = False) -> Section:
        """Parts ``start:stop`` (and, with ``rest``, the unfinished rest) as a renderable that
        draws them as they are drawn inside the whole text."""
        end = len(self._parts) if stop is None else stop
        rest_text = self._rest if rest else ""
        return Section(self._parts[start:end], start, rest_text, self.finished, self.code_theme)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from self.section(0, rest=True).__rich_console__(console, options)


class Section:
    """Some parts of a :class:`StreamedMarkdown` (from part ``first_index`` on), then maybe the
    unfinished rest: a Rich renderable of what they look like inside the whole."""

    def __init__(
        self,
        parts: list[str],
        first_index: int,
        rest: str,
        finished: bool,
        code_theme: str = "monokai",
    ) -> None:
        self.parts = parts
        self.first_index = first_index
        self.rest = rest
        self.finished = finished  # the rest is final too: cache it
        self.code_theme = code_theme

    def _pieces(self) -> Iterator[tuple[str, bool, bool]]:
        """Each part with whether it is the text's first and whether it may be cached."""
        index = self.first_index
        for part in self.parts:
            yield part, index == 0, True
            index += 1
        if self.rest.strip():
            yield self.rest, index == 0, self.finished

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        new_line = Segment.line()
        for part, first, cached in self._pieces():
            if cached:
                lines = _part_lines(console, options, part, first, self.code_theme)
            else:
                lines = _render(console, options, part, first, self.code_theme)
            for line in lines:
                yield from line
                yield new_line
