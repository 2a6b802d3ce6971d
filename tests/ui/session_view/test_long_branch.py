"""A very long branch is shown a window of turns at a time (the tree and the replay alike).

The window is made small here (10 turns of a 35-turn session) so that every edge is reached in
a few keys; a real window holds :data:`~ink_tui.ui.session_view.window.WINDOW_TURNS`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from viewtext import without_time
from waiting import wait_for

from ink_tui.session.conversation.view import Turn
from ink_tui.ui.modals.keeping import CopyScreen
from ink_tui.ui.session_view import window as session_window
from ink_tui.ui.session_view.edges import EDGE_EARLIER, EDGE_LATER
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.session_view.tree import SessionTree
from ink_tui.ui.session_view.window import Span, span_around, turn_index
from ink_tui.ui.widgets.transcript import Transcript

TURNS = 35
WINDOW = 10
CWD = "/home/ada/code/window"


@pytest.fixture
def long_session(tmp_path: Path, write_session: Any, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(session_window, "WINDOW_TURNS", WINDOW)
    prompts = [f"prompt number {n}" for n in range(1, TURNS + 1)]
    prompts[2] = "prompt number 3 holds the needle-far-away"
    return write_session(tmp_path / "sessions" / "window", CWD, prompts)


def _labels(tree: SessionTree) -> list[str]:
    return [without_time(node.text).strip() for node in tree.top_rows]


def _cursor(tree: SessionTree) -> str:
    return without_time(tree.cursor.text).strip() if tree.cursor else ""


async def _opened(pilot: Any) -> tuple[SessionScreen, SessionTree]:
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, SessionScreen), "the session view")
    screen = app.screen
    tree = screen.query_one(SessionTree)
    await wait_for(
        pilot,
        lambda: screen.loaded is not None and tree.cursor is not None and tree.cursor_row > 0,
        "the branch on screen",
    )
    return screen, tree


def test_a_window_is_kept_inside_the_branch() -> None:
    assert span_around(0, 100, 10) == Span(0, 10, 100)
    assert span_around(50, 100, 10) == Span(45, 55, 100)
    assert span_around(99, 100, 10) == Span(90, 100, 100)
    assert span_around(3, 5, 10) == Span(0, 5, 5)
    assert Span(90, 100, 100).at_end and Span(90, 100, 100).earlier == 90


def test_turn_index_finds_turns_and_their_rows() -> None:
    assert turn_index([Turn(None)], "start:turn") == 0
    assert turn_index([Turn(None)], "nothing:turn") is None


async def test_a_long_branch_opens_on_its_last_turns_with_a_row_for_the_earlier(
    long_session: Path, make_app: Any
) -> None:
    app = make_app(cwd=CWD, open_path=long_session)
    async with app.run_test(size=(120, 40)) as pilot:
        screen, tree = await _opened(pilot)
        labels = _labels(tree)
        edge = f"⋯ {TURNS - WINDOW} earlier turns (moving up here shows them; g: the first)"
        assert labels[0] == edge
        assert len(labels) == WINDOW + 1
        assert labels[-1].startswith(f"{TURNS} ") and labels[-1].endswith(f"prompt number {TURNS}")
        assert screen.transcript.keys[0] == EDGE_EARLIER
        assert tree.at_last_row  # the branch's last row
        assert "35 turns" in str(screen.query_one("#session-header").render())


async def test_moving_up_past_the_window_shows_the_earlier_turns_in_place(
    long_session: Path, make_app: Any
) -> None:
    app = make_app(cwd=CWD, open_path=long_session)
    async with app.run_test(size=(120, 40)) as pilot:
        screen, tree = await _opened(pilot)
        first_shown = TURNS - WINDOW + 1
        await pilot.press("left_square_bracket", "left_square_bracket")
        await wait_for(pilot, lambda: _cursor(tree).endswith(f"number {TURNS - 1}"), "turn 34")
        for _ in range(WINDOW - 2):
            await pilot.press("k")
        assert _cursor(tree).endswith(f"prompt number {first_shown}")
        await pilot.press("k")  # onto the edge row: the window moves, the cursor goes on by one
        await wait_for(
            pilot, lambda: _cursor(tree).endswith(f"prompt number {first_shown - 1}"), "turn 25"
        )
        assert _cursor(tree).startswith(f"{first_shown - 1} ")  # numbered as in the whole branch
        labels = _labels(tree)
        assert labels[0].startswith("⋯ ") and labels[-1].startswith("⋯ ")  # both edges now
        assert EDGE_LATER in screen.transcript.keys
        await wait_for(
            pilot,
            lambda: screen.transcript.selected_key == tree.cursor_key,
            "the replay on the same turn",
        )


async def test_g_and_G_reach_the_branch_ends_through_the_window(
    long_session: Path, make_app: Any
) -> None:
    app = make_app(cwd=CWD, open_path=long_session)
    async with app.run_test(size=(120, 40)) as pilot:
        _screen, tree = await _opened(pilot)
        await pilot.press("g")
        await wait_for(pilot, lambda: _cursor(tree).endswith("prompt number 1"), "turn 1")
        assert tree.cursor_row == 0
        assert _labels(tree)[-1].startswith(f"⋯ {TURNS - WINDOW} later turns")
        await pilot.press("G")
        await wait_for(pilot, lambda: tree.at_last_row, "the last row")
        assert _labels(tree)[0].startswith("⋯ ") and not _labels(tree)[-1].startswith("⋯ ")
        assert "done" in _cursor(tree)  # the last turn's answer


async def test_bracket_onto_the_later_edge_moves_on_to_the_next_turn(
    long_session: Path, make_app: Any
) -> None:
    app = make_app(cwd=CWD, open_path=long_session)
    async with app.run_test(size=(120, 40)) as pilot:
        _screen, tree = await _opened(pilot)
        await pilot.press("g")
        await wait_for(pilot, lambda: _cursor(tree).endswith("prompt number 1"), "turn 1")
        for _ in range(WINDOW):
            await pilot.press("right_square_bracket")
        await wait_for(
            pilot, lambda: _cursor(tree).endswith(f"prompt number {WINDOW + 1}"), "turn 11"
        )
        assert not tree.cursor_key.startswith("window@")


async def test_a_search_match_outside_the_window_moves_the_window_to_it(
    long_session: Path, make_app: Any
) -> None:
    app = make_app(cwd=CWD, open_path=long_session)
    async with app.run_test(size=(120, 40)) as pilot:
        screen, tree = await _opened(pilot)
        await pilot.press("slash", *"needle-far-away", "enter")
        await wait_for(pilot, lambda: "needle-far-away" in _cursor(tree), "the far match")
        assert _cursor(tree).startswith("◆") and " 3 prompt number 3 " in _cursor(tree)
        assert screen.transcript.selected_key == tree.cursor_key


async def test_scrolling_the_replay_onto_the_edge_shows_the_earlier_turns(
    long_session: Path, make_app: Any
) -> None:
    app = make_app(cwd=CWD, open_path=long_session)
    async with app.run_test(size=(120, 40)) as pilot:
        screen, tree = await _opened(pilot)
        transcript = screen.query_one(Transcript)
        transcript.focus()
        first_shown = TURNS - WINDOW + 1
        for _ in range(40):  # the user pages up until the replay reaches the edge block
            if transcript.keys[-1] == EDGE_LATER:
                break
            await pilot.press("pageup")
        await wait_for(
            pilot,
            lambda: _cursor(tree).endswith(f"prompt number {first_shown - 1}"),
            "the turn before the window",
        )
        assert transcript.keys[-1] == EDGE_LATER


async def test_y_on_an_edge_row_copies_nothing(long_session: Path, make_app: Any) -> None:
    app = make_app(cwd=CWD, open_path=long_session)
    async with app.run_test(size=(120, 40)) as pilot:
        _screen, tree = await _opened(pilot)
        copied: list[str] = []
        app.copy_to_clipboard = copied.append
        edge = tree.row_for(EDGE_EARLIER)
        assert edge is not None
        with tree.prevent(tree.Highlighted):
            tree.move_to(edge)
        await pilot.press("y")  # the copy menu, without a message to copy
        menu = await wait_for(
            pilot, lambda: app.screen if isinstance(app.screen, CopyScreen) else None, "the menu"
        )
        assert [key for key, _, _ in menu.choices] == ["a", "i", "p", "r"]
        await pilot.press("m", "escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, CopyScreen), "the menu closed")
        assert copied == []
