"""App-wide messages: screens ask the app to act (widget-specific ones live inside their widget)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from textual.message import Message

__all__ = ["GoBack", "OpenChat", "OpenSession"]


@dataclass
class OpenSession(Message):
    """Open this session file in the session view."""

    path: Path
    follow: bool = False
    leaf_id: str | None = None  # the branch to show (None: the current one)
    entry_id: str | None = None  # the row to put the cursor on once the branch is read
    search: str | None = None  # the session's own search, set to this (n/N then step)
    stack: bool = False  # over the current screen (Esc comes back to it), not in its place
    within: Path | None = None  # a subagent session: opened over this parent session's view,
    # on the task call that launched it (Esc comes back to that call)


@dataclass
class OpenChat(Message):
    """The chat pane on ``path`` (from its leaf, or from ``leaf_id``), or on a new session."""

    path: Path | None
    leaf_id: str | None = None


@dataclass
class GoBack(Message):
    """Back from a session, branch or error view: to the view below it, else the picker."""
