"""Pull a machine's sessions over SSH into its mirror, with the user's ``ssh`` and ``rsync``.

One sync of one machine:

1. **List** the remote sessions folder (``rsync --list-only``): every session file and
   ``children/`` file, its size and time. Only plain names are taken (``FOLDER/NAME.jsonl``,
   ``FOLDER/children/NAME.jsonl``, no part starting with a dot, no escaped character); a symlink,
   a FIFO, a device or an odd name ending in ``.jsonl`` is left with a note.
2. **Compare** with the mirror: new, grown (bigger, another time), rewritten (smaller, or the
   same size at another time), unchanged; a mirrored file the listing no longer has is *gone*
   at the source and stays in the mirror, recorded as gone.
3. **Move aside** the mirror's copy of a rewritten file (``.replaced/`` in the mirror: the old
   history is never dropped), then **fetch** exactly the listed files with ``rsync
   --append-verify``: a grown file sends only its new bytes, and the whole file is checked; a
   transfer cut off leaves at most a torn tail (Ink's own rule), which the next sync completes.

Nothing on the source is written: rsync only reads there. ``ssh`` runs with ``BatchMode`` (no
password prompt) and ``StrictHostKeyChecking=yes`` (an unknown host key is refused, never
accepted); ``$RSYNC_RSH``, when set, is the command run instead of plain ``ssh``, as rsync does.
Symlinks, FIFOs and devices are never followed or opened on either side.
"""

from __future__ import annotations

import os
import re
import shlex
import stat
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from ink_tui.archive.machines import Machine
from ink_tui.archive.mirrorstate import MirrorState, SyncReport, mirror_lock, plain_session_name
from ink_tui.paths import SESSION_SUFFIX

__all__ = ["ListedFile", "SyncError", "parse_listing", "pull_ssh", "rsync_shell"]

_FILTERS: Final = ("--include=*/", f"--include=*{SESSION_SUFFIX}", "--exclude=*")
_LINE: Final = re.compile(r"^(\S)\S{9}\s+([\d,]+) (\d{4}/\d\d/\d\d \d\d:\d\d:\d\d) (.+)$")
TIMEOUT_SECONDS: Final = 30  # ssh's connect timeout; a transfer itself may take long
PERSIST_SECONDS: Final = 60  # a shared connection stays this long after its last use


class SyncError(Exception):
    """A machine could not be reached or read (one line, for the report)."""


@dataclass(frozen=True, slots=True)
class ListedFile:
    """A session file on the source: its place under the sessions folder, size and time."""

    rel: str  # FOLDER/NAME.jsonl or FOLDER/children/NAME.jsonl
    size: int
    stamp: str  # "YYYY/MM/DD HH:MM:SS", as rsync lists it (this machine's local time)


@dataclass(slots=True)
class Listing:
    files: list[ListedFile] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # names left out, and why


def parse_listing(text: str) -> Listing:
    """Read ``rsync --list-only -r`` output: plain session files kept, the rest said."""
    listing = Listing()
    for line in text.splitlines():
        match = _LINE.match(line)
        if match is None:
            continue
        kind, size, stamp, name = match.groups()
        if kind == "d" or not name.endswith(SESSION_SUFFIX):
            continue
        if kind != "-":
            what = {"l": "a symlink", "p": "a FIFO", "c": "a device", "b": "a device"}
            listing.notes.append(f"{name}: {what.get(kind, 'not a regular file')}, left out")
        elif not plain_session_name(name):
            listing.notes.append(f"{name}: not a plain session file name, left out")
        else:
            listing.files.append(ListedFile(name, int(size.replace(",", "")), stamp))
    return listing


def rsync_shell(machine: Machine) -> str:
    """The remote shell rsync runs (``-e``): the user's ``ssh`` (or ``$RSYNC_RSH``), never
    prompting, refusing unknown host keys, sharing one connection per machine (see
    :func:`control_folder`)."""
    base = os.environ.get("RSYNC_RSH") or "ssh"
    options = ["-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=yes"]
    options += ["-o", f"ConnectTimeout={TIMEOUT_SECONDS}"]
    folder = control_folder()
    if folder is not None:
        options += ["-o", "ControlMaster=auto", "-o", f"ControlPath={folder}/%C"]
        options += ["-o", f"ControlPersist={PERSIST_SECONDS}"]
    if machine.url.port is not None:
        options += ["-p", str(machine.url.port)]
    return " ".join([base, *map(shlex.quote, options)])


