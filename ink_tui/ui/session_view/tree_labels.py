"""The labels of the session tree's rows: a turn (its number, label and prompt's first line) and
an item under it (a tool call and its status, text, thinking, a compaction…), a call's result.

Labels are session text: built with :func:`~ink_tui.ui.render.safe.plain`, never markup."""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.text import Span, Text

from ink_tui.humanize import compact_count
from ink_tui.session.analysis.turntime import TurnTime, short_duration, turn_time
from ink_tui.session.conversation.view import Item, Turn
from ink_tui.session.reading.shapes import MISSING, not_a_list
from ink_tui.ui.render import palette
from ink_tui.ui.render.blocks import status_mark
from ink_tui.ui.render.cut import first_line
from ink_tui.ui.render.safe import plain

__all__ = ["MATCH_MARK", "RowLabels", "item_label", "result_label", "turn_label", "turn_tail"]

MATCH_MARK = "◆ "  # before the label of a row the search matched

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


@dataclass(slots=True)
class RowLabels:
    """What the labels of a branch's rows say besides their rows: their labels (``# label``),
    the calls still running (since when, at ``now``), the rows the search matched (``◆``), the
    turns' numbers and times."""

    row_labels: dict[str, str] = field(default_factory=dict)  # row key -> label
    running: dict[str, float] = field(default_factory=dict)  # call key -> running since
    now: float = 0.0
    matches: frozenset[str] = frozenset()
    numbers: dict[str, int] = field(default_factory=dict)  # turn key -> its number
    times: dict[str, TurnTime] = field(default_factory=dict)  # turn key -> measured

    def turn_time(self, turn: Turn) -> TurnTime:
        """How long ``turn`` took and its tokens (measured once, when first asked)."""
        time = self.times.get(turn.key)
        if time is None:
            time = self.times[turn.key] = turn_time(turn)
        return time

    def turn(self, turn: Turn) -> tuple[Text, int]:
        """A turn's label and the length of its tail (its time and tokens, never cut)."""
        head = turn_label(turn, self.numbers.get(turn.key, 0), self.row_labels.get(turn.key))
        return self._marked(turn.key, head, turn_tail(self.turn_time(turn)))

    def item(self, item: Item) -> tuple[Text, int]:
        """An item's label and the length of its tail (a call's status, never cut)."""
        label = self.row_labels.get(item.key)
        return self._marked(item.key, *item_label(item, label, self.running, self.now))

    def _marked(self, key: str, head: Text, tail: Text) -> tuple[Text, int]:
        if key in self.matches:
            head = Text.assemble((MATCH_MARK, f"bold {palette.current.warning}"), head)
        return (Text.assemble(head, tail) if tail else head), len(tail)
