"""The picker's columns: which there are, how wide, which go first when the list is narrow, and
the rules for the rows they show (live, the fuzzy ranking). Pure: no widget, no drawing.

Each fixed column is as wide as the widest text it can hold (counts are abbreviated to at most
five characters, ``49.9k``), so no number or age is ever cut. When the list is narrow, the less
important columns go first (size, model, branches, project, machine), then the title shrinks.
The state column (``● live``, ``hidden``) is there only while a row shown needs it, and so is
the secrets column (how many secrets a session holds, as the index counted them). The machine
column is there in the scope of every machine only.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from textual.fuzzy import Matcher

from ink_tui.catalog import SessionSummary
from ink_tui.humanize import COUNT_WIDTH
from ink_tui.session.writing.ownwrites import LIVE_SECONDS, own_writes

__all__ = [
    "CELL_PADDING",
    "COLUMNS",
    "HIDDEN_MARK",
    "LIVE_MARK",
    "NUMERIC",
    "fit_columns",
    "fuzzy_ranked",
    "is_live",
]

LIVE_MARK: Final = "● live"
HIDDEN_MARK: Final = "hidden"

COLUMNS: Final = (
    ("state", "", 6),
    ("title", "title", 0),
    ("machine", "machine", 14),
    ("project", "project", 24),
    ("age", "age", 8),
    ("messages", "msgs", COUNT_WIDTH),
    ("model", "model", 28),
    ("branches", "br", COUNT_WIDTH - 1),
    ("secrets", "secrets", 7),
    ("size", "size", 9),
)
"""(key, header, width); the title takes what is left. Widths hold every value whole: the state
marks are 6 wide, "12mo ago" 8, "1023.9 KB" 9, counts ``COUNT_WIDTH``."""
NUMERIC: Final = frozenset({"messages", "branches", "secrets", "size"})  # right-aligned
CELL_PADDING: Final = 1  # a space each side of every cell
MIN_TITLE: Final = 28  # columns are left out (in DROP_ORDER) to keep this much for the title
FLOOR_TITLE: Final = 6  # below that the title still gets this much: the age and counts stay
DROP_ORDER: Final = ("size", "model", "branches", "secrets", "project", "machine")  # when narrow


def is_live(summary: SessionSummary, now: float) -> bool:
    """Something other than ink-tui changed the file in the last
    :data:`~ink_tui.session.writing.ownwrites.LIVE_SECONDS` seconds (a running Ink writes it):
    ink-tui's own rename or label does not count. Reads no file: the ledger of ink-tui's writes
    is read in the row workers (:data:`ink_tui.session.writing.ownwrites.own_writes`)."""
    quiet = own_writes.quiet_since(summary.path, summary.mtime, summary.size)
    return now - quiet < LIVE_SECONDS


def fit_columns(
    width: int,
    *,
    show_project: bool,
    needs_state: bool,
    show_machine: bool = False,
    show_secrets: bool = False,
) -> tuple[int, frozenset[str]]:
    """For a list ``width`` cells wide: the title's width, and the columns left out so that it
    gets at least its minimum."""
    dropped = set() if show_project else {"project"}
    if not show_secrets:
        dropped.add("secrets")
    if not show_machine:
        dropped.add("machine")
    if not needs_state:
        dropped.add("state")
    for candidate in (None, *DROP_ORDER):
        if candidate is not None:
            dropped.add(candidate)
        used = sum(
            fixed + 2 * CELL_PADDING for key, _, fixed in COLUMNS if fixed and key not in dropped
        )
        title = width - used - 2 * CELL_PADDING
        if title >= MIN_TITLE:
            break
    return max(FLOOR_TITLE, title), frozenset(dropped)


def fuzzy_ranked(summaries: Iterable[SessionSummary], query: str) -> list[SessionSummary]:
    """The sessions ``query`` matches (by title, id or file name, project folder, machine), best
    first, ties in their order."""
    matcher = Matcher(query)
    scored = [
        (
            max(
                matcher.match(summary.title),
                matcher.match(summary.id or summary.file_name),
                matcher.match(summary.project_folder),
                matcher.match(summary.machine or ""),
                matcher.match(summary.local_project or ""),
            ),
            index,
            summary,
        )
        for index, summary in enumerate(summaries)
    ]
    ranked = [item for item in scored if item[0] > 0]
    ranked.sort(key=lambda item: (-item[0], item[1]))
    return [summary for _, _, summary in ranked]
