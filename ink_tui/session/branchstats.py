"""A branch's counts and token usage, for the session view's header."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ink_tui.session.reader import Entry
from ink_tui.session.view import Turn

__all__ = ["BranchStats", "add_to_stats", "branch_stats"]


@dataclass(slots=True)
class BranchStats:
    """Counts and token usage of one branch, for the session header."""

    turns: int = 0
    messages: int = 0
    tool_calls: int = 0
    tool_errors: int = 0
    unanswered: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    compactions: int = 0


def _tokens(usage: Any, key: str) -> int:
    value = usage.get(key) if isinstance(usage, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def branch_stats(branch_entries: list[Entry], turns: list[Turn]) -> BranchStats:
    """Count what the branch holds and add up the usage its assistant messages report."""
    stats = BranchStats()
    add_to_stats(stats, branch_entries, turns)
    return stats


def add_to_stats(stats: BranchStats, new_entries: list[Entry], turns: list[Turn]) -> None:
    """Add entries that continued the branch to its stats (the call counts are redone)."""
    stats.turns = sum(1 for turn in turns if turn.user is not None)
    for entry in new_entries:
        if entry.type == "compaction":
            stats.compactions += 1
        if entry.type != "message":
            continue
        stats.messages += 1
        message = entry.record["message"]
        if message.get("role") == "assistant":
            usage = message.get("usage")
            stats.input_tokens += _tokens(usage, "inputTokens")
            stats.output_tokens += _tokens(usage, "outputTokens")
            stats.cache_read_tokens += _tokens(usage, "cacheReadTokens")
            stats.cache_write_tokens += _tokens(usage, "cacheWriteTokens")
    stats.tool_calls = stats.tool_errors = stats.unanswered = 0
    for turn in turns:
        for tool in turn.tools():
            stats.tool_calls += 1
            stats.tool_errors += tool.status == "error"
            stats.unanswered += tool.status == "missing"
