"""The labels of the session tree's rows: a turn (its number, label and prompt's first line) and
an item under it (a tool call and its status, text, thinking, a compaction…)."""

from __future__ import annotations

from rich.cells import get_character_cell_size
from rich.text import Span, Text

from ink_tui.humanize import ELLIPSIS, compact_count, cut, cut_length
from ink_tui.session.analysis.turntime import TurnTime, short_duration
from ink_tui.session.conversation.view import Item, Turn, first_text_line
from ink_tui.session.reading.shapes import MISSING, not_a_list
from ink_tui.ui.render import palette
from ink_tui.ui.render.blocks import status_mark
from ink_tui.ui.render.safe import plain

__all__ = [
    "cut_label",
    "first_line",
    "fit_label",
    "item_label",
    "result_label",
    "turn_label",
    "turn_tail",
]

_ITEM_ICONS = {
    "text": ("¶ ", ""),
    "thinking": ("· thinking ", "dim italic"),
    "orphan_result": ("⚠ result with no call ", "error"),
    "compaction": ("⟳ compaction ", "bold warning"),
    "branch_summary": ("⑂ branch summary ", "warning"),
    "thinking_level": ("· thinking → ", "dim"),
    "model_change": ("· model → ", "dim"),
    "session_info": ("· name ", "dim"),
    "label": ("· label ", "dim"),
    "oddity": ("⚠ ", "error"),
}


def first_line(text: str, width: int = 60) -> str:
    """The first line of ``text`` in at most ``width`` cells (cut as :func:`cut_label`)."""
    return cut(first_text_line(text), width, get_character_cell_size)


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


def _label_part(label: str | None) -> Text:
    if not label:
        return Text()
    return plain(f"# {label} · ", f"italic {palette.current.accent}")


def turn_label(turn: Turn, number: int, label: str | None) -> Text:
    """``  3 # label · the prompt's first line``."""
    shown = f"{number:>3} " if number > 0 else "  · "  # unknown while earlier turns load
    if label:
        return Text.assemble(
            (shown, "dim"), _label_part(label), plain(first_line(turn.title), "bold")
        )
    # One Text with two spans (a branch may have 100,000 turns: Text.assemble costs 5x more).
    title = plain(first_line(turn.title)).plain
    end = len(shown)
    return Text(shown + title, spans=[Span(0, end, "dim"), Span(end, end + len(title), "bold")])


def turn_tail(time: TurnTime) -> Text:
    """``  3m04s · 12.3k tok``: how long the turn took and its tokens (kept when cut)."""
    parts = []
    if time.seconds is not None:
        parts.append(short_duration(time.seconds))
    if time.tokens:
        parts.append(f"{compact_count(time.tokens)} tok")
    return Text("  " + " · ".join(parts), style="dim") if parts else Text()


def _item_head(item: Item, label: str | None) -> Text:
    if item.tool is not None:
        return Text.assemble(
            plain(item.tool.name, "bold"),
            " ",
            _label_part(label),
            plain(first_line(item.tool.key_argument, 40), palette.current.argument),
        )
    icon, style = _ITEM_ICONS.get(item.kind, ("", ""))
    style = style.replace("warning", palette.current.warning).replace(
        "error", palette.current.error
    )
    detail = first_line(item.text)
    if item.kind == "compaction":
        record = item.entry.record
        detail = f"({record.get('tokensBefore', '?')} tokens before)"
        odd = not_a_list("retained tail", record.get("retainedTail", MISSING))
        if odd is not None:  # Ink cannot rebuild this context: say so on the row
            detail += f" ⚠ {odd}"
    elif item.kind == "thinking":
        detail = f"({len(item.text)} chars)"
    return Text.assemble(plain(icon, style), _label_part(label), plain(detail, style))


def item_label(
    item: Item, label: str | None, running: dict[str, float] | None = None, now: float = 0.0
) -> tuple[Text, Text]:
    """A row's label as ``(head, tail)``: the tail (a tool's status) is never cut."""
    head = _item_head(item, label)
    if item.tool is None:
        return head, Text()
    return head, Text.assemble(" ", status_mark(item.tool, (running or {}).get(item.key), now))


def result_label(item: Item) -> Text:
    """A tool call's result row: ``↳`` and its output's first line."""
    assert item.tool is not None
    preview = first_line(item.tool.output, 60) or "(empty output)"
    style = palette.current.error if item.tool.status == "error" else "dim"
    return plain(f"↳ {preview}", style)


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
