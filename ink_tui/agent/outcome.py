"""How a chat turn ended and the tokens it used (what the pane shows when a turn completes)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ink_tui.session.reading.recordtypes import JsonObject, json_object

__all__ = ["TurnOutcome", "Usage"]

Message = Mapping[str, Any]  # a message as the chat holds it: written or read (recordtypes)


@dataclass(slots=True)
class Usage:
    """The tokens of one turn, summed over its assistant messages."""

    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0
    missing: bool = False

    def add(self, message: Message) -> None:
        """A reply's usage (the provider's counts, as the reply assembled them: numbers)."""
        usage = message.get("usage")
        counts: JsonObject = usage if json_object(usage) else {}
        self.input += _count(counts, "inputTokens")
        self.output += _count(counts, "outputTokens")
        self.cache_read += _count(counts, "cacheReadTokens")
        self.cache_write += _count(counts, "cacheWriteTokens")
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


def _count(usage: JsonObject, key: str) -> int:
    value = usage.get(key, 0)
    return int(value) if isinstance(value, int | float) else 0
