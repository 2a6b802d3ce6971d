"""How long each turn took, how much of it went to tools, and the tokens it spent.

From the records' own timestamps (Ink writes ``new Date().toISOString()`` when each record is
appended; :mod:`ink_tui.session.reading.timestamps` reads them): a turn lasts from its prompt to its
last record; a tool call's time runs from the assistant record that made it to the record
holding its result; the rest of the turn is the model's (thinking and writing, and whatever Ink
did between). Tokens are the turn's assistant messages' ``usage``: input (cache reads and
writes included) and output. A turn whose timestamps cannot be read has no duration
(``None``), never a made-up one.

Records that are not part of a turn (:data:`OUTSIDE_TURNS`: a name, a label, a thinking level
change; ``session_model`` and ``position`` markers are no entries at all) never extend one: a
session renamed a day after its last turn keeps that turn's time, and its span.

Reading a timestamp never parses a dropped payload again (:meth:`Entry.peek_timestamp`), so the
tree can label a window of turns without reading their big tool results back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from ink_tui.session.conversation.view import Turn
from ink_tui.session.reading.entry import Entry
from ink_tui.session.reading.timestamps import timestamp_seconds

__all__ = [
    "OUTSIDE_TURNS",
    "TurnTime",
    "branch_span",
    "entry_seconds",
    "in_turn",
    "short_duration",
    "turn_time",
]

OUTSIDE_TURNS: Final = frozenset({"session_info", "label", "thinkingLevelChange"})
"""Entry types that are no part of a turn: written when the user names, labels or changes the
thinking level, maybe days after the turn before them."""
_OUTSIDE_ITEMS: Final = frozenset({"session_info", "label", "thinking_level", "model_change"})


def in_turn(entry: Entry) -> bool:
    """Whether ``entry`` is part of a turn (a message, a compaction, a branch summary…)."""
    return entry.type not in OUTSIDE_TURNS


@dataclass(frozen=True, slots=True)
class TurnTime:
    """One turn's duration (``None``: unknown), its tools' share, and its tokens."""

    seconds: float | None
    tool_seconds: float = 0.0
    tokens_in: int = 0
    tokens_out: int = 0
    start: float | None = None  # the prompt's time (seconds since the epoch)

    @property
    def model_seconds(self) -> float:
        """The part of the turn not spent in tools."""
        return max(0.0, (self.seconds or 0.0) - self.tool_seconds)

    @property
    def tokens(self) -> int:
        return self.tokens_in + self.tokens_out


def entry_seconds(entry: Entry) -> float | None:
    """The record's timestamp as seconds since the epoch; ``None`` when it is not a date."""
    return timestamp_seconds(entry.peek_timestamp())


def branch_span(entries: Sequence[Entry]) -> float | None:
    """Seconds from the branch's first turn record to its last (``None``: a time unreadable,
    or no turn record). Names, labels and thinking level changes are left out at both ends."""
    first = next((entry for entry in entries if in_turn(entry)), None)
    last = next((entry for entry in reversed(entries) if in_turn(entry)), None)
    if first is None or last is None or first is last:
        return None
    start, end = entry_seconds(first), entry_seconds(last)
    if start is None or end is None:
        return None
    return end - start


def _count(usage: Any, key: str) -> int:
    value = usage.get(key) if isinstance(usage, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def turn_time(turn: Turn) -> TurnTime:
    """How long ``turn`` took, its tools' share, and its tokens."""
    entries: dict[str, Entry] = {}
    if turn.user is not None:
        entries[turn.user.id] = turn.user
    tool_seconds = 0.0
    for item in turn.items:
        if item.kind in _OUTSIDE_ITEMS:
            continue  # a name, a label, a thinking level or model change: not the turn's time
        entries.setdefault(item.entry.id, item.entry)
        tool = item.tool
        if tool is not None and tool.result_entry is not None:
            entries.setdefault(tool.result_entry.id, tool.result_entry)
            called, answered = entry_seconds(item.entry), entry_seconds(tool.result_entry)
            if called is not None and answered is not None and answered > called:
                tool_seconds += answered - called
    times = [entry_seconds(entry) for entry in entries.values()]
    known = [moment for moment in times if moment is not None]
    first = entry_seconds(turn.user) if turn.user is not None else None
    start = first if first is not None else (min(known) if known else None)
    seconds = max(0.0, max(known) - start) if known and start is not None else None
    tokens_in = tokens_out = 0
    for entry in entries.values():
        if entry.type != "message":
            continue
        message = entry.record.get("message")
        if isinstance(message, dict) and message.get("role") == "assistant":
            usage = message.get("usage")
            tokens_in += sum(
                _count(usage, key) for key in ("inputTokens", "cacheReadTokens", "cacheWriteTokens")
            )
            tokens_out += _count(usage, "outputTokens")
    tool_seconds = min(tool_seconds, seconds) if seconds is not None else tool_seconds
    return TurnTime(seconds, tool_seconds, tokens_in, tokens_out, start)


def short_duration(seconds: float | None) -> str:
    """``0.8s``, ``12s``, ``3m04s``, ``1h02m``, ``2d03h``; ``?`` when unknown."""
    if seconds is None:
        return "?"
    if seconds < 10:
        return f"{seconds:.1f}s"
    whole = round(seconds)
    if whole < 60:
        return f"{whole}s"
    minutes, secs = divmod(whole, 60)
    if minutes < 60:
        return f"{minutes}m{secs:02d}s"
    hours, minutes = divmod(minutes, 60)
    if hours < 24:
        return f"{hours}h{minutes:02d}m"
    days, hours = divmod(hours, 24)
    return f"{days}d{hours:02d}h"
