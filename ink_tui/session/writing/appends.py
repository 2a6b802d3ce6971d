"""All or nothing at the end of a session file: the bytes of one write go out whole (a short
write is followed by the rest, as Node's ``appendFileSync`` does), or what was written is cut off
again (a file being created is removed) and :class:`RecordNotWrittenError` says so; then
:func:`check_landed` says where they landed, since Ink takes no lock and another process may have
written at the same moment (:class:`ConcurrentWriteError`). :mod:`.writer` is the one caller.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

__all__ = [
    "ConcurrentWriteError",
    "RecordNotWrittenError",
    "check_landed",
    "write_all",
    "write_or_undo",
]


class ConcurrentWriteError(RuntimeError):
    """Another process changed the file since ink-tui last read or wrote it."""


class RecordNotWrittenError(OSError):
    """A write failed part-way (disk full, an I/O error); what it wrote was cut off again,
    unless the message says otherwise. ``errno`` is the failed write's, when it raised one."""

    def __str__(self) -> str:
        return str(self.args[0])


class _Stopped(Exception):
    """:func:`write_all` stopped after ``written`` bytes: ``cause`` raised, or no progress."""

    def __init__(self, written: int, cause: OSError | None) -> None:
        super().__init__(written, cause)
        self.written = written
        self.cause = cause


def write_all(fd: int, payload: bytes) -> None:
    """All of ``payload``: a short write is followed by the rest. Raises :class:`_Stopped`."""
    view = memoryview(payload)
    done = 0
    try:
        while done < len(payload):
            count = os.write(fd, view[done:])
            if count <= 0:
                raise _Stopped(done, None)
            done += count
    except OSError as error:
        raise _Stopped(done, error) from error


def write_or_undo(fd: int, path: Path, payload: bytes, before: int, *, created: bool) -> None:
    """Write ``payload`` at the end of ``fd`` (``before`` bytes long); if that fails part-way,
    cut what was written (remove a file just ``created``) and raise
    :class:`RecordNotWrittenError`."""
    try:
        write_all(fd, payload)
    except (_Stopped, OSError) as failure:
        written, cause = (
            (failure.written, failure.cause) if isinstance(failure, _Stopped) else (0, failure)
        )
        what = _what_failed(cause, written, len(payload))
        problem = _undo(fd, path, before, written, created=created)
        if problem is not None:
            text = (
                f"{path}: {what}: the record was only partly written ({written} of "
                f"{len(payload)} bytes) and could not be cut off again ({problem}); "
                "`ink-tui repair` cuts the torn line"
            )
        elif created:
            text = f"{path}: {what}: the session file was not created; nothing was written"
        else:
            text = f"{path}: {what}: the record was not written; nothing else changed"
        error = RecordNotWrittenError(text)
        error.errno = None if cause is None else cause.errno
        error.filename = str(path)
        raise error from cause


def check_landed(fd: int, path: Path, payload: bytes, before: int) -> int:
    """Where ``payload`` ended up: right after the ``before`` bytes that were checked, unless
    another process wrote between the check and the write (Ink takes no lock). Returns the
    offset just past it when it is a whole line of its own (another writer's whole records
    before it are harmless); if a record half written by the other writer precedes it and it is
    still the file's end, it is cut off again, so that record stays whole once its writer
    finishes it, and :class:`ConcurrentWriteError` says so."""
    if os.pread(fd, len(payload), before) == payload:
        return before + len(payload)
    end = os.fstat(fd).st_size
    written = os.pread(fd, end - before, before)
    at = written.find(payload)
    if at > 0 and written[at - 1 : at] == b"\n":  # after whole records: a line of its own
        return before + at + len(payload)
    ours_last = at >= 0 and before + at + len(payload) == end
    if ours_last and os.fstat(fd).st_size == end:  # nothing came after it: cut just this record
        os.ftruncate(fd, end - len(payload))
        raise ConcurrentWriteError(
            f"{path}: another process wrote at the same moment ({at} bytes); this record was "
            "taken back out, nothing of it is left; reload and try again"
        )
    raise ConcurrentWriteError(
        f"{path}: another process wrote at the same moment, around this record (from byte "
        f"{before}); `ink-tui check` says what the file holds now"
    )


def _what_failed(cause: OSError | None, written: int, total: int) -> str:
    if cause is None:
        return f"the system stopped writing after {written} of {total} bytes"
    if cause.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        return "the disk is full"
    if cause.errno == errno.EFBIG:
        return "the file is too large for this file system"
    return f"writing failed ({cause.strerror or cause})"


def _undo(fd: int, path: Path, before: int, written: int, *, created: bool) -> str | None:
    """Cut the ``written`` bytes this write left after ``before``; why not, if it could not."""
    try:
        size = os.fstat(fd).st_size
        if size != before + written:  # someone else appended meanwhile: leave it all
            return f"the file is {size} bytes, not the {before + written} expected"
        if created:
            if os.stat(path).st_ino == os.fstat(fd).st_ino:
                os.unlink(path)
        elif written:
            os.ftruncate(fd, before)
    except OSError as error:
        return error.strerror or str(error)
    return None
