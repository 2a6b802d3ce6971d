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

import os
import secrets
import uuid
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import cast

from ink_tui.paths import mirrored_machine
from ink_tui.session.reading.jsoncodec import encode_json
from ink_tui.session.reading.reader import SessionFile
from ink_tui.session.reading.recordtypes import EntryRecord, HeaderRecord, Message, SessionHeader
from ink_tui.session.reading.timestamps import utc_timestamp
from ink_tui.session.rules.modelref import ModelRef, model_selection
from ink_tui.session.writing.appends import (
    ConcurrentWriteError,
    RecordNotWrittenError,
    check_landed,
    write_or_undo,
)
from ink_tui.session.writing.ownwrites import note_own_append

__all__ = [
    "ConcurrentWriteError",
    "RecordNotWrittenError",
    "SessionWriter",
    "WriteBlockedError",
    "mirror_refusal",
    "new_entry_id",
    "session_file_name",
    "utc_timestamp",
]

Record = dict[str, object]  # a record as written: JSON values under string keys


def mirror_refusal(path: Path) -> str | None:
    """Why ink-tui never writes ``path``, when it is a copy of another machine's session (its
    mirror, kept by ``ink-tui sync``: what was written here would go at the next sync)."""
    machine = mirrored_machine(path)
    if machine is None:
        return None
    return (
        f"this is a copy of machine {machine}'s session, kept in sync from there, and is never "
        f"written here: go on with it on {machine}, or `ink-tui adopt` it into this machine's "
        "sessions"
    )


class WriteBlockedError(RuntimeError):
    """Ink's rule: after a failed initialisation, no later write is attempted."""


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
        refusal = mirror_refusal(self.path)
        if refusal is not None:
            raise WriteBlockedError(f"{self.path}: {refusal}")
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
            write_or_undo(fd, self.path, payload, size, created=False)
            end = check_landed(fd, self.path, payload, size)
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
            write_or_undo(fd, self.path, payload, 0, created=True)
        except OSError:
            self._failed = True
            raise
        finally:
            os.close(fd)
        self.exists = True
        self._size = len(payload)
