"""A ``task`` result's ``taskRecord`` (spec §2, ``task-record.ts@c97f27ae``): read as Ink reads it.

:func:`parse_task_record` is Ink's ``parseTaskRecord``: a record is absent unless ``version`` is
``1``, ``attemptId`` a non-empty string, ``sourceId``, ``timestamp`` and ``cwd`` strings,
``launched`` and ``textPresent`` booleans, ``turns`` a finite number, ``status`` one of the six,
every optional scalar of its type (a ``null`` is not absent: it invalidates), ``binding`` three
non-empty strings with ``reference`` = ``providerName/wireModelId``, ``tools`` a string list, and
``transcript``, ``worktree`` and ``usage`` of their shapes. A malformed ``health`` is dropped
(the record stays). Extra keys are allowed.

:func:`record_line` and :func:`no_transcript` say what a record tells, in plain words, for the
session view and the subagent rows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Final, cast

from ink_tui.humanize import plural
from ink_tui.session.reading.shapes import MISSING

__all__ = [
    "HealthSignal",
    "TaskRecord",
    "no_transcript",
    "parse_task_record",
    "record_line",
    "task_record",
]

STATUSES: Final = ("completed", "max_iterations", "aborted", "timeout", "crash", "rejected")
WHY_NOT: Final = ("disabled", "no-parent-session", "write-failed", "no-content")
DISPOSITIONS: Final = ("removed", "kept-work", "kept-unknown", "removal-failed")
HEALTH_CODES: Final = ("repeat-loop", "mutation-failure-streak", "tool-open", "compaction-failures")

_STATUS_WORDS: Final = {
    "completed": "completed",
    "max_iterations": "stopped at its turn cap",
    "aborted": "aborted",
    "timeout": "timed out",
    "crash": "crashed",
    "rejected": "rejected before it ran",
}
_WHY_WORDS: Final = {
    "disabled": "Ink was told not to keep subagent transcripts (INK_CHILD_SESSIONS=0)",
    "no-parent-session": "the parent ran without a session file (--no-session)",
    "write-failed": "writing the transcript failed, so nothing was kept",
    "no-content": "the subagent wrote nothing to keep",
}
_WORKTREE_WORDS: Final = {
    "removed": "worktree removed",
    "kept-work": "worktree kept: it holds work",
    "kept-unknown": "worktree kept: its state is unknown",
    "removal-failed": "worktree removal failed",
}


def _number(value: Any) -> bool:
    """``typeof value === "number" && Number.isFinite(value)``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return math.isfinite(value)


def _optional(value: Any, check: Any) -> bool:
    return value is MISSING or check(value)


def _string(value: Any) -> bool:
    return isinstance(value, str)


def _binding(value: Any) -> bool:
    if not isinstance(value, dict):
        return False
    provider, wire, reference = (value.get(k) for k in ("providerName", "wireModelId", "reference"))
    strings = all(isinstance(v, str) and v != "" for v in (provider, wire, reference))
    return strings and reference == f"{provider}/{wire}"


def _transcript(value: Any) -> bool:
    if not isinstance(value, dict):
        return False
    present = value.get("present", MISSING)
    if present is True:
        failed = value.get("writeFailed", MISSING)
        return isinstance(value.get("path"), str) and (failed is MISSING or failed is True)
    if present is False:
        return value.get("why") in WHY_NOT
    return False


def _worktree(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and isinstance(value.get("path"), str)
        and isinstance(value.get("branch"), str)
        and value.get("disposition") in DISPOSITIONS
        and _optional(value.get("detail", MISSING), _string)
    )


def _usage(value: Any) -> bool:
    if not isinstance(value, dict):
        return False
    if not (_number(value.get("inputTokens")) and _number(value.get("outputTokens"))):
        return False
    caches = (value.get(k, MISSING) for k in ("cacheReadTokens", "cacheWriteTokens"))
    if not all(_optional(cache, _number) for cache in caches):
        return False
    incomplete = value.get("incomplete", MISSING)
    return incomplete is MISSING or incomplete is True


def _health_signal(value: Any) -> bool:
    if not isinstance(value, dict) or value.get("code") not in HEALTH_CODES:
        return False
    count: Any = value.get("count")
    turn: Any = value.get("turn")
    if not (_number(count) and _number(turn)):
        return False
    return bool(count > 0 and turn >= 0) and _optional(value.get("detail", MISSING), _string)


@dataclass(frozen=True, slots=True)
class HealthSignal:
    code: str
    count: float
    turn: float
    detail: str | None = None


