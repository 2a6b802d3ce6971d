"""Huge texts in pieces (``ui/render/pieces.py``, ``ui/render/huge.py``): where they are cut,
that the pieces look as the whole text does, and the render worker's backlog."""

from __future__ import annotations

from typing import Any

import pytest
from rich.console import Console, RenderableType
from rich.text import Text

import ink_tui.ui.render.blocks as blocks
import ink_tui.ui.render.pieces as pieces_module
import ink_tui.ui.render.tool_blocks as tool_blocks
from ink_tui.ui.render.huge import ansi_pieces, code_pieces, cut_lines, text_pieces
from ink_tui.ui.render.pieces import Pieces, line_numbers, sgr_prefixes, shortened, spans
from ink_tui.ui.render.safe import ansi_text, plain
from ink_tui.ui.widgets.transcript_work import BACKLOG, Backlog

TEXTS = [
    "",
    "a",
    "a\nb",
    "a\n\nb\n",
    "x" * 1000,
    "word " * 700,
    "l\n" * 500,
    "\n" * 300,
    "one\x1b[31mred\x1b[0m " * 200,
]


def _lines(renderable: RenderableType, width: int = 60) -> list[str]:
    console = Console(width=width, color_system=None)
    options = console.options.update(width=width)
    return ["".join(s.text for s in line) for line in console.render_lines(renderable, options)]


@pytest.mark.parametrize("text", TEXTS)
def test_pieces_cover_the_text_within_their_limits(text: str) -> None:
    cuts = spans(text, chars=100, lines=10)
    rebuilt, previous = "", None
    for start, end in cuts:
        if previous is not None:
            assert text[previous:start] in ("", "\n")  # only the newline between two pieces
            rebuilt += text[previous:start]
        rebuilt += text[start:end]
        previous = end
        assert end - start <= 100
        assert text.count("\n", start, end) <= 10
    assert rebuilt == text


def test_a_long_line_is_cut_at_a_space_and_never_inside_a_colour_sequence() -> None:
    text = "word " * 100
    assert all(text[end - 1] == " " for _start, end in spans(text, chars=50)[:-1])
    coloured = "x" * 45 + "\x1b[31m" + "y" * 100
    first_end = spans(coloured, chars=48)[0][1]
    assert first_end == 45  # before the ESC, not in the middle of its sequence


def test_line_numbers_and_colours_carry_over_to_each_piece() -> None:
    text = "".join(f"\x1b[3{n % 8}mline {n}\n" for n in range(300)) + "\x1b[0mend"
    cuts = spans(text, chars=200, lines=10)
    numbers = line_numbers(text, cuts)
    assert numbers[0] == 1
    for (start, _end), number in zip(cuts, numbers, strict=True):
        assert text.count("\n", 0, start) + 1 == number
    prefixes = sgr_prefixes(text, cuts)
    assert prefixes[0] == ""
    assert all(prefix.startswith("\x1b[3") for prefix in prefixes[1:])


def test_multi_line_text_in_pieces_looks_as_it_does_whole() -> None:
    text = "".join(f"line {n} [bold]not markup[/bold] \x1b]0;title\x07\n" for n in range(3000))
    whole = _lines(plain(text))
    pieced = [line for piece in text_pieces(text, plain) for line in _lines(piece.render())]
    assert pieced == whole
    coloured = "".join(f"\x1b[32mok\x1b[0m test {n}\n" for n in range(3000))
    whole = _lines(ansi_text(coloured))
    pieced = [line for piece in ansi_pieces(coloured) for line in _lines(piece.render())]
    assert pieced == whole


def test_a_written_file_is_numbered_as_the_whole_file() -> None:
    code = "".join(f"x{n} = {n}\n" for n in range(1000))
    pieces = code_pieces(code, "big.py", theme="monokai")
    assert len(pieces) > 5
    first = _lines(pieces[0].render(), width=40)[0]
    last = next(line for line in _lines(pieces[-1].render(), width=40) if "x999 =" in line)
    assert last.split()[0] == "1000"  # numbered on from the pieces before it
    assert first.index("x0 =") == last.index("x999 =")  # the numbers' column keeps its width


def test_a_cut_output_counts_its_lines_as_a_short_one_does() -> None:
    for text in ["a\n" * 20, "a\n" * 12, "a\n" * 11 + "a", "x"]:
        kept, more = cut_lines(text, 12)
        cut, expected = tool_blocks._cut(Text(text), 12)
        assert (kept, more) == (cut.plain, expected)


def test_huge_rows_render_in_pieces_and_short_ones_as_before(monkeypatch: Any) -> None:
    from ink_tui.session.conversation.view import Item, ToolExchange

    monkeypatch.setattr(pieces_module, "HUGE_CHARS", 500)
    entry: Any = type("E", (), {"id": "e1", "record": {}})()
    output = "".join(f"out {n}\n" for n in range(400))
    result = {"toolCallId": "c", "toolName": "bash", "content": output, "isError": False}
    exchange = ToolExchange("c", "bash", {"command": "make"}, result)
    item = Item("tool", entry, 0, tool=exchange)
    assert blocks.item_is_huge(item)
    block = blocks.item_block(item, blocks.RenderOptions(output="full"), label="mine")
    assert isinstance(block, Pieces)
    lines = [line for piece in block.parts for line in _lines(piece.render())]
    assert lines[0].startswith("# mine") and "out 399" in "\n".join(lines[-2:])
    cut = blocks.item_block(item, blocks.RenderOptions())
    assert isinstance(cut, Pieces)
    text = "\n".join(line for piece in cut.parts for line in _lines(piece.render()))
    assert "out 11" in text and "out 12" not in text and "389 more lines" in text
    short = Item("text", entry, 1, "just a line")
    assert not blocks.item_is_huge(short)
    assert not isinstance(blocks.item_block(short, blocks.RenderOptions()), Pieces)
    assert "… too long to preview whole" in "\n".join(_lines(shortened(block, 2)))


def test_the_backlog_gives_the_newest_request_first_once_and_keeps_a_few() -> None:
    backlog: Backlog[int, str] = Backlog()
    assert backlog.add(1, "one") is True  # nothing drains it yet: start a worker
    assert backlog.add(2, "two") is False
    backlog.add(1, "one again")  # asked again: now the newest
    assert backlog.take() == (1, "one again")
    assert backlog.has(1)  # being worked on
    assert backlog.add(1, "while running") is False and backlog.pending() == 2
    assert backlog.take() == (2, "two")
    assert backlog.take() is None
    assert backlog.add(3, "three") is True  # the worker ended: start another
    for key in range(BACKLOG + 10):
        backlog.add(100 + key, "many")
    assert backlog.pending() == BACKLOG
    assert not backlog.has(3)  # the oldest request was dropped
