"""Listing and resolving sessions across the sessions base directory.

- :func:`list_sessions` / :func:`iter_summaries`: the flat ``*.jsonl`` files of one cwd folder
  (or of every cwd folder), newest file mtime first, each read cheaply
  (:func:`ink_tui.catalog.summary.summarize_file`). ``include_hidden=False`` is exactly Ink's
  ``/sessions`` listing; by default every file is a row, with Ink's reason when it would hide it.
  ``children/`` (subagent sessions), lease directories and other directories are never listed.
- :func:`resolve_session`: a SESSION argument (path, header id, id prefix or file name) to a file,
  reading only each file's header line.
- :func:`newest_session`: what Ink's ``--continue`` picks.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from ink_tui.catalog.row import SessionSummary
from ink_tui.catalog.summary import summarize_file
from ink_tui.paths import CHILDREN, SESSION_SUFFIX, project_dir
from ink_tui.session.reading.files import DANGLING, open_regular, what_it_is
from ink_tui.session.reading.jsoncodec import JsonDecodeError, decode_line
from ink_tui.session.reading.lines import is_blank, iter_lines
from ink_tui.session.reading.records import is_session_header

__all__ = [
    "ResolveError",
    "Resumed",
    "SessionSummary",
    "iter_summaries",
    "list_sessions",
    "newest_session",
    "project_folders",
    "read_header_id",
    "resolve_resume",
    "resolve_session",
    "session_files",
]

SUFFIX: Final = SESSION_SUFFIX
MAX_CANDIDATES: Final = 10


class ResolveError(Exception):
    """SESSION matched no session, or several (the message says which and where)."""


class AmbiguousSession(ResolveError):
    """SESSION matched several sessions."""


@dataclass(slots=True, frozen=True)
class _FileStat:
    path: Path
    mtime: float
    size: int
    error: OSError | None = None
    info: os.stat_result | None = None  # the whole stat (None with an error): the index's check


def _file_times(entry: os.DirEntry[str]) -> tuple[float, int]:
    """``(mtime, size)`` of a file (a seam: tests pin fixture mtimes through it)."""
    info = entry.stat()
    return info.st_mtime, info.st_size


def project_folders(base_dir: Path, cwd: str | None) -> list[Path]:
    if cwd is not None:
        return [project_dir(base_dir, cwd)]
    try:
        with os.scandir(base_dir) as entries:
            return sorted(Path(entry.path) for entry in entries if entry.is_dir())
    except OSError:
        return []


def _own_mtime(entry: os.DirEntry[str]) -> float:
    """The mtime of the directory entry itself (a symlink's own), 0 when even that fails."""
    try:
        return entry.stat(follow_symlinks=False).st_mtime
    except OSError:
        return 0.0


def session_files(folders: Iterable[Path]) -> list[_FileStat]:
    """Flat ``*.jsonl`` files of ``folders``, newest mtime first (ties: file name descending).

    One ``stat`` per file, through its directory entry (which knows already whether it is a
    file), and each ``Path`` built from its folder's (cheaper than from a whole path): every
    ``ink-tui search`` looks at each file of the tree for changes, so this is most of what it
    costs before it answers.
    """
    found: list[tuple[float, str, str, int, Path, OSError | None, os.stat_result | None]] = []
    for folder in folders:
        try:
            with os.scandir(folder) as scanned:
                entries = [entry for entry in scanned if entry.name.endswith(SUFFIX)]
        except OSError:
            continue  # Ink: a missing folder lists nothing
        parent = folder.name
        for entry in entries:
            try:
                if not entry.is_file():
                    continue  # a directory named *.jsonl
                mtime, size = _file_times(entry)
                info = entry.stat()  # kept by the entry: no second system call
            except OSError as exc:  # a symlink loop: listed with its reason, at its own time
                found.append((_own_mtime(entry), entry.name, parent, 0, folder, exc, None))
                continue
            found.append((mtime, entry.name, parent, size, folder, None, info))
    found.sort(key=lambda item: item[:3], reverse=True)
    return [
        _FileStat(folder / name, mtime, size, error, info)
        for mtime, name, _, size, folder, error, info in found
    ]


def iter_summaries(
    base_dir: Path, cwd: str | None, *, include_hidden: bool = True
) -> Iterator[SessionSummary]:
    """The rows of :func:`list_sessions`, read one by one in listing order (for a filling UI)."""
    for item in session_files(project_folders(base_dir, cwd)):
        if item.error is not None:
            summary = SessionSummary(
                path=item.path,
                file_name=item.path.name,
                project_folder=item.path.parent.name,
                mtime=item.mtime,
                size=item.size,
                hidden_reason=f"OSError: {item.error}",
            )
        else:
            summary = summarize_file(item.path, mtime=item.mtime, size=item.size)
        if include_hidden or summary.listed_by_ink:
            yield summary


def list_sessions(
    base_dir: Path, cwd: str | None, *, include_hidden: bool = True
) -> list[SessionSummary]:
    """Sessions of ``cwd``'s project folder (every project folder when ``cwd`` is None).

    Newest file mtime first; ``include_hidden=False`` gives exactly Ink's ``/sessions`` listing.
    """
    return list(iter_summaries(base_dir, cwd, include_hidden=include_hidden))


def newest_session(base_dir: Path, cwd: str) -> Path | None:
    """Ink's ``--continue``: the newest session its listing shows (empty ones excluded)."""
    for summary in iter_summaries(base_dir, cwd, include_hidden=False):
        return summary.path
    return None


def read_header_id(path: Path) -> str | None:
    """The header ``id`` of a session file, reading only its first non-blank line."""
    try:
        with open_regular(path) as stream:
            for raw in iter_lines(stream, chunk_size=64 * 1024):
                if is_blank(raw.data):
                    continue
                try:
                    header = decode_line(raw.data)
                except JsonDecodeError:
                    return None
                if isinstance(header, dict) and is_session_header(header):
                    return str(header["id"])
                return None
    except OSError:
        return None
    return None


def _matches(path: Path, session_id: str | None, wanted: str) -> bool:
    """Ink's rule: exact id, id prefix, file name, or file name without ``.jsonl``."""
    name = path.name
    if name in (wanted, wanted + SUFFIX):
        return True
    return session_id is not None and session_id.startswith(wanted)


def _candidates(files: list[_FileStat], wanted: str) -> list[tuple[Path, str | None]]:
    found: list[tuple[Path, str | None]] = []
    for item in files:
        session_id = read_header_id(item.path)
        if _matches(item.path, session_id, wanted):
            found.append((item.path, session_id))
    return found


def _ambiguous(wanted: str, found: list[tuple[Path, str | None]]) -> AmbiguousSession:
    short = ", ".join((sid or path.stem)[:8] for path, sid in found[:3])
    first = f'"{wanted}" matches {len(found)} sessions ({short}…) — use more characters'
    candidates = [
        f"{session_id or '(unreadable header)'} ({path})"
        for path, session_id in found[:MAX_CANDIDATES]
    ]
    if len(found) > MAX_CANDIDATES:
        candidates.append(f"… and {len(found) - MAX_CANDIDATES} more")
    return AmbiguousSession(f"{first}; candidates: {'; '.join(candidates)}")


def _refuse_special(given: Path) -> None:
    """A path that exists but is not a regular file (a FIFO, a directory, a device, a symlink
    loop) is refused by what it is, rather than looked up as an id."""
    try:
        mode = given.stat().st_mode
    except FileNotFoundError:
        if given.is_symlink():
            raise ResolveError(f"{given}: {DANGLING}") from None
        return
    except OSError as error:  # a symlink loop, a folder it cannot enter
        raise ResolveError(f"{given}: {error.strerror}") from None
    if not stat.S_ISREG(mode):
        raise ResolveError(f"{given}: {what_it_is(mode)}, not a session file")


def resolve_session(base_dir: Path, cwd: str, wanted: str) -> Path:
    """A SESSION argument to a session file.

    An existing file path (absolute or relative) is taken as is. Otherwise the header id, an id
    prefix, the file name or the file name without ``.jsonl`` is matched over ALL files of the
    cwd's project folder (empty and hidden ones included), then, if nothing matched there, over
    every project folder, then over their ``children/`` (subagent sessions). Raises
    :class:`ResolveError` on no match or several.
    """
    if wanted == "":
        raise ResolveError("empty session id: give a session id, id prefix, file name or path")
    given = Path(wanted).expanduser()
    if given.is_file():
        return given
    _refuse_special(given)
    home = project_dir(base_dir, cwd)
    found = _candidates(session_files([home]), wanted)
    if not found:
        others = [folder for folder in project_folders(base_dir, None) if folder != home]
        found = _candidates(session_files(others), wanted)
    if not found:  # a subagent session: its project's children/ (Ink's listings never show them)
        folders = [home, *(folder for folder in project_folders(base_dir, None) if folder != home)]
        found = _candidates(session_files([folder / CHILDREN for folder in folders]), wanted)
    if not found:
        raise ResolveError(
            f'no session matching "{wanted}" in {home} (nor in any other project folder '
            f"under {base_dir}, nor in their children/ folders)"
        )
    if len(found) > 1:
        raise _ambiguous(wanted, found)
    return found[0][0]


@dataclass(frozen=True, slots=True)
class Resumed:
    """What ``-r ID`` found, and whether only ink-tui's wider lookup found it."""

    path: Path
    beyond_ink: str | None = None  # why Ink's own --resume would not find it


def resolve_resume(base_dir: Path, cwd: str, wanted: str) -> Resumed:
    """``-r ID`` as Ink's ``--resume`` resolves it, then ink-tui's wider lookup.

    Ink (``resolveSession``, spec §7) searches only the cwd's folder, empty sessions included,
    skipping files its ``open()`` or ``stats()`` rejects; an id, id prefix or file name matching
    several of those is an error. When Ink finds nothing, :func:`resolve_session`'s lookup (every
    file of the folder, then every project) is the documented fallback, and the result says why
    Ink itself would not have resumed it.
    """
    if wanted == "":
        raise ResolveError("empty session id: give a session id, id prefix, file name or path")
    if Path(wanted).expanduser().is_file():
        return Resumed(Path(wanted).expanduser())  # a path names its file: nothing to look up
    home = project_dir(base_dir, cwd)
    found = [
        (summary.path, summary.id)
        for summary in iter_summaries(base_dir, cwd)
        if summary.ink_read_ok and _matches(summary.path, summary.id, wanted)
    ]
    if len(found) > 1:
        raise _ambiguous(wanted, found)
    if found:
        return Resumed(found[0][0])
    try:
        path = resolve_session(base_dir, cwd, wanted)
    except ResolveError:
        raise ResolveError(
            f'no session matching "{wanted}" in {home} (nor in any other project folder under '
            f"{base_dir}) — `ink-tui list --all` lists them"
        ) from None
    if path.parent != home:
        why = f"it belongs to another project ({path.parent.name})"
    else:
        why = "Ink cannot open it (its /sessions hides it)"
    return Resumed(path, f"Ink's --resume would not find this session: {why}")
