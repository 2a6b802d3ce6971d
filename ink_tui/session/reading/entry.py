"""Where each record of a session file sits: tree entries (payload kept or read again on
demand), file-level markers, and lines that failed Ink's checks."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Generic, TypeVar, cast

from ink_tui.session.reading.errors import RecordError, SessionError
from ink_tui.session.reading.files import open_regular
from ink_tui.session.reading.jsoncodec import JsonDecodeError, decode_line
from ink_tui.session.reading.records import LineKind, classify_record, is_plain_message
from ink_tui.session.reading.recordtypes import (
    EntryRecord,
    PositionMarker,
    ReadMessage,
    SessionModelMarker,
)

__all__ = ["KEEP_INLINE_BYTES", "KEEP_SMALL_BYTES", "Entry", "LineProblem", "Marker"]

Record = EntryRecord

KEEP_SMALL_BYTES = 2048
"""Other entries (labels, names, thinking levels) stay parsed up to this line length; a big
compaction (its retained tail) is read again when needed, like a message."""
KEEP_INLINE_BYTES = 0
"""``message`` entries whose line is longer are not kept parsed: their payload is read again
from the file when needed (:meth:`SessionFile.preload` reads many at once). Other entries are
small and few, and always kept."""


class Entry:
    """A tree entry (``message``, ``compaction``, …) and where it sits in the file.

    ``type``, ``id`` and ``parent_id`` are always in memory. The parsed ``record`` of a long
    line (a big tool result, a compaction with its retained tail) is dropped after validation
    and read again from its byte range on first use, so a 100 MB session does not sit in memory
    as Python objects.
    """

    __slots__ = ("_path", "_record", "end", "id", "line", "offset", "parent_id", "type")

    def __init__(
        self, record: Record, line: int, offset: int, end: int, *, path: Path | None = None
    ) -> None:
        self.type = str(record["type"])
        self.id = str(record["id"])
        parent = record["parentId"]
        self.parent_id = None if parent is None else str(parent)
        self.line = line  # 1-based count of non-blank lines (the header is line 1)
        self.offset = offset  # byte offset of the line
        self.end = end  # byte offset just past its newline
        self._path = path
        self._record: Record | None = record

    @classmethod
    def of_message(
        cls,
        entry_id: str,
        parent_id: str | None,
        line: int,
        offset: int,
        end: int,
        path: Path,
        record: Record | None,
    ) -> Entry:
        """A ``message`` entry already validated by the reader (its hot path)."""
        entry = cls.__new__(cls)
        entry.type = "message"
        entry.id = entry_id
        entry.parent_id = parent_id
        entry.line = line
        entry.offset = offset
        entry.end = end
        entry._path = path
        entry._record = record
        return entry

    @property
    def path(self) -> Path | None:
        """The session file the entry was read from (``None`` for one made in memory)."""
        return self._path

    @property
    def record(self) -> Record:
        """The parsed record (its key order is the file's), as ``open()`` checked it."""
        if self._record is None:
            self._record = self._reload()
        return self._record

    @property
    def message(self) -> ReadMessage:
        """A ``message`` entry's message: ``open()`` checked it is an object with a string
        ``role`` (and a record read again is checked again). ``ValueError`` for another type."""
        if self.type != "message":
            raise ValueError(f"{self!r} is not a message entry")
        return cast(ReadMessage, self.record["message"])

    def peek_timestamp(self) -> object:
        """The record's ``timestamp`` without parsing a dropped payload again: Ink writes it
        among the first keys, so a dropped record's first bytes are read for it (the whole
        record only when they do not hold it). Any JSON value, as the file has it."""
        if self._record is not None or self._path is None:
            return self.record.get("timestamp")
        try:
            with open_regular(self._path) as stream:
                stream.seek(self.offset)
                head = stream.read(min(PEEK_BYTES, self.end - self.offset))
        except OSError:
            return None
        found = _TIMESTAMP.search(head)
        if found is None:
            return self.record.get("timestamp")
        return found.group(1).decode("utf-8", "replace")

    def release(self) -> None:
        """Drop the parsed payload (it can be read again from the file)."""
        if self._path is not None:
            self._record = None

    def _reload(self) -> Record:
        assert self._path is not None
        with open_regular(self._path) as stream:
            stream.seek(self.offset)
            return self._parse(stream.read(self.end - self.offset))

    def _parse(self, data: bytes) -> Record:
        """The record read again from its byte range, checked as ``open()`` checked it (so the
        types it is handed out with still hold); :class:`SessionError` when it changed."""
        try:
            record = decode_line(data.rstrip(b"\n"))
            same = (
                isinstance(record, dict)
                and record.get("id") == self.id
                and record.get("type") == self.type
                and (is_plain_message(record) or classify_record(record) is LineKind.ENTRY)
            )
        except (JsonDecodeError, RecordError):
            same = False
        if not same:
            raise SessionError(
                f"{self._path} changed on disk since it was opened (line {self.line}); "
                "open it again",
                path=self._path,
                line=self.line,
            )
        return cast(EntryRecord, record)  # checked above, as open() checks a line

    def __repr__(self) -> str:
        return f"Entry({self.type} {self.id} <- {self.parent_id}, line {self.line})"


PEEK_BYTES: Final = 512
_TIMESTAMP: Final = re.compile(
    rb'^\{"type":"[^"\\]*","id":"[^"\\]*","parentId":(?:null|"[^"\\]*"),"timestamp":"([^"\\]*)"'
)


MarkerT = TypeVar("MarkerT", PositionMarker, SessionModelMarker)


@dataclass(slots=True)
class Marker(Generic[MarkerT]):
    """A file-level marker (``position`` or ``session_model``), its record checked in full."""

    record: MarkerT
    line: int
    offset: int
    seq: int  # place among all records after the header


@dataclass(slots=True, frozen=True)
class LineProblem:
    """A line that failed Ink's checks: the torn final line, or a bad marker Ink skipped."""

    line: int
    offset: int
    end: int
    reason: str
