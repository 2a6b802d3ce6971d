"""A ``task`` result's ``taskRecord`` (spec §2, ``task-record.ts@c97f27ae``): read as Ink reads it.

:func:`parse_task_record` is Ink's ``parseTaskRecord``: a record is absent unless ``version`` is
``1``, ``attemptId`` a non-empty string, ``sourceId``, ``timestamp`` and ``cwd`` strings,
``launched`` and ``textPresent`` booleans, ``turns`` a finite number, ``status`` one of the six,
every optional scalar of its type (a ``null`` is not absent: it invalidates), ``binding`` three
non-empty strings with ``reference`` = ``providerName/wireModelId``, ``tools`` a string list, and
``transcript``, ``worktree`` and ``usage`` of their shapes. A malformed ``health`` does not
matter (Ink drops it and keeps the record). Extra keys are allowed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Final, cast

from ink_tui.session.shapes import MISSING

__all__ = ["TaskRecord", "parse_task_record", "task_record"]

STATUSES: Final = ("completed", "max_iterations", "aborted", "timeout", "crash", "rejected")
WHY_NOT: Final = ("disabled", "no-parent-session", "write-failed", "no-content")
DISPOSITIONS: Final = ("removed", "kept-work", "kept-unknown", "removal-failed")
_TEXTS: Final = ("taskToolCallId", "parentSessionId", "childId", "agent", "reason")


def _finite(value: object) -> bool:
    """``typeof value === "number" && Number.isFinite(value)`` (``true`` is no number)."""
    kind = type(value)
    return kind is int or (kind is float and math.isfinite(cast(float, value)))


def _optional(value: Any, check: Any) -> bool:
    return value is MISSING or bool(check(value))


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
    return present is False and value.get("why") in WHY_NOT


def _worktree(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and isinstance(value.get("path"), str)
        and isinstance(value.get("branch"), str)
        and value.get("disposition") in DISPOSITIONS
        and _optional(value.get("detail", MISSING), lambda detail: isinstance(detail, str))
    )


def _usage(value: Any) -> bool:
    if not isinstance(value, dict):
        return False
    if not (_finite(value.get("inputTokens")) and _finite(value.get("outputTokens"))):
        return False
    caches = (value.get(k, MISSING) for k in ("cacheReadTokens", "cacheWriteTokens"))
    if not all(_optional(cache, _finite) for cache in caches):
        return False
    incomplete = value.get("incomplete", MISSING)
    return incomplete is MISSING or incomplete is True


def _tool_names(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


@dataclass(frozen=True, slots=True)
class TaskRecord:
    """A valid task record (its fields as Ink checked them; ``raw`` is the object itself)."""

    raw: dict[str, Any]
    health: tuple[Any, ...] = ()

    @property
    def attempt_id(self) -> str:
        return str(self.raw["attemptId"])

    @property
    def launched(self) -> bool:
        return self.raw["launched"] is True

    @property
    def usage(self) -> dict[str, Any] | None:
        return cast("dict[str, Any] | None", self.raw.get("usage"))


def parse_task_record(value: Any) -> TaskRecord | None:
    """Ink's ``parseTaskRecord``: the record, or ``None`` where Ink treats it as absent."""
    if not isinstance(value, dict):
        return None
    get = value.get
    if get("version") != 1 or isinstance(get("version"), bool):
        return None  # 1.0 is 1 to JavaScript; true is not
    attempt = get("attemptId")
    if not isinstance(attempt, str) or attempt == "":
        return None
    if not all(isinstance(get(key), str) for key in ("sourceId", "timestamp", "cwd")):
        return None
    if not (isinstance(get("launched"), bool) and isinstance(get("textPresent"), bool)):
        return None
    if not _finite(get("turns")) or get("status") not in STATUSES:
        return None
    if not all(_optional(get(key, MISSING), lambda v: isinstance(v, str)) for key in _TEXTS):
        return None
    if not _optional(get("timeoutMs", MISSING), _finite):
        return None
    tools = get("tools", MISSING)
    if not (_optional(get("binding", MISSING), _binding) and _optional(tools, _tool_names)):
        return None
    shapes = (("transcript", _transcript), ("worktree", _worktree), ("usage", _usage))
    if not all(_optional(get(key, MISSING), check) for key, check in shapes):
        return None
    return TaskRecord(value)


def task_record(result: Any) -> TaskRecord | None:
    """The valid ``taskRecord`` of a tool result, if it carries one."""
    return parse_task_record(result.get("taskRecord")) if isinstance(result, dict) else None
