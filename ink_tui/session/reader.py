"""Ink's strict ``open()``: header checks, per-line validation, the torn final line, the leaf.

:func:`open_session` reads a whole file. :class:`SessionParser` is the same logic fed line by
line, so the live tail (which reads only what was appended) validates exactly as ``open`` does.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from ink_tui.session.errors import EngineError, RecordError, SessionError
from ink_tui.session.jsoncodec import JsonDecodeError, decode_line
from ink_tui.session.lines import RawLine, is_blank, iter_lines
from ink_tui.session.records import LineKind, classify_record, is_session_header, is_valid_model

__all__ = ["Entry", "LineProblem", "Marker", "SessionFile", "SessionParser", "open_session"]

Record = dict[str, Any]


@dataclass(slots=True)
class Entry:
    """A tree entry (``message``, ``compaction``, …) and where it sits in the file."""

    record: Record
    line: int  # 1-based count of non-blank lines (the header is line 1)
    offset: int  # byte offset of the line
    end: int  # byte offset just past its newline

    @property
    def type(self) -> str:
        return str(self.record["type"])

    @property
    def id(self) -> str:
        return str(self.record["id"])

    @property
    def parent_id(self) -> str | None:
        parent = self.record["parentId"]
        return None if parent is None else str(parent)


@dataclass(slots=True)
class Marker:
    """A file-level marker (``position`` or ``session_model``)."""

    record: Record
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


@dataclass
class SessionFile:
    """Everything ``open()`` learns about one session file."""

    path: Path
    header: Record
    header_end: int
    entries: list[Entry] = field(default_factory=list)
    by_id: dict[str, Entry] = field(default_factory=dict)
    positions: list[Marker] = field(default_factory=list)
    session_models: list[Marker] = field(default_factory=list)
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

    @property
    def session_id(self) -> str:
        return str(self.header["id"])

    @property
    def cwd(self) -> str:
        cwd = self.header.get("cwd")
        return cwd if isinstance(cwd, str) else ""


class SessionParser:
    """Validates lines after the header and accumulates them into a :class:`SessionFile`."""

    def __init__(self, session: SessionFile) -> None:
        self.session = session

    def add(self, raw: RawLine, record: Any) -> None:
        """Add one parsed non-blank line. Raises :class:`RecordError` or :class:`EngineError`."""
        session = self.session
        line = session.line_count + 1
        if record is None:
            raise EngineError(
                "Cannot read properties of null (reading 'type')", path=session.path, line=line
            )
        kind = classify_record(record)
        session.line_count = line
        seq = session._seq
        session._seq += 1
        if kind is LineKind.ENTRY:
            entry = Entry(record, line, raw.offset, raw.end)
            session.entries.append(entry)
            if entry.id in session.by_id:
                session.duplicate_ids.append(entry.id)
            session.by_id[entry.id] = entry
            session._last_entry_seq = seq
            if entry.type != "label":
                session._last_content_id = entry.id
        elif kind is LineKind.POSITION:
            session.positions.append(Marker(record, line, raw.offset, seq))
        elif kind is LineKind.SESSION_MODEL:
            session.session_models.append(Marker(record, line, raw.offset, seq))
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


def read_header(path: Path, raw: RawLine) -> Record:
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
    return header


def build_session(path: Path, lines: Iterable[RawLine], *, warn: TextIO | None) -> SessionFile:
    """Run ``open()`` over ``lines`` (every segment of the file, in order)."""
    session: SessionFile | None = None
    parser: SessionParser | None = None
    pending: tuple[RawLine, int, RecordError] | None = None
    size = 0
    last_terminated = True
    for raw in lines:
        size = raw.end
        last_terminated = raw.terminated
        if is_blank(raw.data):
            continue
        if session is None:
            session = SessionFile(path=path, header=read_header(path, raw), header_end=raw.end)
            parser = SessionParser(session)
            continue
        assert parser is not None
        if pending is not None:
            raise _line_error(path, pending[1], pending[2])
        try:
            parser.add(raw, parse_line(raw))
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
            print(f"imp: dropping torn final line in {path}", file=warn)
    return session


def open_session(
    path: str | Path,
    *,
    warn: TextIO | None = sys.stderr,
    progress: Callable[[int], None] | None = None,
) -> SessionFile:
    """Open a session file as Ink's ``open()`` does.

    Raises :class:`SessionError` (or its subclass :class:`EngineError`) with Ink's message, or
    ``OSError`` when the file cannot be read. A dropped torn final line is reported on ``warn``
    with Ink's note (pass ``warn=None`` to stay silent) and kept in ``dropped_final_line``.
    """
    path = Path(path)
    try:
        stream = path.open("rb")
    except FileNotFoundError:
        raise SessionError(f"session file not found: {path}", path=path) from None
    with stream:
        return build_session(path, iter_lines(stream, progress=progress), warn=warn)
