"""The usage of many session files, kept between runs: each file is read again only when it
changed (a per-file cache in the cache dir, :class:`UsageCache`), and :func:`collect_usage`
gathers a scope's files (this project's, every project's, every machine's).

One file's counts are :mod:`ink_tui.catalog.usage`'s.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final

import orjson

from ink_tui.catalog.roots import Root, mirror_roots
from ink_tui.catalog.scan import project_folders, session_files
from ink_tui.catalog.usage import Counts, FileUsage, scan_usage
from ink_tui.paths import CHILDREN, cache_dir

__all__ = ["CACHE_FILE_NAME", "UsageCache", "collect_usage"]

CACHE_FILE_NAME: Final = "usage-v2.json"  # v2: flagged calls, days read as UTC dates

_Signature = tuple[int, int, int]  # size, mtime_ns, inode


def _key(path: Path) -> str:
    return os.fsencode(path).decode("utf-8", "backslashreplace")


class UsageCache:
    """Per file, its counts and the signature of the file they were read from (a JSON file in
    the cache dir; deleting it loses nothing). Two processes may write it: the last one wins,
    and either one's is right."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = cache_dir() / CACHE_FILE_NAME if path is None else path
        self.entries: dict[str, list[Any]] = {}
        self.changed = False
        with contextlib.suppress(OSError, orjson.JSONDecodeError, TypeError):
            loaded = orjson.loads(self.path.read_bytes())
            if isinstance(loaded, dict) and isinstance(loaded.get("files"), dict):
                self.entries = loaded["files"]

    def get(self, path: Path, signature: _Signature, project: str) -> FileUsage | None:
        found = self.entries.get(_key(path))
        try:
            if found is None or tuple(found[0]) != signature:
                return None
            usage = FileUsage(path, project, found[1], skipped_lines=found[2])
            for day, model, *values in found[3]:
                usage.buckets[(day, model)] = Counts.from_list(values)
        except (TypeError, ValueError, IndexError):  # an entry this version cannot read
            return None
        return usage

    def put(self, usage: FileUsage, signature: _Signature) -> None:
        buckets = [[day, model, *c.to_list()] for (day, model), c in usage.buckets.items()]
        self.entries[_key(usage.path)] = [
            list(signature),
            usage.session_id,
            usage.skipped_lines,
            buckets,
        ]
        self.changed = True

    def keep_only(
        self, paths: set[str], under: list[str] | None, spare: tuple[str, ...] = ()
    ) -> None:
        """Forget the files under the folders ``under`` (all when None) not in ``paths``, but
        never those under ``spare`` (folders not looked at this time)."""
        for key in [key for key in self.entries if key not in paths]:
            if key.startswith(spare):
                continue
            if under is None or key.startswith(tuple(under)):
                del self.entries[key]
                self.changed = True

    def save(self) -> None:
        """Write it (a temporary file renamed over the old one; a failure only loses the cache)."""
        if not self.changed:
            return
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            temporary = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "wb") as stream:
                stream.write(orjson.dumps({"version": 1, "files": self.entries}))
            temporary.replace(self.path)
        self.changed = False


def _scope_files(base_dir: Path, cwd: str | None) -> Iterator[tuple[Path, str]]:
    """The session files of the scope with their project: each project folder's, and its
    ``children/`` (subagent sessions, which cost money too)."""
    for folder in project_folders(base_dir, cwd):
        for item in session_files([folder, folder / CHILDREN]):
            yield item.path, folder.name


Progress = Callable[[int, int], None]  # (files done, files in the scope)


def collect_usage(
    base_dir: Path,
    cwd: str | None,
    *,
    cache_path: Path | None = None,
    progress: Progress | None = None,
    cancelled: threading.Event | None = None,
    mirrors: Sequence[Root] = (),
) -> list[FileUsage]:
    """The usage of every session file of ``cwd``'s project (every project when None), read
    from the cache where the file has not changed; ``mirrors`` (other machines' sessions dirs,
    every project of each: give them with ``cwd`` None) too, each file with its machine."""
    cache = UsageCache(cache_path)
    roots = [Root(base_dir), *mirrors]
    scope = [
        (path, project, root.machine)
        for root in roots
        for path, project in _scope_files(root.path, cwd)
    ]
    found: list[FileUsage] = []
    for done, (path, project, machine) in enumerate(scope, 1):
        if cancelled is not None and cancelled.is_set():
            break
        try:
            info = path.stat()
        except OSError as error:
            problem = f"{path}: {error.strerror or error}"
            found.append(FileUsage(path, project, problem=problem, machine=machine))
            continue
        signature = (info.st_size, info.st_mtime_ns, info.st_ino)
        usage = cache.get(path, signature, project)
        if usage is None:
            usage = scan_usage(path, project)
            if usage.problem is None:
                cache.put(usage, signature)
        usage.machine = machine
        found.append(usage)
        if progress is not None and (done % 50 == 0 or done == len(scope)):
            progress(done, len(scope))
    if not (cancelled is not None and cancelled.is_set()):  # files gone from disk are dropped
        under = None
        if cwd is not None:
            under = [_key(f) + os.sep for r in roots for f in project_folders(r.path, cwd)]
        looked = {root.key for root in roots}
        spare = tuple(_key(r.path) + os.sep for r in mirror_roots() if r.key not in looked)
        cache.keep_only({_key(path) for path, _, _ in scope}, under, spare)
    cache.save()
    return found
