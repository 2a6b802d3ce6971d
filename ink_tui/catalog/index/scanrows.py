"""What one scan of a session file gives the index (:mod:`.filescan`): its entries, its
file-level markers, its searchable texts, the ``files`` row, and where a later scan of the same
file may resume (the offset, the state and a fingerprint of the bytes before it)."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Final, NamedTuple

from ink_tui.catalog.index.store import db_text
from ink_tui.catalog.row import SessionSummary, row_to_index

__all__ = [
    "FILE_COLUMNS",
    "FINGERPRINT_SPAN",
    "EntryRow",
    "FileScan",
    "MarkerRow",
    "Resume",
    "TextRow",
    "fingerprint",
    "project_of",
]

FINGERPRINT_SPAN: Final = 4096


def fingerprint(stream: BinaryIO, end: int) -> bytes:
    """A hash of the first and the last :data:`FINGERPRINT_SPAN` bytes before ``end``."""
    digest = hashlib.blake2b(digest_size=16)
    stream.seek(0)
    digest.update(stream.read(min(end, FINGERPRINT_SPAN)))
    start = max(0, end - FINGERPRINT_SPAN)
    stream.seek(start)
    digest.update(stream.read(end - start))
    return digest.digest()


class EntryRow(NamedTuple):
    """One tree entry, as the ``entries`` table holds it."""

    seq: int
    id: str
    parent_id: str | None
    type: str
    role: str | None
    offset: int
    length: int
    line: int
    turn: int
    timestamp: str | None
    usage: int
    name: str | None
    tokens_in: int
    tokens_out: int


class MarkerRow(NamedTuple):
    """A file-level line (``position``, ``session_model``, or a position Ink skips), as the
    ``markers`` table holds it: where it is, so opening from the index can read it again."""

    seq: int
    kind: str  # a LineKind value
    offset: int
    length: int
    line: int


@dataclass(slots=True)
class TextRow:
    """One entry's searchable text."""

    seq: int
    offset: int
    role: str
    timestamp: str | None
    body: str
    grams: str


@dataclass(slots=True)
class FileScan:
    """What one scan found: rows to add, the state to keep, and the picker row."""

    summary: SessionSummary
    start: int  # 0: everything was read; else rows at or after it were replaced
    indexed_to: int
    fingerprint: bytes
    state: dict[str, Any] | None  # None: Ink cannot open it (the next change reads it all again)
    entries: list[EntryRow] = field(default_factory=list)
    markers: list[MarkerRow] = field(default_factory=list)
    texts: list[TextRow] = field(default_factory=list)

    def file_values(self, path: Path, child: bool, info: os.stat_result) -> tuple[Any, ...]:
        """The ``files`` row of the file scanned, in the order of :data:`FILE_COLUMNS` (its
        path apart: the caller knows whether it is a new row)."""
        summary = self.summary
        return (
            project_of(path, child),
            int(child),
            None if summary.id is None else db_text(summary.id),
            None if summary.parent_session is None else db_text(summary.parent_session),
            info.st_size,
            info.st_mtime_ns,
            info.st_ctime_ns,
            info.st_ino,
            self.indexed_to,
            self.fingerprint,
            None if self.state is None else json.dumps(self.state),
            json.dumps(row_to_index(summary)),
        )


FILE_COLUMNS: Final = (
    "project, child, session_id, parent, size, mtime_ns, ctime_ns, inode, indexed_to, "
    "fingerprint, scan, row"
)


def project_of(path: Path, child: bool) -> str:
    """The project folder's name (a subagent session's: the folder holding its ``children/``)."""
    return db_text((path.parent.parent if child else path.parent).name)


@dataclass(slots=True)
class Resume:
    """Where an earlier scan stopped: its offset, its state and the entries it kept."""

    offset: int
    state: dict[str, Any]
    entries: list[EntryRow]
