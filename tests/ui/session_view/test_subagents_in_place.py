"""Subagent sessions in place (issue 13, item 1), on the family in ``tests/data/subagents``: a
parent whose ``task`` calls launched a finished child, a child that is gone, and a child still
running under a live lease. Expanding a call shows the child's turns under it; Enter on one of
them opens the child there; a running child's rows grow, and opened, it is followed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from testdata import Family, copy_family, task_record
from waiting import wait_for, workers_finished

from ink_tui.ui.messages import OpenSession
from ink_tui.ui.screens.search import SearchScreen
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.session_view.tree import SessionTree
from ink_tui.ui.session_view.tree_rows import walk
from ink_tui.ui.widgets.search_results import SearchResults

CWD = "/home/ada/code/calc-kit"
DONE_CALL, MISSING_CALL, RUNNING_CALL = "a1:1", "a3:0", "a5:0"


def _labels(node: Any) -> list[str]:
    """The plain labels of every row under ``node`` (a row, or the rows of a tree), depth
    first (collapsed ones too)."""
    return [row.text for row in walk(getattr(node, "children", node))]


async def _parent_view(pilot: Any, family: Family) -> tuple[SessionScreen, SessionTree]:
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, SessionScreen), "the parent's view")
    screen = app.screen
    tree = screen.query_one(SessionTree)
    await wait_for(pilot, lambda: tree.at_last_row, "the rows")
    assert screen.path == family.parent
    return screen, tree


async def _expand(pilot: Any, screen: SessionScreen, tree: SessionTree, key: str) -> Any:
    """Put the cursor on call ``key``, press ``l``, and wait until the child was read."""
    screen.reveal(key)
    await wait_for(pilot, lambda: tree.cursor_key == key, f"the cursor on {key}")
    call = tree.cursor
    await pilot.press("l")
    await wait_for(
        pilot,
        lambda: any(text.startswith("⤷") and "reading" not in text for text in _labels(call)),
        "the subagent's rows",
    )
    return call


async def _child_view(
    pilot: Any, path: Path, on_row: str | None = None
) -> tuple[SessionScreen, SessionTree]:
    """The subagent's own view of ``path``, shown (with its cursor on ``on_row``, if given)."""
    app = pilot.app
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, SessionScreen) and app.screen.path == path,
        "the subagent's own view",
    )
    view = app.screen
    tree = view.query_one(SessionTree)
    if on_row is not None:
        await wait_for(
            pilot,
            lambda: tree.cursor is not None and tree.cursor_key == on_row,
            f"the cursor on {on_row}",
        )
    return view, tree


def _append(path: Path, *records: dict[str, Any]) -> None:
    with path.open("ab") as stream:
        for record in records:
            stream.write(orjson.dumps(record) + b"\n")


def _bash_result_and_answer() -> tuple[dict[str, Any], dict[str, Any]]:
    result = {
        "toolCallId": "sh_1",
        "toolName": "bash",
        "content": "2 failed: test_mean_empty, test_huge",
        "isError": False,
    }
    answer = {"role": "assistant", "blocks": [{"type": "text", "text": "Two slow tests fail."}]}
    return (
        {
            "type": "message",
            "id": "cb3",
            "parentId": "cb2",
            "timestamp": "2026-11-20T09:06:00.000Z",
            "message": {"role": "toolResult", "results": [result]},
        },
        {
            "type": "message",
            "id": "cb4",
            "parentId": "cb3",
            "timestamp": "2026-11-20T09:06:05.000Z",
            "message": answer,
        },
    )


async def test_a_finished_child_shows_in_place_and_enter_opens_it_on_the_row(
    tmp_path: Path, make_app: Any
) -> None:
    family = copy_family(tmp_path / "sessions")
    app = make_app(sessions_dir=tmp_path / "sessions", cwd=CWD, open_path=family.parent)
    async with app.run_test(size=(120, 40)) as pilot:
        screen, tree = await _parent_view(pilot, family)
        call = await _expand(pilot, screen, tree, DONE_CALL)
        rows = _labels(call)
        assert rows[0].startswith("↳ mean() fails on an empty list")  # the call's result first
        assert rows[1] == "⤷ subagent c41a0000 · 2 turns · Enter opens it"
        assert rows[2].strip().startswith("1 Review calc/stats.py for edge cases")
        assert any("read" in text and "calc/stats.py" in text for text in rows)
        assert "Nothing else: floats and huge lists are fine." in rows[-1]
        second_turn = next(n for n in call.children if n.text.strip().startswith("2 "))
        tree.move_to(second_turn)
        await wait_for(pilot, lambda: tree.cursor is second_turn, "the child's 2nd turn")
        await pilot.press("enter")
        child_view, _ = await _child_view(pilot, family.done, "ca5:turn")
        header = str(child_view.query_one("#session-header").render())
        assert header.startswith("Get a review of the stats cha… ▸ task ▸ Review calc/stat")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen, "back in the parent")
        assert tree.cursor is second_turn


