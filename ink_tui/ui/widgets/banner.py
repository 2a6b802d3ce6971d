"""A banner: one persistent note across a view (hidden while there is nothing to say)."""

from __future__ import annotations

from textual.widgets import Static

from ink_tui.ui.render.safe import plain

__all__ = ["Banner"]


class Banner(Static):
    """Shows :meth:`say`'s note as plain text (it may quote session text); empty hides it."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__("", id=id, classes=classes)
        self._note = ""
        self.display = False

    @property
    def note(self) -> str:
        return self._note

    def say(self, note: str) -> None:
        if note == self._note:
            return
        self._note = note
        self.update(plain(note))
        self.display = bool(note)
