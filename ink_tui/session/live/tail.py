"""Following a session while Ink writes it: read only what was appended, by byte offset.

A :class:`SessionTail` starts where the opened file's last complete line ends. Each
:meth:`SessionTail.poll` reads the bytes after that offset, takes the complete lines (a line
without its newline waits for it: it is never an error and never shown half), and validates them
exactly as ``open()`` does, into a :class:`TailUpdate` of its own: a new batch, never the
opened :class:`SessionFile`, which the tail does not hold. Whoever owns the session applies the
batch with :meth:`TailUpdate.apply_to` (the app does it on its event loop, so nothing else reads
a session while it changes). The file is never parsed again from the start; a file that shrank or
was replaced asks the caller to reopen it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from ink_tui.session.reading.errors import EngineError, RecordError, SessionError
from ink_tui.session.reading.files import open_regular
from ink_tui.session.reading.lines import RawLine, is_blank, iter_line_batches
from ink_tui.session.reading.reader import (
    Entry,
    LineProblem,
    Marker,
    SessionFile,
    SessionParser,
    open_session,
    parse_line,
)
from ink_tui.session.reading.recordtypes import PositionMarker, SessionModelMarker

__all__ = ["FileTrouble", "SessionTail", "TailUpdate", "open_for_follow"]

_CHECK_BYTES = 64  # bytes before the offset re-read on each poll to notice a rewritten file


@dataclass(slots=True)
class TailUpdate:
    """What one poll found: a batch of validated records, not yet part of any session."""

    entries: list[Entry] = field(default_factory=list)
    positions: list[Marker[PositionMarker]] = field(default_factory=list)
    session_models: list[Marker[SessionModelMarker]] = field(default_factory=list)
    skipped_markers: list[LineProblem] = field(default_factory=list)
    problems: list[LineProblem] = field(default_factory=list)
    fatal_lines: set[int] = field(default_factory=set)  # problems fatal even as the last line
    reset: str | None = None  # why the file must be opened again from scratch
    size: int = 0  # bytes of the file read once this batch is applied
    line_count: int = 0  # non-blank lines (header included) once applied
    seq: int = 0  # records after the header once applied
    last_entry_seq: int | None = None  # the batch's last entry line (labels count)
    last_content_id: str | None = None  # the batch's last non-label entry

    @property
    def markers(self) -> list[Marker[PositionMarker] | Marker[SessionModelMarker]]:
        """The batch's ``position`` and ``session_model`` markers, in file order."""
        return sorted([*self.positions, *self.session_models], key=lambda marker: marker.seq)

    def __bool__(self) -> bool:
        return bool(
            self.entries
            or self.positions
            or self.session_models
            or self.skipped_markers
            or self.problems
            or self.reset
        )

    def lines_after(self, line: int) -> bool:
        """Whether the batch holds a non-blank line after line ``line``."""
        lines = (
            *(entry.line for entry in self.entries),
            *(marker.line for marker in self.positions),
            *(marker.line for marker in self.session_models),
            *(problem.line for problem in self.skipped_markers),
            *(problem.line for problem in self.problems),
        )
        return any(other > line for other in lines)

    def apply_to(self, session: SessionFile) -> None:
        """Add the batch to ``session`` as ``open()`` would have read it."""
        by_id = session.by_id
        for entry in self.entries:
            if entry.id in by_id:
                session.duplicate_ids.append(entry.id)
            by_id[entry.id] = entry
        session.entries.extend(self.entries)
        session.positions.extend(self.positions)
        session.session_models.extend(self.session_models)
        session.skipped_markers.extend(self.skipped_markers)
        session.line_count = max(session.line_count, self.line_count)
        session._seq = max(session._seq, self.seq)
        if self.last_entry_seq is not None:
            session._last_entry_seq = self.last_entry_seq
        if self.last_content_id is not None:
            session._last_content_id = self.last_content_id
        session.size = max(session.size, self.size)


@dataclass(frozen=True, slots=True)
class FileTrouble:
    """A complete line that failed Ink's checks arrived: what Ink now makes of the file.

    As the last line, Ink's ``open()`` drops it as a torn final line (and its repair would cut
    it); once any line follows it, or when it is not a ``SessionError`` to Ink (a bare
    ``null``), Ink cannot open the file at all (``session line N: …``).
    """

    line: int
    reason: str
    fatal: bool

    @property
    def note(self) -> str:
        """One sentence: Ink's reason, the line, and what it means."""
        if self.fatal:
            return f"Ink cannot open this file any more: session line {self.line}: {self.reason}"
        return (
            f"line {self.line} is not a valid record ({self.reason}): Ink drops it as a torn "
            "final line, and cannot open the file once anything is written after it"
        )

    @property
    def short(self) -> str:
        """A few words for a header."""
        if self.fatal:
            return f"Ink cannot open this file (line {self.line})"
        return f"line {self.line} rejected"

    def after(self, update: TailUpdate) -> FileTrouble:
        """What this trouble is once ``update`` (read after it) arrived."""
        if self.fatal or not update.lines_after(self.line):
            return self
        return FileTrouble(self.line, self.reason, True)

    @classmethod
    def at_open(cls, session: SessionFile) -> FileTrouble | None:
        """The trouble of a file opened up to its last complete line: the final line Ink
        dropped as torn, if any (one more line after it and Ink cannot open the file)."""
        dropped = session.dropped_final_line
        if dropped is None:
            return None
        return cls(dropped.line, dropped.reason, False)

    @classmethod
    def of(cls, previous: FileTrouble | None, update: TailUpdate) -> FileTrouble | None:
        """The file's trouble after ``update``, given what it was before (``None``: none)."""
        if previous is not None:
            return previous.after(update)
        if not update.problems:
            return None
        first = update.problems[0]
        fatal = first.line in update.fatal_lines or update.lines_after(first.line)
        return cls(first.line, first.reason, fatal)


