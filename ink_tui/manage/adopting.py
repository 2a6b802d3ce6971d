"""Copying a session into Ink's folder, so that ``ink -r`` resumes it: from ``~/.imp/sessions``,
or from another machine's mirror.

Ink never reads ``~/.imp`` (spec §1): an imp-era session there cannot be resumed. Its format is
Ink's, so a copy in ``~/.ink/sessions/<same folder>/`` can be. A session mirrored from another
machine (``ink-tui sync``) is copied to the folder of its project on this machine: its cwd, or
where the machine's path map says that folder is here. The copy is the session's bytes as they
are (the header keeps the cwd it ran in); Ink resumes it from the folder of the cwd it runs in.

:func:`plan_adopt` checks first (an ``~/.imp`` or mirrored session, not a subagent's, one Ink
can open, nothing of it in Ink's folder yet, no session there with the same header id);
:func:`adopt` copies the session and its subagent
sessions (``children/``, not their lease folders) all or nothing: each file is copied to a
temporary name beside its place, flushed to disk and compared with what was read, and only
when every copy is whole are they put in place, each with a no-replace rename
(:func:`ink_tui.manage.moving.rename_noreplace`), never over an existing file. Any failure
removes what was placed and the folders made. The originals are never touched; modification
times are kept (Ink lists sessions newest first by them).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import secrets
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from ink_tui.catalog.roots import Root
from ink_tui.manage.children import children_of
from ink_tui.manage.moving import rename_noreplace
from ink_tui.paths import (
    CHILDREN,
    cwd_folder_name,
    imp_sessions_dir,
    ink_sessions_dir,
    mirrored_machine,
    under_imp,
)
from ink_tui.session.analysis.subagents import jsonl_files
from ink_tui.session.reading.files import open_regular
from ink_tui.session.reading.firstline import first_line_header

__all__ = ["AdoptError", "AdoptPlan", "adopt", "plan_adopt"]

CHUNK: Final = 1024 * 1024


class AdoptError(Exception):
    """The session cannot be copied into Ink's folder: why, in one line."""


@dataclass(frozen=True, slots=True)
class AdoptPlan:
    """What :func:`adopt` copies: ``(source, target)`` pairs, the session first."""

    session_id: str
    cwd: str  # where Ink resumes it: the project's folder on this machine
    copies: list[tuple[Path, Path]]
    machine: str | None = None  # the machine it was mirrored from (None: ~/.imp)
    moved_from: str | None = None  # its cwd on that machine, when a path map moved it

    @property
    def target(self) -> Path:
        return self.copies[0][1]

    @property
    def resume(self) -> str:
        """What resumes the copy: Ink's ``-r`` looks in the folder of the cwd it runs in."""
        return f"cd {shlex.quote(self.cwd)} && ink -r {self.session_id}"

    def describe(self) -> str:
        children = len(self.copies) - 1
        more = f" and {children} subagent session{'s' if children != 1 else ''}" if children else ""
        return f"{self.copies[0][0].name}{more}"

    def mapping_note(self) -> str | None:
        """What the path map did, to be said: ``it ran in /home/me/src/api on devbox, which is
        /Users/me/src/api here (its path map)``."""
        if self.moved_from is None:
            return None
        return (
            f"it ran in {self.moved_from} on {self.machine}, which is {self.cwd} here "
            "(the machine's path map)"
        )


def plan_adopt(path: Path, mirrors: Sequence[Root] = ()) -> AdoptPlan:
    """What copying ``path`` into Ink's folder takes; :class:`AdoptError` when it cannot be.

    ``path`` is an ``~/.imp`` session (it goes to the same project folder of Ink's), or a
    session mirrored from another machine (it goes to the folder of its project here: its cwd
    moved by the machine's path map, from ``mirrors``, when one applies)."""
    from ink_tui.session import SessionError, open_session

    machine = mirrored_machine(path)
    if machine is None and not under_imp(path):
        raise AdoptError(
            f"{path} is neither in {imp_sessions_dir()} nor another machine's session: "
            "Ink can already look for it"
        )
    if path.parent.name == CHILDREN:
        raise AdoptError(f"{path} is a subagent session: adopt the session that launched it")
    try:
        session = open_session(path, warn=None)
    except SessionError as error:
        raise AdoptError(f"Ink could not open it either: {error.one_line()}") from None
    except OSError as error:
        raise AdoptError(f"{path}: {error.strerror or error}") from None
    session_id = str(session.header.get("id", ""))
    cwd = str(session.header.get("cwd", ""))
    moved_from = None
    if machine is None:
        folder = ink_sessions_dir() / path.parent.name
    else:
        root = next((root for root in mirrors if root.machine == machine), None)
        here = cwd if root is None else root.here(cwd)
        moved_from = cwd if here != cwd else None
        cwd = here
        folder = ink_sessions_dir() / cwd_folder_name(cwd)
    copies = [(path, folder / path.name)]
    copies += [(child, folder / CHILDREN / child.name) for child in children_of(path, session_id)]
    for _, target in copies:
        if os.path.lexists(target):
            raise AdoptError(f"{target} exists already: nothing was copied")
    for existing in jsonl_files(folder):
        header = first_line_header(existing)
        if header is not None and header.get("id") == session_id:
            raise AdoptError(f"Ink's folder holds this session already, as {existing}")
    return AdoptPlan(session_id, cwd, copies, machine, moved_from)


def _copy_to_temp(source: Path, target: Path) -> Path:
    """``source`` copied beside ``target`` under a temporary name, flushed and compared."""
    temp = target.with_name(f".{target.name}.adopt-{secrets.token_hex(4)}")
    digest = hashlib.sha256()
    with open_regular(source) as reading, temp.open("xb") as writing:
        stamp = os.fstat(reading.fileno())
        while chunk := reading.read(CHUNK):
            digest.update(chunk)
            writing.write(chunk)
        writing.flush()
        os.fsync(writing.fileno())
    check = hashlib.sha256()
    with temp.open("rb") as reading:
        while chunk := reading.read(CHUNK):
            check.update(chunk)
    if check.digest() != digest.digest():
        raise OSError(errno.EIO, "the copy differs from the original", str(target))
    os.utime(temp, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    return temp


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _make_folders(folders: list[Path], made: list[Path]) -> None:
    for folder in folders:
        missing: list[Path] = []
        current = folder
        while not current.exists():
            missing.append(current)
            current = current.parent
        for created in reversed(missing):
            created.mkdir()
            made.append(created)


def adopt(plan: AdoptPlan) -> list[Path]:
    """Copy the plan's files into Ink's folder, all or nothing; returns the copies made."""
    made: list[Path] = []
    temps: list[tuple[Path, Path]] = []
    placed: list[Path] = []
    try:
        _make_folders(sorted({target.parent for _, target in plan.copies}), made)
        for source, target in plan.copies:
            temps.append((_copy_to_temp(source, target), target))
        for temp, target in temps:
            rename_noreplace(temp, target)  # never over a file that appeared meanwhile
            placed.append(target)
        for folder in {target.parent for _, target in plan.copies}:
            _fsync_dir(folder)
    except OSError:
        for target in placed:
            target.unlink(missing_ok=True)
        for temp, _ in temps:
            temp.unlink(missing_ok=True)
        for folder in reversed(made):
            with contextlib.suppress(OSError):  # not empty: someone else's files are there
                folder.rmdir()
        raise
    return placed
