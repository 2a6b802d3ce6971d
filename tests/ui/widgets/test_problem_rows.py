"""The picker's "only sessions with problems" filter (ui/widgets/problem_rows.py), on the list
alone in a small app: which rows it keeps (a torn tail, dangling calls, a file Ink cannot open or
hides for a reason other than being empty), the note under a row, and what is said when no row
is left."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import ComposeResult
from waiting import wait_for

from ink_tui.catalog import SessionSummary
from ink_tui.catalog.row import EMPTY_REASON
from ink_tui.ui.options import InkAppBase, LaunchOptions
from ink_tui.ui.widgets.problem_rows import FILTER, empty_text, row_note
from ink_tui.ui.widgets.session_list import SessionList

NOW = 1_800_000_000.0


def _summary(name: str, **fields: Any) -> SessionSummary:
    values: dict[str, Any] = {
        "path": Path(f"/s/proj/{name}.jsonl"),
        "file_name": f"{name}.jsonl",
        "project_folder": "proj",
        "mtime": NOW - 7200,
        "size": 100,
        "title": name,
        "listed_by_ink": True,
    }
    values.update(fields)
    return SessionSummary(**values)


SUMMARIES = [
    _summary("fine"),
    _summary("torn", problem="torn tail: line 9 has no newline"),
    _summary("empty", listed_by_ink=False, hidden_reason=EMPTY_REASON),
    _summary("unreadable", listed_by_ink=False, hidden_reason="missing or unsupported header"),
]


class ListApp(InkAppBase):
    def __init__(self) -> None:
        super().__init__(LaunchOptions(Path("/s"), "/s/proj", clock=lambda: NOW))

    def compose(self) -> ComposeResult:
        yield SessionList(id="sessions")

    def on_mount(self) -> None:
        self.query_one(SessionList).set_summaries(SUMMARIES, scope="project")


async def test_the_filter_keeps_the_sessions_check_would_flag() -> None:
    app = ListApp()
    async with app.run_test(size=(100, 10)) as pilot:
        sessions = app.query_one(SessionList)
        await wait_for(pilot, lambda: sessions.row_count == 4, "the rows")
        sessions.set_row_filter(FILTER)
        assert [summary.title for summary in sessions.shown] == ["torn", "unreadable"]
        assert FILTER.status_part(len(sessions.shown)) == (
            "  ·  only sessions with problems: 2  (! shows all)"
        )


def test_the_note_under_a_row_says_why_ink_hides_it_and_the_problem_while_filtering() -> None:
    torn, unreadable = SUMMARIES[1], SUMMARIES[3]
    note = row_note(torn, filtering=True)
    assert note is not None and note.plain == (
        "Problem: torn tail: line 9 has no newline  (ink-tui check / ink-tui repair)"
    )
    assert row_note(torn, filtering=False) is None
    note = row_note(unreadable, filtering=False)
    assert note is not None
    assert note.plain == "Ink's /sessions hides this one: missing or unsupported header"
    assert row_note(None, filtering=True) is None


def test_no_row_left_is_said_with_the_way_back() -> None:
    assert empty_text("calc").plain == (
        "No session matching “calc” has a problem (torn tail, dangling calls, or one Ink cannot"
        " open or hides).\n\n! shows every session again."
    )
    assert empty_text("").plain.startswith("No session has a problem")
