"""Following a session while Ink writes it: read only what was appended, by byte offset.

A :class:`SessionTail` starts where the opened file's last complete line ends. Each
:meth:`SessionTail.poll` reads the bytes after that offset, takes the complete lines (a line
without its newline waits for it: it is never an error and never shown half), validates them
exactly as ``open()`` does, and adds them to the same :class:`SessionFile`. The file is never
parsed again from the start; a file that shrank or was replaced asks the caller to reopen it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ink_tui.session.errors import EngineError, RecordError, SessionError
from ink_tui.session.lines import RawLine, is_blank, iter_line_batches
from ink_tui.session.reader import (
    Entry,
    LineProblem,
    Marker,
    SessionFile,
    SessionParser,
    open_session,
    parse_line,
)

__all__ = ["SessionTail", "TailUpdate", "open_for_follow"]

_CHECK_BYTES = 64  # bytes before the offset re-read on each poll to notice a rewritten file


@dataclass(slots=True)
class TailUpdate:
    """What one poll found."""

    entries: list[Entry] = field(default_factory=list)
    markers: list[Marker] = field(default_factory=list)
    problems: list[LineProblem] = field(default_factory=list)
    reset: str | None = None  # why the file must be opened again from scratch
    leaf_before: str | None = None
    leaf_after: str | None = None
    waiting_bytes: int = 0  # an incomplete last line, waiting for its newline

    @property
    def leaf_moved(self) -> bool:
        return self.leaf_before != self.leaf_after

    def __bool__(self) -> bool:
        return bool(self.entries or self.markers or self.problems or self.reset)


def open_for_follow(path: str | Path) -> SessionFile:
    """Open a session up to its last complete line (a half-written last line is left out)."""
    return open_session(path, warn=None, complete_only=True)


class SessionTail:
    """Reads what is appended to one session file after it was opened."""

    def __init__(self, session: SessionFile) -> None:
        self.session = session
        self.offset = session.size
        self._parser = SessionParser(session, keep_payloads=True)
        self._identity = self._stat_identity()
        self._guard = self._read_guard()

    def _stat_identity(self) -> tuple[int, int] | None:
        try:
            stat = os.stat(self.session.path)
        except OSError:
            return None
        return stat.st_dev, stat.st_ino

    def _read_guard(self) -> bytes:
        start = max(0, self.offset - _CHECK_BYTES)
        try:
            with self.session.path.open("rb") as stream:
                stream.seek(start)
                return stream.read(self.offset - start)
        except OSError:
            return b""

    def poll(self) -> TailUpdate:
        """Read and validate the complete lines appended since the last poll."""
        session = self.session
        update = TailUpdate(leaf_before=session.leaf_id, leaf_after=session.leaf_id)
        try:
            stat = os.stat(session.path)
        except FileNotFoundError:
            update.reset = "the file was removed"
            return update
        if (stat.st_dev, stat.st_ino) != self._identity:
            update.reset = "the file was replaced"
            return update
        if stat.st_size < self.offset:
            update.reset = f"the file shrank ({self.offset} -> {stat.st_size} bytes)"
            return update
        if self._read_guard() != self._guard:
            update.reset = "the file was rewritten before its end"
            return update
        if stat.st_size == self.offset:
            return update
        with session.path.open("rb") as stream:
            for offset, parts, terminated in iter_line_batches(stream, self.offset):
                if not terminated:
                    update.waiting_bytes = len(parts[0])
                    break
                for data in parts:
                    self._take(RawLine(data, offset, True), update)
                    offset += len(data) + 1
                    self.offset = offset
        session.size = self.offset
        self._guard = self._read_guard()
        update.leaf_after = session.leaf_id
        return update

    def _take(self, raw: RawLine, update: TailUpdate) -> None:
        if is_blank(raw.data):
            return
        session = self.session
        entries, positions, models = (
            len(session.entries),
            len(session.positions),
            len(session.session_models),
        )
        try:
            self._parser.add(raw, parse_line(raw))
        except (RecordError, EngineError, SessionError) as error:
            session.line_count += 1  # the line exists; later lines keep the file's numbering
            reason = error.message if isinstance(error, SessionError) else str(error)
            update.problems.append(LineProblem(session.line_count, raw.offset, raw.end, reason))
            return
        update.entries.extend(session.entries[entries:])
        update.markers.extend(session.positions[positions:])
        update.markers.extend(session.session_models[models:])
