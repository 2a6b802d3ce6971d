"""Ink's strict ``open()``: header checks, per-line validation, the torn final line, the leaf.

:func:`open_session` reads a whole file. :class:`SessionParser` is the same logic fed line by
line, so the live tail (which reads only what was appended) validates exactly as ``open`` does.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Final, Literal, TextIO, cast

import orjson

from ink_tui.session.reading.entry import (
    KEEP_INLINE_BYTES,
    KEEP_SMALL_BYTES,
    Entry,
    LineProblem,
    Marker,
)
from ink_tui.session.reading.errors import EngineError, RecordError, SessionError
from ink_tui.session.reading.files import open_regular
from ink_tui.session.reading.jsoncodec import JsonDecodeError, decode_line
from ink_tui.session.reading.lines import RawLine, is_blank, iter_line_batches
from ink_tui.session.reading.records import (
    LineKind,
    classify_record,
    is_plain_message,
    is_session_header,
    is_valid_model,
)
from ink_tui.session.reading.recordtypes import (
    EntryRecord,
    HeaderRecord,
    PositionMarker,
    SessionModelMarker,
)

__all__ = ["Entry", "LineProblem", "Marker", "SessionFile", "SessionParser", "open_session"]

READ_WINDOW: Final = 1 << 20
"""Bytes :meth:`SessionFile.records` reads at a time when records are read again in order."""


@dataclass
class SessionFile:
    """Everything ``open()`` learns about one session file."""

    path: Path
    header: HeaderRecord
    header_end: int
    entries: list[Entry] = field(default_factory=list)
    by_id: dict[str, Entry] = field(default_factory=dict)
    positions: list[Marker[PositionMarker]] = field(default_factory=list)
    session_models: list[Marker[SessionModelMarker]] = field(default_factory=list)
    skipped_markers: list[LineProblem] = field(default_factory=list)
    duplicate_ids: list[str] = field(default_factory=list)
    dropped_final_line: LineProblem | None = None
    ends_with_newline: bool = True
    size: int = 0  # bytes read
    line_count: int = 1  # non-blank lines, header included
    _last_entry_seq: int = -1
    _last_content_id: str | None = None
    _seq: int = 0

    @property
    def torn_final_line(self) -> bool:
        """Ink's ``tornFinalLine``: no final newline, or a final line was dropped."""
        return not self.ends_with_newline or self.dropped_final_line is not None

    @property
    def leaf_id(self) -> str | None:
        """The leaf exactly as Ink picks it (quirks included; spec §3.6)."""
        if self.positions:
            last = self.positions[-1]
            target = last.record.get("leafId")
            if last.seq > self._last_entry_seq and (target is None or target in self.by_id):
                return None if target is None else str(target)
        return self._last_content_id

    def preload(self, entries: Iterable[Entry]) -> None:
        """Read the payloads of ``entries`` that are not in memory, with one pass over the file,
        and keep them. Raises :class:`SessionError` when the file changed on disk under an entry.
        """
        missing: list[Entry] = sorted(
            (e for e in entries if e._record is None), key=lambda e: e.offset
        )
        records = self.records(missing)
        for entry in missing:
            entry._record = next(records)

    def records(self, entries: Iterable[Entry]) -> Iterator[EntryRecord]:
        """The records of ``entries``, in their order, without keeping them: those in memory as
        they are, the others read again from the file and checked as ``open()`` checked them.

        Entries in file order (a branch, mostly) are read in one forward pass, a window of
        :data:`READ_WINDOW` bytes at a time, so a million-record branch streams: only the record
        being handed out is alive. Raises :class:`SessionError` when the file changed on disk
        under an entry (records already handed out stay valid)."""
        stream: BinaryIO | None = None
        window, start = b"", 0
        try:
            for entry in entries:
                record = entry._record
                if record is None:
                    if not (start <= entry.offset and entry.end <= start + len(window)):
                        if stream is None:
                            stream = open_regular(self.path)
                        stream.seek(entry.offset)
                        window = stream.read(max(READ_WINDOW, entry.end - entry.offset))
                        start = entry.offset
                    record = entry._parse(window[entry.offset - start : entry.end - start])
                yield record
        finally:
            if stream is not None:
                stream.close()

    @property
    def session_id(self) -> str:
        return str(self.header["id"])

    @property
    def cwd(self) -> str:
        cwd = self.header.get("cwd")
        return cwd if isinstance(cwd, str) else ""


