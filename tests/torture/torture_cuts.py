"""Power cuts: a session file cut at every byte offset of the last record a writer appended
(or of the first write of a new session: its header and first record).

Without fsync, a power cut keeps any prefix of what was appended; some file systems also give
back a file grown to its new size whose last blocks were never written, read as NUL bytes
(``zeros``). The last record is picked by kind, so every kind of record is cut: an assistant
message with calls (repair then closes them), its results, a user message, a final answer, a
file-level marker or another non-message entry.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from torture_checks import Figures, check_crash, count_records
from torture_new import check_new_session_crash
from torture_plan import Written, dry_new_stream, dry_stream, grow_session
from torture_writers import WriterKind

from ink_tui.catalog.index import CatalogIndex
from ink_tui.paths import cwd_folder_name
from ink_tui.session import SessionError, SessionFile, open_session, repair_session

__all__ = ["CREATION", "LAST_RECORDS", "cut_every_offset"]

CWD = "/home/ada/proj"


def _message(record: dict[str, Any]) -> dict[str, Any]:
    message = record.get("message") if record.get("type") == "message" else None
    return message if isinstance(message, dict) else {}


def _calls(record: dict[str, Any]) -> bool:
    blocks = _message(record).get("blocks") or []
    return any(block.get("type") == "toolCall" for block in blocks)


LAST_RECORDS: dict[str, Callable[[dict[str, Any]], bool]] = {
    "calls": _calls,
    "results": lambda r: _message(r).get("role") == "toolResult",
    "user": lambda r: _message(r).get("role") == "user",
    "answer": lambda r: _message(r).get("role") == "assistant" and not _calls(r),
    "other": lambda r: r.get("type") != "message",  # markers, labels, compactions, ...
}


CREATION = "creation"  # the first write of a new session: header and first record


def _stream_ending_with(
    kind: WriterKind, before: SessionFile, seed: int, last: str, max_record: int
) -> Written:
    """One turn of ``kind``'s writer, up to the first record of kind ``last`` (at most
    ``max_record`` bytes): the seed is moved on until a turn has one."""
    wanted = LAST_RECORDS[last]
    for attempt in range(10_000):
        written = dry_stream(kind, before, seed * 1000 + attempt, budget=1, big=0)
        for number in range(len(written.ends)):
            line = written.record(number)
            if wanted(json.loads(line)) and len(line) <= max_record:
                return written.first(number + 1)
    raise AssertionError(f"no turn ends with a {last} record")


def cut_every_offset(
    folder: Path,
    kind: WriterKind,
    last: str,
    seed: int,
    *,
    zeros: bool,
    figures: Figures,
    max_record: int = 1500,
) -> int:
    """Cut the session at every byte offset of the last record ``kind`` appended (a record of
    kind ``last``, or :data:`CREATION`), checking each cut; returns the number of offsets cut."""
    base = folder / "sessions"
    project = base / cwd_folder_name(CWD)
    project.mkdir(parents=True, exist_ok=True)
    if last == CREATION:
        return _cut_creation(base, project, kind, seed, zeros=zeros, figures=figures)
    path = grow_session(project, 3000, seed)
    prefix = path.read_bytes()
    before = open_session(path, warn=None)
    written = _stream_ending_with(kind, before, seed, last, max_record)
    data = bytes(written.data)
    first = written.ends[-2] if len(written.ends) > 1 else 0  # where the last record starts
    with CatalogIndex.open(folder / "index.sqlite3") as index:
        for cut in range(first, len(data) + 1):
            filler = b"\0" * (len(data) - cut) if zeros else b""
            with path.open("r+b") as stream:  # the same file (inode), as after a reboot
                stream.truncate(0)
                stream.write(prefix + data[:cut] + filler)
            if filler:
                _check_zero_tail(path, before, written, cut, figures)
            else:
                check_crash(path, before, written, figures, index=index, base=base)
    return len(data) + 1 - first


def _cut_creation(
    base: Path, project: Path, kind: WriterKind, seed: int, *, zeros: bool, figures: Figures
) -> int:
    """A new session's first write (header and first record) cut at every byte offset."""
    path, written = dry_new_stream(kind, project, seed, budget=1, big=0)
    first = written.first(1)
    data = bytes(first.data)
    with CatalogIndex.open(base.parent / "index.sqlite3") as index:
        for cut in range(len(data) + 1):
            filler = b"\0" * (len(data) - cut) if zeros else b""
            path.write_bytes(data[:cut] + filler)
            if not filler:
                check_new_session_crash(path, first, figures, index=index, base=base)
                continue
            figures.crashes += 1  # NULs in the header, or after it: nothing to keep
            try:
                open_session(path, warn=None)
                if cut < data.index(b"\n") + 1:
                    figures.fail(f"{path.name}: a header followed by NULs was opened")
                else:
                    _, plan = repair_session(path)
                    reopened = open_session(path, warn=None)
                    if not plan.ok or reopened.torn_final_line or count_records(reopened):
                        figures.fail(f"{path.name}: NULs after the header: not repaired")
                    elif plan.backup is not None:
                        figures.backups_checked += 1
                        plan.backup.unlink()
            except SessionError:
                pass  # Ink's open() refuses a torn header too: one clear line
            except Exception as error:
                figures.reader_crashes += 1
                figures.fail(f"{path.name}: NULs from byte {cut}: {error!r}")
    path.unlink(missing_ok=True)
    return len(data) + 1


def _check_zero_tail(
    path: Path, before: SessionFile, written: Written, cut: int, figures: Figures
) -> None:
    """NULs after the cut: the whole records before it are kept, the rest is one torn line
    that repair cuts (keeping it in a backup)."""
    figures.crashes += 1
    done = written.complete_end(cut)
    whole = written.ends.index(done) + 1 if done else 0
    try:
        session = open_session(path, warn=None)
        _, plan = repair_session(path)
    except Exception as error:
        figures.reader_crashes += 1
        figures.fail(f"{path.name}: NULs after byte {cut}: {error!r}")
        return
    kept = count_records(session) - count_records(before)
    figures.records_checked += whole
    if kept != whole or session.dropped_final_line is None:
        figures.records_lost += max(0, whole - kept)
        figures.fail(f"{path.name}: NULs after byte {cut}: {kept} records kept, {whole} whole")
    data = path.read_bytes()[written.start :]
    if not plan.ok or data[:done] != bytes(written.data[:done]):
        figures.fail(f"{path.name}: NULs after byte {cut}: repair lost a whole record")
    if plan.backup is None:
        figures.fail(f"{path.name}: NULs after byte {cut}: cut without a backup")
    else:
        figures.backups_checked += 1
        plan.backup.unlink()
    if open_session(path, warn=None).torn_final_line:
        figures.fail(f"{path.name}: NULs after byte {cut}: not clean after repair")
    else:
        figures.reopened_clean += 1
