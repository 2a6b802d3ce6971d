"""Labels cut to a width in terminal cells: every list, tree and header of the screens fits its
labels with these (a wide character is two cells; the cut says itself with ``…``)."""

from __future__ import annotations

from rich.cells import get_character_cell_size
from rich.text import Text

from ink_tui.humanize import ELLIPSIS, cut, cut_length
from ink_tui.secrets import masked_text
from ink_tui.session.conversation.view import first_text_line

__all__ = ["cut_label", "first_line", "fit_label"]


def first_line(text: str, width: int = 60) -> str:
    """The first line of ``text`` in at most ``width`` cells (cut as :func:`cut_label`), its
    secrets masked before it is cut (a key cut short is no longer one the detector knows)."""
    return cut(masked_text(first_text_line(text)), width, get_character_cell_size)


def cut_label(text: Text, width: int) -> Text:
    """``text`` in at most ``width`` cells, its styles kept: cut by cell width (a wide character
    is two cells), whitespace before the cut left out, then ``…`` (:func:`ink_tui.humanize.cut`,
    measured as the screen draws). Every label of the screens is cut by this."""
    if width <= 0:
        return Text()
    keep = cut_length(text.plain, width, get_character_cell_size)
    if keep is None:
        return text
    head = text[:keep]
    head.append(ELLIPSIS)
    return head


def fit_label(text: Text, width: int, keep: int = 0) -> Text:
    """``text`` in ``width`` cells: its last ``keep`` characters (a turn's time, a call's
    status: the figures) at the right edge, whatever the script of the rest, which is cut with
    ``…`` when it does not fit (:func:`cut_label`)."""
    if width <= 0:
        return text
    if not keep:
        return cut_label(text, width)
    tail = text[len(text) - keep :]
    if tail.cell_len >= width - 1:
        return cut_label(text, width)  # too narrow for the tail: cut the whole label
    room = width - tail.cell_len
    head = cut_label(text[: len(text) - keep], room)
    return Text.assemble(head, " " * (room - head.cell_len), tail)