class SessionParser:
    """Validates lines after the header and accumulates them into a :class:`SessionFile`."""

    def __init__(self, session: SessionFile, *, keep_payloads: bool = False) -> None:
        self.session = session
        self.keep_payloads = keep_payloads  # the live tail shows what it reads at once

    def add(self, raw: RawLine, record: Any) -> None:
        """Add one parsed non-blank line. Raises :class:`RecordError` or :class:`EngineError`."""
        session = self.session
        line = session.line_count + 1
        if record is None:
            raise EngineError(
                "Cannot read properties of null (reading 'type')", path=session.path, line=line
            )
        kind = LineKind.ENTRY if is_plain_message(record) else classify_record(record)
        session.line_count = line
        seq = session._seq
        session._seq += 1
        if kind is LineKind.ENTRY:
            entry = Entry(cast(EntryRecord, record), line, raw.offset, raw.end, path=session.path)
            limit = KEEP_INLINE_BYTES if entry.type == "message" else KEEP_SMALL_BYTES
            if not self.keep_payloads and len(raw.data) > limit:
                entry.release()  # labels, names, levels stay parsed; compactions do not
            session.entries.append(entry)
            if entry.id in session.by_id:
                session.duplicate_ids.append(entry.id)
            session.by_id[entry.id] = entry
            session._last_entry_seq = seq
            if entry.type != "label":
                session._last_content_id = entry.id
        elif kind is LineKind.POSITION:
            position = cast(PositionMarker, record)  # classify_record checked its shape
            session.positions.append(Marker(position, line, raw.offset, seq))
        elif kind is LineKind.SESSION_MODEL:
            model = cast(SessionModelMarker, record)  # checked in full too
            session.session_models.append(Marker(model, line, raw.offset, seq))
        else:
            session.skipped_markers.append(
                LineProblem(line, raw.offset, raw.end, "position marker with an invalid leafId")
            )


def parse_line(raw: RawLine) -> Any:
    """Parse one line; :class:`RecordError` with Ink's wording when it is not JSON."""
    try:
        return decode_line(raw.data)
    except JsonDecodeError as exc:
        raise RecordError(f"invalid JSON ({exc.reason})") from None


def _line_error(path: Path, line: int, exc: RecordError) -> SessionError:
    return SessionError(f"session line {line}: {exc}", path=path, line=line)


def read_header(path: Path, raw: RawLine) -> HeaderRecord:
    """Parse and check the first non-blank line, with Ink's error texts."""
    try:
        header = decode_line(raw.data)
    except JsonDecodeError:
        raise SessionError(
            f"session file {path}: first line is not valid JSON", path=path, line=1
        ) from None
    if header is None:
        raise EngineError("Cannot read properties of null (reading 'type')", path=path, line=1)
    if not isinstance(header, dict) or not is_session_header(header):
        raise SessionError(
            f"session file {path}: missing or unsupported session header", path=path, line=1
        )
    if "model" in header and not is_valid_model(header["model"]):
        raise SessionError("session header: invalid session model", path=path, line=1)
    return cast(HeaderRecord, header)  # open()'s checks, just made


def _lines_of(
    batches: Iterable[tuple[int, list[bytes], bool]],
) -> Iterator[tuple[bytes, int, bool]]:
    for offset, parts, terminated in batches:
        for data in parts:
            yield data, offset, terminated
            offset += len(data) + 1