async def test_a_child_that_is_gone_says_so_in_place_and_on_enter(
    tmp_path: Path, make_app: Any
) -> None:
    family = copy_family(tmp_path / "sessions")
    app = make_app(sessions_dir=tmp_path / "sessions", cwd=CWD, open_path=family.parent)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        screen, tree = await _parent_view(pilot, family)
        call = await _expand(pilot, screen, tree, MISSING_CALL)
        assert "⤷ subagent c41c0000 is not in children/" in _labels(call)[1]
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: any(family.missing_id in str(n.message) for n in app._notifications),
            "the notice naming the child",
        )
        assert app.screen is screen


async def test_a_running_child_grows_in_place(tmp_path: Path, make_app: Any) -> None:
    family = copy_family(tmp_path / "sessions")
    app = make_app(sessions_dir=tmp_path / "sessions", cwd=CWD, open_path=family.parent)
    async with app.run_test(size=(120, 40)) as pilot:
        screen, tree = await _parent_view(pilot, family)
        call = await _expand(pilot, screen, tree, RUNNING_CALL)
        rows = _labels(call)
        assert rows[0] == "⤷ subagent c41b0000 · ● running · 1 turn so far"
        assert not any("Two slow tests fail" in text for text in rows)
        first_turn = call.children[1]
        tree.move_to(first_turn)
        await pilot.press("l")  # the child's first turn, opened, the cursor on it
        await wait_for(pilot, lambda: first_turn.expanded, "the child's turn opened")
        _append(family.running, *_bash_result_and_answer())
        screen.panes.poll_subagents()  # what the timer does every POLL_SECONDS
        await wait_for(
            pilot,
            lambda: any("Two slow tests fail" in text for text in _labels(call)),
            "the child's new rows",
        )
        assert sum(text.startswith("⤷") for text in _labels(call)) == 1  # replaced, not added
        turn_again = call.children[1]
        assert turn_again is not first_turn and turn_again.text.strip().startswith("1 ")
        assert turn_again.expanded and tree.cursor is turn_again  # as they were


async def test_a_child_with_a_stale_lease_and_no_result_is_stopped(
    tmp_path: Path, make_app: Any
) -> None:
    family = copy_family(tmp_path / "sessions", live=False)
    app = make_app(sessions_dir=tmp_path / "sessions", cwd=CWD, open_path=family.parent)
    async with app.run_test(size=(120, 40)) as pilot:
        screen, tree = await _parent_view(pilot, family)
        call = await _expand(pilot, screen, tree, RUNNING_CALL)
        assert _labels(call)[0] == "⤷ subagent c41b0000 · 1 turn · stopped without a result"


async def test_enter_on_a_running_call_opens_the_child_following(
    tmp_path: Path, make_app: Any
) -> None:
    family = copy_family(tmp_path / "sessions")
    app = make_app(sessions_dir=tmp_path / "sessions", cwd=CWD, open_path=family.parent)
    async with app.run_test(size=(120, 40)) as pilot:
        screen, tree = await _parent_view(pilot, family)
        screen.reveal(RUNNING_CALL)
        await wait_for(pilot, lambda: tree.cursor_key == RUNNING_CALL, "on the call")
        await pilot.press("enter")
        child_view, child_tree = await _child_view(pilot, family.running)
        await wait_for(pilot, lambda: child_view.live.following, "following the child")
        _append(family.running, *_bash_result_and_answer())
        await wait_for(
            pilot,
            lambda: any("Two slow tests fail" in text for text in _labels(child_tree.top_rows)),
            "what the child wrote, shown as it arrives",
        )


async def test_a_hit_inside_a_child_opens_over_its_parent_on_the_task_call(
    tmp_path: Path, make_app: Any
) -> None:
    """What a search hit inside a subagent asks (OpenSession ``within`` its parent): the parent
    opens on the call that launched the child, the child over it on the hit; Esc goes back up."""
    family = copy_family(tmp_path / "sessions")
    app = make_app(sessions_dir=tmp_path / "sessions", cwd=CWD)
    async with app.run_test(size=(120, 40)) as pilot:
        picker = app.screen
        hit = OpenSession(
            family.done, entry_id="ca4", search="zanzibar", stack=True, within=family.parent
        )
        app.post_message(hit)
        child_view, _ = await _child_view(pilot, family.done, "ca4:0")  # on the hit
        assert "▸ task ▸" in str(child_view.query_one("#session-header").render())
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, SessionScreen), "the parent")
        parent_view = app.screen
        assert parent_view.path == family.parent
        assert parent_view.query_one(SessionTree).cursor_key == DONE_CALL
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is picker, "back where the search was")


