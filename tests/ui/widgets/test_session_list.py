"""The picker's list alone (ui/widgets/session_list.py), in a small app on a pinned clock: one
row per session (title, age, counts, model), the live and hidden marks, the fuzzy filter and a
row filter, the cursor kept on its session, Enter naming the session, and columns dropped when
narrow."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.text import Text
from textual.app import ComposeResult
from waiting import wait_for

from ink_tui.catalog import SessionSummary
from ink_tui.session.rules.modelref import ModelRef
from ink_tui.ui.options import InkAppBase, LaunchOptions
from ink_tui.ui.widgets.row_filter import RowFilter
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
    def __init__(self, summaries: list[SessionSummary] = SUMMARIES) -> None:
        super().__init__(LaunchOptions(Path("/s"), "/s/proj", clock=lambda: NOW))
        self.summaries = summaries
        self.opened: list[str] = []

    def compose(self) -> ComposeResult:
        yield SessionList(id="sessions")

    def on_mount(self) -> None:
        sessions = self.query_one(SessionList)
        sessions.set_summaries(self.summaries, scope="project")
        sessions.focus()

    def on_session_list_selected(self, message: SessionList.Selected) -> None:
        self.opened.append(str(message.summary.path))


def _rows(sessions: SessionList) -> list[str]:
    return [
        " ".join(cell.plain for cell in sessions.row_cells(i)) for i in range(sessions.row_count)
    ]


def _screen_lines(sessions: SessionList) -> list[str]:
    return [sessions.render_line(y).text.rstrip() for y in range(sessions.size.height)]


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
        header, *lines = _screen_lines(sessions)  # as drawn: the column names, then the rows
        assert header.split() == ["title", "age", "msgs", "model", "br", "size"]
        assert lines[0].split() == [
            "●", "live", "fix", "the", "parser", "5s", "ago", "12",
            "anthropic/claude-sonnet", "1", "2.0", "KB",
        ]  # fmt: skip
        assert lines[3:] == ["", "", "", "", "", ""]  # nothing under the last row


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
        listed = RowFilter("listed", "!", lambda summary: summary.listed_by_ink, Text)
        sessions.set_row_filter(listed)
        assert _titles(sessions) == ["fix the parser", "write the docs"]
        sessions.set_summaries(
            [*SUMMARIES, _summary("new", "hidden too", 9, listed_by_ink=False)], scope="project"
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
        sessions.set_summaries([newest, *SUMMARIES], scope="project")  # a refresh
        assert sessions.highlighted.title == "write the docs"
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.opened, "a session opened")
        assert app.opened == ["/s/proj/older.jsonl"]


@pytest.mark.parametrize(
    ("width", "columns"),
    [
        (100, ["title", "age", "msgs", "model", "br"]),  # the size goes first
        (80, ["title", "age", "msgs", "br"]),  # then the model
        (60, ["title", "age", "msgs"]),  # then the branches (the project is not shown)
    ],
)
async def test_a_narrow_list_drops_size_model_and_branches_before_the_title(
    width: int, columns: list[str]
) -> None:
    app = ListApp()
    async with app.run_test(size=(width, 10)) as pilot:
        sessions = app.query_one(SessionList)
        await wait_for(pilot, lambda: sessions.row_count == 3, "the rows")
        header, *lines = _screen_lines(sessions)
        assert header.split() == columns  # the state column's name is blank
        assert sessions.column_keys()[0] == "state"
        assert _rows(sessions)[1].startswith(" write the docs 2h ago 15.0k")
        assert lines[1].split()[:3] == ["write", "the", "docs"]


def _many(count: int) -> list[SessionSummary]:
    return [_summary(f"s{n}", f"session number {n}", HOUR + n) for n in range(count)]


async def test_a_thousand_sessions_draw_only_the_lines_on_screen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Line-API list: a frame draws the rows it shows (a DataTable built every cell of every
    row first), and moving the cursor draws the lines it changes, not the list again."""
    drawn: list[str] = []
    cells = SessionList._cells

    def counted(self: SessionList, summary: SessionSummary, now: float) -> object:
        drawn.append(summary.title)
        return cells(self, summary, now)

    monkeypatch.setattr(SessionList, "_cells", counted)
    app = ListApp(_many(1_000))
    async with app.run_test(size=(120, 12)) as pilot:
        sessions = app.query_one(SessionList)
        await wait_for(pilot, lambda: sessions.row_count == 1_000 and drawn, "the rows drawn")
        assert 0 < len(set(drawn)) <= 12
        drawn.clear()
        await pilot.press("down")
        assert set(drawn) <= {"session number 0", "session number 1"}


async def test_the_column_names_stay_while_the_rows_scroll() -> None:
    app = ListApp(_many(1_000))
    async with app.run_test(size=(120, 12)) as pilot:
        sessions = app.query_one(SessionList)
        await wait_for(pilot, lambda: sessions.row_count == 1_000, "the rows")
        await pilot.press("end")
        assert sessions.highlighted is not None
        assert sessions.highlighted.title == "session number 999"
        header, *lines = _screen_lines(sessions)
        assert header.split()[:3] == ["title", "age", "msgs"]
        assert lines[-1].split()[:3] == ["session", "number", "999"]  # the last row in sight
        await pilot.press("pageup")
        assert _screen_lines(sessions)[0] == header
        await pilot.click(SessionList, offset=(5, 0))  # the header is no row
        await pilot.click(SessionList, offset=(5, 1))
        top = sessions.highlighted
        assert top is not None and _screen_lines(sessions)[1].split()[2] == top.title.split()[2]
