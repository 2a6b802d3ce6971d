"""The picker's list alone (ui/widgets/session_list.py), in a small app on a pinned clock: one
row per session (title, age, counts, model), the live and hidden marks, the fuzzy filter and a
row filter, the cursor kept on its session, Enter naming the session, and columns dropped when
narrow."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import ComposeResult
from textual.widgets import DataTable
from waiting import wait_for

from ink_tui.catalog import SessionSummary
from ink_tui.session.rules.modelref import ModelRef
from ink_tui.ui.options import InkAppBase, LaunchOptions
from ink_tui.ui.widgets.session_list import SessionList

NOW = 1_800_000_000.0
HOUR = 3600.0


def _summary(name: str, title: str, age: float, **fields: object) -> SessionSummary:
    values: dict[str, object] = {
        "path": Path(f"/s/proj/{name}.jsonl"),
        "file_name": f"{name}.jsonl",
        "project_folder": "proj",
        "mtime": NOW - age,
        "size": 2048,
        "id": f"{name}-id",
        "title": title,
        "message_count": 12,
        "leaf_count": 1,
        "model": ModelRef("anthropic", "claude-sonnet"),
        "listed_by_ink": True,
    }
    values.update(fields)
    return SessionSummary(**values)  # type: ignore[arg-type]


SUMMARIES = [
    _summary("fresh", "fix the parser", 5),  # written 5 s ago: live
    _summary("older", "write the docs", 2 * HOUR, message_count=15_000),
    _summary("gone", "refactor the cache", 3 * 24 * HOUR, listed_by_ink=False),
]


class ListApp(InkAppBase):
    def __init__(self) -> None:
        super().__init__(LaunchOptions(Path("/s"), "/s/proj", clock=lambda: NOW))
        self.opened: list[str] = []

    def compose(self) -> ComposeResult:
        yield SessionList(id="sessions")

    def on_mount(self) -> None:
        sessions = self.query_one(SessionList)
        sessions.set_summaries(SUMMARIES, show_project=False)
        sessions.focus()

    def on_data_table_row_selected(self, message: DataTable.RowSelected) -> None:
        self.opened.append(str(message.row_key.value))


def _rows(sessions: SessionList) -> list[str]:
    return [
        " ".join(str(cell) for cell in sessions.get_row_at(i)) for i in range(sessions.row_count)
    ]


def _titles(sessions: SessionList) -> list[str]:
    return [summary.title for summary in sessions.shown]


async def test_each_session_is_a_row_with_its_marks_age_and_counts() -> None:
    app = ListApp()
    async with app.run_test(size=(120, 10)) as pilot:
        sessions = app.query_one(SessionList)
        await wait_for(pilot, lambda: sessions.row_count == 3, "the rows")
        assert _rows(sessions) == [
            "● live fix the parser 5s ago 12 anthropic/claude-sonnet 1 2.0 KB",
            " write the docs 2h ago 15.0k anthropic/claude-sonnet 1 2.0 KB",
            "hidden refactor the cache 3d ago 12 anthropic/claude-sonnet 1 2.0 KB",
        ]


async def test_typing_a_filter_ranks_the_matches_and_a_row_filter_keeps_its_rows() -> None:
    app = ListApp()
    async with app.run_test(size=(120, 10)) as pilot:
        sessions = app.query_one(SessionList)
        await wait_for(pilot, lambda: sessions.row_count == 3, "the rows")
        sessions.set_query("docs")
        assert _titles(sessions) == ["write the docs"]
        sessions.set_query("the")
        assert len(_titles(sessions)) == 3
        sessions.set_query("")
        sessions.set_row_filter(lambda summary: summary.listed_by_ink)
        assert _titles(sessions) == ["fix the parser", "write the docs"]
        sessions.set_summaries(
            [*SUMMARIES, _summary("new", "hidden too", 9, listed_by_ink=False)], show_project=False
        )
        assert _titles(sessions) == ["fix the parser", "write the docs"]  # kept across new rows
        sessions.set_row_filter(None)
        assert len(_titles(sessions)) == 4


async def test_the_cursor_stays_on_its_session_and_enter_opens_it() -> None:
    app = ListApp()
    async with app.run_test(size=(120, 10)) as pilot:
        sessions = app.query_one(SessionList)
        await wait_for(pilot, lambda: sessions.row_count == 3, "the rows")
        await pilot.press("down")
        assert sessions.highlighted is not None and sessions.highlighted.title == "write the docs"
        newest = _summary("newest", "a brand new session", 1)
        sessions.set_summaries([newest, *SUMMARIES], show_project=False)  # a refresh
        assert sessions.highlighted.title == "write the docs"
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.opened, "a session opened")
        assert app.opened == ["/s/proj/older.jsonl"]


@pytest.mark.parametrize(
    ("width", "columns"),
    [
        (100, ["", "title", "age", "msgs", "model", "br"]),  # the size goes first
        (80, ["", "title", "age", "msgs", "br"]),  # then the model
        (60, ["", "title", "age", "msgs"]),  # then the branches (the project is not shown)
    ],
)
async def test_a_narrow_list_drops_size_model_and_branches_before_the_title(
    width: int, columns: list[str]
) -> None:
    app = ListApp()
    async with app.run_test(size=(width, 10)) as pilot:
        sessions = app.query_one(SessionList)
        await wait_for(pilot, lambda: sessions.row_count == 3, "the rows")
        assert [str(column.label) for column in sessions.columns.values()] == columns
        assert _rows(sessions)[1].startswith(" write the docs 2h ago 15.0k")
