"""The index's look at the disk: every session file of some project folders, with its stat.

Every ``ink-tui search`` (outside the trust window of :mod:`.checks`) and every update looks at
each file of its scope, so this look is kept lean: the folders are listed with byte paths, so a
directory entry's path is already the key the index stores (:func:`~.store.path_key`), and no
``Path`` is made for a file that did not change. On 20,000 sessions this look took 158 ms
through :func:`ink_tui.catalog.scan.session_files`, most of it making ``Path`` objects.

The files are those :func:`~ink_tui.catalog.scan.session_files` lists (flat ``*.jsonl`` regular
files, a symlink to one included), and each project folder's subagent sessions in its
``children/`` folder.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from ink_tui.paths import CHILDREN, SESSION_SUFFIX

__all__ = ["OnDisk", "files_on_disk"]

_SUFFIX: Final = SESSION_SUFFIX.encode()  # the names are listed as bytes


@dataclass(frozen=True, slots=True)
class OnDisk:
    """One session file as the look found it."""

    key: bytes  # its path, as the index stores it
    info: os.stat_result | None  # None: it could not be stat'ed (a listing shows it, with why)
    child: bool  # a subagent session

    @property
    def path(self) -> Path:
        return Path(os.fsdecode(self.key))


def files_on_disk(folders: list[Path]) -> list[OnDisk]:
    """The session files of ``folders`` and of their ``children/`` folders (a folder that cannot
    be listed lists nothing, as for Ink), in no particular order."""
    found: list[OnDisk] = []
    for child in (False, True):
        for folder in folders:
            where = folder / CHILDREN if child else folder
            try:
                with os.scandir(os.fsencode(where)) as scanned:
                    entries = [entry for entry in scanned if entry.name.endswith(_SUFFIX)]
            except OSError:
                continue
            for entry in entries:
                try:
                    if not entry.is_file():
                        continue  # a directory named *.jsonl, a dangling symlink
                    info: os.stat_result | None = entry.stat()
                except OSError:  # a symlink loop, or gone since it was listed
                    info = None
                found.append(OnDisk(entry.path, info, child))
    return found
