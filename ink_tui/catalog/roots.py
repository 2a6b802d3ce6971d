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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ink_tui.catalog.row import SessionSummary
from ink_tui.catalog.scan import AmbiguousSession, ResolveError, project_folders, resolve_session
from ink_tui.humanize import THIS_MACHINE
from ink_tui.paths import MACHINE_NAME, cwd_folder_name, machines_dir, project_dir

__all__ = [
    "MACHINE_NAME",
    "PathMap",
    "Root",
    "archive_roots",
    "machine_of",
    "mirror_roots",
    "place_row",
    "resolve_anywhere",
    "roots_sql",
]


PathMap = tuple[tuple[str, str], ...]
"""A machine's path map: ``(there, here)`` folder pairs, the same project's folder on that
machine and on this one (``/home/me/src`` there is ``/Users/me/src`` here)."""


def _under(path: str, folder: str) -> str | None:
    """What follows ``folder`` in ``path`` (``""`` for the folder itself), else ``None``."""
    folder = folder.rstrip("/") or "/"
    if path == folder:
        return ""
    if folder == "/":
        return path[1:] if path.startswith("/") else None
    return path[len(folder) + 1 :] if path.startswith(folder + "/") else None


def _moved(path: str, pairs: list[tuple[str, str]]) -> str | None:
    """``path`` with the longest matching ``from`` folder replaced by its ``to``."""
    for source, target in sorted(pairs, key=lambda pair: -len(pair[0])):
        rest = _under(path, source)
        if rest is not None:
            return target.rstrip("/") + "/" + rest if rest else target.rstrip("/") or "/"
    return None


@dataclass(frozen=True, slots=True)
class Root:
    """A sessions dir in Ink's layout, the machine whose sessions it holds, and that machine's
    path map (a project's folder there and here)."""

    path: Path
    machine: str | None = None  # None: this machine
    paths: PathMap = ()
    key: bytes = field(init=False, repr=False, compare=False)  # the dir's path, as index keys
    # start (absolute, as bytes); made once: a search asks a root about every matching file
    key_range: tuple[bytes, bytes] = field(init=False, repr=False, compare=False)
    """``(low, high)``: a file of this root has a key ``low <= key < high`` (``/`` is followed
    by ``0`` in byte order, so the range holds exactly the paths under the dir)."""

    def __post_init__(self) -> None:
        key = os.fsencode(os.path.abspath(self.path))
        bare = key.rstrip(b"/")
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "key_range", (bare + b"/", bare + b"0"))

    def here(self, cwd: str) -> str:
        """``cwd`` (a session's, on that machine) as the same folder is on this machine."""
        moved = _moved(cwd, list(self.paths))
        return cwd if moved is None else moved

    def mapped(self, cwd: str) -> bool:
        """Whether the path map moves ``cwd`` (a session's, on that machine)."""
        return _moved(cwd, list(self.paths)) is not None

    def there(self, cwd: str) -> list[str]:
        """The folders on that machine that are ``cwd`` here: itself (a folder with the same
        path on both), and what the path map moves to it."""
        moved = _moved(cwd, [(here, there) for there, here in self.paths])
        return [cwd] if moved is None or moved == cwd else [cwd, moved]

    def project_folders(self, cwd: str | None) -> list[Path]:
        """The project folders of this dir holding the sessions of ``cwd`` (a folder of this
        machine), every project folder when ``None``."""
        if cwd is None:
            return project_folders(self.path, None)
        return [project_dir(self.path, there) for there in self.there(cwd)]

    def holds(self, key: bytes) -> bool:
        """Whether the index key ``key`` is a file under this dir."""
        low, high = self.key_range
        return low <= key < high

    @property
    def label(self) -> str:
        return THIS_MACHINE if self.machine is None else self.machine


def mirror_roots(
    folder: Path | None = None, paths: Mapping[str, PathMap] | None = None
) -> list[Root]:
    """Every mirror in ``folder`` (``<data dir>/machines``), by name: real folders with a
    machine's name only (a symlink or a stray file there is not a mirror); ``paths``: each
    machine's path map, by name (the settings': see ``archive.machines.archive_mirrors``)."""
    where = machines_dir() if folder is None else folder
    maps = paths or {}
    try:
        with os.scandir(where) as entries:
            found = [
                Root(Path(entry.path), entry.name, maps.get(entry.name, ()))
                for entry in entries
                if MACHINE_NAME.match(entry.name) and entry.is_dir(follow_symlinks=False)
            ]
    except OSError:
        return []
    return sorted(found, key=lambda root: root.machine or "")


def place_row(row: SessionSummary, root: Root) -> None:
    """Say where ``row`` (a session of ``root``) is from: its machine, and this machine's
    folder for its project when the machine's path map moves it."""
    row.machine = root.machine
    if row.cwd is not None and root.mapped(row.cwd):
        row.local_project = cwd_folder_name(root.here(row.cwd))


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


def resolve_anywhere(base_dir: Path, cwd: str, wanted: str) -> Path:
    """A SESSION argument to a session file, as :func:`~ink_tui.catalog.scan.resolve_session`
    finds it in ``base_dir``; when nothing there matches, in every machine's mirror (a path, an
    id, an id prefix or a file name). Raises :class:`ResolveError` on no match or several."""
    try:
        return resolve_session(base_dir, cwd, wanted)
    except AmbiguousSession:
        raise
    except ResolveError as error:
        missing = error
    found: list[tuple[Path, str]] = []
    mirrors = mirror_roots()
    for root in mirrors:
        try:
            found.append((resolve_session(root.path, cwd, wanted), root.label))
        except AmbiguousSession as error:
            raise AmbiguousSession(f"{root.label}: {error}") from None
        except ResolveError:
            continue
    if len(found) > 1:
        machines = ", ".join(label for _, label in found)
        raise AmbiguousSession(
            f'"{wanted}" matches a session on each of {machines}: give its path '
            f"({'; '.join(str(path) for path, _ in found)})"
        )
    if found:
        return found[0][0]
    if mirrors:
        raise ResolveError(f"{missing}, nor in any machine's mirror") from None
    raise missing


def roots_sql(roots: Iterable[Root], column: str = "path") -> tuple[str, list[bytes]]:
    """An SQL condition holding for the files of ``roots``, and its parameters."""
    parts: list[str] = []
    values: list[bytes] = []
    for root in roots:
        parts.append(f"({column} >= ? AND {column} < ?)")
        values.extend(root.key_range)
    return ("(" + " OR ".join(parts) + ")" if parts else "0"), values
