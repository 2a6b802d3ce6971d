"""Scrubbing a session: each secret replaced in place with ``[REDACTED:<kind>:<fingerprint>]``.

Only the records holding a secret change, and each stays the record it was: the same keys in
the same order, the same ids, parents and pairing, every other value as it was, the whole
re-encoded as Ink encodes a record (``JSON.stringify``); every other line keeps its bytes. So
Ink opens the scrubbed file and rebuilds the same context, with the secrets masked.

The safety of Ink's own writes and of a repair:

- refused (nothing written) for another machine's mirror, a session a writer may be active on
  (modified in the last few seconds, or a live lease), a line that may hold a secret but is not
  a record (a torn line: ``ink-tui repair`` first);
- the original's bytes go to the trash first, fsync-ed (``ink-tui trash restore`` puts them
  back byte for byte, over the scrubbed file only if that is unchanged);
- the scrubbed file is written beside the original, fsync-ed, read back and checked (every line
  decodes, the same ids and parents in the same order), given the original's times (it keeps
  its place in Ink's list, newest first), then renamed over it, but only if the
  original's size and mtime are still those that were read (a writer appending meanwhile
  means no scrub: the trash entry is dropped and the file is left as it is).
"""

from __future__ import annotations

import hashlib
import os
import secrets
import stat
from collections import Counter
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

from ink_tui.humanize import counts_sentence
from ink_tui.manage.moving import write_all
from ink_tui.secrets import Secret, mask_value, redaction
from ink_tui.session.reading.jsoncodec import decode_line, encode_json

__all__ = ["ScrubError", "ScrubPlan", "plan_scrub", "scrub_session"]


class ScrubError(Exception):
    """A scrub refused or failed (one line; the session is as it was)."""


@dataclass
class ScrubPlan:
    """What a scrub of one file would do."""

    path: Path
    original: bytes = field(repr=False)  # session text: never in a repr or a traceback
    scrubbed: bytes = field(repr=False)
    kinds: Counter[str] = field(default_factory=Counter)  # secrets replaced, by kind
    lines: list[int] = field(default_factory=list)  # 1-based lines changed

    @property
    def count(self) -> int:
        return sum(self.kinds.values())

    def kinds_sentence(self) -> str:
        """``2 github-token, 1 password``."""
        return counts_sentence(self.kinds)


def _identity(record: object) -> tuple[object, object, object]:
    if not isinstance(record, dict):
        return (None, None, None)
    return (record.get("type"), record.get("id"), record.get("parentId"))


def plan_scrub(path: Path, data: bytes) -> ScrubPlan:
    """The scrubbed bytes of ``data`` (the file ``path``). Raises :class:`ScrubError` when a
    line that may hold a secret is not a record."""
    from ink_tui.catalog.secretsaudit import NOT_A_RECORD, gated_records

    lines = data.split(b"\n")
    plan = ScrubPlan(path, data, data)
    for index, record in gated_records(data):
        if record is NOT_A_RECORD:
            if index == len(lines) - 1:
                raise ScrubError(
                    f"{path}: its last line is cut short and may hold a secret: "
                    "`ink-tui repair` it first"
                ) from None
            raise ScrubError(f"{path}:{index + 1}: not a record, and it may hold a secret")
        met: list[Secret] = []

        def masked(secret: Secret, met: list[Secret] = met) -> str:
            met.append(secret)
            return redaction(secret)

        scrubbed, count = mask_value(record, masked)
        if not count:
            continue
        plan.kinds.update(secret.kind for secret in met)
        plan.lines.append(index + 1)
        lines[index] = encode_json(scrubbed)
    if plan.lines:
        plan.scrubbed = b"\n".join(lines)
    return plan


def _checked(plan: ScrubPlan) -> None:
    """The scrubbed bytes keep every record's identity, line for line."""
    before = plan.original.split(b"\n")
    after = plan.scrubbed.split(b"\n")
    if len(before) != len(after):
        raise ScrubError(f"{plan.path}: the scrub changed the number of lines (not written)")
    for number in plan.lines:
        if _identity(decode_line(before[number - 1])) != _identity(decode_line(after[number - 1])):
            raise ScrubError(f"{plan.path}:{number}: the scrub changed a record's id (not written)")


def _write_beside(path: Path, data: bytes, mode: int) -> Path:
    """``data`` in a new hidden file beside ``path`` (with ``mode``), fsync-ed and read back;
    on any failure the new file is gone."""
    temporary = path.with_name(f".{path.name}.scrub-{secrets.token_hex(4)}")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        try:
            write_all(fd, data)
            os.fchmod(fd, mode)
            os.fsync(fd)
        finally:
            os.close(fd)
        if temporary.read_bytes() != data:
            raise OSError(f"{temporary}: the file read back differs")
    except BaseException:
        with suppress(OSError):
            os.unlink(temporary)
        raise
    return temporary


def _refusal(path: Path) -> str | None:
    from ink_tui.catalog.checkup import writer_activity
    from ink_tui.session.rules.leases import lease_note
    from ink_tui.session.writing.writer import mirror_refusal

    if path.is_symlink():
        return "it is a symbolic link: scrub the file it points to"
    return mirror_refusal(path) or lease_note(path) or writer_activity(path)


def scrub_session(path: Path, *, dry_run: bool = False) -> tuple[ScrubPlan, str | None]:
    """Scrub ``path`` (see the module's text): the plan, and the trash entry holding the
    original (``None``: nothing to do, or a dry run). Raises :class:`ScrubError`."""
    from ink_tui.manage.trash import TrashError, put_copy

    try:
        before = path.stat()
        data = path.read_bytes()
    except OSError as error:
        raise ScrubError(f"{path}: {error.strerror or error}") from None
    plan = plan_scrub(path, data)
    if dry_run or not plan.lines:
        return plan, None
    refusal = _refusal(path)
    if refusal is not None:
        raise ScrubError(f"{path}: not scrubbed: {refusal}")
    _checked(plan)
    digest = hashlib.sha256(plan.scrubbed).hexdigest()
    try:
        header = decode_line(data.split(b"\n", 1)[0])
        session_id = header.get("id") if isinstance(header, dict) else None
    except ValueError:
        session_id = None
    try:
        entry = put_copy(path, data, "scrub", replaced_by=digest, session_id=str(session_id or ""))
    except TrashError as error:
        raise ScrubError(f"{path}: not scrubbed: {error}") from None
    temporary: Path | None = None
    try:
        temporary = _write_beside(path, plan.scrubbed, stat.S_IMODE(before.st_mode))
        # The original's times kept: the session keeps its place in Ink's list (newest first)
        # and is not taken for one being written (the index sees the change: size, inode)
        os.utime(temporary, ns=(before.st_atime_ns, before.st_mtime_ns))
        now = path.stat()
        if (now.st_size, now.st_mtime_ns, now.st_ino) != (
            before.st_size,
            before.st_mtime_ns,
            before.st_ino,
        ):
            raise ScrubError(f"{path}: not scrubbed: it changed while it was read (a writer?)")
        os.replace(temporary, path)
        temporary = None
    except (OSError, ScrubError) as error:
        from ink_tui.manage.trash import empty_trash

        if temporary is not None:
            with suppress(OSError):
                os.unlink(temporary)
        empty_trash([entry])  # the original was never replaced: its copy is not needed
        if isinstance(error, ScrubError):
            raise
        raise ScrubError(f"{path}: not scrubbed: {error}") from None
    return plan, entry.id
