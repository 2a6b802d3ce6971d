"""A session's children (subagent sessions), their leases, and the orphans Ink's prune removes.

Children live in ``<project>/children/`` (spec §1). Which children belong to which session, and
which are orphans, follows Ink's ``/sessions prune`` (``src/core/session/prune.ts@3c659997``):

- a file's header is its FIRST line (up to the first newline, not the first non-blank one),
  parsed as JSON; a file whose first line does not parse has no header id;
- a child names its parent in ``launch.parentSessionId``; a child without one is never an orphan;
- a child is an orphan when no top-level ``*.jsonl`` of the same project folder has that header
  id;
- a child's lease is the directory ``<child>.jsonl.lease/``; it holds a live child when any
  candidate file in it (``.staging-*`` files are never claims) was touched in the last 60 s, or
  names in its JSON a ``pid`` that is alive (``kill(pid, 0)`` succeeds, or fails with EPERM).

Deleting a session takes its children with it: those naming it in ``launch.parentSessionId`` or
in the header's ``parent`` (and theirs, recursively), each with its lease folder.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from ink_tui.session.files import NotARegularFile, open_regular
from ink_tui.session.jsoncodec import decode_line
from ink_tui.session.ownwrites import last_foreign_write
from ink_tui.session.subagents import jsonl_files

__all__ = [
    "LEASE_GRACE_SECONDS",
    "Orphan",
    "child_is_running",
    "children_of",
    "first_line_header",
    "lease_dir",
    "lease_is_live",
    "orphan_children",
]

LEASE_GRACE_SECONDS: Final = 60.0
"""A lease candidate touched this recently holds its child (Ink's ``STALE_GRACE_MS``)."""
RECENT_WRITE_SECONDS: Final = 30.0
"""A child written this recently is taken as running (as the picker marks a session live)."""
HEADER_LIMIT: Final = 16 * 1024 * 1024
"""A first line longer than this is not read as a header (Ink reads it whole; nothing real is)."""


@dataclass(frozen=True, slots=True)
class Orphan:
    """A child session whose parent session is gone, and whether a live lease keeps it."""

    path: Path
    parent_id: str
    leased: bool


def first_line_header(path: Path) -> dict[str, Any] | None:
    """The JSON object on the file's first line, as Ink's prune reads it; ``None`` when there is
    none (an empty first line, invalid JSON, not an object, not a regular file, unreadable)."""
    try:
        with open_regular(path) as stream:
            line = stream.readline(HEADER_LIMIT + 1)
    except (OSError, NotARegularFile):
        return None
    if len(line) > HEADER_LIMIT:
        return None
    try:
        value = decode_line(line.rstrip(b"\r\n"))
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _header_id(path: Path) -> str | None:
    header = first_line_header(path)
    value = header.get("id") if header is not None else None
    return value if isinstance(value, str) else None


def _launch_parent(header: dict[str, Any] | None) -> str | None:
    launch = header.get("launch") if header is not None else None
    parent = launch.get("parentSessionId") if isinstance(launch, dict) else None
    return parent if isinstance(parent, str) else None


def lease_dir(child: Path) -> Path:
    """The lease folder of a child session file (it may not exist)."""
    return child.with_name(child.name + ".lease")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except PermissionError:
        return True  # EPERM: it exists, owned by someone else
    except (ProcessLookupError, OverflowError, ValueError):
        return False
    return True


def _is_pid(value: Any) -> bool:
    """A JavaScript number that names a process: a whole number above 0."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return value > 0 and value == int(value)


def lease_is_live(child: Path, now: float | None = None) -> bool:
    """Whether the child's lease holds it (Ink's ``leaseHoldsLiveChild``)."""
    folder = lease_dir(child)
    now = time.time() if now is None else now
    try:
        if not folder.is_dir() or folder.is_symlink():
            return False
        names = sorted(os.listdir(folder))
    except OSError:
        return False
    for name in names:
        if name.startswith(".staging-"):
            continue
        candidate = folder / name
        try:
            if now - candidate.stat().st_mtime <= LEASE_GRACE_SECONDS:
                return True
            payload = first_line_header(candidate)
        except OSError:
            continue
        pid = payload.get("pid") if payload is not None else None
        if isinstance(pid, int | float) and _is_pid(pid) and _pid_alive(int(pid)):
            return True
    return False


def children_of(session: Path, session_id: str) -> list[Path]:
    """The child sessions of ``session`` (header id ``session_id``) and theirs, recursively:
    children naming a parent in ``launch.parentSessionId`` or in the header's ``parent``."""
    folder = session.parent / "children"
    by_parent: dict[str, list[tuple[Path, str | None]]] = {}
    for child in jsonl_files(folder):
        header = first_line_header(child)
        own = header.get("id") if header is not None else None
        own_id = own if isinstance(own, str) else None
        parents = {_launch_parent(header), header.get("parent") if header is not None else None}
        for parent in parents:
            if isinstance(parent, str):
                by_parent.setdefault(parent, []).append((child, own_id))
    found: list[Path] = []
    seen: set[Path] = set()
    waiting = [session_id]
    while waiting:
        for child, own in by_parent.get(waiting.pop(), []):
            if child not in seen:
                seen.add(child)
                found.append(child)
                if own is not None:
                    waiting.append(own)
    return found


def orphan_children(base: Path, now: float | None = None) -> list[Orphan]:
    """Every orphaned child in every project folder of ``base`` (Ink's ``findOrphanChildren``),
    each with whether a live lease exempts it."""
    try:
        with os.scandir(base) as entries:
            folders = sorted(Path(entry.path) for entry in entries if entry.is_dir())
    except OSError:
        return []
    orphans: list[Orphan] = []
    for folder in folders:
        parents = {found for found in map(_header_id, jsonl_files(folder)) if found is not None}
        for child in jsonl_files(folder / "children"):
            parent = _launch_parent(first_line_header(child))
            if parent is None or parent in parents:
                continue
            orphans.append(Orphan(child, parent, lease_is_live(child, now)))
    return orphans


def child_is_running(child: Path, *, answered: bool, now: float | None = None) -> bool:
    """Whether Ink is running (or resuming) the child now: its lease holds it, or, while the
    ``task`` call has no result (not ``answered``), it was written in the last
    :data:`RECENT_WRITE_SECONDS` seconds (a child that answered its call was written last just
    before it did)."""
    now = time.time() if now is None else now
    if lease_is_live(child, now):
        return True
    if answered:
        return False
    try:
        return now - last_foreign_write(child) < RECENT_WRITE_SECONDS  # a label is not Ink
    except OSError:
        return False
