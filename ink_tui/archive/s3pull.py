"""Pull a machine's sessions from an S3 store into its mirror, with rclone.

The store holds what ``ink-tui push`` put there (:mod:`ink_tui.archive.segments`). One sync:

1. **List** the machine's prefix (one ``rclone lsjson``): the segments of each session file,
   its newest generation only; an object that is not a segment of a plain session file name is
   left out with a note.
2. **Compare** with the mirror: new; grown (the store holds more of the same generation: only
   the segments past what the mirror has are fetched); rewritten (a newer generation: the
   mirror's copy goes to ``.replaced/`` and the file is fetched whole); a file the store no
   longer holds is *gone* and stays in the mirror, recorded as gone.
3. **Fetch** the segments needed (one ``rclone copy`` into a private folder beside the
   mirror), check each one's size, and put them in place: a new or rewritten file is written
   beside its place, flushed and renamed in; a grown one gets its new bytes appended and
   flushed, or cut back to where it was if that fails. A segment ends at the end of a line, so
   the mirror never holds half a record; a sync cut off fetches the rest next time.

Nothing in the store is written, and the credentials need only read and list the prefix.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from ink_tui.archive.machines import Machine
from ink_tui.archive.mirrorstate import MirrorState, SyncReport, mirror_lock
from ink_tui.archive.rclone import (
    NothingThere,
    StoreError,
    remote,
    run_rclone,
    staging_folder,
    store_path,
)
from ink_tui.archive.segments import Segment, StoredFile, parse_keys

__all__ = ["pull_s3"]

CHUNK: Final = 1 << 20


@dataclass(frozen=True, slots=True)
class _Fetch:
    stored: StoredFile
    segments: list[Segment]  # those to fetch, in order
    start: int  # where the mirror's copy ends (0: written whole)


def _plan(
    stored: StoredFile, mirror: Path, state: MirrorState, report: SyncReport
) -> _Fetch | None:
    chain = stored.chain()
    size = chain[-1].end if chain else 0
    if size == 0:
        return None
    try:
        held = os.lstat(mirror / stored.rel).st_size
    except FileNotFoundError:
        report.new += 1
        report.bytes += size
        return _Fetch(stored, chain, 0)
    known = state.generations.get(stored.rel)
    if known == stored.generation or (known is None and held == size):
        state.generations[stored.rel] = stored.generation
        if held >= size:
            return None
        report.grown += 1
        report.bytes += size - held
        return _Fetch(stored, [segment for segment in chain if segment.end > held], held)
    report.rewritten += 1
    report.bytes += size
    state.set_aside(mirror / stored.rel, stored.rel)
    return _Fetch(stored, chain, 0)


def pull_s3(
    machine: Machine,
    mirror: Path,
    *,
    note: Callable[[str], None] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> SyncReport:
    """Bring ``machine``'s sessions (``s3://bucket/prefix``) into ``mirror`` (see the module's
    text). One sync of a mirror at a time. Raises :class:`StoreError`."""
    base = store_path(machine.url.host, machine.url.path)
    with mirror_lock(mirror):
        try:
            text = run_rclone(["lsjson", "-R", "--files-only", "--no-mimetype", remote() + base])
            listed = [(str(item["Path"]), int(item["Size"])) for item in json.loads(text)]
        except NothingThere:
            listed = []
            if note is not None:
                note(f"nothing is stored under s3://{base} yet (has the machine pushed?)")
        except (ValueError, KeyError, TypeError) as error:
            raise StoreError(f"rclone's listing could not be read ({error})") from None
        parsed = parse_keys(listed)
        for line in parsed.notes:
            if note is not None:
                note(line)
        state = MirrorState.load(mirror)
        report = SyncReport(machine.name)
        fetches = [
            fetch
            for stored in parsed.files.values()
            if (fetch := _plan(stored, mirror, state, report)) is not None
        ]
        report.gone = state.mark_gone(set(parsed.files))
        if fetches:
            for fetch in _fetch(base, mirror, fetches, progress, note):
                state.generations[fetch.stored.rel] = fetch.stored.generation
        state.save()
        return report


def _fetch(
    base: str,
    mirror: Path,
    fetches: list[_Fetch],
    progress: Callable[[int, int], None] | None,
    note: Callable[[str], None] | None,
) -> list[_Fetch]:
    """Fetch and place every file; those placed. A file whose segments did not all come whole
    is left out with a note (the next sync tries again)."""
    stage = staging_folder(mirror.parent)
    placed: list[_Fetch] = []
    try:
        keys = [segment.key for fetch in fetches for segment in fetch.segments]
        listed = stage / ".keys"
        listed.write_text("".join(key + "\n" for key in keys), encoding="utf-8")
        arguments = ["copy", f"--files-from-raw={listed}", "--no-traverse", "--transfers", "8"]
        objects = stage / "objects"
        run_rclone([*arguments, remote() + base, str(objects)], progress)
        for fetch in fetches:
            short = next(
                (
                    segment
                    for segment in fetch.segments
                    if _size(objects / segment.key) != segment.end - segment.start
                ),
                None,
            )
            if short is not None:
                if note is not None:
                    note(f"{short.key!r}: did not come whole, left for the next sync")
                continue
            _place(fetch, mirror, objects)
            placed.append(fetch)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    return placed


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return -1


def _copy_segments(fetch: _Fetch, objects: Path, fd: int, held: int) -> None:
    for segment in fetch.segments:
        with (objects / segment.key).open("rb") as stream:
            stream.seek(max(0, held - segment.start))
            while chunk := stream.read(CHUNK):
                view = memoryview(chunk)
                while view:
                    view = view[os.write(fd, view) :]


def _place(fetch: _Fetch, mirror: Path, objects: Path) -> None:
    """Put a fetched file in place (see the module's text), all or nothing."""
    target = mirror / fetch.stored.rel
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    size = fetch.segments[-1].end
    if fetch.start == 0:
        temp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            _copy_segments(fetch, objects, fd, 0)
            os.fsync(fd)
            if os.fstat(fd).st_size != size:
                raise StoreError(f"{fetch.stored.rel}: the copy is not whole")
        except BaseException:
            os.close(fd)
            temp.unlink(missing_ok=True)
            raise
        os.close(fd)
        temp.replace(target)
        return
    fd = os.open(target, os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0))
    try:
        before = os.fstat(fd).st_size
        try:
            _copy_segments(fetch, objects, fd, before)
            os.fsync(fd)
            if os.fstat(fd).st_size != size:
                raise StoreError(f"{fetch.stored.rel}: the new bytes did not all land")
        except BaseException:
            os.ftruncate(fd, before)  # as it was: the next sync fetches them again
            raise
    finally:
        os.close(fd)
