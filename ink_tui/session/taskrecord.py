"""Task records (``taskRecord`` on a ``task`` tool result, spec §2): the shape Ink's
``parseTaskRecord`` accepts (``task-record.ts@c97f27ae``), and the fields ink-tui reads.

Ink treats a record that fails any check as absent: a ``task`` result without a valid record is
a subagent whose work is unknown (:mod:`ink_tui.session.usage_totals`). A malformed ``health``
is dropped by Ink without invalidating the record; extra keys are allowed.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Final, Literal, NotRequired, TypedDict, cast

__all__ = ["Binding", "Number", "TaskRecord", "UsageReport", "finite", "valid_task_record"]

Number = int | float


class UsageReport(TypedDict, total=False):
    """A ``usage`` object as Ink records it (absent keys count 0)."""

    inputTokens: Number
    outputTokens: Number
    cacheReadTokens: Number
    cacheWriteTokens: Number
    incomplete: Literal[True]  # task records only


class Binding(TypedDict):
    providerName: str
    wireModelId: str
    reference: str


class TaskRecord(TypedDict):
    """The fields of a valid ``taskRecord`` (spec §2) the totals read (extra keys allowed)."""

    version: Literal[1]
    attemptId: str
    launched: bool
    binding: NotRequired[Binding]
    usage: NotRequired[UsageReport]


_STATUSES: Final = frozenset(
    {"completed", "max_iterations", "aborted", "timeout", "crash", "rejected"}
)
_WHY: Final = frozenset({"disabled", "no-parent-session", "write-failed", "no-content"})
_DISPOSITIONS: Final = frozenset({"removed", "kept-work", "kept-unknown", "removal-failed"})
_OPTIONAL_STRINGS: Final = ("taskToolCallId", "parentSessionId", "childId", "agent", "reason")


def finite(value: object) -> bool:
    """A JSON number JavaScript calls finite (``true`` is no number)."""
    kind = type(value)
    return kind is int or (kind is float and math.isfinite(cast(float, value)))


def _valid_usage(usage: object) -> bool:
    if not isinstance(usage, dict):
        return False
    if not (finite(usage.get("inputTokens")) and finite(usage.get("outputTokens"))):
        return False
    if any(key in usage and not finite(usage[key]) for key in _CACHE_KEYS):
        return False
    return "incomplete" not in usage or usage["incomplete"] is True


def _valid_binding(binding: object) -> bool:
    if not isinstance(binding, dict):
        return False
    parts = [binding.get(key) for key in ("providerName", "wireModelId", "reference")]
    if not all(isinstance(part, str) and part for part in parts):
        return False
    return parts[2] == f"{parts[0]}/{parts[1]}"


def _valid_transcript(transcript: object) -> bool:
    if not isinstance(transcript, dict):
        return False
    if transcript.get("present") is True:
        failed = transcript.get("writeFailed", True)
        return isinstance(transcript.get("path"), str) and failed is True
    return transcript.get("present") is False and transcript.get("why") in _WHY


def _valid_worktree(worktree: object) -> bool:
    if not isinstance(worktree, dict):
        return False
    detail = worktree.get("detail", "")
    return (
        isinstance(worktree.get("path"), str)
        and isinstance(worktree.get("branch"), str)
        and worktree.get("disposition") in _DISPOSITIONS
        and isinstance(detail, str)
    )


def valid_task_record(value: object) -> TaskRecord | None:
    """``value`` when it is a task record Ink's ``parseTaskRecord`` keeps (spec §2), else
    ``None`` (Ink then treats the result as having no record). A malformed ``health`` does
    not matter: Ink drops it and keeps the record."""
    if not isinstance(value, dict):
        return None
    version = value.get("version")
    if type(version) not in (int, float) or version != 1:  # 1.0 is 1 to JavaScript
        return None
    attempt = value.get("attemptId")
    if not isinstance(attempt, str) or not attempt:
        return None
    if not all(isinstance(value.get(key), str) for key in ("sourceId", "timestamp", "cwd")):
        return None
    if type(value.get("launched")) is not bool or type(value.get("textPresent")) is not bool:
        return None
    if not finite(value.get("turns")) or value.get("status") not in _STATUSES:
        return None
    if any(key in value and not isinstance(value[key], str) for key in _OPTIONAL_STRINGS):
        return None
    if "timeoutMs" in value and not finite(value["timeoutMs"]):
        return None
    tools = value.get("tools", [])
    if not isinstance(tools, list) or not all(isinstance(tool, str) for tool in tools):
        return None
    checks: tuple[tuple[str, Callable[[object], bool]], ...] = (
        ("binding", _valid_binding),
        ("transcript", _valid_transcript),
        ("worktree", _valid_worktree),
        ("usage", _valid_usage),
    )
    if any(key in value and not check(value[key]) for key, check in checks):
        return None
    return cast(TaskRecord, value)


_CACHE_KEYS: Final = ("cacheReadTokens", "cacheWriteTokens")
