"""The secrets audit: every secret in every session of a scope, with where it is.

Each session file is read as its bytes, :data:`AUDIT_CHUNK` at a time (a 100 MB session is
never in memory whole): the cheap look first (:mod:`ink_tui.secrets.gate`) says which lines of
the chunk may hold a secret, and only those are parsed and walked by the detector
(:func:`ink_tui.secrets.find_in_value`, key-aware, each string read past escape codes, wraps
and encodings). A line that is not JSON (a torn last line) is passed over, as Ink does. Each
finding says the session's id, its file, the machine it came from (``None``: this one), the
entry (``header`` for the first line), the field and the kind, and the secret's fingerprint;
the secret itself is never kept past the finding.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from pathlib import Path
from typing import Any, BinaryIO, Final

import orjson

from ink_tui.catalog.gatedlines import gated_batches
from ink_tui.catalog.index.ondisk import files_on_disk
from ink_tui.catalog.roots import Root
from ink_tui.humanize import counts_sentence
from ink_tui.secrets import find_in_value
from ink_tui.secrets.gate import lines_that_may_hold_secrets
from ink_tui.session.reading.files import open_regular
from ink_tui.session.reading.jsoncodec import decode_line

__all__ = [
    "NOT_A_RECORD",
    "SecretFinding",
    "SessionSecrets",
    "audit_files",
    "file_findings",
    "files_of",
    "findings_in",
    "gated_records",
    "gated_records_in",
    "kinds_sentence",
]

Progress = Callable[[int, int], None]  # (bytes read, bytes to read)
AUDIT_CHUNK: Final = 8 * 1024 * 1024  # bytes read at a time (the gate looks at each chunk whole)


@dataclass(frozen=True, slots=True)
class SecretFinding:
    """One secret in a session: where it is and what it is, never what it says."""

    session_id: str | None
    file: Path
    machine: str | None
    entry_id: str
    line: int  # 1-based line of the file
    field: str
    kind: str
    fingerprint: str
    context: str = dataclass_field(default="", compare=False)  # around it, masked (when asked)

    def to_json(self) -> dict[str, Any]:
        """The shape of ``ink-tui secrets --json``."""
        return {
            "sessionId": self.session_id,
            "file": str(self.file),
            "machine": self.machine,
            "entryId": self.entry_id,
            "line": self.line,
            "field": self.field,
            "kind": self.kind,
            "fingerprint": self.fingerprint,
        }


@dataclass(frozen=True, slots=True)
class SessionSecrets:
    """A session's findings (none: it holds no secret the detector knows)."""

    file: Path
    machine: str | None
    findings: list[SecretFinding]
    unreadable: str | None = None  # why the file could not be read


def files_of(roots: Sequence[Root], cwd: str | None) -> list[tuple[Path, str | None, int]]:
    """Every session file of ``roots`` (``cwd``'s project, every project when None), with its
    machine and size, subagent sessions included, by path."""
    found = []
    for root in roots:
        for item in files_on_disk(root.project_folders(cwd)):
            size = item.info.st_size if item.info is not None else 0
            found.append((item.path, root.machine, size))
    return sorted(found, key=lambda item: str(item[0]))


def _session_id(first_line: bytes) -> str | None:
    try:
        header = orjson.loads(first_line)
    except orjson.JSONDecodeError:
        return None
    value = header.get("id") if isinstance(header, dict) else None
    return value if isinstance(value, str) else None


NOT_A_RECORD: Final = object()
"""What :func:`gated_records` gives for a line that is not JSON (a torn or broken line)."""


def _records(lines: Iterable[tuple[int, bytes]]) -> Iterator[tuple[int, object]]:
    for index, line in lines:
        try:
            yield index, decode_line(line)
        except ValueError:
            yield index, NOT_A_RECORD


def gated_records(data: bytes) -> Iterator[tuple[int, object]]:
    """Each line of the session bytes ``data`` that may hold a secret (the gate's first look),
    in order: its index and its record, read as ``JSON.parse`` reads it (a lone surrogate
    kept), or :data:`NOT_A_RECORD`. The one reader of the scrub and the push (and, a chunk at a
    time, of the audit: :func:`gated_records_in`)."""
    wanted = lines_that_may_hold_secrets(data)
    if not wanted:
        return
    lines = data.split(b"\n")
    yield from _records((index, lines[index]) for index in sorted(wanted))


def gated_records_in(stream: BinaryIO) -> Iterator[tuple[int, object]]:
    """:func:`gated_records` of a file, read :data:`AUDIT_CHUNK` bytes at a time: a 100 MB
    session is never in memory whole (its longest line is)."""
    first = 0
    for batch in gated_batches(stream, 0, AUDIT_CHUNK):
        lines = batch.lines
        yield from _records((first + index, lines[index]) for index in sorted(batch.wanted))
        first += len(lines)


def _findings(
    path: Path,
    machine: str | None,
    records: Iterable[tuple[int, object]],
    first_line: Callable[[], bytes],
    context: bool,
) -> Iterator[SecretFinding]:
    session_id: str | None = None
    for index, record in records:
        if record is NOT_A_RECORD:
            continue  # a torn or broken line: no record, as Ink reads it
        if session_id is None:
            session_id = _session_id(first_line())
        entry = record.get("id") if isinstance(record, dict) else None
        entry_id = (
            "header" if index == 0 else entry if isinstance(entry, str) else f"line {index + 1}"
        )
        for finding in find_in_value(record):
            yield SecretFinding(
                session_id,
                path,
                machine,
                entry_id,
                index + 1,
                finding.field,
                finding.secret.kind,
                finding.secret.fingerprint,
                finding.context() if context else "",
            )


def findings_in(
    path: Path, machine: str | None, data: bytes, *, context: bool = False
) -> Iterator[SecretFinding]:
    """The findings of the session bytes ``data`` (the file ``path``, of ``machine``), each
    with the text around it, masked, when ``context``."""
    return _findings(path, machine, gated_records(data), lambda: data.split(b"\n", 1)[0], context)


def file_findings(
    path: Path, machine: str | None = None, *, context: bool = False
) -> list[SecretFinding]:
    """The findings of the session file ``path``, read a chunk at a time (see
    :func:`findings_in`). Raises ``OSError``."""
    with open_regular(path) as stream:
        header = stream.readline().rstrip(b"\n")  # the session's id, if a finding needs it
        records = gated_records_in(stream)  # (from the start again)
        return list(_findings(path, machine, records, lambda: header, context))


def audit_files(
    files: Iterable[tuple[Path, str | None, int]],
    *,
    progress: Progress | None = None,
    cancelled: threading.Event | None = None,
) -> Iterator[SessionSecrets]:
    """Each file's findings, in the order given (see the module's text)."""
    files = list(files)
    total = sum(size for _, _, size in files)
    done = 0
    for path, machine, size in files:
        if cancelled is not None and cancelled.is_set():
            return
        try:
            found = file_findings(path, machine)
        except OSError as error:
            yield SessionSecrets(path, machine, [], error.strerror or str(error))
        else:
            yield SessionSecrets(path, machine, found)
        done += size
        if progress is not None:
            progress(done, total)


def kinds_sentence(findings: Iterable[SecretFinding]) -> str:
    """``2 github-token, 1 password`` (most first)."""
    return counts_sentence(Counter(finding.kind for finding in findings))
