"""A tool's processes die with ink-tui (``ink_tui.agent.children``): bash runs each command in a
session of its own, so closing the terminal never reaches it; without the cleanup an approved
``sleep 60`` outlived the app, adopted by init, its result never recorded.

Each test starts a command with a child of its own (``sleep 60 & sleep 60; wait``) through the
tool runner, triggers one exit path, and polls (bounded) until ``os.killpg(pgid, 0)`` raises
``ProcessLookupError``. The processes are SIGKILLed; the polls only wait for init to reap them.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import select
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from waiting import wait_for

from ink_tui.agent import children
from ink_tui.agent.tools import run_tool

COMMAND = "sleep 60 & sleep 60; wait"  # bash, a child in the background and one it waits for
GONE_WITHIN = 30.0  # seconds: the bound of every poll (init reaps the orphans in about 1 s)


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


async def gone(pgid: int) -> None:
    await wait_for(None, lambda: not group_alive(pgid), f"group {pgid} to end", timeout=GONE_WITHIN)


async def started(task: asyncio.Future[Any]) -> int:
    """The process group of the one bash command running (once it is registered)."""

    def group() -> int | None:
        assert not task.done(), task.result()
        leaders = [pid for pid, leads in children.running().items() if leads]
        return leaders[0] if leaders else None

    pgid: int = await wait_for(None, group, "the bash command to start")
    assert group_alive(pgid)
    return pgid


async def test_kill_all_kills_a_running_commands_whole_group(tmp_path: Path) -> None:
    task = asyncio.ensure_future(run_tool("bash", {"command": COMMAND}, cwd=tmp_path))
    pgid = await started(task)
    assert children.kill_all() == 1
    outcome = await asyncio.wait_for(task, GONE_WITHIN)
    assert outcome.is_error and "terminated by signal SIGKILL" in outcome.content
    assert children.running() == {}  # waited for: never signalled again
    await gone(pgid)


async def test_leaving_exit_cleanup_by_an_exception_kills_the_group_and_restores_handlers(
    tmp_path: Path,
) -> None:
    before = {sig: signal.getsignal(sig) for sig in children.CAUGHT_SIGNALS}
    task: asyncio.Future[Any] | None = None
    with pytest.raises(RuntimeError, match="a bug"), children.exit_cleanup():
        assert signal.getsignal(signal.SIGHUP) is not before[signal.SIGHUP]
        task = asyncio.ensure_future(run_tool("bash", {"command": COMMAND}, cwd=tmp_path))
        pgid = await started(task)
        raise RuntimeError("a bug in the app")
    assert {sig: signal.getsignal(sig) for sig in children.CAUGHT_SIGNALS} == before
    assert task is not None and (await asyncio.wait_for(task, GONE_WITHIN)).is_error
    await gone(pgid)


async def test_a_finished_command_is_no_longer_tracked(tmp_path: Path) -> None:
    outcome = await run_tool("bash", {"command": "echo hi"}, cwd=tmp_path)
    assert outcome.content == "stdout:\nhi\n" and children.running() == {}
    assert children.kill_all() == 0


# --- a process that runs the tool runner, signalled from outside ---------------------------------

RUNNER = """
import asyncio, signal, sys
from pathlib import Path
from ink_tui.agent import children
from ink_tui.agent.tools import run_tool

async def main():
    task = asyncio.ensure_future(run_tool("bash", {"command": sys.argv[1]}, cwd=Path(sys.argv[2])))
    while not children.running():
        assert not task.done(), task.result()
        await asyncio.sleep(0.01)
    print(next(iter(children.running())), flush=True)
    await task
    print("the command ended", flush=True)

# As an app started from a terminal: SIGHUP ends it (a runner started under nohup would
# inherit SIGHUP ignored, and exit_cleanup rightly keeps ignoring it then).
signal.signal(signal.SIGHUP, signal.SIG_DFL)
with children.exit_cleanup():
    asyncio.run(main())
"""


def start_runner(tmp_path: Path) -> tuple[subprocess.Popen[str], int]:
    """The runner process and the group of the command it runs."""
    runner = subprocess.Popen(
        [sys.executable, "-c", RUNNER, COMMAND, str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert runner.stdout is not None
    ready, _, _ = select.select([runner.stdout], [], [], GONE_WITHIN)
    line = runner.stdout.readline() if ready else ""
    if not line.strip().isdigit():
        runner.kill()
        _, err = runner.communicate(timeout=GONE_WITHIN)
        raise AssertionError(f"the runner did not start its command: {line!r} {err}")
    pgid = int(line)
    assert group_alive(pgid) and pgid != os.getpgid(runner.pid)
    return runner, pgid


@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGTERM], ids=["SIGHUP", "SIGTERM"])
async def test_a_signalled_app_takes_its_running_command_with_it(
    tmp_path: Path, sig: signal.Signals
) -> None:
    runner, pgid = start_runner(tmp_path)
    try:
        runner.send_signal(sig)
        assert runner.wait(timeout=GONE_WITHIN) == -sig  # it still ends by the signal
        await gone(pgid)
    finally:
        runner.kill()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pgid, signal.SIGKILL)


async def test_kill_9_cannot_be_caught_and_leaves_the_command_running(tmp_path: Path) -> None:
    """What the README says of ``kill -9``: the command lives on (the next chat on the session
    closes its call with Ink's unknown-outcome result: tests/unit/agent/test_persist.py)."""
    runner, pgid = start_runner(tmp_path)
    try:
        runner.kill()
        assert runner.wait(timeout=GONE_WITHIN) == -signal.SIGKILL
        assert group_alive(pgid)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pgid, signal.SIGKILL)
    await gone(pgid)


def test_the_app_runs_inside_exit_cleanup(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from ink_tui.cli import main
    from ink_tui.ui.app import InkApp

    during: dict[int, Any] = {}

    def run(self: InkApp, *args: Any, **kwargs: Any) -> None:
        during.update({sig: signal.getsignal(sig) for sig in children.CAUGHT_SIGNALS})

    before = {sig: signal.getsignal(sig) for sig in children.CAUGHT_SIGNALS}
    monkeypatch.setattr(InkApp, "run", run)
    assert main(["--sessions-dir", str(tmp_path), "--cwd", str(tmp_path)]) == 0
    assert set(during.values()) == {children._on_signal}
    assert {sig: signal.getsignal(sig) for sig in children.CAUGHT_SIGNALS} == before
