"""What must hold after a writer died at any moment (a kill, a power cut): the checks and their
figures, shared by the kill torture and the byte-offset cuts.

For a file that held ``before`` (a clean session) when a writer started to append
``written`` (:class:`torture_plan.Written`, known byte for byte), :func:`check_crash`:

1. the file is ``before`` plus an exact prefix of ``written``;
2. ``open`` never crashes, keeps every complete record (at its offset, as written), follows the
   torn-tail rules (a partial last record is dropped, a whole one without its newline is kept,
   ``tornFinalLine`` as Ink sets it);
3. the index agrees with a fresh open (``open_from_index`` equals ``open_session`` or is None);
4. ``repair`` leaves exactly the complete records plus at most the one closure Ink's rules add
   (the dangling calls of the last assistant message), keeps whatever it cut in a 0600 backup
   that holds exactly those bytes, and the file then opens clean (and the index agrees again).

Failures are collected in :class:`Figures`, never raised, so a run reports them all.
"""

from __future__ import annotations

import json
import stat
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from testdata import session_facts
from torture_plan import Written

from ink_tui.catalog.index import CatalogIndex, update_index
from ink_tui.catalog.index.opening import open_from_index
from ink_tui.session import SessionFile, open_session, repair_session
from ink_tui.session.conversation.pairing import UNKNOWN_OUTCOME_TEXT

__all__ = ["Figures", "check_crash", "check_index", "count_records"]

MAX_FAILURES_KEPT = 20


@dataclass
class Figures:
    """What a torture run did and found."""

    crashes: int = 0  # simulated crashes checked (kills or cuts)
    torn_tails: int = 0  # crashes that left a partial last record
    unterminated: int = 0  # ... a whole last record without its newline
    reader_crashes: int = 0  # open raised
    records_checked: int = 0  # complete records found where they were written
    records_lost: int = 0  # complete records missing after open or repair
    not_a_prefix: int = 0  # the file is not what was written, cut somewhere
    repairs: Counter[str] = field(default_factory=Counter)  # truncated, terminated, closed
    backups_checked: int = 0
    index_checks: int = 0
    index_opened: int = 0  # of which open_from_index answered (not None)
    index_disagreements: int = 0
    reopened_clean: int = 0  # after repair: no torn line, nothing dropped
    new_sessions: Counter[str] = field(default_factory=Counter)  # kills while creating one
    sizes: list[int] = field(default_factory=list)  # file sizes at the crashes
    failures: list[str] = field(default_factory=list)

    def fail(self, text: str) -> None:
        if len(self.failures) < MAX_FAILURES_KEPT:
            self.failures.append(text)
        else:
            self.failures[-1] = f"... and more (last: {text})"

    @property
    def failed(self) -> int:
        return (
            self.reader_crashes
            + self.records_lost
            + self.not_a_prefix
            + self.index_disagreements
            + len(self.failures)
        )


def count_records(session: SessionFile) -> int:
    return len(session.entries) + len(session.positions) + len(session.session_models)


def _records_after(session: SessionFile, start: int) -> dict[int, dict[str, Any]]:
    """The records ``session`` holds at or after byte ``start``, by offset."""
    found: dict[int, dict[str, Any]] = {}
    for entry in session.entries:
        if entry.offset >= start:
            found[entry.offset] = entry.record
    for marker in (*session.positions, *session.session_models):
        if marker.offset >= start:
            found[marker.offset] = marker.record
    return found


class _Crash:
    """One crash: the file's new bytes against what was being written."""

    def __init__(self, written: Written, tail: bytes) -> None:
        self.written = written
        self.tail = tail
        self.done = written.complete_end(len(tail))  # the complete records' end
        following = [end for end in written.ends if end > self.done]
        self.next_end = following[0] if following else self.done
        self.partial = len(tail) - self.done
        # the whole JSON of the next record, only its newline missing: open() keeps it
        self.whole = self.partial > 0 and self.partial == self.next_end - self.done - 1
        self.kept_end = self.next_end if self.whole else self.done

    def records(self, end: int) -> dict[int, dict[str, Any]]:
        """The records written before ``end`` (relative), by absolute offset."""
        found: dict[int, dict[str, Any]] = {}
        start = 0
        for record_end in self.written.ends:
            if record_end > end:
                break
            found[self.written.start + start] = json.loads(self.written.data[start:record_end])
            start = record_end
        return found

    def dangling(self) -> list[tuple[str, str]]:
        """The calls of the last kept record, when it is an assistant message with calls."""
        kept = self.records(self.kept_end)
        if not kept:
            return []
        last = kept[max(kept)]
        message = last.get("message") if last.get("type") == "message" else None
        if not isinstance(message, dict) or message.get("role") != "assistant":
            return []
        return [
            (block["id"], block["name"])
            for block in message["blocks"]
            if block.get("type") == "toolCall"
        ]


def check_index(
    index: CatalogIndex,
    base: Path,
    path: Path,
    session: SessionFile,
    figures: Figures,
    payloads_from: int,
) -> None:
    figures.index_checks += 1
    try:
        update_index(index, base, None)
        found = open_from_index(index, path)
    except Exception as error:  # every failure is a finding, never a stop
        figures.index_disagreements += 1
        figures.fail(f"{path.name}: the index raised {error!r}")
        return
    if found is None:
        return
    figures.index_opened += 1
    if session_facts(found, payloads_from) != session_facts(session, payloads_from):
        figures.index_disagreements += 1
        figures.fail(f"{path.name}: open_from_index differs from open_session at {session.size}")


