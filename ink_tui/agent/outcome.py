"""How a chat turn ended and the tokens it used (what the pane shows when a turn completes)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["TurnOutcome", "Usage"]

Message = dict[str, Any]


@dataclass(slots=True)
class Usage:
    """The tokens of one turn, summed over its assistant messages."""

    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0
    missing: bool = False

    def add(self, message: Message) -> None:
        usage = message.get("usage") or {}
        self.input += int(usage.get("inputTokens", 0))
        self.output += int(usage.get("outputTokens", 0))
        self.cache_read += int(usage.get("cacheReadTokens", 0))
        self.cache_write += int(usage.get("cacheWriteTokens", 0))
        self.missing = self.missing or bool(message.get("usageMissing"))

    def line(self) -> str:
        if self.missing and not (self.input or self.output):
            return "usage not reported"
        text = f"↑{self.input:,} ↓{self.output:,}"
        if self.cache_read or self.cache_write:
            text += f" · cache read {self.cache_read:,} write {self.cache_write:,}"
        return text


@dataclass(slots=True)
class TurnOutcome:
    """How a turn ended: ``done``, ``interrupted``; ``usage`` sums its replies."""

    status: Literal["done", "interrupted"]
    usage: Usage = field(default_factory=Usage)
    steps: int = 0
