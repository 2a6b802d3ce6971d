"""The trash: deleted sessions (and pruned children) kept where they can be restored.

The trash is ``<data dir>/trash/`` (platformdirs' user data dir, 0700). Each delete or prune
makes one entry, a folder named ``<UTC time>-<8 hex>`` holding:

- ``entry.json``: what was moved, from where, when, and why (``delete`` or ``prune``), with the
  session's id and title for the listing;
- ``files/0``, ``files/1``…: the moved files and lease folders, in the order of ``entry.json``;
- ``.lock``: what a restore (or an empty) of the entry holds, so that two never run at once.

Moving in and out is all or nothing (:func:`ink_tui.manage.moving.transfer`): a rename on the
same file system, else a copy that is fsync-ed and compared before the originals go; any failure
undoes every move, so a session is never cut, and an entry is never half restored. Restoring
refuses, moving nothing, if anything stands where a file was (a file that appears meanwhile is
never replaced either: the rename into place refuses to replace). A failed move into the trash
leaves no entry folder behind. ``empty`` removes entries for good. Nothing here reads a
session's content: :mod:`ink_tui.manage.deleting` and :mod:`ink_tui.manage.pruning` decide
what goes in.
"""

from __future__ import annotations

import errno
import os
import secrets
import shutil
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from ink_tui.manage.moving import (
    LOCK_FILE,
    Stranded,
    entry_lock,
    lock_entry,
    transfer,
    write_all,
)
from ink_tui.paths import data_dir
from ink_tui.safetext import one_line
from ink_tui.session.reading.jsoncodec import decode_line, encode_json

__all__ = [
    "TrashEntry",
    "TrashError",
    "TrashItem",
    "empty_trash",
    "find_entry",
    "list_trash",
    "put",
    "put_copy",
    "restore",
    "trash_dir",
]

ENTRY_FILE: Final = "entry.json"


class TrashError(Exception):
    """A trash operation that could not be done (said in one line; nothing was lost)."""


@dataclass(frozen=True, slots=True)
class TrashItem:
    original: Path  # where it was, and goes back to
    stored: str  # its name under ``files/``
    is_dir: bool


@dataclass(frozen=True, slots=True)
class TrashEntry:
    id: str
    folder: Path
    kind: str  # "delete" | "prune" | "scrub"
    deleted_at: str  # ISO UTC
    items: tuple[TrashItem, ...]
    session_id: str = ""
    title: str = ""
    replaced_by: str = ""  # "scrub": the SHA-256 of the file written in the original's place

    @property
    def sessions(self) -> list[Path]:
        """The session files (not lease folders) it holds."""
        return [item.original for item in self.items if not item.is_dir]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "deletedAt": self.deleted_at,
            "sessionId": self.session_id,
            "title": self.title,
            **({"replacedBy": self.replaced_by} if self.replaced_by else {}),
            "items": [
                {"original": os.fsdecode(item.original), "stored": item.stored, "dir": item.is_dir}
                for item in self.items
            ],
        }


def trash_dir() -> Path:
    return data_dir() / "trash"


def _private_dir(path: Path) -> None:
    """Make ``path`` and its missing parents, each 0700 (``mkdir(parents=True)`` would give the
    parents the default mode)."""
    missing: list[Path] = []
    while not path.exists():
        missing.append(path)
        path = path.parent
    for folder in reversed(missing):
        folder.mkdir(mode=0o700, exist_ok=True)


def _failure(error: OSError, where: Path) -> str:
    """``<path>: No space left on device``: the path the error names, else ``where``."""
    if isinstance(error, Stranded):
        return str(error)
    path = error.filename if error.filename is not None else where
    return f"{one_line(os.fsdecode(path))}: {error.strerror or error}"


def _write_entry_file(path: Path, entry: TrashEntry) -> None:
    _write_file(path, encode_json(entry.to_json()) + b"\n")


def _new_entry(
    kind: str, items: tuple[TrashItem, ...], session_id: str, title: str, replaced_by: str = ""
) -> TrashEntry:
    """The entry a put makes now (its folder not made yet): named by the time and 8 hex."""
    now = datetime.now(UTC)
    entry_id = f"{now.strftime('%Y%m%dT%H%M%SZ')}-{secrets.token_hex(4)}"
    stamp = now.isoformat().replace("+00:00", "Z")
    folder = trash_dir() / entry_id
    return TrashEntry(entry_id, folder, kind, stamp, items, session_id, title, replaced_by)


