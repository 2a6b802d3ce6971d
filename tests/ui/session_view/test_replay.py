"""The session view's replay alone (ui/session_view/replay.py), in a small app: a branch's turns
drawn as the transcript, thinking shown and hidden (``t``), tool output cut, whole and hidden
(``o``), one call's output whole (Enter), and what a search found opened although hidden."""

from __future__ import annotations

from textual.app import App, ComposeResult
from waiting import wait_for

from ink_tui.session.conversation.view import Item, ToolExchange, Turn
from ink_tui.session.reading.reader import Entry
from ink_tui.ui.render.blocks import CUT_LINES
from ink_tui.ui.session_view.replay import SessionReplay

OUTPUT_LINES = CUT_LINES + 8


def _entry(entry_id: str, content: str = "") -> Entry:
    message = {"role": "user", "content": content}
    return Entry({"type": "message", "id": entry_id, "parentId": None, "message": message}, 2, 0, 1)


def _turns() -> list[Turn]:
    """One turn: a prompt, thinking, a call whose output is longer than the cut, an answer."""
    output = "\n".join(f"output line {n}" for n in range(1, OUTPUT_LINES + 1))
    result = {"toolCallId": "c", "toolName": "bash", "content": output, "isError": False}
    call = ToolExchange("a1-1", "bash", {"command": "make test"}, result)
    return [
        Turn(
            _entry("u1", "run the tests"),
            [
                Item("thinking", _entry("a1"), 0, "the user wants the suite run"),
                Item("tool", _entry("a1"), 1, "", call),
                Item("text", _entry("b1"), 0, "all green"),
            ],
        )
    ]


class ReplayApp(App[None]):
    """The replay alone, and the notes it shows."""

    def __init__(self) -> None:
        super().__init__()
        self.turns = _turns()
        self.notes: list[str] = []

    def compose(self) -> ComposeResult:
        yield SessionReplay(id="replay")

    def on_mount(self) -> None:
        self.query_one(SessionReplay).show(self.turns, {}, lambda turn: 1)

    def notify(self, message: str, **kwargs: object) -> None:  # type: ignore[override]
        self.notes.append(message)


def _text(replay: SessionReplay) -> str:
    """Every block as drawn now, top to bottom."""
    lines = (strip.text for i in range(len(replay.keys)) for strip in replay.block_strips(i))
    return "\n".join(line.rstrip() for line in lines)


def _items(app: ReplayApp) -> list[Item]:
    return app.turns[0].items


async def test_the_turn_is_drawn_with_thinking_hidden_and_the_output_cut() -> None:
    app = ReplayApp()
    async with app.run_test(size=(60, 20)) as pilot:
        replay = app.query_one(SessionReplay)
        await wait_for(pilot, lambda: replay.keys, "the blocks")
        text = _text(replay)
        assert "run the tests" in text and "all green" in text and "make test" in text
        assert "▸ thinking (28 chars, t to show)" in text
        assert "the user wants the suite run" not in text
        assert f"output line {CUT_LINES - 1}" in text and f"output line {OUTPUT_LINES}" not in text
        assert "more lines (o: show all)" in text


async def test_t_shows_and_hides_thinking() -> None:
    app = ReplayApp()
    async with app.run_test(size=(60, 20)) as pilot:
        replay = app.query_one(SessionReplay)
        await wait_for(pilot, lambda: replay.keys, "the blocks")
        replay.toggle_thinking()
        assert "▾ thinking\nthe user wants the suite run" in _text(replay)
        replay.toggle_thinking()
        assert "the user wants the suite run" not in _text(replay)
        assert app.notes == ["thinking shown", "thinking hidden"]


async def test_o_cycles_the_output_cut_whole_hidden_and_enter_opens_one_call() -> None:
    app = ReplayApp()
    async with app.run_test(size=(60, 20)) as pilot:
        replay = app.query_one(SessionReplay)
        await wait_for(pilot, lambda: replay.keys, "the blocks")
        last = f"output line {OUTPUT_LINES}"
        replay.cycle_output()
        assert last in _text(replay) and "more lines" not in _text(replay)
        replay.cycle_output()
        assert "output line 1" not in _text(replay) and "make test" in _text(replay)
        replay.cycle_output()
        assert last not in _text(replay)
        assert app.notes == ["tool output: full", "tool output: hidden", "tool output: cut"]
        call = _items(app)[1]
        replay.toggle_full_output(call)  # Enter on the call: its whole output
        assert last in _text(replay)
        replay.toggle_full_output(call)  # Enter again: cut
        assert last not in _text(replay)


async def test_a_match_in_hidden_thinking_or_past_the_cut_is_opened() -> None:
    app = ReplayApp()
    async with app.run_test(size=(60, 20)) as pilot:
        replay = app.query_one(SessionReplay)
        await wait_for(pilot, lambda: replay.keys, "the blocks")
        thinking, call, _answer = _items(app)
        replay.open_match(thinking, "suite")
        replay.open_match(call, f"OUTPUT LINE {OUTPUT_LINES}")  # any case
        text = _text(replay)
        assert "the user wants the suite run" in text and f"output line {OUTPUT_LINES}" in text
        replay.toggle_thinking()  # t: thinking shown for all, the one opened closes with it
        replay.toggle_thinking()
        assert "the user wants the suite run" not in _text(replay)
