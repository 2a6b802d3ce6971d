"""The search hits alone (ui/widgets/search_results.py), in a small app: hits grouped under one
line per session (how many matched, how many are shown), a subagent's title after its parent's,
each hit's time, role and snippet with the words marked, and only hits can be chosen."""

from __future__ import annotations

from pathlib import Path

from textual.app import App, ComposeResult
from textual.widgets import OptionList
from waiting import wait_for

from ink_tui.catalog.search import SearchHit
from ink_tui.ui.widgets.search_results import SearchResults


def _hit(file: str, entry: str, snippet: str, **fields: object) -> SearchHit:
    start = snippet.find("lint")
    values: dict[str, object] = {
        "session_id": f"{file}-0123456789",
        "file": Path(f"/s/{file}.jsonl"),
        "entry_id": entry,
        "role": "user",
        "timestamp": "2026-03-01T10:15:30Z",
        "snippet": snippet,
        "marks": ((start, start + 4),) if start >= 0 else (),
        "title": f"title of {file}",
        "project": "proj",
        "score": 1.0,
    }
    values.update(fields)
    return SearchHit(**values)  # type: ignore[arg-type]


HITS = [
    _hit("alpha", "e1", "please lint the code", session_hits=3),
    _hit("alpha", "e2", "lint passed", role="assistant", session_hits=3),
    _hit(
        "child",
        "e3",
        "ran lint",
        role="toolResult",
        child=True,
        parent_file=Path("/s/alpha.jsonl"),
        parent_title="title of alpha",
    ),
]


class ResultsApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.chosen: list[SearchHit | None] = []

    def compose(self) -> ComposeResult:
        yield SearchResults(id="results")

    def on_mount(self) -> None:
        results = self.query_one(SearchResults)
        results.show(HITS, show_project=True)
        results.focus()

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        self.chosen.append(self.query_one(SearchResults).chosen)


def _lines(results: SearchResults) -> list[str]:
    return [results.render_line(y).text.rstrip() for y in range(results.option_count)]


async def test_hits_are_grouped_under_their_sessions_line() -> None:
    app = ResultsApp()
    async with app.run_test(size=(70, 10)) as pilot:
        results = app.query_one(SearchResults)
        await wait_for(pilot, lambda: results.option_count == 5, "the results")
        assert _lines(results) == [
            "title of alpha  proj · alpha-01 · 2 of 3 hits",
            "  2026-03-01 10:15  user      please lint the code",
            "  2026-03-01 10:15  assistant lint passed",
            "title of alpha ▸ task ▸ title of child  proj · child-01 · 1 hit",
            "  2026-03-01 10:15  toolResult ran lint",
        ]
        line = results.render_line(1)
        assert [seg.text for seg in line if seg.style and seg.style.reverse] == ["lint"]


async def test_the_cursor_moves_over_hits_only_and_enter_chooses_one() -> None:
    app = ResultsApp()
    async with app.run_test(size=(70, 10)) as pilot:
        results = app.query_one(SearchResults)
        await wait_for(pilot, lambda: results.option_count == 5, "the results")
        assert results.chosen == HITS[0]  # the first hit, not its session's line
        await pilot.press("down", "down")  # over the second session's line
        assert results.chosen == HITS[2]
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.chosen, "a hit chosen")
        assert app.chosen == [HITS[2]]
        await pilot.press("up")
        assert results.chosen == HITS[1]


async def test_without_the_project_and_with_nothing_found() -> None:
    app = ResultsApp()
    async with app.run_test(size=(70, 10)) as pilot:
        results = app.query_one(SearchResults)
        results.show(HITS[:1], show_project=False)
        await wait_for(pilot, lambda: results.option_count == 2, "one hit")
        assert _lines(results)[0] == "title of alpha  alpha-01 · 1 of 3 hits"
        results.show([], show_project=False)
        await wait_for(pilot, lambda: results.option_count == 0, "no hit")
        assert results.chosen is None
