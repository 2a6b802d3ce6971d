"""The bash tool: ``/bin/bash -c`` in its own process group, output shaped as Ink's.

The group is registered while the command runs (:mod:`~ink_tui.agent.children`): if
ink-tui exits first (a quit, a crash, SIGHUP, SIGTERM) the whole group is killed with it.

Ink keeps stdout and stderr apart and reports them as ``stdout:\\n…`` and ``stderr:\\n…``
sections (each only when the stream produced bytes), ``(no output)`` when neither did, and
``Exit code: N`` for a non-zero exit, which is *not* an error result. Each stream is cut to its
last 500 lines / 50KB; when anything was cut the whole output goes to
``$TMPDIR/ink-output-<uuid>.log`` and a note names it. A timeout, a cancellation or a death by
signal makes an error result ``Error: <reason>. Partial output:\\n<sections>``. There is no
default timeout (Ink has none).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import signal as signals
import tempfile
import uuid
from pathlib import Path
from typing import Any

from ink_tui.agent import children
from ink_tui.agent.tools.common import (
    MAX_BYTES,
    ToolOutcome,
    as_number,
    error,
    logical_lines,
    show,
    tail_start,
)
from ink_tui.session.reading.jsformat import js_string

MAX_LINES = 500
TAIL_KEEP_BYTES = 262144
FULL_KEEP_BYTES = 10485760
_IDLE_AFTER_EXIT = 0.2
"""After bash exits, wait this long for silence on pipes a background child may hold open."""
_TIP = "(tip: pipe through head/tail or narrow the grep to keep output small)"


class _Stream:
    """One output stream: the first 10MB (for the artifact) and the last 256KB (for the view)."""

    def __init__(self) -> None:
        self.full = bytearray()
        self.tail = bytearray()
        self.total = 0
        self.partial = False

    def append(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = FULL_KEEP_BYTES - len(self.full)
        if room > 0:
            self.full += chunk[:room]
        self.tail += chunk
        drop = len(self.tail) - TAIL_KEEP_BYTES
        if drop > 0:
            self.partial = self.tail[drop - 1] != 10
            del self.tail[:drop]

    @property
    def capped(self) -> bool:
        return self.total > len(self.full)

    def preview(self) -> tuple[str, bool, bool]:
        """(text, truncated, starts-within-a-line) of the tail Ink would show."""
        raw = bytes(self.tail)
        start = tail_start(raw, 0) if self.total > len(raw) else 0
        text = raw[start:].decode("utf-8", "replace")
        truncated = self.total > len(raw) or start > 0
        partial = self.partial
        lines = logical_lines(text)
        if len(lines) > MAX_LINES:
            text = "\n".join(lines[-MAX_LINES:]) + ("\n" if text.endswith("\n") else "")
            truncated = True
            partial = False
        data = text.encode("utf-8", "surrogatepass")
        if len(data) > MAX_BYTES:
            cut = tail_start(data, len(data) - MAX_BYTES)
            partial = cut < len(data) and data[cut - 1] != 10
            text = data[cut:].decode("utf-8", "replace")
            truncated = True
        return text, truncated, partial and text != ""


async def _pump(reader: asyncio.StreamReader, stream: _Stream, seen: list[float]) -> None:
    loop = asyncio.get_running_loop()
    while chunk := await reader.read(65536):
        stream.append(chunk)
        seen[0] = loop.time()


def _kill_group(pid: int) -> None:
    if pid <= 0:  # never kill(-1) or kill(0): those reach far more than our own tree
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signals.SIGKILL)


def _artifact(command: str, out: _Stream, err: _Stream, interruption: str | None) -> str:
    path = Path(tempfile.gettempdir()) / f"ink-output-{uuid.uuid4()}.log"
    parts = [f"$ {command}\n[stdout]\n".encode(), bytes(out.full), b"\n[stderr]\n"]
    parts += [bytes(err.full), b"\n"]
    for name, state in (("stdout", out), ("stderr", err)):
        if state.capped:
            parts.append(
                f"[{name} artifact incomplete: retained first {len(state.full)} of "
                f"{state.total} observed bytes (10485760-byte per-stream limit).]\n".encode()
            )
    if interruption:
        parts.append(f"[command interrupted: {interruption}.]\n".encode())
    try:
        with open(path, "xb") as handle:
            handle.write(b"".join(parts))
    except OSError:
        with contextlib.suppress(OSError):
            path.unlink()
        return (
            f"[output truncated: only the tail is shown; saving the output artifact failed {_TIP}]"
        )
    capped = out.capped or err.capped
    if capped:
        lead = "command interrupted; " if interruption else ""
        qualifier = f"{lead}artifact prefix capped; per-stream limit 10485760 bytes"
    else:
        qualifier = "command interrupted; all observed bytes retained"
    if capped or interruption:
        middle = f"Partial output saved to {path} ({qualifier})"
    else:
        middle = f"Full output saved to {path}"
    return (
        f"[output truncated: only the tail is shown above. {middle} — read it with the read "
        f"tool if you need more {_TIP}]"
    )


def format_output(
    command: str, out: _Stream, err: _Stream, interruption: str | None, code: int | None
) -> str:
    sections: list[str] = []
    shown = {"stdout": out.preview(), "stderr": err.preview()}
    for name, state in (("stdout", out), ("stderr", err)):
        text, _, partial = shown[name]
        if state.total > 0:
            sections.append(f"{name}:\n{text}")
        if partial:
            sections.append(f"[{name} preview starts within a line.]")
    if out.total == 0 and err.total == 0:
        sections.append("(no output)")
    if not interruption and code is not None and code != 0:
        sections.append(f"Exit code: {code}")
    if shown["stdout"][1] or shown["stderr"][1]:
        sections.append(_artifact(command, out, err, interruption))
    return "\n\n".join(sections)


async def run_bash(
    arguments: dict[str, object], cwd: Path, signal: asyncio.Event | None
) -> ToolOutcome:
    command = str(arguments.get("command", ""))
    if command.strip() == "":
        return error("Error: empty command")
    timeout = arguments.get("timeout")
    seconds = as_number(timeout)
    if timeout is not None and (seconds is None or not 0 < seconds < math.inf):
        return error(
            f"Error: invalid timeout {show(timeout)}; must be a positive number of seconds"
        )
    if signal is not None and signal.is_set():
        return error("Error: command aborted by user. Partial output:\n(no output)")
    try:
        proc = await asyncio.create_subprocess_exec(
            "/bin/bash",
            "-c",
            command,
            cwd=str(cwd),
            env={**os.environ, "INK": "1"},
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as exc:
        return error(f"Error: failed to spawn command: {exc}")
    children.track_group(proc.pid)  # its own session: killed whole if ink-tui exits first
    try:
        return await _supervise(proc, command, seconds, signal)
    finally:
        children.untrack(proc.pid)


async def _supervise(
    proc: asyncio.subprocess.Process,
    command: str,
    seconds: float | None,
    signal: asyncio.Event | None,
) -> ToolOutcome:
    assert proc.stdout is not None and proc.stderr is not None
    out, err = _Stream(), _Stream()
    loop = asyncio.get_running_loop()
    seen = [loop.time()]
    pumps = [
        asyncio.create_task(_pump(proc.stdout, out, seen)),
        asyncio.create_task(_pump(proc.stderr, err, seen)),
    ]
    exited = asyncio.create_task(proc.wait())
    cancelled = asyncio.create_task(signal.wait()) if signal is not None else None
    waiters: set[asyncio.Future[Any]] = {exited}
    if cancelled is not None:
        waiters.add(cancelled)
    timed_out = aborted = False
    try:
        done, _ = await asyncio.wait(waiters, timeout=seconds, return_when="FIRST_COMPLETED")
        if exited not in done:
            timed_out = not done
            aborted = not timed_out
            _kill_group(proc.pid)
            await exited
        else:
            # bash is gone; a background child may still hold the pipes: stop at silence.
            while not all(p.done() for p in pumps):
                idle = loop.time() - seen[0]
                if idle >= _IDLE_AFTER_EXIT:
                    break
                await asyncio.wait(pumps, timeout=_IDLE_AFTER_EXIT - idle)
        if timed_out or aborted:
            await asyncio.wait(pumps, timeout=1.0)
    finally:
        for task in (*pumps, *([cancelled] if cancelled else [])):
            task.cancel()
        if proc.returncode is None:
            _kill_group(proc.pid)
    code = proc.returncode
    reason: str | None = None
    if timed_out:
        reason = f"command timed out after {js_string(seconds or 0)}s and was killed"
    elif aborted:
        reason = "command aborted by user"
    elif code is not None and code < 0:
        reason = f"command terminated by signal {signals.Signals(-code).name}"
    elif code is None:
        reason = "command ended without an exit status"
    text = format_output(command, out, err, reason, code)
    if reason:
        return error(f"Error: {reason}. Partial output:\n{text}")
    return ToolOutcome(text, False)