def check_crash(
    path: Path,
    before: SessionFile,
    written: Written,
    figures: Figures,
    *,
    index: CatalogIndex | None = None,
    base: Path | None = None,
) -> SessionFile | None:
    """Every check after a crash of a writer that was appending ``written`` after ``before``;
    returns the session as repaired (clean, ready for the next writer), ``None`` on failure."""
    figures.crashes += 1
    size = path.stat().st_size
    figures.sizes.append(size)
    with path.open("rb") as stream:
        stream.seek(written.start)
        tail = stream.read()
    if size < written.start or not bytes(written.data).startswith(tail):
        figures.not_a_prefix += 1
        figures.fail(f"{path.name}: the bytes after {written.start} are not what was written")
        return None
    crash = _Crash(written, tail)
    figures.torn_tails += crash.partial > 0 and not crash.whole
    figures.unterminated += crash.whole
    try:
        session = open_session(path, warn=None)
    except Exception as error:
        figures.reader_crashes += 1
        figures.fail(f"{path.name}: open raised {error!r} at size {size}")
        return None
    _check_open(path, before, crash, session, figures)
    if index is not None and base is not None:
        check_index(index, base, path, session, figures, written.start)
    repaired = _check_repair(path, before, crash, figures)
    if repaired is not None and index is not None and base is not None:
        check_index(index, base, path, repaired, figures, written.start)
    return repaired


def _check_open(
    path: Path, before: SessionFile, crash: _Crash, session: SessionFile, figures: Figures
) -> None:
    expected = crash.records(crash.kept_end)
    found = _records_after(session, crash.written.start)
    figures.records_checked += len(expected)
    lost = [offset for offset, record in expected.items() if found.get(offset) != record]
    if lost or len(found) != len(expected):
        figures.records_lost += len(lost)
        figures.fail(
            f"{path.name}: open kept {len(found)} new record(s), {len(expected)} written "
            f"({len(lost)} lost) after a cut at {crash.written.start + len(crash.tail)}"
        )
    if count_records(session) != count_records(before) + len(expected):
        figures.fail(f"{path.name}: open lost an earlier record")
    torn = crash.partial > 0
    rules = (
        session.torn_final_line == torn,
        session.ends_with_newline == (not torn),
        (session.dropped_final_line is not None) == (torn and not crash.whole),
    )
    if not all(rules):
        figures.fail(f"{path.name}: torn-tail rules broken at {session.size} ({rules})")


def _check_repair(
    path: Path, before: SessionFile, crash: _Crash, figures: Figures
) -> SessionFile | None:
    start = crash.written.start
    try:
        session, plan = repair_session(path)  # the session as re-read after the repair
    except Exception as error:
        figures.fail(f"{path.name}: repair raised {error!r}")
        return None
    if not plan.ok:
        figures.fail(f"{path.name}: repair refused: {plan.problem}")
        return None
    data = path.read_bytes()[start:]
    kept = bytes(crash.written.data[: crash.kept_end])
    if not data.startswith(kept):
        figures.records_lost += 1
        figures.fail(f"{path.name}: repair did not keep the {crash.kept_end} bytes written whole")
        return None
    _check_closure(path, crash, data[len(kept) :], figures)
    if plan.torn is not None:
        figures.repairs[plan.torn.action] += 1
        _check_backup(path, crash, plan.backup, figures)
    if session.torn_final_line or session.skipped_markers:
        figures.fail(f"{path.name}: not clean after repair")
        return None
    closures = 1 if plan.appended else 0
    if count_records(session) != count_records(before) + len(crash.records(crash.kept_end)) + (
        closures
    ):
        figures.fail(f"{path.name}: repair changed the number of records")
    figures.reopened_clean += 1
    return session


def _check_closure(path: Path, crash: _Crash, added: bytes, figures: Figures) -> None:
    """``added``: what repair appended after the records kept. At most one toolResult closing
    exactly the last assistant message's calls, in order, with Ink's unknown-outcome text."""
    calls = crash.dangling()
    if not calls:
        if added:
            figures.fail(f"{path.name}: repair appended {len(added)} bytes with nothing dangling")
        return
    figures.repairs["closed"] += 1
    try:
        (line,) = added.splitlines()
        record = json.loads(line)
    except ValueError:
        figures.fail(f"{path.name}: repair appended {added[:80]!r}, not one closing record")
        return
    results = [
        {"toolCallId": call_id, "toolName": name, "content": UNKNOWN_OUTCOME_TEXT, "isError": True}
        for call_id, name in calls
    ]
    kept = crash.records(crash.kept_end)
    if (
        not added.endswith(b"\n")
        or record.get("type") != "message"
        or record.get("parentId") != kept[max(kept)]["id"]
        or record.get("message") != {"role": "toolResult", "results": results}
    ):
        figures.fail(f"{path.name}: the closure is not Ink's: {line[:120]!r}")


def _check_backup(path: Path, crash: _Crash, backup: Path | None, figures: Figures) -> None:
    cut = bytes(crash.tail[crash.kept_end :]) if not crash.whole else b""
    if not cut:
        if backup is not None:
            figures.fail(f"{path.name}: a backup for a repair that cut nothing")
        return
    if backup is None or not backup.is_file():
        figures.fail(f"{path.name}: {len(cut)} bytes cut without a backup")
        return
    if backup.read_bytes() != cut or stat.S_IMODE(backup.stat().st_mode) != 0o600:
        figures.fail(f"{path.name}: the backup {backup.name} is not the bytes cut, mode 0600")
    elif backup.name.endswith(".jsonl"):
        figures.fail(f"{path.name}: the backup {backup.name} would be listed as a session")
    else:
        figures.backups_checked += 1
    backup.unlink()
