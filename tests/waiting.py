"""The one way a test waits: ``await wait_for(pilot, predicate, description)``.

For a Pilot test ``pilot`` is the app's pilot; for plain asyncio code (the chat engine, the
tools) it is ``None``.

Importable from every test folder as ``from waiting import wait_for``: pyproject.toml's pytest
option ``pythonpath = ["tests"]`` puts ``tests/`` on ``sys.path`` (test modules themselves run
with ``--import-mode=importlib`` and cannot import each other).

Rules for tests:

- Never wait a fixed time (``asyncio.sleep``, ``time.sleep``, ``pilot.pause(0.2)``) or pause
  "once more to be safe": wait for the state the test needs (a screen on top, a worker's rows
  shown, a file written), with :func:`wait_for`.
- The description says what was awaited; a timeout fails with it, so a hung test reads
  "timed out after 30 s waiting for the session view to load".
- The timeout is generous (the machine is shared and loaded); a passing wait returns as soon as
  the predicate holds, so speed never decides the result.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["DEFAULT_TIMEOUT", "POLL_SECONDS", "wait_for", "workers_finished"]

DEFAULT_TIMEOUT = 30.0  # seconds; a wait that passes takes milliseconds
POLL_SECONDS = 0.01  # between two looks at the predicate, once the app is idle

T = TypeVar("T")


async def wait_for(
    pilot: Any,
    predicate: Callable[[], T],
    description: str,
    *,
    timeout: float = DEFAULT_TIMEOUT,
) -> T:
    """Let the app (or the event loop) run until ``predicate()`` is truthy; return its value.

    With a pilot, each look first lets the app handle every pending message (``pilot.pause()``),
    so a predicate that already holds returns at once, with what it triggered handled too.
    After ``timeout`` seconds the test fails: ``timed out after N s waiting for <description>``.
    """
    deadline = time.monotonic() + timeout
    while True:
        if pilot is not None:
            await pilot.pause()
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {description}")
        if pilot is not None:
            await pilot.pause(POLL_SECONDS)
        else:
            await asyncio.sleep(POLL_SECONDS)


def workers_finished(app: Any) -> Callable[[], bool]:
    """A predicate for :func:`wait_for`: no worker of ``app`` is pending or running.

    With ``wait_for``'s pause before each look, the messages the workers posted are handled
    too, and a worker they started keeps the wait going.
    """
    return lambda: all(worker.is_finished for worker in app.workers)
