"""Figures for the hostile files (issue 11, item 4): time and peak memory of every reader.

Run by hand (never in CI, never asserts on time): ``python tests/bench/bench_hostile.py``
(``--scale ci`` for the small files the tests use, ``--kind KIND`` for some kinds only).

Each hostile file of ``tests/hostile.py`` is built at full size (a 50 MB line, a million tiny
records, chains and forks 100,000 deep…) alone in a sessions folder under
``/tmp/ink-tui-bench-hostile``, and for each, in a fresh process each time:

- ``context``, ``check``: ``ink-tui context|check FILE``;
- ``list``: ``ink-tui list --all`` over the folder holding it;
- ``index``: ``ink-tui index --all`` into an empty index;
- ``app``: the full-screen app opening it, in a pseudo-terminal (120x40): the time from launch
  to its first screen (the transcript's last block, or the error screen naming the file), and
  the process's peak memory by then;
- ``loaded``: the app (headless, ``App.run_test``) opening it until the whole branch is read
  and shown, ``G`` ``g`` ``j`` pressed and every worker finished: time and peak memory.

Time is wall time; memory is the peak resident set (``ru_maxrss`` of the child). The table
ends with the one-line error ``ink-tui context`` printed (if any).
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
for folder in (ROOT, ROOT / "tests"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import hostile  # noqa: E402

from ink_tui.paths import project_dir  # noqa: E402

CACHE = Path(tempfile.gettempdir()) / "ink-tui-bench-hostile"
COLUMNS, ROWS = 120, 40
TIMEOUT = 900.0
_ESCAPES = re.compile(
    rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1bP[^\x1b]*\x1b\\|\x1b[@-_]"
)
# What the error screen shows of each refusal (short: a long line wraps on the screen).
ERROR_MARKERS = {
    "long-junk": "not valid JSON",
    "bad-utf8-line": "invalid JSON",
    "nul-line": "invalid JSON",
    "fifo": "FIFO",
    "directory": "a directory",
    "device": "character device",
    "loop": "symbolic links",
    "dangling": "symlink to nothing",
}

APP = """
import sys
from pathlib import Path
from ink_tui.cli.collector import process_collector
from ink_tui.ui.app import InkApp, LaunchOptions

base, cwd, path, config = sys.argv[1:]
with process_collector():
    InkApp(
        LaunchOptions(
            sessions_dir=Path(base), cwd=cwd, open_path=Path(path), config_path=Path(config)
        )
    ).run()
"""

LOADED = """
import asyncio, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[5])
from waiting import wait_for, workers_finished
from ink_tui.ui.app import InkApp, LaunchOptions
from ink_tui.ui.screens.error import ErrorScreen
from ink_tui.ui.session_view.screen import SessionScreen

base, cwd, path, config = sys.argv[1:5]

def shown(app):
    screen = app.screen
    if isinstance(screen, ErrorScreen):
        return True
    return isinstance(screen, SessionScreen) and screen.loaded and not screen.loaded.partial

async def main():
    started = time.perf_counter()
    app = InkApp(
        LaunchOptions(
            sessions_dir=Path(base), cwd=cwd, open_path=Path(path), config_path=Path(config)
        )
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: shown(app), "the whole branch", timeout=TIMEOUT)
        for key in "Ggj":
            await pilot.press(key)
        await wait_for(pilot, workers_finished(app), "the workers", timeout=TIMEOUT)
        print(f"{time.perf_counter() - started:.3f}")

asyncio.run(main())
""".replace("TIMEOUT", str(TIMEOUT))


@dataclass
class Figure:
    seconds: float
    rss_kb: int
    note: str = ""

    def cell(self) -> str:
        if self.note:
            return self.note
        return f"{self.seconds:.2f} s / {self.rss_kb / 1024:.0f} MB"


def _environment(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        TERM="xterm-256color",
        COLUMNS=str(COLUMNS),
        LINES=str(ROWS),
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_CACHE_HOME=str(home / "cache"),
        XDG_STATE_HOME=str(home / "state"),
    )
    env.pop("TEXTUAL", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as an installed ink-tui runs: bytecode cached
    return env


LAUNCHER = """
import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])
os.write(int(sys.argv[1]), f"{pid} ".encode())
_, status, usage = os.wait4(pid, 0)
os.write(int(sys.argv[1]), f"{usage.ru_maxrss}".encode())
os.close(int(sys.argv[1]))
sys.exit(os.waitstatus_to_exitcode(status))
"""
"""Runs the measured command as its own child and writes ``<pid> <peak RSS in KB>`` to a pipe.

A child's ``ru_maxrss`` counts what it held before ``exec``: a copy of the process that forked
it. The launcher is a fresh interpreter, so the figure is the command's, not this script's."""


def _launched(argv: Sequence[str]) -> tuple[list[str], int, int]:
    """``argv`` behind the launcher: the command line, and the pipe's read and write ends."""
    read_end, write_end = os.pipe()
    os.set_inheritable(write_end, True)  # through the pty's fork and exec too
    return [sys.executable, "-c", LAUNCHER, str(write_end), *argv], read_end, write_end


