"""Where the changes view sends the session view (kept apart so the session view's keys can
name it without importing the changes view before ``D`` is pressed)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Jump"]


@dataclass(frozen=True, slots=True)
class Jump:
    """The row to show (a call's), and the file and turn it was chosen for: the next ``D``
    highlights that file again, and Enter on it goes on to the next turn that touched it."""

    row_key: str
    file: str  # the file's absolute path
    turn: int
