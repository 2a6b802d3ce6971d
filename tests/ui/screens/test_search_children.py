"""The search screen finds text said inside a subagent session: its hits sit under the breadcrumb
``<parent title> ▸ task ▸ <child title>``, and Enter opens it within its parent (issue 13,
item 1: a part)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from subagent_family import CHILD_PROMPT, CWD, write_family
from textual.message import Message
from waiting import wait_for, workers_finished

from ink_tui.catalog.index import CatalogIndex, update_index
from ink_tui.catalog.search import GONE_PARENT
from ink_tui.ui.messages import OpenSession
from ink_tui.ui.screens.picker import PickerScreen
from ink_tui.ui.screens.search import SearchScreen
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.widgets.search_results import SearchResults
from ink_tui.ui.widgets.session_list import SessionList

WORD = "zanzibarquux"
PARENT_CUT = "ask a reviewer about the ledg…"  # the parent's title in a breadcrumb: 30 characters


async def _search(pilot: Any, query: str) -> SearchScreen:
    app = pilot.app
    await wait_for(pilot, workers_finished(app), "the picker")
    assert isinstance(app.screen, PickerScreen)
    await pilot.press("s")
    await wait_for(pilot, lambda: isinstance(app.screen, SearchScreen), "the search screen")
    screen = app.screen
    await pilot.press(*query)
    await wait_for(pilot, lambda: screen.answered == query, f"the hits for {query!r}")
    return screen


def _lines(results: SearchResults) -> list[str]:
    return [str(results.get_option_at_index(i).prompt) for i in range(results.option_count)]


def _catch_opens(screen: SearchScreen) -> list[OpenSession]:
    """Every OpenSession the screen posts (then handled by the app as usual)."""
    caught: list[OpenSession] = []
    post = screen.post_message

    def spy(message: Message) -> bool:
        if isinstance(message, OpenSession):
            caught.append(message)
        return post(message)

    screen.post_message = spy  # type: ignore[method-assign]
    return caught


async def test_a_childs_hit_shows_the_breadcrumb_and_enter_opens_it_within_its_parent(
    tmp_path: Path, make_app: Any
) -> None:
    base = tmp_path / "sessions"
    family = write_family(base)
    app = make_app(sessions_dir=base, cwd=CWD)
    async with app.run_test(size=(160, 36)) as pilot:
        screen = await _search(pilot, WORD)
        results = screen.query_one(SearchResults)
        lines = _lines(results)
        assert lines[0].startswith(f"{PARENT_CUT} ▸ task ▸ {CHILD_PROMPT} ")
        assert WORD in lines[1]
        assert results.chosen is not None and results.chosen.file == family.child
        caught = _catch_opens(screen)
        await pilot.press("enter")
        await wait_for(pilot, lambda: caught, "the request to open the match")
        [opened] = caught
        assert opened.path == family.child and opened.within == family.parent
        assert opened.stack and opened.search == WORD
        assert opened.entry_id == results.chosen.entry_id
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, SessionScreen) and app.screen.path == family.child,
            "the subagent session, opened",
        )


async def test_a_child_whose_parent_is_gone_opens_alone(tmp_path: Path, make_app: Any) -> None:
    base = tmp_path / "sessions"
    family = write_family(base)
    family.parent.unlink()
    app = make_app(sessions_dir=base, cwd=CWD)
    async with app.run_test(size=(160, 36)) as pilot:
        screen = await _search(pilot, WORD)
        results = screen.query_one(SearchResults)
        assert _lines(results)[0].startswith(f"{GONE_PARENT} ▸ task ▸ {CHILD_PROMPT} ")
        caught = _catch_opens(screen)
        await pilot.press("enter")
        await wait_for(pilot, lambda: caught, "the request to open the match")
        assert caught[0].path == family.child and caught[0].within is None


async def test_the_picker_never_lists_the_indexed_children(tmp_path: Path, make_app: Any) -> None:
    base = tmp_path / "sessions"
    family = write_family(base)
    other = write_family(base, cwd="/home/bo/elsewhere")
    with CatalogIndex.open() as index:  # the app's own index, holding both children now
        assert update_index(index, base, None).children == 2
    app = make_app(sessions_dir=base, cwd=CWD)
    async with app.run_test(size=(160, 36)) as pilot:
        await wait_for(pilot, workers_finished(app), "the picker's rows")
        assert [row.path for row in app.screen.query_one(SessionList).shown] == [family.parent]
        await pilot.press("tab")  # every project
        await wait_for(
            pilot,
            lambda: len(app.screen.query_one(SessionList).shown) >= 2 and workers_finished(app)(),
            "every project's rows",
        )
        shown = {row.path for row in app.screen.query_one(SessionList).shown}
        assert shown == {family.parent, other.parent}
