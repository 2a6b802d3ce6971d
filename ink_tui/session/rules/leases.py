"""A child session's lease folder, and whether it holds the child: Ink's rule, once (spec §7
``/sessions prune`` step 3; ``prune.ts@3c659997`` ``leaseHoldsLiveChild``, mirroring
``child-lease.ts``).

The lease of ``<child>.jsonl`` is the folder ``<child>.jsonl.lease`` (its path followed, as
Node's ``statSync`` does). It holds the child when any entry of it whose name does not start
with ``.staging-``:

1. has an mtime at most 60,000 ms old (``STALE_GRACE_MS``; the holder's heartbeat touches its
   candidate file every 20 s), or
2. holds JSON whose ``pid`` is a number naming a live process on this machine:
   ``process.kill(pid, 0)`` succeeds, or fails with ``EPERM`` (the process exists, owned by
   someone else). ``host`` and ``machineId`` are not compared. As in Node, a ``pid`` that is not
   a 32-bit integer is refused before any signal (so it is not alive).

A missing lease, one that is not a folder, or one that cannot be listed holds nothing; an entry
that cannot be read is passed over. ink-tui's chat, its repairs and ``prune`` all ask this one
function, so a child Ink holds is never written to, repaired or pruned.
"""

from __future__ import annotations

import os
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from ink_tui.session.reading.files import NotARegularFile, open_regular
from ink_tui.session.reading.jsoncodec import JsonDecodeError, decode_line

__all__ = [
    "LEASE_GRACE_SECONDS",
    "LeaseHold",
    "lease_dir",
    "lease_hold",
    "lease_is_live",
    "lease_note",
    "pid_alive",
]

LEASE_GRACE_SECONDS: Final = 60.0
"""A lease candidate touched this recently holds its child (Ink's ``STALE_GRACE_MS``)."""
STAGING_PREFIX: Final = ".staging-"
PAYLOAD_LIMIT: Final = 1024 * 1024  # a lease payload is a few hundred bytes; more is not one


@dataclass(frozen=True, slots=True)
class LeaseHold:
    """The lease entry that holds a child, and how."""

    entry: str  # its file name in the lease folder
    fresh: bool  # touched in the last 60 s (else: its pid is alive)
    pid: int | None  # the holder's process, from the payload or the ``lease-<pid>-…`` name

    def describe(self) -> str:
        """``lease held by process 4242`` / ``lease held (touched in the last minute)``."""
        if self.pid is not None:
            return f"lease held by process {self.pid}"
        return "lease held (touched in the last minute)"


def lease_dir(child: Path) -> Path:
    """The lease folder of a child session file (it may not exist)."""
    return child.with_name(child.name + ".lease")


def _int32(value: float) -> int:
    """JavaScript's ``value | 0`` for a finite number (``ToInt32``)."""
    wrapped = int(value) % 2**32
    return wrapped - 2**32 if wrapped >= 2**31 else wrapped


def pid_alive(value: Any) -> bool:
    """``typeof pid === "number"`` and Node's ``process.kill(pid, 0)`` succeeds or fails with
    ``EPERM``. Node refuses a pid that is not a 32-bit integer (``pid != (pid | 0)``) before
    signalling; 0 and negative ones are signalled as given (a process group, with signal 0: no
    signal is sent)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return False
    if _int32(value) != value:
        return False
    try:
        os.kill(int(value), 0)
    except PermissionError:
        return True  # EPERM: it exists, owned by someone else
    except (OSError, OverflowError, ValueError):
        return False
    return True


def _payload_pid(path: Path) -> Any:
    """``JSON.parse(readFileSync(candidate, "utf8")).pid`` (``None`` when it throws)."""
    try:
        with open_regular(path) as stream:
            data = stream.read(PAYLOAD_LIMIT + 1)
    except (OSError, NotARegularFile):
        return None
    if len(data) > PAYLOAD_LIMIT:
        return None
    try:
        payload = decode_line(data)
    except (JsonDecodeError, ValueError):
        return None
    return payload.get("pid") if isinstance(payload, dict) else None


def _name_pid(name: str) -> int | None:
    """The pid a candidate's name carries: ``lease-<pid>-<nonce8>-<attemptId>``."""
    parts = name.split("-")
    if len(parts) >= 3 and parts[0] == "lease" and parts[1].isascii() and parts[1].isdigit():
        return int(parts[1])
    return None


def lease_hold(child: Path, now: float | None = None) -> LeaseHold | None:
    """The entry of ``child``'s lease folder that holds it (step 3 above), or ``None``."""
    folder = lease_dir(child)
    now_ms = (time.time() if now is None else now) * 1000
    try:
        if not stat.S_ISDIR(os.stat(folder).st_mode):
            return None  # legacy/foreign shape: not holding
        names = sorted(os.listdir(folder))
    except (OSError, ValueError):
        return None  # missing or unreadable: not holding
    for name in names:
        if name.startswith(STAGING_PREFIX):
            continue  # a candidate being written: never a claim
        candidate = folder / name
        try:
            mtime_ms = os.stat(candidate).st_mtime_ns / 1_000_000
        except (OSError, ValueError):
            continue  # gone, or a dangling link: try the next one
        if now_ms - mtime_ms <= LEASE_GRACE_SECONDS * 1000:
            pid = _payload_pid(candidate)
            named = isinstance(pid, int) and not isinstance(pid, bool)
            return LeaseHold(name, True, pid if named else _name_pid(name))
        pid = _payload_pid(candidate)
        if pid_alive(pid):
            return LeaseHold(name, False, int(pid))
    return None


def lease_is_live(child: Path, now: float | None = None) -> bool:
    """Whether ``child``'s lease holds it (Ink's ``leaseHoldsLiveChild``)."""
    return lease_hold(child, now) is not None


def lease_note(child: Path, now: float | None = None) -> str | None:
    """Why nothing may write to ``child`` now, when its lease holds it (Ink resumes it)."""
    hold = lease_hold(child, now)
    if hold is None:
        return None
    return f"Ink is resuming this subagent session now ({hold.describe()})"
