"""Where a search runs: the user's index, or, when it cannot be used, the files without it.

README promises that the session files are read without the index when it cannot be used (a
symlink, not a regular file, read-only, a newer ink-tui's, locked). For a search, "without it"
means a temporary index built from the files, for this run only, in a private temporary folder
that is deleted afterwards: the hits are the same as the real index would give, and nothing of
the user's is written. :class:`SearchIndex` makes that choice once and keeps it (the search
screen runs many queries on it, in worker threads: each one opens its own connection at
:attr:`SearchIndex.path`).
"""

from __future__ import annotations

import shutil
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final

from ink_tui.catalog.index.checks import checked_within, scope_keys
from ink_tui.catalog.index.report import IndexReport
from ink_tui.catalog.index.store import INDEX_FILE_NAME, CatalogIndex, IndexUnavailable
from ink_tui.catalog.roots import Root

if TYPE_CHECKING:  # the update is imported when the files are looked at: a trusted search never
    from ink_tui.catalog.index.update import Progress

__all__ = ["WITHOUT_IT", "SearchIndex"]

WITHOUT_IT: Final = "searching the files without it"


class SearchIndex:
    """The index a search runs on (see the module doc); :meth:`close` deletes a temporary one."""

    def __init__(self, path: Path | None = None) -> None:
        self.path: Path | None = path  # None: the default index
        self.notice: str | None = None  # one line, when the index was rebuilt or not used
        self._temporary: Path | None = None
        self._lock = threading.Lock()

    @property
    def temporary(self) -> bool:
        """Whether the files are searched without the user's index."""
        return self._temporary is not None

    def open(self) -> CatalogIndex:
        """A connection to the index searched (raises :class:`IndexUnavailable`)."""
        return CatalogIndex.open(self.path)

    def update(
        self,
        base_dir: Path,
        cwd: str | None,
        *,
        progress: Progress | None = None,
        cancelled: threading.Event | None = None,
        trust: float = 0.0,
        mirrors: Sequence[Root] = (),
    ) -> IndexReport:
        """Bring the index searched up to date for ``cwd``'s project (every project when None);
        when the user's index cannot be used, switch to a temporary one (:attr:`notice` says
        why) and fill that. Raises :class:`IndexUnavailable` only if the temporary one fails
        too.

        With ``trust`` (seconds), a check of the same files that began at most that long ago
        stands for this one (:mod:`.checks`): nothing is looked at, and the report says
        ``trusted`` and when that check began. ``mirrors``: other machines' sessions dirs,
        brought up to date too (every project of each: give them with ``cwd`` None)."""
        roots = [Root(base_dir), *mirrors]
        try:
            with self.open() as index:
                if index.notice is not None:
                    self.notice = index.notice
                at = _checked(index, roots, cwd, trust) if trust > 0 else None
                if at is not None:
                    return IndexReport(checked_ns=at, trusted=True)
                from ink_tui.catalog.index.rootsupdate import update_roots

                return update_roots(index, roots, cwd, progress=progress, cancelled=cancelled)
        except IndexUnavailable as error:
            if self.temporary:
                raise
            self.notice = f"{error}: {WITHOUT_IT}"
            self._use_temporary()
        from ink_tui.catalog.index.rootsupdate import update_roots

        with self.open() as index:
            return update_roots(index, roots, cwd, progress=progress, cancelled=cancelled)

    def _use_temporary(self) -> None:
        with self._lock:
            if self._temporary is None:
                try:
                    self._temporary = Path(tempfile.mkdtemp(prefix="ink-tui-index-"))
                except OSError as error:
                    raise IndexUnavailable(
                        f"no temporary folder to search the files in ({error.strerror})"
                    ) from None
                self.path = self._temporary / INDEX_FILE_NAME

    def close(self) -> None:
        """Delete the temporary index, if one was made (the user's is left as it is)."""
        with self._lock:
            if self._temporary is not None:
                shutil.rmtree(self._temporary, ignore_errors=True)

    def __enter__(self) -> SearchIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _checked(index: CatalogIndex, roots: list[Root], cwd: str | None, trust: float) -> int | None:
    """When the oldest of the newest checks of ``roots`` began, if every root was checked
    within ``trust`` seconds; else ``None``."""
    times: list[int] = []
    for root in roots:
        for folder in [None] if cwd is None else root.project_folders(cwd):
            at = checked_within(index, scope_keys(root.path, folder), trust)
            if at is None:
                return None
            times.append(at)
    return min(times)