@contextmanager
def _made(entry: TrashEntry, failed: str, tail: str = "") -> Iterator[Path]:
    """The entry's folder made, with its ``files/`` folder, ``entry.json`` and ``.lock``, for
    the body to fill. If anything fails (but a move stranded in the entry, which stays), no
    entry folder is left and :class:`TrashError` says ``failed: <path>: <reason><tail>``."""
    made = False
    try:
        _private_dir(trash_dir())
        os.mkdir(entry.folder, 0o700)
        made = True
        os.mkdir(entry.folder / "files", 0o700)
        _write_entry_file(entry.folder / ENTRY_FILE, entry)
        os.close(os.open(entry.folder / LOCK_FILE, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        yield entry.folder
    except Stranded as error:  # files are in the entry: it stays
        raise TrashError(f"{failed}: {error}") from None
    except OSError as error:
        if made:
            shutil.rmtree(entry.folder, ignore_errors=True)
        raise TrashError(f"{failed}: {_failure(error, entry.folder)}{tail}") from None


def put(paths: list[Path], kind: str, *, session_id: str = "", title: str = "") -> TrashEntry:
    """Move ``paths`` (files and lease folders) into a new trash entry, all or nothing: if
    anything fails, everything stays (or is put back) where it was, no entry folder is left,
    and :class:`TrashError` names the path and the reason."""
    items = tuple(
        TrashItem(path.absolute(), str(index), path.is_dir() and not path.is_symlink())
        for index, path in enumerate(paths)
    )
    entry = _new_entry(kind, items, session_id, title)
    with _made(entry, "not moved to the trash", " (nothing was moved)") as folder:
        moves = [(item.original, folder / "files" / item.stored) for item in items]
        transfer(moves, make_parents=False, drop_sources=True)
    return entry


def put_copy(
    path: Path, data: bytes, kind: str, *, replaced_by: str, session_id: str = "", title: str = ""
) -> TrashEntry:
    """A new trash entry holding ``data`` as the file ``path`` was (the original of a file about
    to be replaced in place: a scrub), written and fsync-ed before anything else happens; the
    file that replaces it has the SHA-256 ``replaced_by`` (a restore puts the original back
    only over that very file). The copy keeps the file's times (a restore puts them back).
    Raises :class:`TrashError` (no entry left behind)."""
    items = (TrashItem(path.absolute(), "0", False),)
    entry = _new_entry(kind, items, session_id, title, replaced_by)
    with _made(entry, "not kept in the trash") as folder:
        was = path.stat()
        _write_file(folder / "files" / "0", data)
        os.utime(folder / "files" / "0", ns=(was.st_atime_ns, was.st_mtime_ns))
    return entry


def _write_file(path: Path, data: bytes) -> None:
    """``data`` in the new file ``path``, fsync-ed."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        write_all(fd, data)
        os.fsync(fd)
    except OSError as error:
        error.filename = str(path) if error.filename is None else error.filename
        raise
    finally:
        os.close(fd)


def _read_entry(folder: Path) -> TrashEntry | None:
    try:
        raw = decode_line((folder / ENTRY_FILE).read_bytes().strip())
    except (OSError, ValueError):
        return None
    if not isinstance(raw, dict) or not isinstance(raw.get("items"), list):
        return None
    items = tuple(
        TrashItem(Path(item["original"]), str(item["stored"]), bool(item.get("dir")))
        for item in raw["items"]
        if isinstance(item, dict)
        and isinstance(item.get("original"), str)
        and str(item.get("stored", "")).isdigit()  # a name under files/, never a path
    )
    return TrashEntry(
        folder.name,
        folder,
        str(raw.get("kind", "delete")),
        str(raw.get("deletedAt", "")),
        items,
        str(raw.get("sessionId", "")),
        str(raw.get("title", "")),
        str(raw.get("replacedBy", "")),
    )


def list_trash() -> list[TrashEntry]:
    """Every trash entry, newest first."""
    try:
        folders = [path for path in trash_dir().iterdir() if path.is_dir()]
    except OSError:
        return []
    entries = [entry for entry in map(_read_entry, folders) if entry is not None]
    return sorted(entries, key=lambda entry: entry.id, reverse=True)


def find_entry(entry_id: str) -> TrashEntry:
    """The trash entry ``entry_id`` (or a unique prefix of it)."""
    matches = [entry for entry in list_trash() if entry.id.startswith(entry_id)] if entry_id else []
    if len(matches) != 1:
        what = "no trash entry" if not matches else f"{len(matches)} trash entries"
        shown = one_line(entry_id)
        raise TrashError(f'{what} matching "{shown}" (see ink-tui trash list)')
    return matches[0]


def restore(entry: TrashEntry) -> list[Path]:
    """Move everything of ``entry`` back where it was, all or nothing; returns the restored
    paths. Refuses, moving nothing, if anything stands where one of them was; on any failure
    what moved is moved back and the entry stays whole in the trash."""
    try:
        lock = lock_entry(entry.folder)
    except OSError as error:
        if not os.path.lexists(entry.folder):
            raise TrashError(
                f"not restored: the trash entry {entry.id} is gone (restored or emptied meanwhile)"
            ) from None
        raise TrashError(
            f"not restored: {_failure(error, entry.folder)} (nothing was moved)"
        ) from None
    try:
        return _restore_locked(entry)
    finally:
        os.close(lock)


def _restore_locked(entry: TrashEntry) -> list[Path]:
    if not (entry.folder / ENTRY_FILE).exists():
        raise TrashError(
            f"not restored: the trash entry {entry.id} is gone (restored or emptied meanwhile)"
        )
    if entry.replaced_by:
        return _restore_replaced(entry)
    taken = [item.original for item in entry.items if os.path.lexists(item.original)]
    if taken:
        raise TrashError(
            f"not restored: {one_line(str(taken[0]))} exists again (nothing was moved)"
        )
    missing = [
        item for item in entry.items if not os.path.lexists(entry.folder / "files" / item.stored)
    ]
    if missing:
        raise TrashError(
            f"not restored: the trash lost {one_line(str(missing[0].original))} (nothing was moved)"
        )
    moves = [(entry.folder / "files" / item.stored, item.original) for item in entry.items]
    try:
        transfer(moves, make_parents=True, drop_sources=False)
    except Stranded as error:
        raise TrashError(f"not restored: {error}") from None
    except FileExistsError as error:
        raise TrashError(
            f"not restored: {_failure(error, entry.folder)}: it appeared meanwhile; everything "
            f"stays in the trash entry {entry.id} (nothing was moved)"
        ) from None
    except OSError as error:
        raise TrashError(
            f"not restored: {_failure(error, entry.folder)}; everything stays in the trash "
            f"entry {entry.id} (nothing was moved)"
        ) from None
    with suppress(OSError):  # the entry first, so that it is never listed without its files
        os.unlink(entry.folder / ENTRY_FILE)
    shutil.rmtree(entry.folder, ignore_errors=True)
    return [item.original for item in entry.items]


def _restore_replaced(entry: TrashEntry) -> list[Path]:
    """A scrub's original put back over the scrubbed file, only if that file is still exactly
    what the scrub wrote (else something was written to it since, which a restore would lose)."""
    import hashlib

    (item,) = entry.items
    stored = entry.folder / "files" / item.stored
    try:
        current = item.original.read_bytes()
        original = stored.read_bytes()
    except OSError as error:
        raise TrashError(
            f"not restored: {_failure(error, entry.folder)} (nothing was moved)"
        ) from None
    if hashlib.sha256(current).hexdigest() != entry.replaced_by:
        raise TrashError(
            f"not restored: {one_line(str(item.original))} changed since it was scrubbed "
            "(restoring would lose what was written since; nothing was moved)"
        )
    temporary = item.original.with_name(f".{item.original.name}.restoring-{secrets.token_hex(4)}")
    try:
        _write_file(temporary, original)
        os.chmod(temporary, item.original.stat().st_mode & 0o7777)  # the mode it has now
        if temporary.read_bytes() != original:
            raise OSError(errno.EIO, "the copy read back differs", str(temporary))
        was = stored.stat()  # the original's times, kept by the copy
        os.utime(temporary, ns=(was.st_atime_ns, was.st_mtime_ns))
        os.replace(temporary, item.original)  # the scrubbed file goes, the original is back
    except OSError as error:
        with suppress(OSError):
            os.unlink(temporary)
        raise TrashError(
            f"not restored: {_failure(error, entry.folder)} (nothing was moved)"
        ) from None
    with suppress(OSError):
        os.unlink(entry.folder / ENTRY_FILE)
    shutil.rmtree(entry.folder, ignore_errors=True)
    return [item.original]


def empty_trash(entries: list[TrashEntry] | None = None) -> int:
    """Remove trash entries for good (all of them by default); returns how many."""
    removed = 0
    for entry in list_trash() if entries is None else entries:
        try:
            with entry_lock(entry.folder):  # not while it is being restored
                shutil.rmtree(entry.folder)
        except FileNotFoundError:
            continue  # restored or emptied meanwhile
        removed += 1
    return removed
