"""Errors raised while reading a session, worded as Ink words them."""

from __future__ import annotations

from pathlib import Path

__all__ = ["EngineError", "RecordError", "SessionError"]


class SessionError(Exception):
    """A session file Ink would refuse (Ink's own ``SessionError``).

    ``message`` is Ink's text, with the real path; ``line`` is the 1-based count of non-blank
    lines when the problem is on one line.
    """

    kind = "SessionError"

    def __init__(self, message: str, *, path: Path | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line

    def one_line(self) -> str:
        """The message for a terminal: the file first, then Ink's wording."""
        where = str(self.path) if self.path is not None else "<session>"
        if self.line is not None and f"line {self.line}" not in self.message:
            where = f"{where}:{self.line}"
        return f"{where}: {self.message}"


class EngineError(SessionError):
    """A failure that is not a ``SessionError`` in Ink (a JavaScript ``TypeError``).

    Ink does not treat it as a torn final line: it is fatal wherever it happens.
    """

    kind = "EngineError"


class RecordError(ValueError):
    """One line fails Ink's record checks. Becomes a :class:`SessionError` with its line."""