@dataclass(frozen=True, slots=True)
class TaskRecord:
    """A valid task record (its fields as Ink checked them; ``raw`` is the object itself)."""

    raw: dict[str, Any]
    health: tuple[HealthSignal, ...]  # empty when absent, or dropped as malformed

    def _get(self, key: str) -> Any:
        return self.raw.get(key)

    @property
    def attempt_id(self) -> str:
        return str(self.raw["attemptId"])

    @property
    def status(self) -> str:
        return str(self.raw["status"])

    @property
    def launched(self) -> bool:
        return self.raw["launched"] is True

    @property
    def turns(self) -> float:
        return float(self.raw["turns"])

    @property
    def child_id(self) -> str | None:
        value = self._get("childId")
        return value if isinstance(value, str) and value else None

    @property
    def agent(self) -> str | None:
        return cast("str | None", self._get("agent"))

    @property
    def reason(self) -> str | None:
        return cast("str | None", self._get("reason"))

    @property
    def transcript(self) -> dict[str, Any] | None:
        return cast("dict[str, Any] | None", self._get("transcript"))

    @property
    def worktree(self) -> dict[str, Any] | None:
        return cast("dict[str, Any] | None", self._get("worktree"))

    @property
    def usage(self) -> dict[str, Any] | None:
        return cast("dict[str, Any] | None", self._get("usage"))

    @property
    def transcript_path(self) -> str | None:
        transcript = self.transcript
        return str(transcript["path"]) if transcript and transcript["present"] is True else None


def parse_task_record(value: Any) -> TaskRecord | None:
    """Ink's ``parseTaskRecord``: the record, or ``None`` where Ink treats it as absent."""
    if not isinstance(value, dict):
        return None
    get = value.get
    if get("version") != 1 or isinstance(get("version"), bool):
        return None
    attempt = get("attemptId")
    if not isinstance(attempt, str) or attempt == "":
        return None
    if not all(isinstance(get(key), str) for key in ("sourceId", "timestamp", "cwd")):
        return None
    if not (isinstance(get("launched"), bool) and isinstance(get("textPresent"), bool)):
        return None
    if not _number(get("turns")) or get("status") not in STATUSES:
        return None
    texts = ("taskToolCallId", "parentSessionId", "childId", "agent", "reason")
    if not all(_optional(get(key, MISSING), _string) for key in texts):
        return None
    if not _optional(get("timeoutMs", MISSING), _number):
        return None
    tools = get("tools", MISSING)
    if not (_optional(get("binding", MISSING), _binding) and _optional(tools, _tool_names)):
        return None
    shapes = (("transcript", _transcript), ("worktree", _worktree), ("usage", _usage))
    if not all(_optional(get(key, MISSING), check) for key, check in shapes):
        return None
    health = get("health", MISSING)
    signals: tuple[HealthSignal, ...] = ()
    if isinstance(health, list) and all(_health_signal(item) for item in health):
        signals = tuple(
            HealthSignal(s["code"], s["count"], s["turn"], s.get("detail")) for s in health
        )
    return TaskRecord(value, signals)


def _tool_names(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def task_record(result: Any) -> TaskRecord | None:
    """The valid ``taskRecord`` of a tool result, if it carries one."""
    return parse_task_record(result.get("taskRecord")) if isinstance(result, dict) else None


# -- in words ----------------------------------------------------------------------------------


def no_transcript(record: TaskRecord | None) -> str | None:
    """Why a call has no subagent session to show, from its record: ``None`` when the record
    says one was written (or there is no record)."""
    if record is None:
        return None
    if not record.launched:
        return "rejected before any subagent ran"
    transcript = record.transcript
    if transcript is None or transcript["present"] is True:
        return None
    return _WHY_WORDS[transcript["why"]]


def _count(value: float) -> str:
    return str(int(value)) if value == int(value) else str(value)


def _health(signals: tuple[HealthSignal, ...]) -> str:
    shown = [
        f"{s.code} {_count(s.count)} time{'s' if s.count != 1 else ''} by turn {_count(s.turn)}"
        + (f": {s.detail}" if s.detail else "")
        for s in signals
    ]
    return "health: " + ", ".join(shown)


def record_line(record: TaskRecord) -> str:
    """What the record says, in one line: ``subagent reviewer completed · 3 turns · health: …
    · worktree kept: it holds work (branch ink/t1) · transcript kept``."""
    who = f"subagent {record.agent}" if record.agent else "subagent"
    status = _STATUS_WORDS[record.status]
    if not record.launched and record.status != "rejected":
        status += " (never launched)"
    parts = [f"{who} {status}"]
    if record.launched:
        turns = record.turns
        parts.append(plural(int(turns), "turn") if turns == int(turns) else f"{turns} turns")
    if record.reason:
        parts[0] += f": {record.reason}"
    if record.health:
        parts.append(_health(record.health))
    worktree = record.worktree
    if worktree is not None:
        words = _WORKTREE_WORDS[worktree["disposition"]]
        branch = f" (branch {worktree['branch']})" if worktree["branch"] else ""
        parts.append(words + branch)
    transcript = record.transcript
    if transcript is not None and transcript["present"] is True:
        failed = transcript.get("writeFailed") is True
        parts.append("transcript partly written (a write failed)" if failed else "transcript kept")
    elif transcript is not None:
        parts.append(f"no transcript: {_WHY_WORDS[transcript['why']]}")
    return " · ".join(parts)