def build_session(
    path: Path,
    batches: Iterable[tuple[int, list[bytes], bool]],
    *,
    warn: TextIO | None,
    known: SessionFile | None = None,
) -> SessionFile:
    """Run ``open()`` over the file's line batches (``lines.iter_line_batches``).

    Per line it keeps one :class:`Entry` (or marker) and drops the parsed record (payloads are
    read again by byte offset when needed), so a big open leaves few objects for the cyclic
    garbage collector to scan; it never switches the collector off (see ``tests/bench``).

    ``known``: what ``open()`` learnt of the file up to ``known.size`` (a line start; rebuilt
    from the catalog index), which ``batches`` continue from there: only they are checked.
    """
    session: SessionFile | None = known
    parser: SessionParser | None = None if known is None else SessionParser(known)
    pending: tuple[RawLine, int, RecordError] | None = None
    size = 0 if known is None else known.size
    last_terminated = True
    if known is not None:
        entries, by_id = known.entries, known.by_id
    loads, decode_error, new_entry = orjson.loads, orjson.JSONDecodeError, Entry.__new__
    plain_message = is_plain_message
    for data, offset, last_terminated in _lines_of(batches):
        size = offset + len(data) + last_terminated
        if data[:1] != b"{" and is_blank(data):
            continue
        if session is None:
            raw = RawLine(data, offset, last_terminated)
            session = SessionFile(path=path, header=read_header(path, raw), header_end=size)
            parser = SessionParser(session)
            entries, by_id = session.entries, session.by_id
            continue
        assert parser is not None
        if pending is not None:
            raise _line_error(path, pending[1], pending[2])
        # The hot path: a well-formed message entry (records.is_plain_message, the one copy of
        # classify_record's checks for it) is kept at once; everything else goes through the
        # parser. (Inlining the checks here again was 4 % faster on 100,000 tiny records.)
        try:
            record = loads(data)
            parsed = True
        except decode_error:
            record, parsed = None, False
        if plain_message(record):
            entry_id, parent = record["id"], record.get("parentId")
            known_parent = by_id.get(parent) if parent is not None else None
            if known_parent is not None:  # one string for both: 56 bytes less per entry
                parent = known_parent.id
            session.line_count += 1
            entry: Entry = new_entry(Entry)
            entry.type, entry.id, entry.parent_id = "message", entry_id, parent
            entry.line, entry.offset, entry.end = session.line_count, offset, size
            entry._path = path
            kept = cast(EntryRecord, record)  # is_plain_message's checks are open()'s
            entry._record = kept if len(data) <= KEEP_INLINE_BYTES else None
            entries.append(entry)
            if entry_id in by_id:
                session.duplicate_ids.append(entry_id)
            by_id[entry_id] = entry
            session._last_entry_seq = session._seq
            session._seq += 1
            session._last_content_id = entry_id
            continue
        raw = RawLine(data, offset, last_terminated)
        try:
            parser.add(raw, record if parsed else parse_line(raw))
        except EngineError:
            raise
        except RecordError as exc:
            pending = (raw, session.line_count + 1, exc)
    if session is None:
        raise SessionError(f"empty session file: {path}", path=path)
    session.size = size
    session.ends_with_newline = last_terminated
    if pending is not None:
        torn, torn_line, reason = pending
        session.dropped_final_line = LineProblem(torn_line, torn.offset, torn.end, str(reason))
        if warn is not None:
            print(f"ink: dropping torn final line in {path}", file=warn)
    return session


def open_session(
    path: str | Path,
    *,
    warn: TextIO | Literal["stderr"] | None = "stderr",
    progress: Callable[[int], None] | None = None,
    complete_only: bool = False,
) -> SessionFile:
    """Open a session file as Ink's ``open()`` does.

    Raises :class:`SessionError` (or its subclass :class:`EngineError`) with Ink's message, or
    ``OSError`` when the file cannot be read. A dropped torn final line is reported on ``warn``
    with Ink's note (pass ``warn=None`` to stay silent) and kept in ``dropped_final_line``.
    ``progress`` is called with the number of bytes read so far. With ``complete_only`` a last
    line without its newline is left out: it is still being written (the live tail reads it
    once its newline lands).
    """
    path = Path(path)
    stream_for_warnings = sys.stderr if warn == "stderr" else warn
    try:
        stream = open_regular(path)
    except FileNotFoundError:
        raise SessionError(f"session file not found: {path}", path=path) from None
    with stream:
        batches = iter_line_batches(stream, progress=progress)
        if complete_only:  # following: a line still being written is not read yet
            batches = (batch for batch in batches if batch[2])
        return build_session(path, batches, warn=stream_for_warnings)
