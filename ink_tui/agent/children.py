"""The tools' child processes, killed when ink-tui exits, however it exits that can be caught.

bash runs each command as the leader of its own session (its own process group), so closing
the terminal does not reach it: without this module, a command still running when the app
goes away lives on, adopted by init, and its result is never recorded. Every child a tool
starts is registered while it runs (bash's process group, rg's and fd's process);
:func:`kill_all` sends SIGKILL to all of them (bash's whole group: the command and everything it
started that stayed in the group). :func:`exit_cleanup` wraps the app's run: it calls
:func:`kill_all` on SIGHUP (the terminal closed) and SIGTERM before the signal's previous
disposition takes over (by default the process ends by that signal, as before), at exit
(``atexit``), and when the run ends, normally or by an exception (a quit, a crash, Ctrl+C).

A command that already finished is no longer registered: what it left running in the
background (``server &``) is not killed, as in Ink. ``kill -9`` of ink-tui cannot be caught:
the command's group runs on, adopted by init, and nothing records its result. The session then
ends in the call without a result; the next ``ink-tui`` chat on it (or Ink's own resume)
closes that call with Ink's unknown-outcome result (``[ink] this tool call was interrupted
before a result was recorded — the outcome is unknown…``) before writing anything else.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
from collections.abc import Iterator
from types import FrameType
from typing import Any

__all__ = [
    "CAUGHT_SIGNALS",
    "exit_cleanup",
    "kill_all",
    "running",
    "track_group",
    "track_process",
    "untrack",
]

CAUGHT_SIGNALS = (signal.SIGHUP, signal.SIGTERM)

# pid -> whether it leads a process group of its own (bash) or is a lone process (rg, fd).
# Changed from the event loop and from search threads; read by a signal handler: only single
# set/dict operations (atomic under the GIL), and the handler reads a copy.
_children: dict[int, bool] = {}
_previous: dict[int, Any] = {}  # the signal dispositions exit_cleanup replaced


def track_group(pgid: int) -> None:
    """A tool started a process group (its leader's pid): killed whole by :func:`kill_all`."""
    if pgid > 0:  # never 0 or -1: killpg of those reaches far more than a tool's tree
        _children[pgid] = True


def track_process(pid: int) -> None:
    """A tool started a process in ink-tui's own group: killed alone by :func:`kill_all`."""
    if pid > 0:
        _children[pid] = False


def untrack(pid: int) -> None:
    """The child ended (it was waited for): never signal its pid again, it may be reused."""
    _children.pop(pid, None)


def running() -> dict[int, bool]:
    """The children registered now: pid -> leads its own group."""
    return dict(_children)


def kill_all() -> int:
    """SIGKILL every registered child (a group leader's whole group); how many were signalled.
    Safe in a signal handler and at exit: no lock, no allocation beyond a copy."""
    killed = 0
    for pid, group in tuple(_children.items()):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            if group:
                os.killpg(pid, signal.SIGKILL)
            else:
                os.kill(pid, signal.SIGKILL)
            killed += 1
    return killed


def _on_signal(signum: int, frame: FrameType | None) -> None:
    """Kill the tools' children, then do what the signal did before exit_cleanup."""
    kill_all()
    previous = _previous.get(signum, signal.SIG_DFL)
    if callable(previous):
        previous(signum, frame)
    elif previous != signal.SIG_IGN:  # the default: end by this signal, as without us
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)


@contextlib.contextmanager
def exit_cleanup(signals: tuple[signal.Signals, ...] = CAUGHT_SIGNALS) -> Iterator[None]:
    """While the app runs (main thread only): the tools' children die with it."""
    installed: list[signal.Signals] = []
    for sig in signals:
        _previous[sig] = signal.signal(sig, _on_signal)
        installed.append(sig)
    atexit.register(kill_all)
    try:
        yield
    finally:
        kill_all()
        atexit.unregister(kill_all)
        for sig in installed:
            previous = _previous.pop(sig, None)  # None: a handler not set from Python
            signal.signal(sig, signal.SIG_DFL if previous is None else previous)
