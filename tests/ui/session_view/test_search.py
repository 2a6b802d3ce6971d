"""Pilot tests of the session view's search off the event loop (issue 9 review A3): a follow
batch searches only the rows it brought, a search of the whole branch runs in a thread (and the
view stays live meanwhile), and a search running again by itself never moves the user.

Waits are ``waiting.wait_for``; apps come from the ``make_app`` fixture.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from bigload import big_session, hold_the_full_load
from textual.widgets import Input
from viewtext import assistant
from waiting import DEFAULT_TIMEOUT, wait_for, workers_finished

import ink_tui.session.conversation.rows as rows
import ink_tui.ui.session_view.search as session_search
from ink_tui.session.conversation.rows import search_turns
from ink_tui.session.writing.writer import SessionWriter
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.session_view.tree import SessionTree

CWD = "/home/ada/code/calc-kit"


def _writer(tmp_path: Path, turns: int = 20) -> SessionWriter:
    """``turns`` turns; prompts 0 and 10 hold "needle"."""
    writer = SessionWriter.new(tmp_path / "sessions" / "p", CWD)
    for n in range(turns):
        writer.append_message({"role": "user", "content": f"prompt {n}"})
        writer.append_message(assistant(f"answer {n}" + (" needle" if n % 10 == 0 else "")))
    return writer


async def _screen(pilot: Any, *, following: bool = False) -> SessionScreen:
    def ready() -> bool:
        screen = pilot.app.screen
        return (
            isinstance(screen, SessionScreen)
            and screen.loaded is not None
            and (screen.live.following or not following)
        )

    await wait_for(pilot, ready, "the session view" + (" following" if following else ""))
    screen = pilot.app.screen
    assert isinstance(screen, SessionScreen)
    return screen


def _status(screen: SessionScreen) -> str:
    return str(screen.query_one("#search-status").render())


def _position(screen: SessionScreen) -> tuple[int, int]:
    """(the match the user is on, counting from 1; how many), as the status line words it.

    While following, the line may show following's note instead (the newest note wins)."""
    search = screen.search
    return search.index + 1, len(search.matches)


def _cursor_key(screen: SessionScreen) -> str | None:
    node = screen.query_one(SessionTree).cursor
    return node.key if node is not None else None


@dataclass
class Scan:
    """One search of the whole branch, as the spy saw it."""

    query: str
    thread: threading.Thread
    cancelled: threading.Event | None


class ScanSpy:
    """Stands in for ``search_turns`` where the search widget calls it: records every scan of
    the whole branch; a scan for a query in ``held`` (off the event loop only) waits for
    :attr:`release`."""

    def __init__(self, held: tuple[str, ...] = ()) -> None:
        self.scans: list[Scan] = []
        self.held = held
        self.release = threading.Event()

    def __call__(self, turns: Any, query: str, *args: Any, **options: Any) -> list[str]:
        cancelled = options.get("cancelled")
        thread = threading.current_thread()
        self.scans.append(Scan(query, thread, cancelled))
        if query in self.held and thread is not threading.main_thread():
            assert self.release.wait(DEFAULT_TIMEOUT), "the test never released the scan"
        return search_turns(turns, query, *args, **options)


@pytest.fixture
def scans(monkeypatch: pytest.MonkeyPatch) -> ScanSpy:
    spy = ScanSpy()
    monkeypatch.setattr(session_search, "search_turns", spy)
    return spy


# -- 1. a search running again by itself never moves the user --------------------------------------


