"""App-wide messages (widget-specific ones live inside their widget)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from textual.message import Message

__all__ = ["OpenSession"]


@dataclass
class OpenSession(Message):
    """Open this session file in the session view."""

    path: Path
