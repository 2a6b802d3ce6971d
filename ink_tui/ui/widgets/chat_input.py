"""Where the user types in the chat pane: the messages queued during a turn, the composer, and,
in a pane that cannot send, the reason in the composer's place.

A pane that cannot send (a read-only session, one that could not be read) must never look as if
it could: the composer goes and the reason takes its place, with the keys that still work.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from ink_tui.ui.render.safe import plain
from ink_tui.ui.widgets.composer import Composer

__all__ = ["ELSEWHERE_KEYS", "ChatInput"]

ELSEWHERE_KEYS = "Esc goes back · F1 shows the keys · ctrl+q quits"


class ChatInput(Vertical):
    """The queue, the composer (``#chat-input``) and the cannot-send notice (``#chat-cannot``)."""

    DEFAULT_CSS = """
    ChatInput {
        height: auto;
    }
    """

    def __init__(self, *, placeholder: str, id: str | None = None) -> None:
        super().__init__(id=id)
        self._placeholder = placeholder
        self.cannot_send: str | None = None  # why nothing can be sent from here, once known

    def compose(self) -> ComposeResult:
        yield Static(id="chat-queued")
        yield Composer(placeholder=self._placeholder, id="chat-input")
        yield Static(id="chat-cannot")

    def on_mount(self) -> None:
        self.query_one("#chat-queued").display = False
        self.query_one("#chat-cannot").display = False

    @property
    def composer(self) -> Composer:
        return self.query_one("#chat-input", Composer)

    def show_queue(self, queued: list[str]) -> None:
        """The messages waiting for the turn to end (first lines), or nothing."""
        line = self.query_one("#chat-queued", Static)
        line.display = bool(queued)
        lines = [f"queued: {text.splitlines()[0] if text else ''}" for text in queued]
        line.update(plain("\n".join(lines) + "   (Esc discards)", "italic"))

    def cannot(self, reason: str) -> None:
        """Nothing can be sent from here: ``reason`` takes the composer's place."""
        self.cannot_send = reason
        composer = self.composer
        composer.display = False
        composer.disabled = True
        notice = self.query_one("#chat-cannot", Static)
        notice.update(plain(f"{reason}\n{ELSEWHERE_KEYS}", "bold"))
        notice.display = True

    def give_back(self, text: str) -> None:
        """A message that was not sent returns to the composer (unless something is there)."""
        if not self.composer.value:
            self.composer.value = text

    def type_key(self, key: str) -> bool:
        """``key`` typed with the focus elsewhere on the screen: into the composer (focused),
        or ``False`` where nothing can be sent."""
        if self.cannot_send is not None:
            return False
        self.composer.focus()
        self.composer.insert(key)
        return True
