"""Crash repair as Ink does it, without ever losing a complete record.

- :func:`plan_torn_repair` predicts ``repairTornFinalLine``: truncate at the first unacceptable
  line after the header, or append the missing final newline.
- :func:`plan_continuation` is the dry run of ``buildContinuationHistory`` (child resume): scan
  the pairing, refuse with Ink's reasons, else list the repairs and the ``toolResult`` that
  closes the dangling calls of the last assistant turn.
- :func:`repair_session` carries the plan out: the only place, with the writer, that changes a
  session file.

One deliberate difference: a ``position`` marker with an invalid ``leafId`` is skipped by
``open()`` but unacceptable to Ink's repair, which would then truncate there and cut every
complete record after it. ink-tui repairs only the torn final line instead (Ink then opens the
file cleanly and never runs its own repair on it) and reports what Ink would have cut.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ink_tui.session.context import build_context
from ink_tui.session.pairing import UNKNOWN_OUTCOME_TEXT, pair_tool_calls
from ink_tui.session.reader import SessionFile, open_session
from ink_tui.session.writer import ConcurrentWriteError, SessionWriter

__all__ = [
    "Continuation",
    "TornRepair",
    "apply_torn_repair",
    "cut_complete_final_line",
    "plan_continuation",
    "plan_torn_repair",
    "repair_session",
]

Message = dict[str, Any]


@dataclass(frozen=True, slots=True)
class TornRepair:
    """What ``repairTornFinalLine`` does (or, with ``ink_would_cut``, what ink-tui does instead)."""

    action: Literal["truncated", "terminated"]
    bytes: int
    offset: int  # where the file is cut, or where the newline goes
    line: int | None = None  # the non-blank line cut off, when truncating
    ink_would_cut: int | None = None  # Ink's own repair would truncate here, losing records
    records_ink_would_lose: int = 0

    @property
    def note(self) -> str:
        """Ink's repair note."""
        if self.action == "truncated":
            return f"dropped a {self.bytes}-byte torn tail"
        return "terminated an unterminated final record"

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action, "bytes": self.bytes}


def _ink_torn_repair(session: SessionFile) -> TornRepair | None:
    """Exactly Ink's choice (spec §6): the first unacceptable line, else the missing newline."""
    if not session.torn_final_line:
        return None
    bad = list(session.skipped_markers)
    if session.dropped_final_line is not None:
        bad.append(session.dropped_final_line)
    if bad:
        first = min(bad, key=lambda problem: problem.offset)
        return TornRepair("truncated", session.size - first.offset, first.offset, first.line)
    if not session.ends_with_newline:
        return TornRepair("terminated", 1, session.size)
    return None


def plan_torn_repair(session: SessionFile) -> tuple[TornRepair | None, TornRepair | None]:
    """``(what Ink's repair would do, what ink-tui will do)``; they differ only to save records."""
    ink = _ink_torn_repair(session)
    if ink is None or ink.action == "terminated":
        return ink, ink
    dropped = session.dropped_final_line
    if dropped is not None and dropped.offset == ink.offset:
        return ink, ink
    lost = sum(1 for entry in session.entries if entry.offset > ink.offset)
    lost += sum(1 for marker in session.positions if marker.offset > ink.offset)
    lost += sum(1 for marker in session.session_models if marker.offset > ink.offset)
    if dropped is not None:
        safe = TornRepair("truncated", session.size - dropped.offset, dropped.offset, dropped.line)
    else:
        safe = TornRepair("terminated", 1, session.size)
    return ink, TornRepair(
        safe.action,
        safe.bytes,
        safe.offset,
        safe.line,
        ink_would_cut=ink.offset,
        records_ink_would_lose=lost,
    )


@dataclass(slots=True)
class Continuation:
    """The verdict of ``buildContinuationHistory`` and the repairs it makes (or would make)."""

    ok: bool
    problem: str | None = None
    repairs: list[str] = field(default_factory=list)
    appended: list[Message] = field(default_factory=list)
    compaction_boundary: int = 0
    torn: TornRepair | None = None

    def to_json(self) -> dict[str, Any]:
        if not self.ok:
            return {"ok": False, "problem": self.problem}
        return {
            "ok": True,
            "compactionBoundary": self.compaction_boundary,
            "repairs": list(self.repairs),
            "appended": list(self.appended),
        }


def cut_complete_final_line(session: SessionFile, repair: TornRepair | None) -> str | None:
    """The check a *complete* final line fails when ``repair`` would cut it, else ``None``.

    Ink's repair truncates a final line that fails ``open()``'s checks even when it ends in a
    newline and parses: a record of a type a newer Ink wrote, say. That loses a complete record;
    callers that must never do so (the chat pane) refuse instead. A line that is not JSON is
    taken as torn.
    """
    dropped = session.dropped_final_line
    if repair is None or repair.action != "truncated" or dropped is None:
        return None
    if not session.ends_with_newline or dropped.reason.startswith("invalid JSON"):
        return None
    return dropped.reason


def plan_continuation(session: SessionFile) -> Continuation:
    """Dry run of the child-resume repair. Raises ``SessionError`` when the branch is broken."""
    context = build_context(session)
    pairing = pair_tool_calls(context.messages)
    problem = pairing.problem
    if problem is not None:
        return Continuation(ok=False, problem=problem)
    _, torn = plan_torn_repair(session)
    result = Continuation(ok=True, compaction_boundary=context.compaction_boundary, torn=torn)
    if torn is not None:
        result.repairs.append(torn.note)
    dangling = pairing.dangling
    if dangling:
        result.appended.append(
            {
                "role": "toolResult",
                "results": [
                    {
                        "toolCallId": call.id,
                        "toolName": call.name,
                        "content": UNKNOWN_OUTCOME_TEXT,
                        "isError": True,
                    }
                    for call in dangling
                ],
            }
        )
        result.repairs.append(
            f"{len(dangling)} interrupted tool call(s) closed with an explicit "
            "unknown-outcome result"
        )
    return result


def apply_torn_repair(session: SessionFile, repair: TornRepair) -> None:
    """Truncate or terminate, after checking nobody changed the file since it was read."""
    fd = os.open(session.path, os.O_WRONLY | os.O_APPEND)
    try:
        size = os.fstat(fd).st_size
        if size != session.size:
            raise ConcurrentWriteError(
                f"{session.path}: the file changed since it was read ({session.size} -> {size} "
                "bytes); nothing was repaired"
            )
        if repair.action == "truncated":
            os.ftruncate(fd, repair.offset)
        else:
            os.write(fd, b"\n")
    finally:
        os.close(fd)


def repair_session(path: Path) -> tuple[SessionFile, Continuation]:
    """Re-read ``path``, then repair its torn tail and close its dangling calls, as planned.

    Returns the session as re-read after the repair and what was done. When the transcript is
    not continuable, nothing is written and the continuation says why.
    """
    session = open_session(path, warn=None)
    plan = plan_continuation(session)
    if not plan.ok:
        return session, plan
    if plan.torn is not None:
        apply_torn_repair(session, plan.torn)
        session = open_session(path, warn=None)
    if plan.appended:
        writer = SessionWriter.for_session(session)
        for message in plan.appended:
            writer.append_message(message)
        session = open_session(path, warn=None)
    return session, plan
