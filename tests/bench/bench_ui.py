"""Benchmark: how fast the full-screen app shows things, beside a minimal Textual app.

Run by hand (never in CI, never asserts on time): ``python tests/bench/bench_ui.py``.

Every figure is taken from a real app process (see :data:`INK_APP`) in a pseudo-terminal (120x40,
``TERM=xterm-256color``): the clock starts just before ``fork()`` and stops when the bytes the app
wrote to the terminal, with escape sequences stripped, first contain a known marker text. That is
what a user sees: the interpreter start, the imports, the first layout and the paint, all in.

- (a) launch -> first painted picker row, over a tree of 2,000 generated sessions (~1 GB,
  cached under ``/tmp/ink-tui-bench-ui`` keyed by :data:`VERSION` and a hash of the generator);
  the marker is the title of the newest session of the project.
- (b) launch -> last screen of a 100 MB session: the session view showing the transcript's last
  block (the cached ``/tmp/ink-tui-bench/*100mb*.jsonl`` copied, plus one final exchange whose
  answer carries a unique marker; the marker is only in the transcript's last block).
- (c) keystroke -> repaint on a 20,000-entry session, in the session view: ``j`` N times, then
  ``]``. For each key: the time from writing the key to the pty until the first byte of the
  repaint arrives ("first byte"), and until the output has gone quiet for :data:`QUIET` seconds
  (the quiet gap itself not counted: "settled"). Keys are sent one at a time, each after the
  previous repaint settled; ``g`` first, as the view opens on its last line where ``j`` would
  repaint nothing. A key with no repaint within 10 s is counted apart ("no repaint"). A
  headless ``App.run_test`` figure is printed beside it (``await pilot.press(key)`` +
  ``await pilot.pause()``: Textual's own processing, no terminal).

The baseline for (a) and (b) is a minimal Textual app (a ``Static`` with a marker) measured the
same way in the same run. Each launch figure is the median of :data:`RUNS` runs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import fcntl
import hashlib
import os
import pty
import random
import re
import select
import shutil
import signal
import statistics
import struct
import sys
import tempfile
import termios
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ink_tui.catalog.summary import summarize_file  # noqa: E402
from ink_tui.demo import MODELS, PROJECTS, generate_session  # noqa: E402
from ink_tui.paths import project_dir  # noqa: E402
from ink_tui.session import ModelRef, open_session  # noqa: E402
from ink_tui.session.writing.writer import SessionWriter  # noqa: E402

VERSION = "ui-v1"
CACHE = Path(tempfile.gettempdir()) / "ink-tui-bench-ui"
CORE_CACHE = Path(tempfile.gettempdir()) / "ink-tui-bench"
CWD = PROJECTS[0].cwd
COLUMNS, ROWS = 120, 40
RUNS = 3
QUIET = 0.15  # seconds without output that count as "the repaint is done"
TIMEOUT = 300.0
END_MARKER = "BENCHENDMARKER7f3a"
MINIMAL_MARKER = "MINIMALAPPMARKER"
_ESCAPES = re.compile(
    rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1bP[^\x1b]*\x1b\\|\x1b[@-_]"
)

# The app is started through this launcher rather than ``python -m ink_tui`` so that the figures
# do not depend on the state of the command line's parser: it builds the same ``InkApp`` that
# the app command (``ink_tui.cli.app.run``) builds (argv: sessions dir, cwd, [session path]),
# under the same garbage-collector policy (``process_collector``).
INK_APP = """
import sys
from pathlib import Path
from ink_tui.cli.collector import process_collector
from ink_tui.ui.app import InkApp, LaunchOptions

base, cwd, *rest = sys.argv[1:]
with process_collector():
    InkApp(
        LaunchOptions(sessions_dir=Path(base), cwd=cwd, open_path=Path(rest[0]) if rest else None)
    ).run()
"""

MINIMAL_APP = f"""
from textual.app import App
from textual.widgets import Static

class Minimal(App):
    def compose(self):
        yield Static("{MINIMAL_MARKER}")

