"""Where the user types in the chat pane, alone (ui/widgets/chat_input.py), in a small app: the
queued messages shown, a key typed elsewhere landing in the composer, a message given back, and a
pane that cannot send showing why (with the keys that still work) instead of a box."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Static
from waiting import wait_for

from ink_tui.ui.widgets.chat_input import ELSEWHERE_KEYS, ChatInput
from ink_tui.ui.widgets.composer import Composer


class InputApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.sent: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static("the conversation", id="log")
        yield ChatInput(placeholder="Message Ink", id="input")

    def on_composer_submitted(self, message: Composer.Submitted) -> None:
        self.sent.append(message.value)


def _text(app: App[None], selector: str) -> str:
    widget = app.query_one(selector, Static)
    return str(widget.render()) if widget.display else ""


async def test_the_queue_shows_each_messages_first_line_and_how_to_discard() -> None:
    app = InputApp()
    async with app.run_test(size=(50, 10)) as pilot:
        chat_input = app.query_one(ChatInput)
        assert _text(app, "#chat-queued") == ""
        chat_input.show_queue(["run the tests\nand then lint", "commit"])
        await wait_for(pilot, lambda: _text(app, "#chat-queued"), "the queue shown")
        assert _text(app, "#chat-queued") == (
            "queued: run the tests\nqueued: commit   (Esc discards)"
        )
        chat_input.show_queue([])
        await wait_for(pilot, lambda: not _text(app, "#chat-queued"), "the queue hidden")


async def test_a_key_typed_elsewhere_goes_into_the_composer_and_enter_sends() -> None:
    app = InputApp()
    async with app.run_test(size=(50, 10)) as pilot:
        chat_input = app.query_one(ChatInput)
        assert chat_input.type_key("h") is True
        await pilot.press("i", "enter")
        await wait_for(pilot, lambda: app.sent, "the message sent")
        assert app.sent == ["hi"]
        assert app.focused is chat_input.composer


async def test_a_message_given_back_returns_only_to_an_empty_composer() -> None:
    app = InputApp()
    async with app.run_test(size=(50, 10)):
        chat_input = app.query_one(ChatInput)
        chat_input.give_back("not sent")
        assert chat_input.composer.value == "not sent"
        chat_input.give_back("another")  # something is there: kept
        assert chat_input.composer.value == "not sent"


async def test_a_pane_that_cannot_send_says_why_instead_of_a_box() -> None:
    app = InputApp()
    async with app.run_test(size=(50, 10)) as pilot:
        chat_input = app.query_one(ChatInput)
        chat_input.cannot("this session is read-only")
        await wait_for(pilot, lambda: _text(app, "#chat-cannot"), "the reason shown")
        assert _text(app, "#chat-cannot") == f"this session is read-only\n{ELSEWHERE_KEYS}"
        assert "Esc goes back" in ELSEWHERE_KEYS
        assert not chat_input.composer.display
        assert chat_input.type_key("x") is False  # typed elsewhere: nowhere to go
        assert chat_input.composer.value == "" and app.focused is not chat_input.composer
