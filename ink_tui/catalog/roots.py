"""The sessions dirs the catalog reads: this machine's, and each mirrored machine's.

``ink-tui sync`` keeps each other machine's sessions in ``<data dir>/machines/NAME/``, in Ink's
own layout (:mod:`ink_tui.archive`). Each such folder is a sessions dir like this machine's, so
the catalog reads it the same way; a :class:`Root` says which dir, and which machine's it is
(``None``: this machine's). The mirrors are the folders on disk, not the machines in the
settings: a machine removed with its mirror kept stays in the archive until the mirror goes.

One index holds every root's files, each keyed by its path; a root's files are the keys in
:meth:`Root.key_range` (one range of the ``files.path`` index, never a scan).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from ink_tui.paths import machines_dir

__all__ = [
    "MACHINE_NAME",
    "THIS_MACHINE",
    "Root",
    "archive_roots",
    "machine_of",
    "mirror_roots",
    "mirrored_machine",
    "roots_sql",
]

MACHINE_NAME: Final = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$")
"""What can name a machine (and so a mirror's folder): letters, digits, ``_``, ``-``."""
THIS_MACHINE: Final = "(this machine)"
"""How text names this machine where a machine's name goes (no machine name has brackets)."""


@dataclass(frozen=True, slots=True)
class Root:
    """A sessions dir in Ink's layout, and the machine whose sessions it holds."""

    path: Path
    machine: str | None = None  # None: this machine

    @property
    def key(self) -> bytes:
        """The dir's path as the index's keys start (absolute, as bytes)."""
        return os.fsencode(os.path.abspath(self.path))

    @property
    def key_range(self) -> tuple[bytes, bytes]:
        """``(low, high)``: a file of this root has a key ``low <= key < high`` (``/`` is
        followed by ``0`` in byte order, so the range holds exactly the paths under the dir)."""
        key = self.key.rstrip(b"/")
        return key + b"/", key + b"0"

    def holds(self, key: bytes) -> bool:
        """Whether the index key ``key`` is a file under this dir."""
        low, high = self.key_range
        return low <= key < high

    @property
    def label(self) -> str:
        return THIS_MACHINE if self.machine is None else self.machine


def mirror_roots(folder: Path | None = None) -> list[Root]:
    """Every mirror in ``folder`` (``<data dir>/machines``), by name: real folders with a
    machine's name only (a symlink or a stray file there is not a mirror)."""
    where = machines_dir() if folder is None else folder
    try:
        with os.scandir(where) as entries:
            found = [
                Root(Path(entry.path), entry.name)
                for entry in entries
                if MACHINE_NAME.match(entry.name) and entry.is_dir(follow_symlinks=False)
            ]
    except OSError:
        return []
    return sorted(found, key=lambda root: root.machine or "")


def archive_roots(base_dir: Path) -> list[Root]:
    """This machine's sessions dir, then every mirror."""
    return [Root(base_dir), *mirror_roots()]


def machine_of(key: bytes, roots: Iterable[Root]) -> str | None:
    """The machine whose root holds the file keyed ``key`` (``None``: this machine's, or no
    root's)."""
    for root in roots:
        if root.machine is not None and root.holds(key):
            return root.machine
    return None


def mirrored_machine(path: Path) -> str | None:
    """The machine whose mirror ``path`` is in (``<data dir>/machines/NAME/…``), else ``None``.
    From the path alone: no file is looked at."""
    key = os.fsencode(os.path.abspath(path))
    low, _ = Root(machines_dir()).key_range
    if not key.startswith(low):
        return None
    name = os.fsdecode(key[len(low) :].split(b"/", 1)[0])
    return name if MACHINE_NAME.match(name) else None


def roots_sql(roots: Iterable[Root], column: str = "path") -> tuple[str, list[bytes]]:
    """An SQL condition holding for the files of ``roots``, and its parameters."""
    parts: list[str] = []
    values: list[bytes] = []
    for root in roots:
        parts.append(f"({column} >= ? AND {column} < ?)")
        values.extend(root.key_range)
    return ("(" + " OR ".join(parts) + ")" if parts else "0"), values
