"""Benchmark: sessions holding one huge record, beside a minimal Textual app.

Run by hand (never in CI, never asserts on time): ``python tests/bench/bench_huge.py``. Uses the
pseudo-terminal harness of ``bench_ui.py`` (120x40, ``TERM=xterm-256color``; the clock runs from
``fork()`` until the screen first holds a marker).

For each session of ``tests/huge.py`` (a 5 MB, 10 MB and 50 MB one-line prompt, a 10 MB tool
output, a ``write`` of 200,000 lines):

- launch -> first screen: the session view showing the transcript's last block (its marker is
  only there), median of :data:`RUNS`, as a ratio to the minimal app launched the same way;
- then at once, while the huge block still renders, ``?`` and the time until the key help is on
  the screen, and ``q`` and the time until the process has ended (the minimal app: ctrl+q).

With bench_ui's cached 100 MB session present, it is measured too: the bound to stay within.

``--code PATH`` runs the apps from another checkout (``PYTHONPATH``), to compare with earlier
code in the same run; ``--only NAME`` picks sessions; ``--timeout`` bounds each launch (old code
can take minutes).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent), str(HERE.parents[1])]

from bench_ui import END_MARKER as BENCH_UI_MARKER  # noqa: E402
from bench_ui import INK_APP, MINIMAL_APP, MINIMAL_MARKER, Terminal, environment, ms  # noqa: E402
from huge import CWD, END_MARKER, HugeKind, huge_session  # noqa: E402

CACHE = Path(tempfile.gettempdir()) / "ink-tui-bench-huge"
RUNS = 3
HELP_MARKER = "Every key is also"
SESSIONS: dict[str, tuple[HugeKind, int]] = {
    "small (control)": ("prompt", 100),
    "prompt-5mb": ("prompt", 5_000_000),
    "prompt-10mb": ("prompt", 10_000_000),
    "prompt-50mb": ("prompt", 50_000_000),
    "output-10mb": ("output", 10_000_000),
    "write-200k-lines": ("write", 200_000),
}


def session(name: str) -> Path:
    kind, size = SESSIONS[name]
    folder = CACHE / name
    found = sorted(folder.glob("*.jsonl"))
    return found[0] if found else huge_session(folder, kind, size)


def _exit_time(terminal: Terminal, key: bytes, timeout: float) -> float:
    """Seconds from writing ``key`` until the process has ended."""
    sent = time.perf_counter()
    os.write(terminal.fd, key)
    while time.perf_counter() < sent + timeout:
        done, _ = os.waitpid(terminal.pid, os.WNOHANG)
        if done:
            break
        with contextlib.suppress(EOFError):
            terminal.read(0.01)
    return time.perf_counter() - sent


def minimal_run(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """``(first screen, ctrl+q -> process ended)`` of the minimal app."""
    terminal = Terminal.spawn(argv, env)
    try:
        return terminal.wait_for(MINIMAL_MARKER, 60), _exit_time(terminal, b"\x11", 60)
    finally:
        terminal.close()


def ink_run(
    argv: list[str], marker: str, env: dict[str, str], timeout: float
) -> tuple[float, float, float]:
    """``(first screen, ? -> help shown, q -> process ended)`` of one launch; the keys are
    sent as soon as the first screen is there, while the huge block renders."""
    terminal = Terminal.spawn(argv, env)
    try:
        shown = terminal.wait_for(marker, timeout)
        sent = time.perf_counter()
        os.write(terminal.fd, b"?")
        terminal.wait_for(HELP_MARKER, timeout)
        help_shown = time.perf_counter() - sent
        os.write(terminal.fd, b"q")  # closes the help
        terminal.drain(0.3)
        return shown, help_shown, _exit_time(terminal, b"q", timeout)
    finally:
        terminal.close()


def reference_100mb() -> Path | None:
    """bench_ui's cached 100 MB session, when it is there (the bound to stay within)."""
    found = sorted((Path(tempfile.gettempdir()) / "ink-tui-bench-ui").glob("session-100mb-*"))
    return found[-1] if found else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", type=Path, help="run the apps from this checkout")
    parser.add_argument("--only", action="append", choices=sorted(SESSIONS))
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--runs", type=int, default=RUNS)
    args = parser.parse_args()

    config = Path(tempfile.mkdtemp(prefix="ink-tui-bench-huge-config-"))
    env = environment(config)
    code = (args.code or HERE.parents[1]).resolve()  # this checkout by default
    env["PYTHONPATH"] = str(code)
    os.chdir(code)  # python -c puts the working directory first on sys.path
    python = sys.executable
    names = args.only or list(SESSIONS)
    print("preparing data (cached under", CACHE, ")", flush=True)
    runs: dict[str, tuple[Path, str]] = {name: (session(name), END_MARKER) for name in names}
    reference = reference_100mb()
    if reference is not None and not args.only:
        runs["100 MB (reference)"] = (reference, BENCH_UI_MARKER)
    minimal = [minimal_run([python, "-c", MINIMAL_APP], env) for _ in range(args.runs)]
    base, base_quit = (statistics.median(run[i] for run in minimal) for i in (0, 1))
    print(f"minimal app: first screen {ms(base)}, ctrl+q -> ended {ms(base_quit)}")
    print("\nlaunch -> first screen; then at once ? -> help shown, q -> process ended")
    print(f"  {'session':<18} {'size':>8} {'first screen':>13} {'ratio':>6} {'?':>11} {'q':>11}")
    for name, (path, marker) in runs.items():
        argv = [python, "-c", INK_APP, str(path.parent), CWD, str(path)]
        try:
            taken = [ink_run(argv, marker, env, args.timeout) for _ in range(args.runs)]
        except (TimeoutError, EOFError) as error:
            print(f"  {name:<18} failed: {error!r}", flush=True)
            continue
        shown, help_key, quit_key = (statistics.median(run[i] for run in taken) for i in (0, 1, 2))
        size = f"{path.stat().st_size / 1e6:.1f} MB"
        print(
            f"  {name:<18} {size:>8} {ms(shown):>13} {shown / base:>5.1f}x "
            f"{ms(help_key):>11} {ms(quit_key):>11}",
            flush=True,
        )
    shutil.rmtree(config, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
