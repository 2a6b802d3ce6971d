"""One line under a view for short notes from its parts (search, loading, following).

The newest note wins; a part that has nothing more to say clears the line only if the line
still shows what that part said.
"""

from __future__ import annotations

from textual.widgets import Static

from ink_tui.ui.render.safe import plain

__all__ = ["StatusLine"]


class StatusLine(Static):
    """A one-line note, hidden when empty."""

    DEFAULT_CSS = """
    StatusLine {
        height: auto;
        max-height: 1;
        color: $text-muted;
        padding: 0 1;
        display: none;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.text = ""
        self._source = ""

    def say(self, text: str, source: str) -> None:
        """Show ``text`` from ``source``; an empty text clears ``source``'s note if shown."""
        if (not text and self._source != source) or (text, source) == (self.text, self._source):
            return
        self.text, self._source = text, source
        self.update(plain(text))
        self.display = bool(text)