Minimal().run()
"""


def generator_hash() -> str:
    digest = hashlib.sha256(VERSION.encode())
    for path in sorted((ROOT / "ink_tui" / "demo").glob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:10]


# -- data ---------------------------------------------------------------------------------------


def session_sizes(count: int, total: int, seed: int) -> list[int]:
    """``count`` varied target sizes (log-normal, 60 KB .. 40 MB) summing to about ``total``."""
    rng = random.Random(seed)
    raw = [rng.lognormvariate(0.0, 1.2) for _ in range(count)]
    scale = total / sum(raw)
    return [int(min(40_000_000, max(60_000, value * scale))) for value in raw]


def big_tree(count: int = 2000, total: int = 1_000_000_000) -> Path:
    """The cached tree of ``count`` sessions over every demo project (half in the user's)."""
    base = CACHE / f"tree-{count}-{total // 1_000_000}mb-{generator_hash()}"
    if (base / ".complete").exists():
        return base
    if base.exists():
        shutil.rmtree(base)
    base.mkdir(parents=True)
    sizes = session_sizes(count, total, seed=7)
    rng = random.Random(11)
    now = datetime(2026, 10, 20, 12, 0, tzinfo=UTC)
    started = time.perf_counter()
    written = 0
    for index, size in enumerate(sizes):
        cwd = CWD if index % 2 == 0 else PROJECTS[1 + index % (len(PROJECTS) - 1)].cwd
        path = generate_session(
            project_dir(base, cwd),
            cwd,
            seed=rng.getrandbits(32),
            target_bytes=size,
            clock_start=now - timedelta(hours=index * 3 + rng.uniform(0, 2)),
            model=rng.choice(MODELS),
        )
        written += path.stat().st_size
        if index % 100 == 99 or index == count - 1:
            elapsed = time.perf_counter() - started
            print(
                f"  generated {index + 1}/{count} sessions, {written / 1e6:,.0f} MB, "
                f"{elapsed:.0f} s",
                flush=True,
            )
    (base / ".complete").write_text(f"{written}\n")
    return base


def append_exchange(
    path: Path, prompt: str, answer: str, clock: Callable[[], datetime] | None = None
) -> None:
    """Append a prompt and its answer to the session at ``path``, as Ink writes them."""
    writer = SessionWriter.for_session(open_session(path, warn=None), clock=clock)
    writer.append_message({"role": "user", "content": prompt})
    writer.append_message(
        {
            "role": "assistant",
            "blocks": [{"type": "text", "text": answer}],
            "usage": {"inputTokens": 10, "outputTokens": 5},
            "stopReason": "end_turn",
            "model": "claude-sonnet-4-5",
            "modelReference": "anthropic/claude-sonnet-4-5",
        }
    )


def with_end_marker(source: Path, target: Path) -> Path:
    """A copy of ``source`` plus one final exchange whose answer holds :data:`END_MARKER`."""
    scratch = target.with_suffix(".tmp")
    shutil.copyfile(source, scratch)
    append_exchange(
        scratch, "one last thing: sum it up", f"Wrapping up.\n\nAll done {END_MARKER} here."
    )
    os.replace(scratch, target)
    return target


def session_100mb() -> Path:
    """The 100 MB session of the core benchmark (generated when missing), with the end marker."""
    target = CACHE / f"session-100mb-{generator_hash()}.jsonl"
    if target.exists():
        return target
    CACHE.mkdir(parents=True, exist_ok=True)
    found = sorted(CORE_CACHE.glob("*100mb*.jsonl"))
    if found:
        source = found[-1]
    else:
        print("  generating a 100 MB session …", flush=True)
        source = generate_session(
            Path(tempfile.mkdtemp(dir=CACHE)),
            CWD,
            seed=1,
            target_bytes=100_000_000,
            clock_start=datetime(2026, 9, 1, 8, 0, tzinfo=UTC),
        )
    return with_end_marker(source, target)


def session_20k() -> Path:
    """A cached 20,000-entry session, with the end marker."""
    target = CACHE / f"session-20k-{generator_hash()}.jsonl"
    if target.exists():
        return target
    CACHE.mkdir(parents=True, exist_ok=True)
    print("  generating a 20,000-entry session …", flush=True)
    source = generate_session(
        Path(tempfile.mkdtemp(dir=CACHE)),
        CWD,
        seed=3,
        entries=20_000,
        clock_start=datetime(2026, 9, 1, 8, 0, tzinfo=UTC),
        model=ModelRef("anthropic", "claude-sonnet-4-5"),
    )
    return with_end_marker(source, target)


# -- the pty ------------------------------------------------------------------------------------


def plain(data: bytes) -> str:
    return _ESCAPES.sub(b"", data).decode("utf-8", "replace")


@dataclass
class Terminal:
    """A child process on a pseudo-terminal; everything it writes is kept."""

    pid: int
    fd: int
    started: float
    output: bytearray

    @classmethod
    def spawn(cls, argv: Sequence[str], env: dict[str, str]) -> Terminal:
        started = time.perf_counter()
        pid, fd = pty.fork()
        if pid == 0:  # the child
            try:
                os.execve(argv[0], list(argv), env)
            finally:
                os._exit(127)
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        return cls(pid, fd, started, bytearray())

    def read(self, timeout: float) -> bytes:
        ready, _, _ = select.select([self.fd], [], [], max(0.0, timeout))
        if not ready:
            return b""
        try:
            chunk = os.read(self.fd, 1 << 16)
        except OSError:  # EIO: the child closed the terminal
            raise EOFError from None
        if not chunk:
            raise EOFError
        self.output.extend(chunk)
        return chunk

    def wait_for(self, marker: str, timeout: float = TIMEOUT) -> float:
        """Seconds since the spawn until the screen first holds ``marker``."""
        deadline = time.perf_counter() + timeout
        seen = 0
        while time.perf_counter() < deadline:
            if self.read(deadline - time.perf_counter()):
                # re-strip a window wide enough for a marker split over two reads
                window = self.output[max(0, seen - 4096) :]
                if marker in plain(bytes(window)):
                    return time.perf_counter() - self.started
                seen = len(self.output)
        raise TimeoutError(f"{marker!r} not seen within {timeout} s")

    def drain(self, quiet: float) -> None:
        """Read until nothing arrives for ``quiet`` seconds."""
        while self.read(quiet):
            pass

    def key(self, key: bytes, quiet: float = QUIET) -> tuple[float, float]:
        """``(to the first byte, to settled)`` of the repaint after writing ``key``."""
        self.drain(quiet)
        sent = time.perf_counter()
        os.write(self.fd, key)
        first = last = None
        deadline = sent + 10.0
        while time.perf_counter() < deadline:
            if self.read(quiet if first is not None else deadline - time.perf_counter()):
                now = time.perf_counter()
                first = first if first is not None else now
                last = now
            elif first is not None:
                break
        if first is None or last is None:
            return float("nan"), float("nan")
        return first - sent, last - sent

    def close(self) -> None:
        try:
            os.write(self.fd, b"q")
            deadline = time.perf_counter() + 5
            while time.perf_counter() < deadline:
                done, _ = os.waitpid(self.pid, os.WNOHANG)
                if done:
                    break
                with contextlib.suppress(EOFError):
                    self.read(0.05)
            else:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
        except (OSError, ChildProcessError):
            pass
        finally:
            os.close(self.fd)


def environment(config: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        TERM="xterm-256color",
        COLUMNS=str(COLUMNS),
        LINES=str(ROWS),
        XDG_CONFIG_HOME=str(config),
        XDG_CACHE_HOME=str(config / "cache"),
    )
    env.pop("TEXTUAL", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as an installed ink-tui runs: bytecode cached
    return env


def launch_time(argv: Sequence[str], marker: str, env: dict[str, str]) -> float:
    terminal = Terminal.spawn(argv, env)
    try:
        return terminal.wait_for(marker)
    except (EOFError, TimeoutError):
        print(f"  the app ended or hung before {marker!r}; its last output:", file=sys.stderr)
        print(plain(bytes(terminal.output))[-2000:], file=sys.stderr)
        raise
    finally:
        terminal.close()


def median_launch(argv: Sequence[str], marker: str, env: dict[str, str]) -> list[float]:
    return [launch_time(argv, marker, env) for _ in range(RUNS)]


# -- the three figures --------------------------------------------------------------------------


def newest_title(base: Path) -> str:
    folder = project_dir(base, CWD)
    newest = max(folder.glob("*.jsonl"), key=lambda path: path.stat().st_mtime)
    title = summarize_file(newest).title or newest.name
    return title.strip()[:14]


async def headless_keys(path: Path, keys: Sequence[str], config: Path) -> list[float]:
    """Per-key seconds of ``pilot.press`` + ``pilot.pause`` in the session view, headless."""
    from ink_tui.ui.app import InkApp, LaunchOptions
    from ink_tui.ui.session_view.screen import SessionScreen

    options = LaunchOptions(
        sessions_dir=path.parent, cwd=CWD, open_path=path, config_path=config / "headless.toml"
    )
    app = InkApp(options)
    timings: list[float] = []
    async with app.run_test(size=(COLUMNS, ROWS)) as pilot:
        deadline = time.perf_counter() + TIMEOUT
        while not (isinstance(app.screen, SessionScreen) and app.screen.loaded is not None):
            if time.perf_counter() > deadline:
                raise TimeoutError("the session view never loaded")
            await pilot.pause(0.05)
        await pilot.pause(0.5)
        await pilot.press("g")
        await pilot.pause()
        for key in keys:
            started = time.perf_counter()
            await pilot.press(key)
            await pilot.pause()
            timings.append(time.perf_counter() - started)
    return timings


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=2000)
    parser.add_argument("--total-mb", type=int, default=1000)
    parser.add_argument("--keys", type=int, default=50, help="how many j presses in (c)")
    args = parser.parse_args(argv)

    print("preparing data (cached under", CACHE, ")", flush=True)
    tree = big_tree(args.sessions, args.total_mb * 1_000_000)
    tree_bytes = int((tree / ".complete").read_text())
    big = session_100mb()
    long = session_20k()
    config = Path(tempfile.mkdtemp(prefix="ink-tui-bench-ui-config-"))
    env = environment(config)
    python = sys.executable
    minimal = [python, "-c", MINIMAL_APP]
    ink = [python, "-c", INK_APP, str(tree), CWD]

    rows: list[tuple[str, float, float]] = []
    print("\n(a) launch -> first painted picker row", flush=True)
    marker = newest_title(tree)
    base_a = median_launch(minimal, MINIMAL_MARKER, env)
    ink_a = median_launch(ink, marker, env)
    print(f"  minimal app runs: {[round(t, 3) for t in base_a]}")
    print(f"  ink-tui runs:     {[round(t, 3) for t in ink_a]}  (marker {marker!r})")
    rows.append(
        (
            f"(a) first picker row, {args.sessions} sessions / {tree_bytes / 1e9:.2f} GB",
            statistics.median(ink_a),
            statistics.median(base_a),
        )
    )

    print("\n(b) launch -> last block of a 100 MB session", flush=True)
    ink_b = median_launch(
        [python, "-c", INK_APP, str(big.parent), CWD, str(big)],
        END_MARKER,
        env,
    )
    base_b = median_launch(minimal, MINIMAL_MARKER, env)
    print(f"  minimal app runs: {[round(t, 3) for t in base_b]}")
    size_mb = big.stat().st_size / 1e6
    print(f"  ink-tui runs:     {[round(t, 3) for t in ink_b]}  ({size_mb:.0f} MB)")
    rows.append(
        ("(b) last screen of a 100 MB session", statistics.median(ink_b), statistics.median(base_b))
    )

    print(f"\n(c) keystroke -> repaint, 20,000-entry session ({long.stat().st_size / 1e6:.0f} MB)")
    terminal = Terminal.spawn(
        [python, "-c", INK_APP, str(long.parent), CWD, str(long)],
        env,
    )
    try:
        try:
            loaded = terminal.wait_for(END_MARKER)
        except (EOFError, TimeoutError):
            print(plain(bytes(terminal.output))[-2000:], file=sys.stderr)
            raise
        terminal.drain(1.0)
        terminal.key(b"g")  # the view opens on the last line: go to the top so that j moves
        j_keys = [terminal.key(b"j") for _ in range(args.keys)]
        bracket = [terminal.key(b"]") for _ in range(5)]
    finally:
        terminal.close()
    keys = ["j"] * args.keys + ["right_square_bracket"]
    headless = asyncio.run(headless_keys(long, keys, config))
    print(f"  session view shown after {loaded:.2f} s")

    def spread(values: list[float]) -> str:
        ordered = sorted(value for value in values if value == value)  # NaN: no repaint
        missing = len(values) - len(ordered)
        if not ordered:
            return f"no repaint for any of the {missing} key(s)"
        p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
        note = f"  ({missing} key(s) without a repaint)" if missing else ""
        return (
            f"median {ms(statistics.median(ordered))}  p95 {ms(p95)}  max {ms(ordered[-1])}{note}"
        )

    print("\nkeystroke -> repaint (pty: first byte / settled; headless: press + pause)")
    print(f"  j  x{len(j_keys):<3} first byte  {spread([first for first, _ in j_keys])}")
    print(f"  j  x{len(j_keys):<3} settled     {spread([last for _, last in j_keys])}")
    print(f"  ]  x{len(bracket):<3} first byte  {spread([first for first, _ in bracket])}")
    print(f"  ]  x{len(bracket):<3} settled     {spread([last for _, last in bracket])}")
    print(f"  j  x{args.keys:<3} headless    {spread(headless[:-1])}")
    print(f"  ]  x1   headless    {spread(headless[-1:])}")

    print("\nlaunch figures (pty, median of", RUNS, "runs)")
    print(f"  {'what':<52} {'ink-tui':>11} {'minimal':>11} {'ratio':>7}")
    for name, ours, baseline in rows:
        print(f"  {name:<52} {ms(ours):>11} {ms(baseline):>11} {ours / baseline:>6.1f}x")
    shutil.rmtree(config, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
