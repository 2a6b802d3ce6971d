"""ink-tui's own writes: a small ledger, so that a record ink-tui appended does not make the
session look as if Ink were running it.

A session another program wrote in the last :data:`IN_USE_SECONDS` may be in use (rename, label,
delete and repair refuse it), and one written in the last :data:`LIVE_SECONDS` is shown running
(the picker marks it ``● live``, a subagent's child counts as running). But a rename or a label is
a write too: without this ledger, ink-tui's own record would lock the session for a minute. So
the session writer, for the records it is asked to note (``SessionWriter(own_writes=True)``: the
one-record writes of rename and label), writes one small JSON file per session after each append:

- the file's device, inode, size and ``mtime_ns`` right after the append (what the file is as
  long as nobody else wrote since);
- ``foreignMtimeNs``: the last time something other than ink-tui wrote the file: the mtime just
  before the append, or, if the file was then still as ink-tui's previous append left it, the
  time that one recorded (so two renames in a row still date from Ink's last record).

:func:`last_foreign_write` answers "when did something other than ink-tui last write this file":
the recorded time while the file is exactly as ink-tui left it, else the file's mtime. A record
is only trusted for exactly the inode, size and mtime it names, so an append by Ink (or anything)
makes the file's own mtime count again. The ledger lives in the cache folder (``own-writes/``,
one file per session path, written to a temporary name and renamed: a reader sees a whole record
or none); losing it costs nothing but a minute of "live". Entries older than
:data:`KEEP_SECONDS` matter to nobody (the file's own mtime is that old too) and are removed.

:class:`OwnWrites` keeps the ledger in memory for the picker: :meth:`OwnWrites.refresh` reads it
(call it in a worker), :meth:`OwnWrites.quiet_since` answers from memory for a row's size and
mtime (no file is read, so it can run on the event loop).
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from ink_tui.paths import cache_dir

__all__ = [
    "IN_USE_SECONDS",
    "KEEP_SECONDS",
    "LIVE_SECONDS",
    "OwnWrite",
    "OwnWrites",
    "last_foreign_write",
    "ledger_dir",
    "note_own_append",
    "own_writes",
]

IN_USE_SECONDS: Final = 60.0
"""A file another program wrote this recently may still be written: ink-tui changes nothing in
it (repair, rename, label, delete)."""
LIVE_SECONDS: Final = 30.0
"""A file another program wrote this recently is shown running: the picker's ``● live``, a
``task`` call's child taken as running."""
KEEP_SECONDS: Final = 3600.0
"""A ledger entry older than this is removed: any "recently written" window is far shorter."""
LEDGER_FOLDER: Final = "own-writes"
_MAX_ENTRY_BYTES: Final = 16 * 1024


@dataclass(frozen=True, slots=True)
class OwnWrite:
    """One session file as ink-tui's last append left it, and when others last wrote it."""

    path: str  # the path as written (absolute)
    real: str  # the same, symlinks resolved
    dev: int
    ino: int
    size: int
    mtime_ns: int
    foreign_mtime_ns: int

    def matches(self, info: os.stat_result) -> bool:
        """The file is exactly as ink-tui's append left it."""
        return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns) == (
            self.dev,
            self.ino,
            self.size,
            self.mtime_ns,
        )

    def to_json(self) -> dict[str, object]:
        return {
            "path": self.path,
            "real": self.real,
            "dev": self.dev,
            "ino": self.ino,
            "size": self.size,
            "mtimeNs": self.mtime_ns,
            "foreignMtimeNs": self.foreign_mtime_ns,
        }

    @classmethod
    def from_json(cls, raw: object) -> OwnWrite | None:
        if not isinstance(raw, dict):
            return None
        texts = [raw.get(key) for key in ("path", "real")]
        numbers = [raw.get(key) for key in ("dev", "ino", "size", "mtimeNs", "foreignMtimeNs")]
        if not all(isinstance(text, str) for text in texts):
            return None
        if not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers):
            return None
        path, real = (str(text) for text in texts)
        dev, ino, size, mtime_ns, foreign = (int(str(n)) for n in numbers)
        return cls(path, real, dev, ino, size, mtime_ns, foreign)


def ledger_dir() -> Path:
    """Where the ledger lives: ``own-writes/`` in ink-tui's cache folder."""
    return cache_dir() / LEDGER_FOLDER


