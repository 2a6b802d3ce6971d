"""The chat pane's message box alone (ui/widgets/composer.py), in a small app: what typing,
Enter, the new-line keys and a paste do, and that the paging keys go to the conversation."""

from __future__ import annotations

from textual import events
from textual.app import App, ComposeResult
from textual.screen import Screen
from waiting import wait_for

from ink_tui.ui.widgets.composer import Composer


class ChatLikeScreen(Screen[None]):
    """Stands for the chat screen: the composer, and the conversation's paging it asks for."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[str] = []
        self.paged: list[str] = []

    def compose(self) -> ComposeResult:
        yield Composer(placeholder="Message Ink", id="box")

    def on_mount(self) -> None:
        self.query_one(Composer).focus()

    def on_composer_submitted(self, message: Composer.Submitted) -> None:
        self.sent.append(message.value)

    def action_scroll_history(self, where: str) -> None:
        self.paged.append(where)


class ComposerApp(App[None]):
    def on_mount(self) -> None:
        self.push_screen(ChatLikeScreen())


def _screen(app: App[None]) -> ChatLikeScreen:
    screen = app.screen
    assert isinstance(screen, ChatLikeScreen)
    return screen


async def test_enter_sends_what_was_typed_and_adds_no_line() -> None:
    app = ComposerApp()
    async with app.run_test(size=(40, 8)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ChatLikeScreen), "the chat screen")
        await pilot.press(*"hi ink", "enter")
        screen = _screen(app)
        await wait_for(pilot, lambda: screen.sent, "the message sent")
        assert screen.sent == ["hi ink"]
        assert screen.query_one(Composer).value == "hi ink"  # the screen decides to clear it


async def test_ctrl_j_and_alt_enter_start_a_new_line_and_send_nothing() -> None:
    app = ComposerApp()
    async with app.run_test(size=(40, 8)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ChatLikeScreen), "the chat screen")
        await pilot.press("o", "n", "e", "ctrl+j", "t", "w", "o", "alt+enter", "x")
        screen = _screen(app)
        assert screen.query_one(Composer).value == "one\ntwo\nx"
        assert screen.sent == []
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.sent, "the message sent")
        assert screen.sent == ["one\ntwo\nx"]


async def test_a_paste_keeps_every_line() -> None:
    app = ComposerApp()
    async with app.run_test(size=(40, 8)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ChatLikeScreen), "the chat screen")
        composer = _screen(app).query_one(Composer)
        app.post_message(events.Paste("first\nsecond\nthird"))
        await wait_for(pilot, lambda: composer.value, "the pasted text")
        assert composer.value == "first\nsecond\nthird"


async def test_page_keys_page_the_conversation_not_the_box() -> None:
    app = ComposerApp()
    async with app.run_test(size=(40, 8)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ChatLikeScreen), "the chat screen")
        await pilot.press("a", "ctrl+j", "b", "pageup", "pagedown")
        screen = _screen(app)
        assert screen.paged == ["page_up", "page_down"]
        assert screen.query_one(Composer).value == "a\nb"


async def test_a_value_set_puts_the_cursor_at_its_end() -> None:
    app = ComposerApp()
    async with app.run_test(size=(40, 8)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ChatLikeScreen), "the chat screen")
        composer = _screen(app).query_one(Composer)
        composer.value = "given back\nline two"
        await pilot.press("!")
        assert composer.value == "given back\nline two!"
