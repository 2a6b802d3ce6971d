"""The two torture writers: ink-tui's ``SessionWriter`` and one that appends as Ink does.

- ``ink-tui``: :class:`ink_tui.session.writing.writer.SessionWriter`, the chat pane's store (its dry
  twin :class:`DrySessionWriter` hands the bytes it would write to a sink instead);
- ``raw``: :class:`InkLikeWriter`, which appends as Ink's store does (``appendFileSync``: open
  with ``O_APPEND``, one ``write`` per record, close; no fsync, no lock, no size check).

Ids and timestamps come from the seed, so a writer process and its dry twin in the test write
the same bytes.
"""

from __future__ import annotations

import json
import os
import random
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal, Protocol

from ink_tui.session.reading.jsoncodec import encode_json
from ink_tui.session.reading.reader import SessionFile
from ink_tui.session.rules.modelref import ModelRef
from ink_tui.session.writing.writer import SessionWriter, new_entry_id, utc_timestamp

__all__ = [
    "MODELS",
    "WRITERS",
    "DrySessionWriter",
    "InkLikeWriter",
    "Sink",
    "Writer",
    "WriterKind",
    "make_writer",
    "new_session_writer",
    "seeded_clock",
    "seeded_hex",
]

WriterKind = Literal["ink-tui", "raw"]
WRITERS: tuple[WriterKind, ...] = ("ink-tui", "raw")
Record = dict[str, Any]
Sink = Callable[[bytes], None]
MODELS = (ModelRef("zai", "glm-5.3"), ModelRef("anthropic", "claude-sonnet-4-5"))


class Writer(Protocol):
    """What :func:`drive` needs of a writer (``SessionWriter`` has it all)."""

    leaf_id: str | None

    @property
    def size(self) -> int: ...

    def append_message(self, message: Record, *, parent_id: str | None = None) -> Record: ...

    def append_entry(
        self, entry_type: str, fields: Record, *, parent_id: str | None = None
    ) -> Record: ...

    def append_position(self, leaf_id: str | None) -> None: ...

    def append_session_model(self, model: ModelRef, *, explicit: bool = True) -> None: ...


def seeded_clock(seed: int) -> Callable[[], datetime]:
    moment = [datetime(2026, 1, 1, tzinfo=UTC) + timedelta(seconds=seed % 10**7)]

    def tick() -> datetime:
        moment[0] += timedelta(milliseconds=7)
        return moment[0]

    return tick


def seeded_hex(seed: int) -> Callable[[], str]:
    rng = random.Random(seed * 7 + 1)
    return lambda: "".join(f"{rng.getrandbits(16):04x}" for _ in range(4))


class DrySessionWriter(SessionWriter):
    """``SessionWriter`` with its IO replaced by a sink given the payloads it would write."""

    sink: Sink

    def _write(self, records: list[Record]) -> None:
        payload = b"".join(encode_json(record) + b"\n" for record in records)
        if not self.exists:  # the exclusive create: header and first record in one write
            payload = encode_json(self.header) + b"\n" + payload
            self.exists = True
        self.sink(payload)
        self._size += len(payload)


class InkLikeWriter:
    """Appends as Ink's store does: ``JSON.stringify`` + ``\\n``, one append per record; for
    a new session (``header``), the first record goes out with the header, in a file created
    exclusively (``"wx"``) by ``create`` (the first sink call)."""

    def __init__(
        self,
        session: SessionFile | None,
        seed: int,
        sink: Sink,
        *,
        header: Record | None = None,
        create: Sink | None = None,
    ) -> None:
        self.leaf_id = session.leaf_id if session else None
        self._ids = set(session.by_id) if session else set()
        self._size = session.size if session else 0
        self._clock = seeded_clock(seed)
        self._hex = seeded_hex(seed)
        self._sink = sink
        self._header = header
        self._create = create or sink

    @property
    def size(self) -> int:
        return self._size

    def _append(self, record: Record) -> None:
        line = _stringify(record) + b"\n"
        if self._header is not None:
            line = _stringify(self._header) + b"\n" + line
            self._header = None
            self._create(line)
        else:
            self._sink(line)
        self._size += len(line)

    def append_entry(
        self, entry_type: str, fields: Record, *, parent_id: str | None = None
    ) -> Record:
        record: Record = {
            "type": entry_type,
            "id": new_entry_id(self._ids.__contains__, self._hex),
            "parentId": self.leaf_id if parent_id is None else parent_id,
            "timestamp": utc_timestamp(self._clock()),
            **fields,
        }
        self._append(record)
        self._ids.add(record["id"])
        if entry_type != "label":
            self.leaf_id = record["id"]
        return record

    def append_message(self, message: Record, *, parent_id: str | None = None) -> Record:
        return self.append_entry("message", {"message": message}, parent_id=parent_id)

    def append_position(self, leaf_id: str | None) -> None:
        if self._header is None:  # Ink: position markers only for a file that exists
            self._append({"type": "position", "leafId": leaf_id})
        self.leaf_id = leaf_id

    def append_session_model(self, model: ModelRef, *, explicit: bool = True) -> None:
        self._append({"type": "session_model", **model.to_json(), "explicit": explicit})


def _stringify(record: Record) -> bytes:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode()


def create_like_ink(path: Path) -> Sink:
    """The first write of a new session: open with ``"wx"`` (exclusive), write it all."""

    def sink(data: bytes) -> None:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)

    return sink


def append_like_ink(path: Path) -> Sink:
    """``appendFileSync(path, line)``: open (``O_APPEND|O_CREAT``), write it all, close."""

    def sink(line: bytes) -> None:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            view = memoryview(line)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)

    return sink


def make_writer(kind: WriterKind, session: SessionFile, seed: int, sink: Sink | None) -> Writer:
    """The writer ``kind`` appending after ``session``'s leaf: to the file, to ``sink``, or
    (``ink-tui`` with ``sink=None``) for real through ``SessionWriter``."""
    if kind == "raw":
        return InkLikeWriter(session, seed, sink or append_like_ink(session.path))
    if sink is None:
        return SessionWriter.for_session(
            session, clock=seeded_clock(seed), random_hex=seeded_hex(seed)
        )
    dry = DrySessionWriter.for_session(
        session, clock=seeded_clock(seed), random_hex=seeded_hex(seed)
    )
    assert isinstance(dry, DrySessionWriter)
    dry.sink = sink
    return dry


def new_session_writer(
    kind: WriterKind, folder: Path, seed: int, sink: Sink | None
) -> tuple[Path, Writer]:
    """A writer of ``kind`` for a new session in ``folder`` (nothing on disk until its first
    record), with its path: for real (``sink=None``) or into ``sink``."""
    new = DrySessionWriter.new if sink is not None else SessionWriter.new
    writer = new(
        folder,
        "/home/ada/proj",
        model=MODELS[0],
        clock=seeded_clock(seed),
        random_hex=seeded_hex(seed),
        session_id=str(uuid.UUID(int=seed, version=4)),
        file_uuid=str(uuid.UUID(int=seed + 1, version=4)),
    )
    if kind == "raw":
        append = sink or append_like_ink(writer.path)
        create = sink or create_like_ink(writer.path)
        return writer.path, InkLikeWriter(None, seed, append, header=writer.header, create=create)
    if isinstance(writer, DrySessionWriter) and sink is not None:
        writer.sink = sink
    return writer.path, writer
