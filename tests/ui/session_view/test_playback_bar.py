"""The playback bar alone (ui/session_view/playback_bar.py), in a small app on a pinned clock:
the state line (playing, paused, finished; speed; record; time; idle gaps), the keys' hint, the
record playing (what it waits for, a reply streaming in, its last lines), and a plan's note."""

from __future__ import annotations

from textual.app import App, ComposeResult
from waiting import wait_for

from ink_tui.session.analysis.playback import Plan, PlayRecord
from ink_tui.session.analysis.playclock import Playback
from ink_tui.ui.session_view.playback_bar import KEYS_HINT, PlaybackBar

START = 1_772_359_200.0  # 2026-03-01T10:00:00Z
REPLY = "\n".join(f"reply line {n}" for n in range(1, 11))


def _record(number: int, head: str, gap: float, body: str = "", **fields: object) -> PlayRecord:
    values: dict[str, object] = {
        "entry_id": f"e{number}",
        "line": number + 2,
        "head": head,
        "body": body,
        "stream": False,
        "keys": (f"e{number}",),
        "recorded": START + 10 * number,
        "gap": gap,
        "by_user": False,
    }
    values.update(fields)
    return PlayRecord(**values)  # type: ignore[arg-type]


def _plan(note: str | None = None) -> Plan:
    records = [
        _record(0, "user", 1.0, "run the tests", by_user=True),
        _record(1, "result of bash", 10.0, "ok"),
        _record(2, "assistant anthropic/claude", 20.0, REPLY, stream=True),
    ]
    return Plan(records, note=note, first=4, branch_length=9)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class BarApp(App[None]):
    def __init__(self, plan: Plan) -> None:
        super().__init__()
        self.clock = Clock()
        self.playback = Playback(plan, self.clock)

    def compose(self) -> ComposeResult:
        yield PlaybackBar(id="bar")

    def draw(self) -> str:
        bar = self.query_one(PlaybackBar)
        bar.show(self.playback, self.playback.frame())
        return str(bar.render())


async def test_the_state_line_says_what_plays_and_the_keys() -> None:
    app = BarApp(_plan())
    async with app.run_test(size=(100, 10)) as pilot:
        await wait_for(pilot, lambda: app.query(PlaybackBar), "the bar")
        app.clock.now = 5.5  # inside the call's gap (1 s for the prompt, then 10 s)
        lines = app.draw().split("\n")
        assert lines[0] == f"▶ 1x · record 6/9 · 0:05 / 0:31 · skip idle   {KEYS_HINT}"
        assert lines[1] == "[10:00:10] result of bash · running bash… 0:04 of 0:10"
        app.playback.pause()
        assert app.draw().startswith("⏸ paused 1x · record 6/9")
        app.playback.resume()
        app.playback.change_speed(1)
        app.playback.toggle_skip_idle()
        assert app.draw().startswith("▶ 2x · record 6/9 · 0:05 / 0:31 · real gaps")


async def test_a_reply_streams_in_showing_its_last_lines() -> None:
    app = BarApp(_plan())
    async with app.run_test(size=(100, 12)) as pilot:
        await wait_for(pilot, lambda: app.query(PlaybackBar), "the bar")
        app.clock.now = 11.0 + 5.0  # a quarter of the reply's time: a part of it written
        lines = app.draw().split("\n")
        assert lines[1] == "[10:00:20] assistant anthropic/claude"
        assert lines[2] == "reply line 1" and lines[-1].endswith("▌")
        assert "reply line 10" not in lines
        app.clock.now = 11.0 + 19.99  # nearly all written: its last lines only
        lines = app.draw().split("\n")
        assert lines[2:6] == [f"reply line {n}" for n in range(6, 10)]
        assert lines[6].startswith("reply line") and lines[6].endswith("▌") and len(lines) == 7
        app.clock.now = 100.0
        assert app.draw() == f"■ finished 1x · record 7/9 · 0:31 / 0:31 · skip idle   {KEYS_HINT}"


async def test_the_plans_note_is_shown_under_the_state_line() -> None:
    app = BarApp(_plan(note="the [red]times[/] are unreadable: a fixed pace"))
    async with app.run_test(size=(100, 10)) as pilot:
        await wait_for(pilot, lambda: app.query(PlaybackBar), "the bar")
        assert app.draw().split("\n")[1] == "the [red]times[/] are unreadable: a fixed pace"
