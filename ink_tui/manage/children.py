"""A session's children (subagent sessions), their leases, and the orphans Ink's prune removes.

Children live in ``<project>/children/`` (spec §1). Which children belong to which session, and
which are orphans, follows Ink's ``/sessions prune`` (``src/core/session/prune.ts@3c659997``):

- every folder of the sessions root is scanned, each on its own;
- a file's header is its FIRST line (up to the first newline, not the first non-blank one; the
  whole file if it has none), parsed as JSON; any string ``id`` counts (no ``type`` or
  ``version`` check); a file whose first line does not parse has no header id
  (:mod:`ink_tui.session.reading.firstline`; a folder holding a session whose first line is
  too long to read whole has no orphans: its id is not known);
- a child names its parent in ``launch.parentSessionId``; a child without one is never an orphan;
- a child is an orphan when no top-level ``*.jsonl`` of the same project folder has that header
  id (never matched by file name, nor across folders);
- a child's lease (``<child>.jsonl.lease/``) holds a live child by Ink's rule, which lives once in
  :mod:`ink_tui.session.rules.leases` (a fresh candidate, or a live ``pid``; ``EPERM`` counts as
  alive).

Deleting a session takes its children with it: those naming it in ``launch.parentSessionId`` or
in the header's ``parent`` (and theirs, recursively), each with its lease folder.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ink_tui.paths import CHILDREN
from ink_tui.session.analysis.subagents import jsonl_files
from ink_tui.session.reading.firstline import first_line_header, read_header_line
from ink_tui.session.rules.leases import LEASE_GRACE_SECONDS, lease_dir, lease_is_live
from ink_tui.session.writing.ownwrites import LIVE_SECONDS, last_foreign_write

__all__ = [
    "LEASE_GRACE_SECONDS",
    "Orphan",
    "child_is_running",
    "children_of",
    "lease_dir",
    "lease_is_live",
    "orphan_children",
]


@dataclass(frozen=True, slots=True)
class Orphan:
    """A child session whose parent session is gone, and whether a live lease keeps it."""

    path: Path
    parent_id: str
    leased: bool


def _header_id(header: dict[str, Any] | None) -> str | None:
    value = header.get("id") if header is not None else None
    return value if isinstance(value, str) else None


def _launch_parent(header: dict[str, Any] | None) -> str | None:
    launch = header.get("launch") if header is not None else None
    parent = launch.get("parentSessionId") if isinstance(launch, dict) else None
    return parent if isinstance(parent, str) else None


def children_of(session: Path, session_id: str) -> list[Path]:
    """The child sessions of ``session`` (header id ``session_id``) and theirs, recursively:
    children naming a parent in ``launch.parentSessionId`` or in the header's ``parent``."""
    folder = session.parent / CHILDREN
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
        heads = [read_header_line(path) for path in jsonl_files(folder)]
        if any(head.too_long for head in heads):
            continue  # a parent's id is not known, so no child of this folder is an orphan
        parents = {
            found for found in (_header_id(head.header) for head in heads) if found is not None
        }
        for child in jsonl_files(folder / CHILDREN):
            parent = _launch_parent(first_line_header(child))
            if parent is None or parent in parents:
                continue
            orphans.append(Orphan(child, parent, lease_is_live(child, now)))
    return orphans


def child_is_running(child: Path, *, answered: bool, now: float | None = None) -> bool:
    """Whether Ink is running (or resuming) the child now: its lease holds it, or, while the
    ``task`` call has no result (not ``answered``), it was written in the last
    :data:`~ink_tui.session.writing.ownwrites.LIVE_SECONDS` seconds, as the picker marks a
    session live (a child that answered its call was written last just before it did)."""
    now = time.time() if now is None else now
    if lease_is_live(child, now):
        return True
    if answered:
        return False
    try:
        return now - last_foreign_write(child) < LIVE_SECONDS  # a label is not Ink
    except OSError:
        return False
