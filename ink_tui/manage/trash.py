"""The trash: deleted sessions (and pruned children) kept where they can be restored.

The trash is ``<data dir>/trash/`` (platformdirs' user data dir, 0700). Each delete or prune
makes one entry, a folder named ``<UTC time>-<8 hex>`` holding:

- ``entry.json``: what was moved, from where, when, and why (``delete`` or ``prune``), with the
  session's id and title for the listing;
- ``files/0``, ``files/1``…: the moved files and lease folders, in the order of ``entry.json``.

Moving keeps the bytes and the modification times (a rename on the same file system, else a copy
that keeps them, then the original removed). Restoring moves everything back, and refuses if
anything now stands where a file was (nothing is overwritten). ``empty`` removes entries for
good. Nothing here reads a session's content: :mod:`ink_tui.manage.deleting` and
:mod:`ink_tui.manage.pruning` decide what goes in.
"""

from __future__ import annotations

import errno
import os
import secrets
import shutil
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from ink_tui.paths import data_dir
from ink_tui.session.jsoncodec import decode_line, encode_json

__all__ = [
    "TrashEntry",
    "TrashError",
    "TrashItem",
    "empty_trash",
    "find_entry",
    "list_trash",
    "put",
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
    kind: str  # "delete" | "prune"
    deleted_at: str  # ISO UTC
    items: tuple[TrashItem, ...]
    session_id: str = ""
    title: str = ""

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


def _move(source: Path, target: Path) -> None:
    """Move a file or folder, keeping its bytes and modification times, across file systems."""
    try:
        os.rename(source, target)
    except OSError as error:
        if error.errno != errno.EXDEV:  # else: another file system
            raise
        if source.is_dir():
            shutil.copytree(source, target, symlinks=True, copy_function=shutil.copy2)
            shutil.rmtree(source)
        else:
            shutil.copy2(source, target, follow_symlinks=False)
            source.unlink()


def put(paths: list[Path], kind: str, *, session_id: str = "", title: str = "") -> TrashEntry:
    """Move ``paths`` (files and lease folders) into a new trash entry. If a move fails midway,
    what was moved is moved back and :class:`TrashError` says why."""
    now = datetime.now(UTC)
    entry_id = f"{now.strftime('%Y%m%dT%H%M%SZ')}-{secrets.token_hex(4)}"
    folder = trash_dir() / entry_id
    _private_dir(folder / "files")
    items = tuple(
        TrashItem(path.absolute(), str(index), path.is_dir() and not path.is_symlink())
        for index, path in enumerate(paths)
    )
    entry = TrashEntry(
        entry_id, folder, kind, now.isoformat().replace("+00:00", "Z"), items, session_id, title
    )
    fd = os.open(folder / ENTRY_FILE, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as stream:
        stream.write(encode_json(entry.to_json()) + b"\n")
    moved: list[TrashItem] = []
    try:
        for item in items:
            _move(item.original, folder / "files" / item.stored)
            moved.append(item)
    except OSError as error:
        for item in reversed(moved):
            _move(folder / "files" / item.stored, item.original)
        shutil.rmtree(folder, ignore_errors=True)
        where = error.filename or ""
        raise TrashError(f"cannot move {where} to the trash: {error.strerror}") from None
    return entry


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
        if isinstance(item, dict) and isinstance(item.get("original"), str)
    )
    return TrashEntry(
        folder.name,
        folder,
        str(raw.get("kind", "delete")),
        str(raw.get("deletedAt", "")),
        items,
        str(raw.get("sessionId", "")),
        str(raw.get("title", "")),
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
        raise TrashError(f'{what} matching "{entry_id}" (see ink-tui trash list)')
    return matches[0]


def restore(entry: TrashEntry) -> list[Path]:
    """Move everything of ``entry`` back where it was; returns the restored paths. Refuses,
    moving nothing, if anything stands where one of them was."""
    taken = [item.original for item in entry.items if os.path.lexists(item.original)]
    if taken:
        raise TrashError(f"not restored: {taken[0]} exists again (nothing was moved)")
    missing = [item for item in entry.items if not (entry.folder / "files" / item.stored).exists()]
    if missing:
        raise TrashError(f"not restored: the trash lost {missing[0].original} (nothing was moved)")
    for item in entry.items:
        _private_dir(item.original.parent)
        _move(entry.folder / "files" / item.stored, item.original)
    shutil.rmtree(entry.folder, ignore_errors=True)
    return [item.original for item in entry.items]


def empty_trash(entries: list[TrashEntry] | None = None) -> int:
    """Remove trash entries for good (all of them by default); returns how many."""
    chosen = list_trash() if entries is None else entries
    for entry in chosen:
        shutil.rmtree(entry.folder)
    return len(chosen)