def control_folder() -> Path | None:
    """Where ssh keeps the sockets of its shared connections: a folder of this user's alone
    (``<tmp>/ink-tui-ssh-UID``, mode 0700, checked: not a link, not another user's). A sync's
    listing and transfer then take one login, and a sync soon after takes none, as ssh's own
    ``ControlMaster`` does for git and Ansible. ``None`` (no sharing) when it cannot be made
    safely."""
    folder = Path(tempfile.gettempdir()) / f"ink-tui-ssh-{os.getuid()}"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        seen = folder.lstat()
    except OSError:
        return None
    mine = stat.S_ISDIR(seen.st_mode) and seen.st_uid == os.getuid()
    return folder if mine and stat.S_IMODE(seen.st_mode) == 0o700 else None


def _source(machine: Machine) -> str:
    folder = machine.url.path.rstrip("/") + "/"
    return f"{machine.url.destination}:{folder}"


def _rsync(
    machine: Machine, arguments: list[str], progress: Callable[[int, int], None] | None = None
) -> str:
    """Run rsync, its output as text; ``progress`` hears (bytes done, percent) as it goes."""
    command = ["rsync", "-e", rsync_shell(machine), "--protect-args"]
    if progress is not None:
        command += ["--info=progress2", "--no-inc-recursive"]
    with tempfile.TemporaryFile() as errors:
        try:
            process = subprocess.Popen(
                [*command, *arguments], stdout=subprocess.PIPE, stderr=errors
            )
        except FileNotFoundError:
            raise SyncError("rsync is not installed here (it is needed on both machines)") from None
        assert process.stdout is not None
        output = bytearray()
        with process.stdout:
            while chunk := os.read(process.stdout.fileno(), 1 << 16):
                output += chunk
                if progress is not None:
                    _report_progress(chunk, progress)
        code = process.wait()
        errors.seek(0)
        said_text = errors.read().decode("utf-8", "replace")
    if code != 0:
        said = [line.strip() for line in said_text.splitlines() if line.strip()]
        reason = next((line for line in said if not line.startswith("rsync error")), None)
        if code == 127 or (reason and "command not found" in reason):
            reason = "rsync is not installed there (it is needed on both machines)"
        elif "Host key verification failed" in said_text:
            reason = (
                f"the host key of {machine.url.host} is not known, or not the one known: "
                "ink-tui never accepts one (check it with ssh first)"
            )
        raise SyncError(reason or f"rsync failed (exit {code})")
    return output.decode("utf-8", "replace")


_PROGRESS: Final = re.compile(rb"^\s*([\d,]+)\s+(\d+)%")


def _report_progress(chunk: bytes, progress: Callable[[int, int], None]) -> None:
    """The last ``--info=progress2`` reading in ``chunk`` (rsync rewrites its line with \\r)."""
    for piece in reversed(re.split(rb"[\r\n]", chunk)):
        match = _PROGRESS.match(piece)
        if match is not None:
            progress(int(match.group(1).replace(b",", b"")), int(match.group(2)))
            return


def _stamp(seconds: float) -> str:
    return time.strftime("%Y/%m/%d %H:%M:%S", time.localtime(seconds))


def pull_ssh(
    machine: Machine,
    mirror: Path,
    *,
    note: Callable[[str], None] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> SyncReport:
    """Bring ``machine``'s sessions into ``mirror`` (see the module's text). One sync of a
    mirror at a time: a second waits for the first. ``note`` hears each name left out;
    ``progress`` (bytes done, percent) the transfer as it goes. Raises :class:`SyncError`."""
    with mirror_lock(mirror):
        listing = parse_listing(_rsync(machine, ["--list-only", "-r", *_FILTERS, _source(machine)]))
        for line in listing.notes:
            if note is not None:
                note(line)
        state = MirrorState.load(mirror)
        report = SyncReport(machine.name)
        fetch = []
        root = str(mirror)
        for listed in listing.files:
            try:
                seen = os.lstat(f"{root}/{listed.rel}")  # no Path a file: 2,000 files a machine
            except FileNotFoundError:
                report.new += 1
                report.bytes += listed.size
                fetch.append(listed.rel)
                continue
            if listed.size == seen.st_size and listed.stamp == _stamp(seen.st_mtime):
                continue
            if listed.size > seen.st_size:
                report.grown += 1
                report.bytes += listed.size - seen.st_size
            else:
                report.rewritten += 1
                report.bytes += listed.size
                state.set_aside(mirror / listed.rel, listed.rel)
            fetch.append(listed.rel)
        report.gone = state.mark_gone({listed.rel for listed in listing.files})
        if fetch:
            names = mirror.parent / f".{mirror.name}.files"
            names.write_text("".join(rel + "\0" for rel in fetch), encoding="utf-8")
            try:
                _rsync(
                    machine,
                    [
                        "--times",
                        "--append-verify",
                        "--no-links",
                        "--no-specials",
                        "--no-devices",
                        "--from0",
                        f"--files-from={names}",
                        _source(machine),
                        str(mirror) + "/",
                    ],
                    progress,
                )
            finally:
                names.unlink(missing_ok=True)
        state.save()
        return report