def open_for_follow(path: str | Path) -> SessionFile:
    """Open a session up to its last complete line (a half-written last line is left out)."""
    return open_session(path, warn=None, complete_only=True)


def _guard_in(stream: BinaryIO, offset: int) -> bytes:
    """The bytes just before ``offset`` (they change when the file is rewritten)."""
    start = max(0, offset - _CHECK_BYTES)
    stream.seek(start)
    return stream.read(offset - start)


class SessionTail:
    """Reads what is appended to one session file after it was opened.

    Made from the opened session (its path, header, size and counters are copied); after that
    it never touches the session: each poll returns a new :class:`TailUpdate`. Its first look
    at the file (which file it is, the bytes before the offset) is :meth:`begin`: at once, or,
    with ``begin=False``, in the thread that polls (a caller on an event loop does no IO).
    """

    def __init__(self, session: SessionFile, *, begin: bool = True) -> None:
        self.path = session.path
        self.offset = session.size
        self._header = session.header
        self._header_end = session.header_end
        self._line_count = session.line_count
        if session.dropped_final_line is not None:  # a rejected line keeps its number
            self._line_count = max(self._line_count, session.dropped_final_line.line)
        self._seq = session._seq
        self._identity: tuple[int, int] | None = None
        self._guard = b""
        if begin:
            self.begin()

    def begin(self) -> None:
        """Note which file this is and the bytes before the offset (to notice a rewrite)."""
        self._identity = self._stat_identity()
        self._guard = self._read_guard()

    def _stat_identity(self) -> tuple[int, int] | None:
        try:
            stat = os.stat(self.path)
        except OSError:
            return None
        return stat.st_dev, stat.st_ino

    def _read_guard(self) -> bytes:
        try:
            with open_regular(self.path) as stream:
                return _guard_in(stream, self.offset)
        except OSError:
            return b""

    def poll(self) -> TailUpdate:
        """Read and validate the complete lines appended since the last poll, as a new batch.

        Never raises for the file: one that went away or cannot be read any more is a
        ``reset`` (the caller reads it again, and says what is wrong)."""
        update = TailUpdate(size=self.offset, line_count=self._line_count, seq=self._seq)
        try:
            self._read_into(update)
        except FileNotFoundError:
            update.reset = "the file was removed"
        except OSError as error:
            update.reset = f"the file cannot be read ({error.strerror or error})"
        return update

    def _read_into(self, update: TailUpdate) -> None:
        stat = os.stat(self.path)
        if (stat.st_dev, stat.st_ino) != self._identity:
            update.reset = "the file was replaced"
            return
        if stat.st_size < self.offset:
            update.reset = f"the file shrank ({self.offset} -> {stat.st_size} bytes)"
            return
        with open_regular(self.path) as stream:  # one open: it cannot vanish between two reads
            if _guard_in(stream, self.offset) != self._guard:
                update.reset = "the file was rewritten before its end"
                return
            if stat.st_size == self.offset:
                return
            self._read_lines(stream, update)

    def _read_lines(self, stream: BinaryIO, update: TailUpdate) -> None:
        batch = SessionFile(
            path=self.path,
            header=self._header,
            header_end=self._header_end,
            line_count=self._line_count,
            _seq=self._seq,
        )
        parser = SessionParser(batch, keep_payloads=True)
        end = self.offset
        for offset, parts, terminated in iter_line_batches(stream, self.offset):
            if not terminated:
                break  # a line still being written: read once its newline lands
            for data in parts:
                self._take(parser, RawLine(data, offset, True), update)
                offset += len(data) + 1
                end = offset
        guard = _guard_in(stream, end)
        # Read without error: only now does the tail move on.
        update.entries = batch.entries
        update.positions = batch.positions
        update.session_models = batch.session_models
        update.skipped_markers = batch.skipped_markers
        if batch._last_entry_seq >= 0:
            update.last_entry_seq = batch._last_entry_seq
        update.last_content_id = batch._last_content_id
        self.offset, self._guard = end, guard
        self._line_count, self._seq = batch.line_count, batch._seq
        update.size, update.line_count, update.seq = self.offset, self._line_count, self._seq

    @staticmethod
    def _take(parser: SessionParser, raw: RawLine, update: TailUpdate) -> None:
        if is_blank(raw.data):
            return
        batch = parser.session
        try:
            parser.add(raw, parse_line(raw))
        except (RecordError, EngineError, SessionError) as error:
            batch.line_count += 1  # the line exists; later lines keep the file's numbering
            reason = error.message if isinstance(error, SessionError) else str(error)
            update.problems.append(LineProblem(batch.line_count, raw.offset, raw.end, reason))
            if isinstance(error, EngineError):  # not a SessionError to Ink: never skipped
                update.fatal_lines.add(batch.line_count)