def _report(read_end: int, data: bytes = b"") -> tuple[int, int]:
    """``(pid, peak RSS in KB)`` from the launcher's pipe (0 when it did not say); ``data``:
    what was read of it already."""
    while chunk := os.read(read_end, 4096):
        data += chunk
    os.close(read_end)
    words = data.split()
    return (int(words[0]) if words else 0), (int(words[1]) if len(words) > 1 else 0)


def _run(argv: Sequence[str], env: dict[str, str]) -> tuple[Figure, str, str]:
    """Run ``argv`` to its end: its figure, stdout's last line and stderr."""
    command, read_end, write_end = _launched(argv)
    started = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen(command, stdout=out, stderr=err, env=env, pass_fds=(write_end,))
        os.close(write_end)
        process.wait()
        seconds = time.perf_counter() - started
        _, rss = _report(read_end)
        out.seek(0)
        err.seek(0)
        tail = out.read()[-4096:].decode("utf-8", "replace").strip().splitlines()
        error = err.read().decode("utf-8", "replace")
    return Figure(seconds, rss), (tail[-1] if tail else ""), error


def _plain(data: bytes) -> str:
    return _ESCAPES.sub(b"", data).decode("utf-8", "replace")


def _first_screen(argv: Sequence[str], env: dict[str, str], marker: str) -> Figure:
    """Launch ``argv`` in a pseudo-terminal until ``marker`` shows (line breaks and spaces
    aside: the screen wraps); then end it."""
    command, read_end, write_end = _launched(argv)
    wanted = "".join(marker.split())
    started = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # the child: the launcher
        try:
            os.execve(command[0], command, env)
        finally:
            os._exit(127)
    os.close(write_end)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
    said = b""
    while b" " not in said:  # the launcher says the app's pid first
        said += os.read(read_end, 64) or b"0 "
    app_pid = int(said.split()[0])
    output = bytearray()
    seconds: float | None = None
    deadline = started + TIMEOUT
    try:
        while time.perf_counter() < deadline:
            ready, _, _ = select.select([fd], [], [], 1.0)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 1 << 16)
            except OSError:
                break
            if not chunk:
                break
            output.extend(chunk)
            if wanted in "".join(_plain(bytes(output[-200_000:])).split()):
                seconds = time.perf_counter() - started
                break
    finally:
        if app_pid:
            os.kill(app_pid, signal.SIGKILL)
        _, rss = _report(read_end, said)
        os.waitpid(pid, 0)
        os.close(fd)
    if seconds is None:
        print(_plain(bytes(output))[-1500:], file=sys.stderr)
        return Figure(0, rss, f"no {marker!r} in {TIMEOUT:.0f} s")
    return Figure(seconds, rss)


def _human(size: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024  # type: ignore[assignment]
    return str(size)


def measure(kind: str, sizes: hostile.Sizes, work: Path) -> list[str]:
    base = work / kind / "sessions"
    if base.exists():
        shutil.rmtree(base)
    item = hostile.build(project_dir(base, hostile.CWD), kind, sizes)
    size = item.path.lstat().st_size if kind not in hostile.SPECIAL_KINDS else 0
    home = work / kind / "home"
    shutil.rmtree(home, ignore_errors=True)
    env = _environment(home)
    cli = [sys.executable, "-m", "ink_tui", "--sessions-dir", str(base), "--cwd", hostile.CWD]
    cells: list[str] = []
    context, _, error = _run([*cli, "context", str(item.path)], env)
    cells.append(context.cell())
    check, _, _ = _run([*cli, "check", str(item.path)], env)
    cells.append(check.cell())
    listing, _, _ = _run([*cli, "list", "--all"], env)
    cells.append(listing.cell())
    index, _, _ = _run([*cli, "index", "--all"], env)
    cells.append(index.cell())
    config = home / "config.toml"
    marker = ERROR_MARKERS.get(kind, hostile.MARKER)
    app = [sys.executable, "-c", APP, str(base), hostile.CWD, str(item.path), str(config)]
    cells.append(_first_screen(app, env, marker).cell())
    loaded = [sys.executable, "-c", LOADED, str(base), hostile.CWD, str(item.path), str(config)]
    figure, last, failure = _run([*loaded, str(ROOT / "tests")], env)
    if failure.strip() and not last:
        figure.note = "failed: " + failure.strip().splitlines()[-1][:80]
    cells.append(figure.cell())
    logged = list((home / "state").rglob("*.log"))
    lines = [line for line in error.splitlines() if line.startswith("ink-tui: ")]
    said = lines[0].replace(str(item.path), "FILE") if lines else ""
    if logged:
        said += " (an internal error was logged)"
    return [kind, _human(size) if size else "-", *cells, f"`{said}`" if said else ""]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", choices=["full", "ci"], default="full")
    parser.add_argument("--kind", action="append", choices=hostile.KINDS)
    args = parser.parse_args(argv)
    sizes = hostile.FULL if args.scale == "full" else hostile.CI
    CACHE.mkdir(exist_ok=True)
    head = ["file", "size", "context", "check", "list --all", "index", "app: first screen"]
    head += ["app: loaded, G g j", "error (context)"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for kind in args.kind or hostile.KINDS:
        print("| " + " | ".join(measure(kind, sizes, CACHE)) + " |", flush=True)
        shutil.rmtree(CACHE / kind, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
