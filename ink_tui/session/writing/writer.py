"""The one door through which ink-tui writes a session file, exactly as Ink appends.

- A new session is created lazily: nothing touches the disk until the first entry (or explicit
  model change); then the file is opened exclusively (never adopting an existing file) and the
  header and that record go out in one write.
- Later records are one ``write`` each, ``JSON.stringify`` bytes plus ``\\n``.
- In-memory state (leaf, known ids) changes only after a write succeeded.
- Before each append the writer checks the file still has the size it left it at: if another
  process appended meanwhile, it raises :class:`ConcurrentWriteError` instead of writing blindly.
- A write the system cuts short is followed by the rest, as Node's ``appendFileSync`` does. If
  a write fails part-way (the disk is full, an I/O error) or stops making progress, the part
  written is cut off again at once (the file goes back to its size before the write, exactly
  what Ink's repair would do to that torn line; a file this writer was creating is removed) and
  :class:`RecordNotWrittenError` says so.
- ``own_writes=True`` (rename, label): each append is noted in ink-tui's ledger
  (:mod:`ink_tui.session.writing.ownwrites`), so that it does not make the session look busy.
- :attr:`SessionWriter.on_write`, when set, is told the records of each write once they landed
  (the chat pane shows what its writes put in the file).
"""

from __future__ import annotations

import errno
import os
import secrets
import uuid
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import cast

from ink_tui.session.reading.jsoncodec import encode_json
from ink_tui.session.reading.reader import SessionFile
from ink_tui.session.reading.recordtypes import EntryRecord, HeaderRecord, Message, SessionHeader
from ink_tui.session.rules.modelref import ModelRef, model_selection
from ink_tui.session.writing.ownwrites import note_own_append

__all__ = [
    "ConcurrentWriteError",
    "RecordNotWrittenError",
    "SessionWriter",
    "WriteBlockedError",
    "new_entry_id",
    "session_file_name",
    "utc_timestamp",
]

Record = dict[str, object]  # a record as written: JSON values under string keys


class ConcurrentWriteError(RuntimeError):
    """Another process changed the file since ink-tui last read or wrote it."""


class WriteBlockedError(RuntimeError):
    """Ink's rule: after a failed initialisation, no later write is attempted."""


class RecordNotWrittenError(OSError):
    """A write failed part-way (disk full, an I/O error); what it wrote was cut off again,
    unless the message says otherwise. ``errno`` is the failed write's, when it raised one."""

    def __str__(self) -> str:
        return str(self.args[0])


class _Stopped(Exception):
    """``_write_all`` stopped after ``written`` bytes: ``cause`` raised, or no progress."""

    def __init__(self, written: int, cause: OSError | None) -> None:
        super().__init__(written, cause)
        self.written = written
        self.cause = cause


def utc_timestamp(now: datetime | None = None) -> str:
    """``new Date().toISOString()``: UTC, exactly three fractional digits, ``Z``."""
    moment = (now or datetime.now(UTC)).astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def session_file_name(timestamp: str, file_uuid: str | None = None) -> str:
    """``<ts>-<uuid>.jsonl`` with ``:`` and ``.`` of the timestamp replaced by ``-``."""
    stamp = timestamp.replace(":", "-").replace(".", "-")
    return f"{stamp}-{file_uuid or uuid.uuid4()}.jsonl"


def new_entry_id(taken: Callable[[str], bool], random_hex: Callable[[], str] | None = None) -> str:
    """16 lowercase hex characters not already in the file (100 tries, then 8 of a UUID)."""
    draw = random_hex or (lambda: "".join(f"{secrets.randbits(16):04x}" for _ in range(4)))
    for _ in range(100):
        candidate = draw()
        if not taken(candidate):
            return candidate
    return str(uuid.uuid4())[:8]


