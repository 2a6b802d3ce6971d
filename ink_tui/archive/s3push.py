"""Push this machine's sessions to an S3 store, for machines nobody can reach (CI runners).

``ink-tui push s3://bucket/prefix --as NAME`` puts every session file (``children/`` included)
under ``prefix/NAME/`` as segments (:mod:`ink_tui.archive.segments`): only the complete lines not
pushed before. What was pushed is remembered here, in a ledger in the data dir (per store and
name), never read back from the store: the credentials may be write-only, and every upload is
told so (no listing, no HEAD, no bucket check). A file is read whole only when it changed; its
pushed bytes are checked against the ledger's SHA-256 of them, and a file changed before that
point (rewritten, cut back) is pushed again whole as a new generation.

The ledger is written only after the upload succeeded: a push cut off is pushed again next time
(an object put twice holds the same bytes; a longer segment from the same offset supersedes a
shorter one). Nothing here writes a session file.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Final

from ink_tui.archive.machines import MachineUrl
from ink_tui.archive.mirrorstate import SyncReport, plain_session_name
from ink_tui.archive.rclone import remote, run_rclone, staging_folder, store_path
from ink_tui.archive.segments import segment_key
from ink_tui.configfile import write_whole
from ink_tui.paths import CHILDREN, SESSION_SUFFIX, data_dir

__all__ = ["push_s3"]

CHUNK: Final = 1 << 20
_UPLOAD: Final = ("--no-check-dest", "--s3-no-check-bucket", "--s3-no-head", "--no-traverse")


@dataclass(slots=True)
class _Upload:
    rel: str
    kind: str  # new, grown or rewritten
    generation: int
    start: int
    end: int
    digest: str  # of bytes [0, end)
    signature: tuple[int, int, int]  # size, mtime_ns, inode when read


def _session_files(sessions_dir: Path, report: SyncReport) -> list[tuple[str, os.stat_result]]:
    """Every plain session file of the sessions dir, with its stat (never through a link)."""
    found: list[tuple[str, os.stat_result]] = []
    try:
        folders = sorted(entry.name for entry in os.scandir(sessions_dir) if entry.is_dir())
    except OSError:
        return found
    for folder in folders:
        for where in (folder, f"{folder}/{CHILDREN}"):
            try:
                entries = list(os.scandir(sessions_dir / where))
            except OSError:
                continue
            for entry in entries:
                if not entry.name.endswith(SESSION_SUFFIX):
                    continue
                rel = f"{where}/{entry.name}"
                info = entry.stat(follow_symlinks=False)
                if not stat.S_ISREG(info.st_mode):
                    report.notes.append(f"{rel}: not a regular file, left out")
                elif not plain_session_name(rel):
                    report.notes.append(f"{rel}: not a plain session file name, left out")
                else:
                    found.append((rel, info))
    return found


def _complete_end(stream: BinaryIO, size: int) -> int:
    """Where the file's last complete line ends (0: none)."""
    offset = size
    while offset > 0:
        start = max(0, offset - CHUNK)
        stream.seek(start)
        chunk = stream.read(offset - start)
        newline = chunk.rfind(b"\n")
        if newline >= 0:
            return start + newline + 1
        offset = start
    return 0