async def test_a_new_match_while_following_is_counted_and_following_goes_on(
    tmp_path: Path, make_app: Any
) -> None:
    writer = _writer(tmp_path)
    app = make_app(cwd="/nowhere", open_path=writer.path, follow=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _screen(pilot, following=True)
        await pilot.press("slash", *"zebra", "enter")
        await wait_for(pilot, lambda: "no match for 'zebra'" in _status(screen), "no match")
        prompt = writer.append_message({"role": "user", "content": "a zebra appears"})
        await wait_for(pilot, lambda: _position(screen)[1] == 1, "the new match counted")
        assert not screen.live.paused  # the search did not stop following to show it
        assert "match 0 of 1" in _status(screen)
        await pilot.press("n")
        assert _cursor_key(screen) == f"{prompt['id']}:turn"
        assert _position(screen) == (1, 1)


async def test_a_new_match_while_paused_is_counted_not_jumped_to(
    tmp_path: Path, make_app: Any
) -> None:
    writer = _writer(tmp_path)
    app = make_app(cwd="/nowhere", open_path=writer.path, follow=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _screen(pilot, following=True)
        await pilot.press("k", "k")  # up a little: following pauses
        assert screen.live.paused
        await pilot.press("slash", *"zebra", "enter")
        await wait_for(pilot, lambda: "no match for 'zebra'" in _status(screen), "no match")
        where = _cursor_key(screen)
        prompt = writer.append_message({"role": "user", "content": "a zebra appears"})
        # The status line may show following's note ("1 new record while paused") instead.
        await wait_for(pilot, lambda: _position(screen)[1] == 1, "the new match counted")
        assert _position(screen) == (0, 1)
        assert _cursor_key(screen) == where  # not moved to the new match
        await pilot.press("n")
        assert _cursor_key(screen) == f"{prompt['id']}:turn"
        assert _position(screen) == (1, 1)


async def test_after_a_big_load_the_search_runs_again_in_a_thread_and_does_not_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make_app: Any, scans: ScanSpy
) -> None:
    release = hold_the_full_load(monkeypatch)
    path = big_session(tmp_path / "sessions" / "p", entries=400)
    async with make_app(open_path=path).run_test(size=(120, 40)) as pilot:
        try:
            screen = await _screen(pilot)
            assert screen.loaded is not None and screen.loaded.earlier > 0
            word = _early_word(screen, path)  # in no row shown so far
            await pilot.press("slash", *word, "enter")
            await wait_for(pilot, lambda: "no match for" in _status(screen), "no match so far")
            assert "still loading" in _status(screen)
            where = _cursor_key(screen)
        finally:
            release.set()
        await wait_for(pilot, lambda: "match 0 of" in _status(screen), "the matches counted")
        assert _cursor_key(screen) == where  # the view did not move by itself
        assert all(scan.thread is not threading.main_thread() for scan in scans.scans)
        assert len(scans.scans) == 2  # the search on Enter, then again once loaded
        await pilot.press("n")
        await wait_for(pilot, lambda: "match 1 of" in _status(screen), "n to the first match")
        assert _cursor_key(screen) == screen.search.matches[0]


def _early_word(screen: SessionScreen, path: Path) -> str:
    """A word of an early prompt that no row shown so far holds."""
    import json

    from ink_tui.session.rules.content import content_text

    loaded = screen.loaded
    assert loaded is not None
    for line in path.read_text().splitlines():
        message = json.loads(line).get("message") or {}
        if message.get("role") == "user":
            for word in content_text(message.get("content"), show_non_string_text=True).split():
                if len(word) > 4 and not search_turns(loaded.turns, word, loaded.row_labels()):
                    return word
    raise AssertionError("every word of the prompts is in the last turns")


# -- 2. a follow batch searches only what it brought -----------------------------------------------


async def test_a_follow_batch_searches_only_the_rows_it_brought(
    tmp_path: Path, make_app: Any, scans: ScanSpy, monkeypatch: pytest.MonkeyPatch
) -> None:
    searched: list[str] = []  # the rows tested one by one (not by a whole-branch scan)
    original = getattr(rows, "row_holds", None)

    def row_spy(row: Any, *args: Any) -> bool:
        if threading.current_thread() is threading.main_thread():
            searched.append(row.key)
        assert original is not None
        return bool(original(row, *args))

    monkeypatch.setattr(rows, "row_holds", row_spy, raising=False)
    writer = _writer(tmp_path)
    app = make_app(cwd="/nowhere", open_path=writer.path, follow=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _screen(pilot, following=True)
        await pilot.press("slash", *"NEEDLE", "enter")
        await wait_for(pilot, lambda: _position(screen) == (1, 2), "the first match")
        first = _cursor_key(screen)
        scans.scans.clear()
        searched.clear()
        prompt = writer.append_message({"role": "user", "content": "a third needle"})
        answer = writer.append_message(assistant("no match here"))
        await wait_for(pilot, lambda: _position(screen) == (1, 3), "the new match counted")
        assert scans.scans == []  # the batch did not search the whole branch again
        assert sorted(searched) == sorted([f"{prompt['id']}:turn", f"{answer['id']}:0"])
        assert screen.loaded is not None
        assert screen.search.matches == search_turns(screen.loaded.turns, "needle")
        assert _cursor_key(screen) == first  # still on the first match


# -- 3. the whole-branch search runs in a thread ---------------------------------------------------


async def test_enter_searches_in_a_thread_and_the_view_stays_live(
    tmp_path: Path, make_app: Any, scans: ScanSpy
) -> None:
    scans.held = ("answer",)
    writer = _writer(tmp_path)
    async with make_app(open_path=writer.path).run_test(size=(120, 40)) as pilot:
        try:
            screen = await _screen(pilot)
            await pilot.press("slash", *"answer", "enter")
            await wait_for(pilot, lambda: scans.scans, "the search to start")
            assert scans.scans[0].thread is not threading.main_thread()
            await wait_for(
                pilot, lambda: "searching for 'answer'…" in _status(screen), "searching…"
            )
            await pilot.press("n")  # no match yet to go to
            assert "searching for 'answer'…" in _status(screen)
            await pilot.press("slash", *"needle")  # the view answers keys meanwhile
            assert screen.query_one(Input).value == "needle"
            await pilot.press("enter")
            await wait_for(pilot, lambda: "match 1 of 2" in _status(screen), "needle's matches")
            held = scans.scans[0].cancelled
            assert held is not None and held.is_set()  # the first search was cancelled
        finally:
            scans.release.set()
        await wait_for(pilot, workers_finished(pilot.app), "the cancelled search to end")
        assert "match 1 of 2" in _status(screen)  # its late result, if any, was dropped
        assert screen.loaded is not None
        assert screen.search.matches == search_turns(screen.loaded.turns, "needle")


async def test_rows_arriving_during_a_search_are_merged_when_it_ends(
    tmp_path: Path, make_app: Any, scans: ScanSpy
) -> None:
    scans.held = ("needle",)
    writer = _writer(tmp_path)
    app = make_app(cwd="/nowhere", open_path=writer.path, follow=True)
    async with app.run_test(size=(120, 40)) as pilot:
        try:
            screen = await _screen(pilot, following=True)
            await pilot.press("slash", *"needle", "enter")
            await wait_for(pilot, lambda: "searching for" in _status(screen), "searching…")
            writer.append_message({"role": "user", "content": "needle while searching"})
            await wait_for(
                pilot,
                lambda: "needle while searching" in screen.query_one(SessionTree).top_rows[-1].text,
                "the new turn",
            )
        finally:
            scans.release.set()
        # the first match after the row "/" was pressed on: the one that arrived meanwhile
        await wait_for(pilot, lambda: _position(screen) == (3, 3), "three matches")
        assert len(scans.scans) == 1
        assert screen.loaded is not None
        assert screen.search.matches == search_turns(screen.loaded.turns, "needle")