def _entry_file(real: str) -> Path:
    digest = hashlib.sha256(os.fsencode(real)).hexdigest()[:32]
    return ledger_dir() / f"{digest}.json"


def _read(file: Path) -> OwnWrite | None:
    try:
        with open(file, "rb") as stream:
            raw = stream.read(_MAX_ENTRY_BYTES + 1)
        if len(raw) > _MAX_ENTRY_BYTES:
            return None
        return OwnWrite.from_json(json.loads(raw))
    except (OSError, ValueError):
        return None


def _recorded(path: Path) -> OwnWrite | None:
    real = os.path.realpath(path)
    entry = _read(_entry_file(real))
    return entry if entry is not None and entry.real == real else None


def _foreign_ns(entry: OwnWrite | None, info: os.stat_result) -> int:
    return entry.foreign_mtime_ns if entry is not None and entry.matches(info) else info.st_mtime_ns


def last_foreign_write(path: Path, info: os.stat_result | None = None) -> float:
    """The last time (epoch seconds) something other than ink-tui wrote ``path``: its mtime,
    unless the file is exactly as ink-tui's last noted append left it (then the time recorded
    with that append). ``info``: the file's ``stat`` when the caller has it. Raises the
    ``OSError`` of ``stat``."""
    info = os.stat(path) if info is None else info
    return _foreign_ns(_recorded(path), info) / 1e9


def note_own_append(path: Path, before: os.stat_result, after: os.stat_result, *, end: int) -> None:
    """Record that ink-tui appended to ``path``: ``before`` and ``after`` are the file's
    ``fstat`` just before and just after the write, which ended at byte ``end``; nothing is
    noted unless the file still ends there (nobody wrote after it). Never raises: without the
    ledger the file only looks busy for a minute."""
    if after.st_size != end:
        return
    try:
        real = os.path.realpath(path)
        foreign = _foreign_ns(_recorded(path), before)
        entry = OwnWrite(
            os.path.abspath(path),
            real,
            after.st_dev,
            after.st_ino,
            after.st_size,
            after.st_mtime_ns,
            foreign,
        )
        _write_entry(_entry_file(real), entry)
    except (OSError, ValueError):
        return
    own_writes.remember(entry)


def _write_entry(target: Path, entry: OwnWrite) -> None:
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as stream:
            stream.write(json.dumps(entry.to_json()).encode())
        os.replace(temporary, target)
    finally:
        if os.path.lexists(temporary):
            os.unlink(temporary)


class OwnWrites:
    """The ledger in memory (see the module doc): refreshed in a worker, asked on the loop."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_path: dict[str, OwnWrite] = {}

    def refresh(self, now: float | None = None) -> None:
        """Read the ledger again (files are read: call it off the event loop); entries older
        than :data:`KEEP_SECONDS` are removed from it."""
        now = time.time() if now is None else now
        found: dict[str, OwnWrite] = {}
        try:
            with os.scandir(ledger_dir()) as listing:
                files = [Path(item.path) for item in listing if item.name.endswith(".json")]
        except OSError:
            files = []
        for file in files:
            entry = _read(file)
            if entry is None:
                continue
            if now - entry.mtime_ns / 1e9 > KEEP_SECONDS:
                with suppress(OSError):
                    file.unlink()
                continue
            found[entry.path] = found[entry.real] = entry
        with self._lock:
            self._by_path = found

    def remember(self, entry: OwnWrite) -> None:
        """An append this process just noted (known at once, before the next refresh)."""
        with self._lock:
            known = dict(self._by_path)
            known[entry.path] = known[entry.real] = entry
            self._by_path = known

    def quiet_since(self, path: Path, mtime: float, size: int) -> float:
        """When something other than ink-tui last wrote ``path``, as far as the ledger in
        memory knows, for a file of this ``size`` and ``mtime`` (seconds, as ``stat`` gave
        them): ``mtime`` itself unless ink-tui's own append made them. Reads no file."""
        entry = self._by_path.get(os.fspath(path))
        if entry is None or entry.size != size or abs(entry.mtime_ns / 1e9 - mtime) > 1e-6:
            return mtime
        return entry.foreign_mtime_ns / 1e9


own_writes: Final = OwnWrites()
"""The process's view of the ledger (the picker's ``● live`` marker reads it)."""
