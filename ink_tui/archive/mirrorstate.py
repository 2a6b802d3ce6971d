"""What a mirror knows beside the sessions it holds: which are gone at the source, and the
copies a rewrite at the source replaced (kept in ``.replaced/``, never dropped).

The state is ``.ink-tui-mirror.json`` at the mirror's top (a dot name: never a project folder,
so listings pass it by), written whole or not at all.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from ink_tui.configfile import write_whole
from ink_tui.paths import CHILDREN, SESSION_SUFFIX

__all__ = [
    "REPLACED",
    "STATE_FILE",
    "MirrorState",
    "SyncReport",
    "held_sessions",
    "mirror_lock",
    "plain_session_name",
]

STATE_FILE: Final = ".ink-tui-mirror.json"
REPLACED: Final = ".replaced"
_PART: Final = re.compile(r"^[^./\\][^/\\]*$")  # no dot first, no separator, no backslash
_UNSAFE: Final = re.compile(r"[\x00-\x1f\x7f-\x9f\u2400-\u2421\ufffd]")  # controls, and
# what rclone shows in their place (a control picture, the replacement character)


def plain_session_name(rel: str) -> bool:
    """Whether ``rel`` is ``FOLDER/NAME.jsonl`` or ``FOLDER/children/NAME.jsonl``, every part a
    plain name (no dot first, no separator, no backslash, no control character): the only
    names a mirror ever takes from another machine."""
    parts = rel.split("/")
    shape = len(parts) == 2 or (len(parts) == 3 and parts[1] == CHILDREN)
    plain = all(_PART.match(part) and not _UNSAFE.search(part) for part in parts)
    return shape and plain and rel.endswith(SESSION_SUFFIX)


@dataclass(slots=True)
class SyncReport:
    """One machine's sync, as ``ink-tui sync --json`` prints it; or one push (``ink-tui push
    --json``: ``gone`` left out, as a push never deletes)."""

    machine: str
    new: int = 0
    grown: int = 0
    rewritten: int = 0
    gone: int = 0  # gone at the source since the last sync (kept in the mirror)
    bytes: int = 0  # session bytes brought over or put (a grown file: only what it grew by)
    error: str | None = None
    notes: list[str] = field(default_factory=list)
    secrets: dict[str, dict[str, int]] = field(default_factory=dict)  # push: file -> kind -> n

    def to_json(self, *, pushed: bool = False) -> dict[str, Any]:
        counts = {"new": self.new, "grown": self.grown, "rewritten": self.rewritten}
        if not pushed:
            counts["gone"] = self.gone
        said: dict[str, Any] = {
            "machine": self.machine,
            **counts,
            "bytes": self.bytes,
            "error": self.error,
        }
        if pushed:
            said["secrets"] = self.secrets
        return said


@contextlib.contextmanager
def mirror_lock(mirror: Path) -> Iterator[None]:
    """The mirror's folder made (readable by this user alone), and held by this sync alone: a
    second sync of the same mirror (another process, the app's) waits for the first."""
    mirror.parent.mkdir(parents=True, exist_ok=True, mode=0o700)  # other users: nothing
    mirror.mkdir(exist_ok=True, mode=0o700)
    with open(mirror.parent / f".{mirror.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def held_sessions(mirror: Path) -> set[str]:
    """Every session file the mirror holds (``FOLDER/NAME.jsonl``, ``FOLDER/children/…``), by
    name: one ``scandir`` a folder, no ``Path`` a file (a sync of 10 machines looks at each)."""
    held: set[str] = set()
    for folder in _entries(str(mirror)):
        if folder.name.startswith(".") or not folder.is_dir(follow_symlinks=False):
            continue
        for entry in _entries(folder.path):
            if entry.name.endswith(SESSION_SUFFIX) and entry.is_file(follow_symlinks=False):
                held.add(f"{folder.name}/{entry.name}")
            elif entry.name == CHILDREN and entry.is_dir(follow_symlinks=False):
                held.update(
                    f"{folder.name}/{CHILDREN}/{child.name}"
                    for child in _entries(entry.path)
                    if child.name.endswith(SESSION_SUFFIX) and child.is_file(follow_symlinks=False)
                )
    return held


def _entries(folder: str) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as listing:
            return list(listing)
    except FileNotFoundError:
        return []


@dataclass(slots=True)
class MirrorState:
    mirror: Path
    gone: set[str] = field(default_factory=set)  # FOLDER/NAME.jsonl gone at the source
    generations: dict[str, int] = field(default_factory=dict)  # an S3 file's, as mirrored

    @classmethod
    def load(cls, mirror: Path) -> MirrorState:
        try:
            data = json.loads((mirror / STATE_FILE).read_text(encoding="utf-8"))
            gone = {str(rel) for rel in data.get("gone", [])}
            generations = {str(rel): int(n) for rel, n in data.get("generations", {}).items()}
        except (OSError, ValueError, AttributeError, TypeError):
            gone, generations = set(), {}  # none yet, or unreadable: found again next sync
        return cls(mirror, gone, generations)

    def mark_gone(self, listed: set[str]) -> int:
        """Record the mirrored files the source no longer lists; how many went since last time."""
        now_gone = held_sessions(self.mirror) - listed
        newly = len(now_gone - self.gone)
        self.gone = now_gone
        return newly

    def set_aside(self, kept: Path, rel: str) -> Path:
        """Move the mirror's copy of ``rel`` into ``.replaced/`` (the source rewrote it)."""
        stamp = time.strftime("%Y%m%dT%H%M%S")
        target = self.mirror / REPLACED / f"{rel}.{stamp}"
        target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        kept.rename(target)
        return target

    def save(self) -> None:
        """Write the state, whole or not at all. Raises ``ConfigFileError`` (an ``OSError``)."""
        state: dict[str, Any] = {"gone": sorted(self.gone)}
        if self.generations:
            state["generations"] = dict(sorted(self.generations.items()))
        data = json.dumps(state, indent=1).encode("utf-8")
        write_whole(self.mirror / STATE_FILE, data)
