"""Crash repair as Ink does it, without ever losing a complete record.

- :func:`plan_torn_repair` predicts ``repairTornFinalLine``: truncate the torn final line, or
  append the missing final newline.
- :func:`plan_continuation` is the dry run of ``buildContinuationHistory`` (child resume): scan
  the pairing, refuse with Ink's reasons, else list the repairs and the ``toolResult`` that
  closes the dangling calls of the last assistant turn.
- :func:`repair_session` carries the plan out: the only place, with the writer, that changes a
  session file.

Current Ink's repair accepts every line its ``open()`` keeps (``position`` markers whatever their
``leafId``), so it never cuts a record ``open()`` read. Imp-era builds truncated at an earlier
marker with an invalid ``leafId`` and lost the records after it; ink-tui follows current Ink.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ink_tui.session.context import build_context
from ink_tui.session.pairing import UNKNOWN_OUTCOME_TEXT, pair_tool_calls
from ink_tui.session.reader import SessionFile, open_session
from ink_tui.session.shapes import unsendable
from ink_tui.session.writer import ConcurrentWriteError, SessionWriter

__all__ = [
    "Continuation",
    "TornRepair",
    "apply_torn_repair",
    "cut_complete_final_line",
    "launch_refusal",
    "plan_continuation",
    "plan_torn_repair",
    "repair_session",
]

Message = dict[str, Any]


@dataclass(frozen=True, slots=True)
class TornRepair:
    """What ``repairTornFinalLine`` does: cut the torn final line, or add the missing newline."""

    action: Literal["truncated", "terminated"]
    bytes: int
    offset: int  # where the file is cut, or where the newline goes
    line: int | None = None  # the non-blank line cut off, when truncating

    @property
    def note(self) -> str:
        """Ink's repair note."""
        if self.action == "truncated":
            return f"dropped a {self.bytes}-byte torn tail"
        return "terminated an unterminated final record"

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action, "bytes": self.bytes}


def plan_torn_repair(session: SessionFile) -> TornRepair | None:
    """Exactly Ink's ``repairTornFinalLine`` (spec §6), or ``None`` when it does nothing.

    Its acceptance test (``store.ts@b1deda4d`` ``acceptsAsSessionLine``) takes every line
    ``open()`` keeps, ``position`` markers of any ``leafId`` included, so on a file that opened
    the only unacceptable line is the dropped final one: cut it; else add a missing newline.
    """
    if not session.torn_final_line:
        return None
    dropped = session.dropped_final_line
    if dropped is not None:
        return TornRepair("truncated", session.size - dropped.offset, dropped.offset, dropped.line)
    return TornRepair("terminated", 1, session.size)


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


def launch_refusal(header: dict[str, Any]) -> str | None:
    """Why Ink refuses to resume a subagent session for its launch record, else ``None``.

    Launch records written before the identifier change (imp builds, and ``b1deda4d``) carry
    ``impVersion`` instead of ``inkVersion``; since the fixture-hygiene change (``385d2fb``) such
    a record is invalid for resume. The file still opens and reads like any other session.
    """
    launch = header.get("launch")
    if isinstance(launch, dict) and "impVersion" in launch:
        return (
            "this subagent session was launched by an imp-era build (its launch record carries "
            "impVersion): current Ink refuses to resume it"
        )
    return None


def plan_continuation(session: SessionFile) -> Continuation:
    """Dry run of the child-resume repair. Raises ``SessionError`` when the branch is broken."""
    refusal = launch_refusal(session.header)
    if refusal is not None:  # the launch record is validated before the transcript
        return Continuation(ok=False, problem=refusal)
    context = build_context(session)
    pairing = pair_tool_calls(context.messages)
    problem = pairing.problem or unsendable(context.messages)
    if problem is not None:
        return Continuation(ok=False, problem=problem)
    torn = plan_torn_repair(session)
    result = Continuation(ok=True, compaction_boundary=context.compaction_boundary, torn=torn)
    if torn is not None:
        result.repairs.append(torn.note)
    dangling = pairing.dangling
    unmatchable = [call for call in dangling if isinstance(call.raw_id, dict | list)]
    if unmatchable:  # JavaScript compares objects by identity: no result ever pairs with it
        return Continuation(
            ok=False,
            problem=f"tool call {unmatchable[0].id} has an id no result can match (not a string, "
            "number or null) — the transcript is not continuable (start a new task instead)",
        )
    if dangling:
        result.appended.append(
            {
                "role": "toolResult",
                "results": [call.closure(UNKNOWN_OUTCOME_TEXT) for call in dangling],
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
