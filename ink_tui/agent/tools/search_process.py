"""Running ripgrep or fd as Ink's ``runSearch`` does: collect stdout up to the guard, keep the
first 2000 bytes of stderr, stop the child on the guard, a timeout or a cancel."""

from __future__ import annotations

import codecs
import os
import selectors
import signal
import subprocess
import threading
from pathlib import Path

from ink_tui.agent import children
from ink_tui.agent.tools.common import logical_lines, utf8
from ink_tui.agent.tools.search_walk import BUFFER_GUARD_BYTES, SearchOutput

__all__ = ["STDERR_BYTES", "SearchError", "decode_prefix", "run_search_process"]

STDERR_BYTES = 2000
KILL_GRACE_SECONDS = 2.0
_READ_BYTES = 64 * 1024


class SearchError(Exception):
    """A failed search, worded as Ink words it: a header, then ``stderr:`` and what it said."""

    def __init__(self, header: str, diagnostic: str = "") -> None:
        super().__init__(header + (f"\nstderr:\n{diagnostic}" if diagnostic else ""))

    @classmethod
    def exited(cls, binary: str, code: int, diagnostic: str) -> SearchError:
        return cls(f"Error: {binary} exited with code {code}:", diagnostic)


def decode_prefix(data: bytes, cut: bool) -> str:
    """UTF-8 text of ``data``; when it was ``cut``, an incomplete last character is dropped
    (held back by the incremental decoder, as a stream decoder would until more bytes came)."""
    return codecs.getincrementaldecoder("utf-8")("replace").decode(data, final=not cut)


def _diagnostic(kept: bytes, observed: int) -> str:
    text = decode_prefix(kept, observed > len(kept))
    encoded = utf8(text)
    if len(encoded) > STDERR_BYTES:
        text = decode_prefix(encoded[:STDERR_BYTES], True)
    if observed > len(kept) or len(encoded) > STDERR_BYTES:
        text += f"\n[stderr truncated: showing first {STDERR_BYTES} bytes or fewer.]"
    return text


def run_search_process(
    binary: str, executable: str, argv: list[str], cwd: Path, stop: threading.Event
) -> SearchOutput:
    """Run ``executable argv`` in ``cwd`` and collect its output as Ink does.

    ``binary`` is the name Ink's messages use (``rg``, ``fd``). Raises :class:`SearchError`
    when the command fails (only rg's exit code 1, no match, is not a failure). When ``stop``
    is set the child is stopped and what was collected is returned (the caller reports the
    timeout or the cancel).
    """
    try:
        child = subprocess.Popen(
            [executable, *argv],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
    except OSError as exc:
        raise SearchError(f"Error: failed to run {binary}: {exc.strerror or exc}") from exc
    children.track_process(child.pid)  # killed if ink-tui exits while it runs
    try:
        return _collect(binary, child, stop)
    finally:
        if child.returncode is None:  # an error while collecting: never leave it running
            child.kill()
            child.wait()
        children.untrack(child.pid)


def _collect(binary: str, child: subprocess.Popen[bytes], stop: threading.Event) -> SearchOutput:
    """Read ``child``'s output until it ends (or the guard or ``stop``), then wait for it."""
    stdout = bytearray()
    stderr = bytearray()
    observed = err_observed = 0
    stopping = False
    assert child.stdout is not None and child.stderr is not None
    with selectors.DefaultSelector() as selector:
        selector.register(child.stdout, selectors.EVENT_READ, "out")
        selector.register(child.stderr, selectors.EVENT_READ, "err")
        while selector.get_map() and not stopping:
            for key, _ in selector.select(timeout=0.1):
                chunk = os.read(key.fd, _READ_BYTES)
                if not chunk:
                    selector.unregister(key.fileobj)
                elif key.data == "out":
                    observed += len(chunk)
                    stdout += chunk[: max(0, BUFFER_GUARD_BYTES - len(stdout))]
                    stopping = stopping or observed > BUFFER_GUARD_BYTES
                else:
                    err_observed += len(chunk)
                    stderr += chunk[: max(0, STDERR_BYTES - len(stderr))]
            stopping = stopping or stop.is_set()
    if stopping:
        _stop(child)
    code = child.wait()
    child.stdout.close()
    child.stderr.close()
    capped = observed > len(stdout)
    diagnostic = _diagnostic(bytes(stderr), err_observed) if err_observed else ""
    if not capped and not stop.is_set():
        if code < 0:
            name = signal.Signals(-code).name
            raise SearchError(f"Error: {binary} terminated by signal {name}.", diagnostic)
        if code != 0 and not (binary == "rg" and code == 1):
            raise SearchError.exited(binary, code, diagnostic)
    text = decode_prefix(bytes(stdout), capped)
    if capped:
        text = text[: text.rfind("\n") + 1]
    return SearchOutput(lines=logical_lines(text), capped=capped, diagnostic=diagnostic)


def _stop(child: subprocess.Popen[bytes]) -> None:
    """SIGTERM, then SIGKILL after Ink's grace period."""
    child.terminate()
    try:
        child.wait(timeout=KILL_GRACE_SECONDS)
    except subprocess.TimeoutExpired:
        child.kill()
