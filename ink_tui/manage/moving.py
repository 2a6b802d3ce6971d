"""Moving files and folders all or nothing: into the trash and back.

:func:`transfer` moves a list of files (and lease folders) to new places, each place that must
not exist yet, as one step: every one of them moves, or none does.

- On the same file system, a rename that never replaces (:func:`rename_noreplace`: Linux's
  ``renameat2(RENAME_NOREPLACE)``; elsewhere a hard link then an unlink for a file, a check then
  a rename for a folder). Nothing is copied, so a full disk cannot cut a file.
- Across file systems, a copy under a hidden temporary name beside the target (bytes, mode and
  modification times kept), ``fsync``-ed, compared with the original byte for byte, then renamed
  into place without replacing; the originals are removed only once every copy is in place.
- Any failure (a full disk, a folder that became a file, a name taken meanwhile) undoes what was
  done, in reverse: renames are renamed back, copies removed, folders it made removed again. If
  the undo itself fails, :class:`Stranded` says where each file is now.

:func:`entry_lock` is an exclusive ``flock`` on a file of a trash entry: two restores of one
entry never run at once, and the no-replace rename keeps two entries with the same original paths
from mixing (the second one finds a path taken, undoes its own moves and stays whole).
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import os
import secrets
import shutil
import stat
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from ink_tui.safetext import one_line

__all__ = [
    "Stranded",
    "entry_lock",
    "lock_entry",
    "rename_noreplace",
    "same_file_system",
    "transfer",
    "write_all",
]

CHUNK: Final = 1024 * 1024
LOCK_FILE: Final = ".lock"
_AT_FDCWD: Final = -100
_RENAME_NOREPLACE: Final = 1
_UNSUPPORTED: Final = {errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP}


class Stranded(OSError):
    """A move failed and could not be undone: ``str()`` says where each file is now."""

    def __str__(self) -> str:
        return str(self.args[0])


def _libc_renameat2() -> Any:
    try:
        function = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return None
    function.argtypes = [
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_uint,
    ]
    function.restype = ctypes.c_int
    return function


_RENAMEAT2: Final = _libc_renameat2()


def _renameat2(source: Path, target: Path) -> bool:
    """``renameat2(RENAME_NOREPLACE)``: True when done, False when this system or file system
    has none (then the caller falls back); raises the ``OSError`` it gave."""
    if _RENAMEAT2 is None:
        return False
    old, new = os.fsencode(source), os.fsencode(target)
    if _RENAMEAT2(_AT_FDCWD, old, _AT_FDCWD, new, _RENAME_NOREPLACE) == 0:
        return True
    code = ctypes.get_errno()
    if code in _UNSUPPORTED:
        return False
    raise OSError(code, os.strerror(code), str(source), None, str(target))


def rename_noreplace(source: Path, target: Path) -> None:
    """Rename ``source`` to ``target``, which must not exist (``FileExistsError`` if it does):
    atomic where the system has ``renameat2``; else a hard link and an unlink for a file (still
    never replacing), a check and a rename for a folder."""
    if _renameat2(source, target):
        return
    if stat.S_ISDIR(os.lstat(source).st_mode):
        if os.path.lexists(target):
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(target))
        os.rename(source, target)
        return
    os.link(source, target, follow_symlinks=False)
    try:
        os.unlink(source)
    except OSError:
        os.unlink(target)
        raise


def same_file_system(path: Path, folder: Path) -> bool:
    """Whether ``path`` and the (existing) ``folder`` are on one file system (a rename works)."""
    return os.lstat(path).st_dev == os.stat(folder).st_dev


def _remove(path: Path) -> None:
    try:
        if stat.S_ISDIR(os.lstat(path).st_mode):
            shutil.rmtree(path)
        else:
            os.unlink(path)
    except FileNotFoundError:
        pass


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_all(fd: int, data: bytes) -> None:
    """Write all of ``data`` to ``fd`` (short writes finished; none at all is an error)."""
    view = memoryview(data)
    while view:
        count = os.write(fd, view)
        if count <= 0:
            raise OSError(errno.EIO, "the system stopped writing")
        view = view[count:]


def _copy_file(source: Path, target: Path, info: os.stat_result) -> None:
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
    reader = os.open(source, flags)
    try:
        writer = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            while chunk := os.read(reader, CHUNK):
                write_all(writer, chunk)
            os.fchmod(writer, stat.S_IMODE(info.st_mode))
            os.fsync(writer)
        finally:
            os.close(writer)
    finally:
        os.close(reader)


def _copy(source: Path, target: Path) -> None:
    """``source`` (file, symbolic link or folder) copied to the new ``target``, fsync-ed, with
    its mode and modification times."""
    info = os.lstat(source)
    if stat.S_ISLNK(info.st_mode):
        os.symlink(os.readlink(source), target)
    elif stat.S_ISDIR(info.st_mode):
        os.mkdir(target, 0o700)
        with os.scandir(source) as listing:
            names = sorted(item.name for item in listing)
        for name in names:
            _copy(source / name, target / name)
        os.chmod(target, stat.S_IMODE(info.st_mode))
        _fsync_dir(target)
    else:
        _copy_file(source, target, info)
    os.utime(target, ns=(info.st_atime_ns, info.st_mtime_ns), follow_symlinks=False)


def _same_bytes(one: Path, other: Path) -> bool:
    with open(one, "rb") as first, open(other, "rb") as second:
        while True:
            left, right = first.read(CHUNK), second.read(CHUNK)
            if left != right:
                return False
            if not left:
                return True


def _verify(source: Path, copy: Path) -> None:
    """Raise ``OSError(EIO)`` unless ``copy`` holds what ``source`` holds."""
    mine, theirs = os.lstat(source), os.lstat(copy)
    same = stat.S_IFMT(mine.st_mode) == stat.S_IFMT(theirs.st_mode)
    if same and stat.S_ISLNK(mine.st_mode):
        same = os.readlink(source) == os.readlink(copy)
    elif same and stat.S_ISDIR(mine.st_mode):
        names = sorted(os.listdir(source))
        same = names == sorted(os.listdir(copy))
        for name in names if same else ():
            _verify(source / name, copy / name)
    elif same:
        same = mine.st_size == theirs.st_size and mine.st_mtime_ns == theirs.st_mtime_ns
        same = same and _same_bytes(source, copy)
    if not same:
        raise OSError(errno.EIO, "the copy differs from the original", str(copy))


@dataclass(slots=True)
class _Done:
    source: Path
    target: Path
    copied: bool
    inode: int


def _make_parents(folder: Path, made: list[Path]) -> None:
    """Make ``folder`` and its missing parents (0700), noting each one made in ``made``."""
    missing: list[Path] = []
    while not os.path.lexists(folder):
        missing.append(folder)
        folder = folder.parent
    for path in reversed(missing):
        os.mkdir(path, 0o700)
        made.append(path)


def _place(source: Path, target: Path) -> _Done:
    if same_file_system(source, target.parent):
        rename_noreplace(source, target)
        return _Done(source, target, False, os.lstat(target).st_ino)
    temporary = target.with_name(f".{target.name}.ink-tui-{_token()}")
    try:
        _copy(source, temporary)
        _verify(source, temporary)
        _fsync_dir(temporary.parent)
        rename_noreplace(temporary, target)
    except BaseException:
        _remove(temporary)
        raise
    return _Done(source, target, True, os.lstat(target).st_ino)


def _undo(done: list[_Done], made: list[Path]) -> list[str]:
    """Put back what ``done`` moved and remove the folders ``made``; what could not be undone."""
    problems: list[str] = []
    for step in reversed(done):
        try:
            if step.copied:
                if os.lstat(step.target).st_ino == step.inode:  # still the copy made here
                    _remove(step.target)
            else:
                rename_noreplace(step.target, step.source)
        except OSError as error:
            where = one_line(str(step.target if not step.copied else step.source))
            problems.append(f"{where} ({error.strerror or error})")
    for folder in reversed(made):
        with suppress(OSError):  # not empty (someone else's file) or gone: left as it is
            os.rmdir(folder)
    return problems


def _set_aside(done: list[_Done], aside: list[tuple[Path, Path]]) -> None:
    """Rename each original of what was copied to a hidden name beside it (noted in ``aside``):
    its copy is in place, and it can still be put back until the move is complete."""
    for step in done:
        if step.copied:
            hidden = step.source.with_name(f".{step.source.name}.ink-tui-moved-{_token()}")
            rename_noreplace(step.source, hidden)
            aside.append((step.source, hidden))
    for folder in {source.parent for source, _ in aside}:
        _fsync_dir(folder)


def _token() -> str:
    return secrets.token_hex(4)


def transfer(moves: list[tuple[Path, Path]], *, make_parents: bool, drop_sources: bool) -> None:
    """Move each ``(source, target)``, all or nothing (see the module doc). ``make_parents``:
    make a target's missing folders (0700). ``drop_sources``: the originals of what was copied
    go once everything is in place (first renamed aside, so a failure can still put them back;
    else the caller removes them). Raises the ``OSError`` that stopped it after undoing
    everything, or :class:`Stranded` if that failed too."""
    done: list[_Done] = []
    made: list[Path] = []
    aside: list[tuple[Path, Path]] = []
    try:
        for source, target in moves:
            if make_parents:
                _make_parents(target.parent, made)
            done.append(_place(source, target))
        for folder in {target.parent for _, target in moves} | {s.parent for s, _ in moves}:
            _fsync_dir(folder)
        if drop_sources:
            _set_aside(done, aside)
    except OSError as error:
        problems: list[str] = []
        for source, hidden in reversed(aside):
            try:
                rename_noreplace(hidden, source)
            except OSError as failure:
                problems.append(f"{one_line(str(hidden))} ({failure.strerror or failure})")
        problems += _undo(done, made)
        if problems:
            raise Stranded(
                f"{_said(error)}; undoing it failed too, so these are still in the new place: "
                + ", ".join(problems)
            ) from error
        raise
    for _, hidden in aside:  # the move is complete: a leftover would only be a hidden copy
        with suppress(OSError):
            _remove(hidden)


def _said(error: OSError) -> str:
    where = error.filename if error.filename is not None else ""
    return f"{one_line(str(where))}: {error.strerror or error}"


def lock_entry(folder: Path) -> int:
    """Take an exclusive ``flock`` on ``folder``'s lock file (made if missing), waiting for
    another holder (a second restore of the same entry, an empty); close the returned file
    descriptor to let go. Raises the ``OSError`` of opening it."""
    fd = os.open(folder / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
    except BaseException:
        os.close(fd)
        raise
    return fd


@contextmanager
def entry_lock(folder: Path) -> Iterator[None]:
    """:func:`lock_entry` held for the block."""
    fd = lock_entry(folder)
    try:
        yield
    finally:
        os.close(fd)