class SessionWriter:
    """Appends records to one session file. Create with :meth:`new` or :meth:`for_session`."""

    def __init__(
        self,
        path: Path,
        *,
        header: SessionHeader | HeaderRecord,
        exists: bool,
        leaf_id: str | None,
        known_ids: set[str],
        size: int,
        clock: Callable[[], datetime] | None = None,
        random_hex: Callable[[], str] | None = None,
        own_writes: bool = False,
    ) -> None:
        self.path = path
        self.own_writes = own_writes  # each append is noted in the ledger of ink-tui's writes
        self.header = header
        self.exists = exists
        self.leaf_id = leaf_id
        self._ids = known_ids
        self._size = size
        self._clock = clock or (lambda: datetime.now(UTC))
        self._failed = False
        self._random_hex = random_hex
        self.on_write: Callable[[Sequence[Mapping[str, object]]], None] | None = (
            None  # the records, once landed
        )

    # -- construction ------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        project_dir: Path,
        cwd: str,
        *,
        model: ModelRef | None = None,
        clock: Callable[[], datetime] | None = None,
        random_hex: Callable[[], str] | None = None,
        session_id: str | None = None,
        file_uuid: str | None = None,
    ) -> SessionWriter:
        """Allocate a new session in ``project_dir`` (the cwd folder). Nothing is written yet.

        ``random_hex`` (entry ids), ``session_id`` and ``file_uuid`` exist for deterministic
        output (demo data, tests); by default they are drawn at random as Ink does.
        """
        now = (clock or (lambda: datetime.now(UTC)))()
        stamp = utc_timestamp(now)
        header: SessionHeader = {
            "type": "session",
            "version": 1,
            "id": session_id or str(uuid.uuid4()),
            "timestamp": stamp,
            "cwd": cwd,
        }
        if model is not None:
            header["model"] = model_selection(model)
        path = project_dir / session_file_name(stamp, file_uuid)
        return cls(
            path,
            header=header,
            exists=False,
            leaf_id=None,
            known_ids=set(),
            size=0,
            clock=clock,
            random_hex=random_hex,
        )

    @classmethod
    def for_session(
        cls,
        session: SessionFile,
        *,
        clock: Callable[[], datetime] | None = None,
        random_hex: Callable[[], str] | None = None,
        own_writes: bool = False,
    ) -> SessionWriter:
        """Append to an opened session, after its leaf. The file must end with a newline."""
        if not session.ends_with_newline or session.dropped_final_line is not None:
            raise ValueError(f"{session.path}: repair the torn final line before appending")
        return cls(
            session.path,
            header=session.header,
            exists=True,
            leaf_id=session.leaf_id,
            known_ids=set(session.by_id),
            size=session.size,
            clock=clock,
            random_hex=random_hex,
            own_writes=own_writes,
        )

    # -- records -----------------------------------------------------------------------------

    @property
    def session_id(self) -> str:
        return str(self.header["id"])

    @property
    def size(self) -> int:
        """The file's size as this writer last saw it (0 before the file exists)."""
        return self._size

    def knows(self, entry_id: str) -> bool:
        """Whether ``entry_id`` was in the file when read, or written by this writer."""
        return entry_id in self._ids

    def append_entry(
        self,
        entry_type: str,
        fields: Mapping[str, object],
        *,
        parent_id: str | None = None,
        then_position: bool = False,
    ) -> EntryRecord:
        """Append a tree entry (``type, id, parentId, timestamp`` then ``fields``) after the leaf.

        ``parent_id`` overrides the parent (a fork in place, as ``/tree`` then a new message).
        Returns the record written; the leaf becomes its id (except for a ``label``, which never
        moves the leaf). ``then_position`` (a label): a ``position`` marker naming the leaf follows
        it in the same write (a label after the marker that decided the leaf would undo it).
        """
        entry_id = new_entry_id(self._ids.__contains__, self._random_hex)
        parent = self.leaf_id if parent_id is None else parent_id
        head = {"type": entry_type, "id": entry_id, "parentId": parent}
        record: Record = {**head, "timestamp": utc_timestamp(self._clock())}
        for key, value in fields.items():
            if key in record:
                raise ValueError(f"field {key!r} is reserved")
            record[key] = value
        marker = {"type": "position", "leafId": self.leaf_id}
        self._write([record, marker] if then_position else [record])
        self._ids.add(entry_id)
        if entry_type != "label":  # labels never move the leaf
            self.leaf_id = entry_id
        return cast(EntryRecord, record)  # its head is the writer's own, of the types Ink reads

    def append_message(
        self, message: Message | Mapping[str, object], *, parent_id: str | None = None
    ) -> EntryRecord:
        return self.append_entry("message", {"message": message}, parent_id=parent_id)

    def append_position(self, leaf_id: str | None) -> None:
        """A ``position`` marker (``/fork``, ``/tree``); only for a file that exists."""
        if not self.exists:
            self.leaf_id = leaf_id
            return
        self._write([{"type": "position", "leafId": leaf_id}])
        self.leaf_id = leaf_id

    def append_session_model(self, model: ModelRef, *, explicit: bool = True) -> None:
        """A ``session_model`` marker (``/model``). Creates the file when it does not exist."""
        self._write([{"type": "session_model", **model_selection(model), "explicit": explicit}])

    # -- IO ----------------------------------------------------------------------------------

    def _write(self, records: Sequence[Mapping[str, object]]) -> None:
        if self._failed:
            raise WriteBlockedError(
                f"session initialization previously failed: {self.path} — start a new session"
            )
        payload = b"".join(encode_json(record) + b"\n" for record in records)
        if not self.exists:
            self._create(encode_json(self.header) + b"\n" + payload)
        else:
            self._append(payload)
        if self.on_write is not None:
            self.on_write(records)

    def _append(self, payload: bytes) -> None:
        fd = os.open(self.path, os.O_RDWR | os.O_APPEND)  # read too: what it wrote is checked
        try:
            size = (before := os.fstat(fd)).st_size
            if size != self._size:
                raise ConcurrentWriteError(
                    f"{self.path}: the file changed since it was read ({self._size} -> {size} "
                    "bytes); reload it before writing"
                )
            if size and os.pread(fd, 1, size - 1) != b"\n":
                raise ConcurrentWriteError(
                    f"{self.path}: another process is writing a record right now (the file "
                    "does not end with a newline); nothing was written"
                )
            _write_or_undo(fd, self.path, payload, size, created=False)
            end = _check_landed(fd, self.path, payload, size)
            if self.own_writes and end == size + len(payload):  # right after the bytes checked
                note_own_append(self.path, before, os.fstat(fd), end=end)
        finally:
            os.close(fd)
        # Another writer's whole records may have come first: the size it knew plus this record
        # then differs from the file's, and the next append says the file changed.
        self._size += len(payload)

    def _create(self, payload: bytes) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # private
        try:
            _write_or_undo(fd, self.path, payload, 0, created=True)
        except OSError:
            self._failed = True
            raise
        finally:
            os.close(fd)
        self.exists = True
        self._size = len(payload)


def _write_all(fd: int, payload: bytes) -> None:
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


def _write_or_undo(fd: int, path: Path, payload: bytes, before: int, *, created: bool) -> None:
    """Write ``payload`` at the end of ``fd`` (``before`` bytes long); if that fails part-way,
    cut what was written (remove a file just ``created``) and raise
    :class:`RecordNotWrittenError`."""
    try:
        _write_all(fd, payload)
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


def _check_landed(fd: int, path: Path, payload: bytes, before: int) -> int:
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
