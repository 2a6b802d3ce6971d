"""A branch's counts and token usage, for the session view's header."""

from __future__ import annotations

from dataclasses import dataclass

from ink_tui.session.conversation.view import ToolStatus, Turn, TurnChanges
from ink_tui.session.reading.reader import Entry
from ink_tui.session.reading.recordtypes import json_object

__all__ = ["BranchStats", "add_to_stats", "branch_stats", "count_entries", "count_turns"]


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
    last_model: str | None = None  # the model the branch's last assistant message names


def _tokens(usage: object, key: str) -> int:
    value = usage.get(key) if json_object(usage) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def branch_stats(branch_entries: list[Entry], turns: list[Turn]) -> BranchStats:
    """Count what the branch holds and add up the usage its assistant messages report."""
    stats = BranchStats()
    count_entries(stats, branch_entries)
    count_turns(stats, turns)
    return stats


def count_entries(stats: BranchStats, entries: list[Entry]) -> None:
    """Add the messages, compactions and usage of ``entries`` (their payloads are read), and
    the model the last of their assistant messages to name one names."""
    _add_entries(stats, entries)


def count_turns(stats: BranchStats, turns: list[Turn]) -> None:
    """Set the turn count and add the tool calls of ``turns`` (from the rows alone)."""
    stats.turns = sum(1 for turn in turns if turn.user is not None)
    for turn in turns:
        for tool in turn.tools():
            stats.tool_calls += 1
            _tally(stats, tool.status, 1)


def add_to_stats(stats: BranchStats, new_entries: list[Entry], changes: list[TurnChanges]) -> None:
    """Add entries that continued the branch, and what they changed in its turns, to its stats.

    Only what the batch touched is counted: its new turns and calls, and the calls it answered
    (a call's first result moves it from "without result" to its outcome; a duplicate changes
    nothing).
    """
    _add_entries(stats, new_entries)
    batch = {id(entry) for entry in new_entries}
    counted: set[int] = set()
    for change in changes:
        stats.turns += sum(1 for turn in change.new_turns if turn.user is not None)
        for _turn, item in change.new_items:
            if item.tool is not None:
                counted.add(id(item))
                stats.tool_calls += 1
                _tally(stats, item.tool.status, 1)
    for change in changes:
        for item in change.answered:
            tool = item.tool
            if tool is None or id(item) in counted or id(tool.result_entry) not in batch:
                continue  # counted as it is now, or answered before this batch
            counted.add(id(item))
            _tally(stats, "missing", -1)
            _tally(stats, tool.status, 1)


def _tally(stats: BranchStats, status: ToolStatus, step: int) -> None:
    if status == "error":
        stats.tool_errors += step
    elif status == "missing":
        stats.unanswered += step


def _add_entries(stats: BranchStats, new_entries: list[Entry]) -> None:
    for entry in new_entries:
        if entry.type == "compaction":
            stats.compactions += 1
        if entry.type != "message":
            continue
        stats.messages += 1
        message = entry.message
        if message["role"] == "assistant":
            reference = message.get("modelReference") or message.get("model")
            if isinstance(reference, str) and reference:
                stats.last_model = reference
            usage = message.get("usage")
            stats.input_tokens += _tokens(usage, "inputTokens")
            stats.output_tokens += _tokens(usage, "outputTokens")
            stats.cache_read_tokens += _tokens(usage, "cacheReadTokens")
            stats.cache_write_tokens += _tokens(usage, "cacheWriteTokens")
