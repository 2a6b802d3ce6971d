"""Pilot tests of playback in the session view (``p``): the bar, the tree following the records,
Space, ``.``, ``+``, ``-``, ``i``, Esc. The app's clock is a fake one the test moves: nothing
here depends on how fast the machine is."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from timedsession import ANSWER, FakeClock, conversation, write_timed
from waiting import wait_for

from ink_tui.ui.session_view.edges import is_edge
from ink_tui.ui.session_view.playback import SessionPlayback
from ink_tui.ui.session_view.playback_bar import PlaybackBar
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.session_view.tree import SessionTree

HOSTILE = "before \x1b]0;pwned\x07 \x1b[2J [bold red]x[/] after"


@pytest.fixture
def session(tmp_path: Path) -> Path:
    return write_timed(tmp_path / "timed.jsonl", conversation())


class Played:
    """The session view of a Pilot test, with its fake clock and playback parts."""

    def __init__(self, pilot: Any, clock: FakeClock) -> None:
        self.pilot = pilot
        self.clock = clock
        screen = pilot.app.screen
        assert isinstance(screen, SessionScreen)
        self.screen = screen
        self.playback = screen.query_one(SessionPlayback)
        self.bar = screen.query_one(PlaybackBar)
        self.tree = screen.query_one(SessionTree)

    def text(self) -> str:
        return str(self.bar.render()) if self.playback.display else ""

    def cursor(self) -> str | None:
        node = self.tree.cursor
        return node.key if node is not None else None

    async def shows(self, *pieces: str) -> None:
        await wait_for(
            self.pilot,
            lambda: all(piece in self.text() for piece in pieces),
            f"the playback bar to show {pieces}",
        )

    async def cursor_on(self, key: str) -> None:
        await wait_for(self.pilot, lambda: self.cursor() == key, f"the cursor on {key}")

    async def advance(self, seconds: float) -> None:
        self.clock.advance(seconds)
        await self.pilot.pause()


async def _open(pilot: Any, clock: FakeClock) -> Played:
    def ready() -> bool:
        screen = pilot.app.screen
        if not isinstance(screen, SessionScreen) or screen.loaded is None:
            return False
        tree = screen.query_one(SessionTree)
        return tree.at_last_row

    await wait_for(pilot, ready, "the session view to load")
    return Played(pilot, clock)


async def _playing_from_the_start(pilot: Any, clock: FakeClock) -> Played:
    played = await _open(pilot, clock)
    await pilot.press("g", "p")
    await played.shows("▶ 1x · record 2/5", "assistant anthropic/claude-sonnet-4-5")
    return played


async def test_p_plays_from_the_start_streaming_and_following(session: Path, make_app: Any) -> None:
    clock = FakeClock()
    app = make_app(cwd="/nowhere", open_path=session, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        played = await _playing_from_the_start(pilot, clock)
        await played.cursor_on("e1:0")  # the reply's first row
        assert "Running them." not in played.text()  # nothing streamed yet
        await played.advance(10)  # half the reply's 20 s
        await played.shows("Running them.", "0:10 / 0:57")
        assert "bash pytest" not in played.text()
        await played.advance(11)  # the call runs until its result
        await played.shows("record 3/5", "running bash… 0:01 of 0:05")
        await played.cursor_on("e1:1")  # the call's row
        await played.advance(5 + 15)
        await played.shows("record 4/5", "The retry loop")
        assert ANSWER not in played.text()
        await played.advance(100)
        await played.shows("■ finished", "record 5/5")
        await played.cursor_on("e4:turn")


async def test_p_starts_at_the_cursors_turn_and_p_stops(session: Path, make_app: Any) -> None:
    clock = FakeClock()
    app = make_app(cwd="/nowhere", open_path=session, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        played = await _open(pilot, clock)  # the cursor on the last turn
        await pilot.press("p")
        await played.shows("record 5/5", "waiting for the user")
        await pilot.press("p")
        await wait_for(pilot, lambda: not played.playback.display, "the bar hidden")
        assert played.playback.player is None


async def test_space_pauses_and_resumes(session: Path, make_app: Any) -> None:
    clock = FakeClock()
    app = make_app(cwd="/nowhere", open_path=session, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        played = await _playing_from_the_start(pilot, clock)
        await played.advance(5)
        await pilot.press("space")
        await played.shows("⏸ paused", "0:05 / 0:57")
        await played.advance(100)
        await played.shows("⏸ paused", "record 2/5", "0:05 / 0:57")
        await pilot.press("space")
        await played.advance(16)
        await played.shows("▶ 1x", "record 3/5")


async def test_full_stop_steps_one_record(session: Path, make_app: Any) -> None:
    clock = FakeClock()
    app = make_app(cwd="/nowhere", open_path=session, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        played = await _playing_from_the_start(pilot, clock)
        await pilot.press("full_stop")
        await played.shows("⏸ paused", "record 3/5")
        await played.cursor_on("e1:1")
        await played.advance(60)
        await played.shows("record 3/5")
        await pilot.press("full_stop", "full_stop")
        await played.shows("⏸ paused", "record 5/5")
        await played.cursor_on("e4:turn")


async def test_plus_minus_change_the_speed(session: Path, make_app: Any) -> None:
    clock = FakeClock()
    app = make_app(cwd="/nowhere", open_path=session, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        played = await _playing_from_the_start(pilot, clock)
        await pilot.press("plus")
        await played.shows("▶ 2x")
        await played.advance(11)  # 22 s of the plan at 2x
        await played.shows("record 3/5")
        await pilot.press(*["plus"] * 6)
        await played.shows("▶ 50x")
        await pilot.press("minus")
        await played.shows("▶ 20x")
        await pilot.press(*["minus"] * 6)
        await played.shows("▶ 1x")


async def test_i_plays_the_real_gaps(session: Path, make_app: Any) -> None:
    clock = FakeClock()
    app = make_app(cwd="/nowhere", open_path=session, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        played = await _playing_from_the_start(pilot, clock)
        await pilot.press("i")
        await played.shows("real gaps", "0:00 / 3:50")
        await pilot.press("i")
        await played.shows("skip idle", "0:00 / 0:57")


async def test_escape_stops_then_goes_back(session: Path, make_app: Any) -> None:
    clock = FakeClock()
    app = make_app(cwd="/nowhere", open_path=session, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        played = await _playing_from_the_start(pilot, clock)
        await pilot.press("escape")
        await wait_for(pilot, lambda: not played.playback.display, "the bar hidden")
        assert isinstance(pilot.app.screen, SessionScreen)  # Esc stopped, did not go back


async def test_playback_keys_do_nothing_when_not_playing(session: Path, make_app: Any) -> None:
    clock = FakeClock()
    app = make_app(cwd="/nowhere", open_path=session, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        played = await _open(pilot, clock)
        await pilot.press("g")
        node = played.tree.cursor
        assert node is not None and node.expanded is False
        await pilot.press("space")  # the tree's own: open the turn
        await wait_for(pilot, lambda: node.expanded, "the turn opened by Space")
        await pilot.press("full_stop", "plus", "minus", "i")
        assert not played.playback.display and played.playback.player is None


async def test_bad_timestamps_are_said_and_text_is_safe(tmp_path: Path, make_app: Any) -> None:
    timed = conversation((0, "later", 3, 4, 5))
    timed[1][1]["blocks"][0]["text"] = HOSTILE
    path = write_timed(tmp_path / "bad.jsonl", timed)
    clock = FakeClock()
    app = make_app(cwd="/nowhere", open_path=path, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        played = await _open(pilot, clock)
        await pilot.press("g", "p")
        await played.shows("timestamp unreadable", "record 2/5")
        await played.advance(0.95)
        await played.shows("pwned", "[bold red]x[/]")
        text = played.text()
        assert "\x1b" not in text and "\x07" not in text


async def test_the_cursor_follows_outside_the_turn_window(
    tmp_path: Path, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ink_tui.ui.session_view import window as session_window

    monkeypatch.setattr(session_window, "WINDOW_TURNS", 4)
    timed: list[tuple[Any, dict[str, Any]]] = []
    for turn in range(12):
        reply = conversation()[3][1]
        timed += [
            (turn * 10, {"role": "user", "content": f"prompt {turn}"}),
            (turn * 10 + 5, reply),
        ]
    path = write_timed(tmp_path / "long.jsonl", timed)
    clock = FakeClock()
    app = make_app(cwd="/nowhere", open_path=path, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        played = await _open(pilot, clock)
        await pilot.press("g", "p")
        await played.shows("record 2/24")
        await pilot.press(*["full_stop"] * 17)  # to the prompt of turn 9, far from the window
        await played.shows("⏸ paused", "record 19/24")
        await played.cursor_on("e18:turn")
        assert not is_edge(played.cursor())  # the window moved: the cursor on the row itself


def test_clock_text() -> None:
    from ink_tui.ui.session_view.playback_bar import clock_text

    assert [clock_text(s) for s in (0, 65.9, 3725)] == ["0:00", "1:05", "1:02:05"]


async def test_a_long_branch_plays_on_part_after_part(
    session: Path, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ink_tui.session.analysis.playback as playback

    monkeypatch.setattr(playback, "PLAN_LIMIT", 2)  # the plan holds two records at a time
    clock = FakeClock()
    app = make_app(cwd="/nowhere", open_path=session, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        played = await _playing_from_the_start(pilot, clock)
        await pilot.press("plus")
        await played.advance(10)  # 20 s at 2x: the first part is over, the next one plays
        await played.shows("▶ 2x", "record 3/5", "running bash")
        await played.cursor_on("e1:1")
        await pilot.press("full_stop", "full_stop")
        await played.shows("⏸ paused", "record 5/5")
        await played.cursor_on("e4:turn")


async def test_p_waits_for_the_whole_branch(
    tmp_path: Path, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bigload import big_session, hold_the_full_load

    release = hold_the_full_load(monkeypatch)
    path = big_session(tmp_path / "sessions" / "p")
    app = make_app(cwd="/nowhere", open_path=path, clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:

        def first_look() -> bool:
            screen = pilot.app.screen
            return isinstance(screen, SessionScreen) and bool(
                screen.loaded and screen.loaded.partial
            )

        await wait_for(pilot, first_look, "the last turns shown first")
        await pilot.press("p")
        await wait_for(
            pilot,
            lambda: any("whole branch" in str(n.message) for n in pilot.app._notifications),
            "a notice that playback waits",
        )
        playback = pilot.app.screen.query_one(SessionPlayback)
        assert not playback.active and not playback.display
        release.set()
        await wait_for(pilot, lambda: not pilot.app.screen.loaded.partial, "the whole branch")
        await pilot.press("p")
        await wait_for(pilot, lambda: playback.player is not None, "playback started")
