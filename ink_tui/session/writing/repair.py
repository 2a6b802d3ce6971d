"""Crash repair as Ink does it, without ever losing a complete record.

- :func:`plan_torn_repair` predicts ``repairTornFinalLine``: truncate the torn final line, or
  append the missing final newline.
- :func:`plan_continuation` is the dry run of ``buildContinuationHistory`` (child resume): scan
  the pairing, refuse with Ink's reasons, else list the repairs and the ``toolResult`` that
  closes the dangling calls of the last assistant turn.
- :func:`repair_session` carries the plan out: the only place, with the writer, that changes a
  session file.

Whatever a repair cuts is first copied into a backup file beside the session
(:func:`keep_cut_bytes`: ``<session>.jsonl.cut-<UTC time>``, mode 0600, never ``*.jsonl``, so
no listing shows it). A *complete* final record that fails ``open()``'s checks (a type a newer
Ink wrote, say) is cut only when asked to (``force``): Ink's repair would cut it silently.

Current Ink's repair accepts every line its ``open()`` keeps (``position`` markers whatever their
``leafId``), so it never cuts a record ``open()`` read. Imp-era builds truncated at an earlier
marker with an invalid ``leafId`` and lost the records after it; ink-tui follows current Ink.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from ink_tui.session.conversation.contextscan import ContextScan, scan_context
from ink_tui.session.conversation.pairing import UNKNOWN_OUTCOME_TEXT
from ink_tui.session.reading.reader import SessionFile, open_session
from ink_tui.session.reading.recordtypes import HeaderRecord
from ink_tui.session.reading.shapes import oddity_refusal
from ink_tui.session.writing.writer import (
    ConcurrentWriteError,
    SessionWriter,
    WriteBlockedError,
    mirror_refusal,
)

__all__ = [
    "Continuation",
    "TornRepair",
    "apply_torn_repair",
    "complete_record_problem",
    "cut_complete_final_line",
    "keep_cut_bytes",
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
    backup: Path | None = None  # where the bytes a repair cut were kept

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


def complete_record_problem(reason: str) -> str:
    """Why a repair that is not forced leaves a complete final record alone."""
    return (
        f"the last line is a complete record that fails Ink's checks ({reason}; from a newer "
        "Ink?): Ink's repair would cut it"
    )


def launch_refusal(header: HeaderRecord) -> str | None:
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


def plan_continuation(session: SessionFile, scanned: ContextScan | None = None) -> Continuation:
    """Dry run of the child-resume repair. Raises ``SessionError`` when the branch is broken.

    ``scanned``: the scan of the session leaf's context, when the caller has it (``check``
    makes one for its report): the branch is not read again."""
    refusal = launch_refusal(session.header)
    if refusal is not None:  # the launch record is validated before the transcript
        return Continuation(ok=False, problem=refusal)
    scan = scanned if scanned is not None else scan_context(session)
    pairing = scan.pairing
    problem = pairing.problem or oddity_refusal(scan.oddity)
    if problem is not None:
        return Continuation(ok=False, problem=problem)
    torn = plan_torn_repair(session)
    result = Continuation(ok=True, compaction_boundary=scan.plan.compaction_boundary, torn=torn)
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


def apply_torn_repair(session: SessionFile, repair: TornRepair) -> Path | None:
    """Truncate or terminate, after checking nobody changed the file since it was read.

    Before truncating, the bytes cut are kept in a backup file beside the session
    (:func:`keep_cut_bytes`); returns its path (``None`` when nothing was cut). If the backup
    cannot be written, nothing is cut. Another machine's copy (its mirror) is never cut:
    :class:`WriteBlockedError`.
    """
    refusal = mirror_refusal(session.path)
    if refusal is not None:
        raise WriteBlockedError(f"{session.path}: {refusal}")
    fd = os.open(session.path, os.O_RDWR | os.O_APPEND)
    try:
        size = os.fstat(fd).st_size
        if size != session.size:
            raise ConcurrentWriteError(
                f"{session.path}: the file changed since it was read ({session.size} -> {size} "
                "bytes); nothing was repaired"
            )
        if repair.action == "terminated":
            os.write(fd, b"\n")
            return None
        backup = keep_cut_bytes(session.path, _read_at(fd, repair.offset, size))
        os.ftruncate(fd, repair.offset)
        return backup
    finally:
        os.close(fd)


def _read_at(fd: int, offset: int, end: int) -> bytes:
    chunks: list[bytes] = []
    while offset < end:
        chunk = os.pread(fd, min(end - offset, 1 << 24), offset)
        if not chunk:
            break
        chunks.append(chunk)
        offset += len(chunk)
    return b"".join(chunks)


def keep_cut_bytes(path: Path, data: bytes, now: datetime | None = None) -> Path:
    """Write ``data`` to a new ``<name>.cut-<UTC time>`` beside ``path`` (mode 0600, synced to
    disk before the session is cut); returns its path. The name never ends in ``.jsonl``."""
    moment = (now or datetime.now(UTC)).astimezone(UTC)
    stamp = moment.strftime("%Y%m%dT%H%M%S") + f"{moment.microsecond // 1000:03d}Z"
    for attempt in range(1, 1000):
        suffix = "" if attempt == 1 else f"-{attempt}"
        backup = path.with_name(f"{path.name}.cut-{stamp}{suffix}")
        try:
            fd = os.open(backup, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            continue
        try:
            os.fchmod(fd, 0o600)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        except OSError:
            os.close(fd)
            backup.unlink(missing_ok=True)
            raise
        os.close(fd)
        _sync_folder(backup.parent)
        return backup
    raise FileExistsError(f"{path}: no free name for a backup of the bytes cut")


def _sync_folder(folder: Path) -> None:
    """Make a new file's name durable (best effort: not every system opens a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def repair_session(path: Path, *, force: bool = False) -> tuple[SessionFile, Continuation]:
    """Re-read ``path``, then repair its torn tail and close its dangling calls, as planned.

    Returns the session as re-read after the repair and what was done (``backup``: where the
    bytes cut were kept). When the transcript is not continuable, or (unless ``force``) the
    repair would cut a complete record, nothing is written and the continuation says why.
    """
    session = open_session(path, warn=None)
    refusal = mirror_refusal(path)
    if refusal is not None:  # never written here
        return session, Continuation(ok=False, problem=refusal)
    plan = plan_continuation(session)
    if not plan.ok:
        return session, plan
    complete = cut_complete_final_line(session, plan.torn)
    if complete is not None and not force:
        return session, Continuation(ok=False, problem=complete_record_problem(complete))
    if plan.torn is not None:
        plan.backup = apply_torn_repair(session, plan.torn)
        session = open_session(path, warn=None)
    if plan.appended:
        writer = SessionWriter.for_session(session)
        for message in plan.appended:
            writer.append_message(message)
        session = open_session(path, warn=None)
    return session, plan
