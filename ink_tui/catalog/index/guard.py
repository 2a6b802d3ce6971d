"""What the index's files must be before SQLite may open them, checked without following links.

SQLite follows symlinks: opening an ``index.sqlite3`` that links to another database would switch
that database to WAL mode (and write ink-tui's tables into it), and one that links to nothing
would create its target. So the index is refused, with one line saying why, when:

- the folder holding it (the cache folder, ``~/.cache/ink-tui``) is a symlink or not a folder
  (its parents are not checked: a symlinked ``~/.cache`` is a common, deliberate set-up);
- ``index.sqlite3``, ``index.sqlite3-wal`` or ``index.sqlite3-shm`` is a symlink (dangling or
  not), or anything but a regular file (a directory, a FIFO…);
- any of them, or the folder (SQLite creates and deletes the ``-wal`` and ``-shm`` files), is
  read-only for this process (``chattr +i``, a read-only mount, permissions): writing would fail
  half-way with "attempt to write a readonly database".

:func:`create_private` makes a missing index file with ``O_NOFOLLOW | O_EXCL`` (0600, folder
0700), and :func:`identity` opens it with ``O_NOFOLLOW``, so the file SQLite is given is the one
checked; :func:`changed` tells, after SQLite opened it, whether it is still that file.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path
from typing import Final

from ink_tui.session.reading.files import what_it_is

__all__ = ["COMPANIONS", "changed", "create_private", "identity", "read_only", "refusal"]

COMPANIONS: Final = ("-wal", "-shm")  # SQLite's files beside the database, in WAL mode
_NOFOLLOW: Final = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC: Final = getattr(os, "O_CLOEXEC", 0)

Identity = tuple[int, int]  # (st_dev, st_ino)


def _files(path: Path) -> list[Path]:
    return [path, *(Path(f"{path}{suffix}") for suffix in COMPANIONS)]


def _named(path: Path, file: Path) -> str:
    return f"the index {path}" if file == path else f"the index's {file.name} file {file}"


def refusal(path: Path) -> str | None:
    """Why the index at ``path`` must not be opened (a symlink, or not a regular file, or its
    folder a symlink or not a folder), in one line; ``None`` when nothing is wrong (or nothing
    is there yet)."""
    folder = path.parent
    try:
        mode = os.lstat(folder).st_mode
    except FileNotFoundError:
        return None  # made on opening, as a real folder
    except OSError as error:
        return f"the index folder {folder} cannot be read ({error.strerror})"
    if stat.S_ISLNK(mode):
        return f"the index folder {folder} is a symlink"
    if not stat.S_ISDIR(mode):
        return f"the index folder {folder} is {what_it_is(mode)}, not a folder"
    for file in _files(path):
        try:
            mode = os.lstat(file).st_mode
        except FileNotFoundError:
            continue
        except OSError as error:
            return f"{_named(path, file)} cannot be read ({error.strerror})"
        if stat.S_ISLNK(mode):
            return f"{_named(path, file)} is a symlink"
        if not stat.S_ISREG(mode):
            return f"{_named(path, file)} is {what_it_is(mode)}, not a file"
    return None


def read_only(path: Path) -> str | None:
    """``"the index <path> is read-only"`` when this process could not write it, its ``-wal``
    or ``-shm`` file, or (when the folder exists) its folder; else ``None``."""
    folder = path.parent
    if folder.is_dir() and not os.access(folder, os.W_OK | os.X_OK):
        return f"the index {path} is read-only (its folder {folder} is)"
    for file in _files(path):
        if file.exists() and not os.access(file, os.W_OK):
            return f"the index {path} is read-only" + ("" if file == path else f" ({file.name})")
    return None


def create_private(path: Path) -> None:
    """The folder (0700) and an empty index file (0600) if they are missing, never through a
    symlink. Raises ``OSError``."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    with contextlib.suppress(FileExistsError):  # there already, or made by another process now
        flags = os.O_CREAT | os.O_EXCL | os.O_WRONLY | _NOFOLLOW | _CLOEXEC
        os.close(os.open(path, flags, 0o600))


def identity(path: Path) -> Identity | str:
    """The index file's identity, opened without following a symlink; or why it cannot be
    used (one line)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | _NOFOLLOW | _CLOEXEC)
    except OSError as error:
        if os.path.islink(path):
            return f"the index {path} is a symlink"
        return f"the index {path} cannot be opened ({error.strerror})"
    try:
        info = os.fstat(fd)
    finally:
        os.close(fd)
    if not stat.S_ISREG(info.st_mode):
        return f"the index {path} is {what_it_is(info.st_mode)}, not a file"
    return info.st_dev, info.st_ino


def changed(path: Path, known: Identity) -> str | None:
    """After SQLite opened ``path``: why it is not the file :func:`identity` checked any more,
    or why a file SQLite made beside it must not be used; ``None`` when all is well."""
    try:
        info = os.lstat(path)
    except OSError as error:
        return f"the index {path} went away while it was opened ({error.strerror})"
    if (info.st_dev, info.st_ino) != known:
        return f"the index {path} was replaced while it was opened"
    return refusal(path)