def _copy(stream: BinaryIO, start: int, end: int, target: Path, digest: Any) -> None:
    """Bytes ``[start, end)`` of ``stream`` into ``target`` (and into ``digest``)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    stream.seek(start)
    left = end - start
    with target.open("wb") as out:
        while left > 0:
            chunk = stream.read(min(CHUNK, left))
            if not chunk:
                raise OSError(f"{target.name}: the file shrank while it was read")
            digest.update(chunk)
            out.write(chunk)
            left -= len(chunk)


def _hash_prefix(stream: BinaryIO, size: int) -> Any:
    digest = hashlib.sha256()
    stream.seek(0)
    left = size
    while left > 0:
        chunk = stream.read(min(CHUNK, left))
        if not chunk:
            break
        digest.update(chunk)
        left -= len(chunk)
    return digest


def _plan(
    path: Path, rel: str, info: os.stat_result, known: dict[str, Any] | None, stage: Path
) -> _Upload | None:
    """The segment to upload for ``rel`` (staged in ``stage``), or ``None`` when nothing new."""
    signature = (info.st_size, info.st_mtime_ns, info.st_ino)
    if known is not None and tuple(known.get("signature", ())) == signature:
        return None
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    with os.fdopen(os.open(path, flags), "rb") as stream:
        end = _complete_end(stream, info.st_size)
        if end == 0:
            return None
        pushed = int(known["size"]) if known is not None else 0
        generation = int(known["generation"]) if known is not None else 1
        kind = "new" if known is None else "rewritten"
        digest = hashlib.sha256()
        start = 0
        if known is not None and 0 < pushed <= end:
            digest = _hash_prefix(stream, pushed)
            if digest.hexdigest() == known["digest"]:
                if pushed == end:
                    return _Upload(rel, "same", generation, end, end, known["digest"], signature)
                kind, start = "grown", pushed
            else:
                digest = hashlib.sha256()
        if kind == "rewritten":
            generation += 1
        _copy(stream, start, end, stage / segment_key(rel, generation, start, end), digest)
        return _Upload(rel, kind, generation, start, end, digest.hexdigest(), signature)


def _ledger_path(url: MachineUrl, name: str) -> Path:
    key = hashlib.sha256(f"{url.host}\0{url.path}\0{name}".encode()).hexdigest()[:16]
    return data_dir() / "pushes" / f"{key}.json"


def _load(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        files = data.get("files", {})
        return files if isinstance(files, dict) else {}
    except (OSError, ValueError, AttributeError):
        return {}  # none yet, or unreadable: everything is pushed again, as a new generation


def push_s3(
    url: MachineUrl,
    name: str,
    sessions_dir: Path,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> SyncReport:
    """Push ``sessions_dir`` to ``url`` as machine ``name`` (see the module's text); what went
    wrong is the report's ``error``. Two pushes of one ledger never run at once."""
    from ink_tui.archive.rclone import StoreError

    report = SyncReport(name)
    ledger = _ledger_path(url, name)
    ledger.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    with open(ledger.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        files = _load(ledger)
        stage = staging_folder(ledger.parent)
        prefix = "/".join(part for part in (url.path.strip("/"), name) if part)
        try:
            uploads = _stage(sessions_dir, files, stage / prefix, report)
            keys = [
                f"{prefix}/{segment_key(upload.rel, upload.generation, upload.start, upload.end)}"
                for upload in uploads
                if upload.kind != "same"
            ]
            if keys:
                _upload(url, stage, keys, progress)
        except (StoreError, OSError) as error:
            report.error = str(error)
            return report
        finally:
            shutil.rmtree(stage, ignore_errors=True)
        for upload in uploads:
            files[upload.rel] = {
                "generation": upload.generation,
                "size": upload.end,
                "digest": upload.digest,
                "signature": list(upload.signature),
            }
        write_whole(ledger, json.dumps({"files": files}, indent=1).encode("utf-8"))
    return report


def _stage(
    sessions_dir: Path, files: dict[str, Any], stage: Path, report: SyncReport
) -> list[_Upload]:
    uploads: list[_Upload] = []
    for rel, info in _session_files(sessions_dir, report):
        try:
            upload = _plan(sessions_dir / rel, rel, info, files.get(rel), stage)
        except OSError as error:  # gone or unreadable since it was listed: next time
            report.notes.append(f"{rel}: {error.strerror or error}, left for next time")
            continue
        if upload is None:
            continue
        uploads.append(upload)
        if upload.kind == "same":
            continue
        setattr(report, upload.kind, getattr(report, upload.kind) + 1)
        report.bytes += upload.end - upload.start
        key = segment_key(upload.rel, upload.generation, upload.start, upload.end)
        kinds = _secrets_in(stage / key)
        if kinds:
            report.secrets[rel] = kinds
    return uploads


def _secrets_in(segment: Path) -> dict[str, int]:
    """The secrets the staged segment's lines hold, by kind (the push says so; it still
    pushes: the store is this user's own)."""
    from collections import Counter

    from ink_tui.catalog.secretsaudit import findings_in

    return dict(Counter(found.kind for found in findings_in(segment, None, segment.read_bytes())))


def _upload(
    url: MachineUrl, stage: Path, keys: list[str], progress: Callable[[int, int], None] | None
) -> None:
    """Put the staged segments (``stage/KEY``) in the bucket with write-only rights: no
    listing, no HEAD, no bucket check."""
    listed = stage / ".keys"
    listed.write_text("".join(key + "\n" for key in keys), encoding="utf-8")
    arguments = ["copy", f"--files-from-raw={listed}", *_UPLOAD, "--transfers", "8"]
    run_rclone([*arguments, str(stage), remote() + store_path(url.host)], progress)