async def test_a_call_answered_while_following_reads_its_child_again(
    tmp_path: Path, make_app: Any
) -> None:
    family = copy_family(tmp_path / "sessions", live=False)
    app = make_app(sessions_dir=tmp_path / "sessions", cwd=CWD, open_path=family.parent)
    async with app.run_test(size=(120, 40)) as pilot:
        screen, tree = await _parent_view(pilot, family)
        call = await _expand(pilot, screen, tree, RUNNING_CALL)
        assert _labels(call)[0].endswith("stopped without a result")
        await pilot.press("f")
        await wait_for(pilot, lambda: screen.live.following, "following the parent")
        record = task_record(childId="c41b0000-0000-4000-8000-00000000000b")
        result = {
            "toolCallId": "task_3",
            "toolName": "task",
            "content": "Two slow tests fail.",
            "isError": False,
            "taskRecord": record,
        }
        message = {"role": "toolResult", "results": [result]}
        _append(
            family.parent,
            {"type": "message", "id": "r3", "parentId": "a5", "timestamp": "x", "message": message},
        )
        await wait_for(
            pilot,
            lambda: "⤷ subagent c41b0000 · 1 turn · Enter opens it" in _labels(call),
            "the subagent read again, finished",
        )
        assert _labels(call)[0] == "↳ Two slow tests fail."  # the result's row comes first


async def test_search_finds_the_family_s_child_and_opens_it_in_place(
    tmp_path: Path, make_app: Any
) -> None:
    """From the picker: `s`, a word said only inside the finished subagent, Enter: the parent
    opens on the task call, the subagent over it on the hit; Esc, Esc back to the results."""
    family = copy_family(tmp_path / "sessions")
    app = make_app(sessions_dir=tmp_path / "sessions", cwd=CWD)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, workers_finished(app), "the picker")
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, SearchScreen), "the search screen")
        search = app.screen
        await pilot.press(*"zanzibar")
        await wait_for(pilot, lambda: search.answered == "zanzibar", "the hits")
        results = search.query_one(SearchResults)
        heading = str(results.get_option_at_index(0).prompt)
        assert heading.startswith("Get a review of the stats cha… ▸ task ▸ Review calc/stats.py")
        await pilot.press("enter")
        child_view, _ = await _child_view(pilot, family.done, "ca4:0")
        assert "▸ task ▸" in str(child_view.query_one("#session-header").render())
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, SessionScreen), "the parent")
        assert app.screen.path == family.parent
        assert app.screen.query_one(SessionTree).cursor_key == DONE_CALL
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is search, "back to the results")


async def test_a_hostile_subagent_reaches_the_screen_as_text(tmp_path: Path, make_app: Any) -> None:
    """A subagent's prompt and text with escape sequences and markup, shown in place: the rows
    show them as visible text; nothing reaches the terminal as an escape."""
    family = copy_family(tmp_path / "sessions")
    hostile = "\x1b]0;pwned\x07 [bold]loud[/] \x1b[2J"
    prompt = {"role": "user", "content": f"also {hostile}"}
    answer = {"role": "assistant", "blocks": [{"type": "text", "text": hostile}]}
    stamp = "2026-11-20T09:01:35.000Z"
    _append(
        family.done,
        {"type": "message", "id": "ca7", "parentId": "ca6", "timestamp": stamp, "message": prompt},
        {"type": "message", "id": "ca8", "parentId": "ca7", "timestamp": stamp, "message": answer},
    )
    app = make_app(sessions_dir=tmp_path / "sessions", cwd=CWD, open_path=family.parent)
    async with app.run_test(size=(160, 40)) as pilot:
        screen, tree = await _parent_view(pilot, family)
        call = await _expand(pilot, screen, tree, DONE_CALL)
        hostile_turn = next(n for n in call.children if "also" in n.text)
        tree.move_to(hostile_turn)
        await pilot.press("l")
        await wait_for(pilot, lambda: hostile_turn.expanded, "the hostile turn opened")
        await pilot.pause()
        strips = app.screen._compositor.render_strips()
        shown = "\n".join("".join(segment.text for segment in strip) for strip in strips)
        assert "also ␛]0;pwned␇ [bold]loud[/]" in shown
        assert "\x1b" not in shown and "\x07" not in shown
