"""The chat pane's message box: Enter sends, ctrl+j (or alt+enter) starts a new line, and
pasted text keeps every line (Textual's ``Input`` keeps only the first line of a paste)."""

from __future__ import annotations

from dataclasses import dataclass

from textual import events
from textual.message import Message
from textual.widgets import TextArea

from ink_tui.ui.keymap import bind

__all__ = ["Composer"]

NEW_LINE_KEYS = ("ctrl+j", "alt+enter", "shift+enter")  # ctrl+j: the byte most terminals send


class Composer(TextArea):
    """A growing multi-line box; :class:`Submitted` carries the text when Enter is pressed."""

    BINDINGS = [
        # the conversation's paging keys win over moving the cursor by a page in the box
        bind("page_up", "screen.scroll_history('page_up')", "Page up"),
        bind("page_down", "screen.scroll_history('page_down')", "Page down"),
    ]

    @dataclass
    class Submitted(Message):
        """Enter was pressed in the composer."""

        composer: Composer
        value: str

        @property
        def control(self) -> Composer:
            return self.composer

    def __init__(self, *, placeholder: str = "", id: str | None = None) -> None:
        super().__init__(
            id=id,
            placeholder=placeholder,
            soft_wrap=True,
            tab_behavior="focus",
            show_line_numbers=False,
            compact=True,
            highlight_cursor_line=False,
        )

    @property
    def value(self) -> str:
        return self.text

    @value.setter
    def value(self, text: str) -> None:
        self.load_text(text)
        self.move_cursor(self.document.end)

    def on_key(self, event: events.Key) -> None:
        """Enter sends, the new-line keys start a line; any other key is the box's own (the
        default handler, after this one, types it)."""
        if event.key == "enter":
            event.stop()
            event.prevent_default()
            self.post_message(self.Submitted(self, self.text))
        elif event.key in NEW_LINE_KEYS:
            event.stop()
            event.prevent_default()
            self.insert("\n")
