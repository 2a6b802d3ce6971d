"""The picker's filter "only sessions with problems" (``!``): which rows, and what is said.

A row has a problem when ``ink-tui check`` would flag its session, as far as the listing sees
(:attr:`ink_tui.catalog.row.SessionSummary.has_problem`): Ink cannot open it or hides it for a
reason other than being empty, its tail is torn, or the calls of its last turn dangle. A pending
call deeper in the branch is ``check``'s to find (``ink-tui check --all`` lists them all). A
session Ink is writing now may show a torn tail or a dangling call for a moment: its row says
``● live``.
"""

from __future__ import annotations

from typing import Final

from rich.text import Text

from ink_tui.catalog import SessionSummary
from ink_tui.ui.keymap import key_of
from ink_tui.ui.render.safe import plain
from ink_tui.ui.widgets.row_filter import RowFilter

__all__ = ["FILTER", "FILTER_NAME", "empty_text", "has_problem", "row_note"]

FILTER_NAME: Final = "only sessions with problems"


def has_problem(summary: SessionSummary) -> bool:
    """The filter's test (a function, so the list can hold it)."""
    return summary.has_problem


def empty_text(query: str) -> Text:
    """What the picker says when the filter leaves no row."""
    matching = f" matching “{query}”" if query else ""
    return plain(
        f"No session{matching} has a problem (torn tail, dangling calls, or one Ink cannot "
        "open or hides).\n\n! shows every session again."
    )


FILTER: Final = RowFilter(FILTER_NAME, key_of("problems"), has_problem, empty_text)


def row_note(summary: SessionSummary | None, *, filtering: bool) -> Text | None:
    """The note under the list for the highlighted row: why Ink hides it, and (while the
    filter is on) the problem ``check`` would find; ``None`` when there is nothing to say."""
    if summary is None:
        return None
    lines = []
    if summary.hidden_reason is not None:
        lines.append(f"Ink's /sessions hides this one: {summary.hidden_reason}")
    if filtering and summary.problem is not None:
        lines.append(f"Problem: {summary.problem}  (ink-tui check / ink-tui repair)")
    return plain("\n".join(lines)) if lines else None
