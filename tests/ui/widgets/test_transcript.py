"""The transcript alone (ui/widgets/transcript.py), in a small app: blocks drawn only when they
come into view, a block sent to the top with its gutter mark, a click and a scroll told to the
screen, and searched text marked."""

from __future__ import annotations

import re
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.message import Message
from waiting import wait_for

from ink_tui.ui.widgets.transcript import BlockSpec, Transcript

BLOCKS = 200


class TranscriptApp(App[None]):
    """The transcript alone, with 200 blocks of three lines; what it says and draws."""

    def __init__(self) -> None:
        super().__init__()
        self.said: list[Message] = []
        self.rendered: list[int] = []

    def compose(self) -> ComposeResult:
        yield Transcript(id="transcript")

    def on_mount(self) -> None:
        specs = [BlockSpec(f"b{n}", self._render(n), estimate=3) for n in range(BLOCKS)]
        self.query_one(Transcript).set_blocks(specs)

    def _render(self, number: int) -> Any:
        def render() -> Text:
            self.rendered.append(number)
            return Text(f"block {number}\nsecond line of {number}\nthird line")

        return render

    def on_transcript_top_changed(self, message: Transcript.TopChanged) -> None:
        self.said.append(message)

    def on_transcript_block_clicked(self, message: Transcript.BlockClicked) -> None:
        self.said.append(message)


def _lines(transcript: Transcript) -> list[str]:
    return [transcript.render_line(y).text.rstrip() for y in range(transcript.size.height)]


def _marked(transcript: Transcript, y: int) -> list[str]:
    """The bold (marked) text on line ``y``."""
    line = transcript.render_line(y)
    return [segment.text for segment in line if segment.style and segment.style.bold]


async def test_only_the_blocks_in_view_are_drawn() -> None:
    app = TranscriptApp()
    async with app.run_test(size=(40, 10)) as pilot:
        transcript = app.query_one(Transcript)
        await wait_for(pilot, lambda: "block 0" in _lines(transcript)[0], "the first block")
        assert _lines(transcript)[:5] == [
            "  block 0",
            "  second line of 0",
            "  third line",
            "",  # a blank line between two blocks
            "  block 1",
        ]
        assert max(app.rendered) < 10  # of 200 blocks, only those near the view
        transcript.scroll_to_end_of_transcript()
        await wait_for(pilot, lambda: "  block 199" in _lines(transcript), "the last block")
        assert _lines(transcript)[-4:] == [
            "  block 199",
            "  second line of 199",
            "  third line",
            "",
        ]
        assert len(set(app.rendered)) < 30


async def test_a_block_sent_to_the_top_is_marked_and_a_click_says_which_block() -> None:
    app = TranscriptApp()
    async with app.run_test(size=(40, 10)) as pilot:
        transcript = app.query_one(Transcript)
        transcript.scroll_to_key("b50")
        await wait_for(pilot, lambda: _lines(transcript)[0] == "▌ block 50", "block 50 on top")
        assert _lines(transcript)[:5] == [
            "▌ block 50",
            "▌ second line of 50",
            "▌ third line",
            "▌",
            "  block 51",  # only the selected block has the mark
        ]
        assert transcript.top_key() == "b50"
        await pilot.click(Transcript, offset=(5, 5))  # the second line of block 51
        await wait_for(pilot, lambda: app.said, "the click told")
        clicked = app.said[-1]
        assert isinstance(clicked, Transcript.BlockClicked) and clicked.key == "b51"
        await wait_for(pilot, lambda: _lines(transcript)[4] == "▌ block 51", "block 51 marked")


async def test_scrolling_by_the_user_tells_the_new_top_block() -> None:
    app = TranscriptApp()
    async with app.run_test(size=(40, 10)) as pilot:
        transcript = app.query_one(Transcript)
        transcript.focus()
        await wait_for(pilot, lambda: "block 0" in _lines(transcript)[0], "the first block")
        await pilot.press("pagedown")
        await wait_for(pilot, lambda: app.said, "the new top told")
        top = app.said[-1]
        assert isinstance(top, Transcript.TopChanged) and top.key == transcript.top_key() != "b0"


async def test_searched_text_is_marked_in_every_block() -> None:
    app = TranscriptApp()
    async with app.run_test(size=(40, 10)) as pilot:
        transcript = app.query_one(Transcript)
        await wait_for(pilot, lambda: "block 0" in _lines(transcript)[0], "the first block")
        transcript.set_highlight(re.compile("second", re.IGNORECASE))
        await wait_for(pilot, lambda: _marked(transcript, 1), "the match marked")
        assert _marked(transcript, 1) == ["second"]
        assert _marked(transcript, 0) == []
