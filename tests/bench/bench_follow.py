"""Benchmark: live-tail latency and idle CPU (by hand: ``python tests/bench/bench_follow.py``).

- Latency: a writer subprocess appends real-shaped records (from the demo generator) to a
  session the app follows headless (``App.run_test``), at a steady 20 records/s and in bursts
  of 1,000. For each record: the time the writer finished writing it, and the time the session
  view showed it (the session screen's handler of ``LiveFollow.Grew``, which
  runs after ``LiveFollow.on_arrived`` applied the batch). Prints p50/p99/max in milliseconds.
- Idle: the app follows a quiet file for 10 s; prints the CPU it used (user+system) as a share
  of one core, beside a minimal Textual app idling as long in the same run.

Nothing here asserts on time; the figures go in README.
"""

from __future__ import annotations

import asyncio
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from textual.app import App  # noqa: E402

from ink_tui.cli.collector import process_collector  # noqa: E402
from ink_tui.demo import generate_session  # noqa: E402
from ink_tui.ui.app import InkApp, LaunchOptions  # noqa: E402
from ink_tui.ui.session_view.following import LiveFollow  # noqa: E402
from ink_tui.ui.session_view.screen import SessionScreen  # noqa: E402

WRITER = r"""
import json, os, sys, time
source, target, mode, log = sys.argv[1:5]
lines = open(source, "rb").read().splitlines(keepends=True)
fd = os.open(target, os.O_WRONLY | os.O_APPEND)
stamps = {}
time.sleep(1.0)  # let the app start following
for index, line in enumerate(lines):
    os.write(fd, line)
    stamps[json.loads(line).get("id") or f"marker{index}"] = time.time()
    if mode == "steady":
        time.sleep(0.05)
    elif index % 1000 == 999:
        time.sleep(1.0)
os.close(fd)
json.dump(stamps, open(log, "w"))
"""


def _percentiles(values: list[float]) -> str:
    values = sorted(values)
    p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
    return (
        f"p50 {statistics.median(values) * 1000:6.1f} ms   p99 {p99 * 1000:6.1f} ms   "
        f"max {values[-1] * 1000:6.1f} ms   ({len(values)} records)"
    )


async def _latency(folder: Path, mode: str, count: int) -> list[float]:
    source_session = generate_session(
        folder / f"src-{mode}",
        "/home/ada/code/calc-kit",
        seed=11,
        entries=count + 5,
        clock_start=datetime(2026, 11, 1, tzinfo=UTC),
    )
    lines = source_session.read_bytes().splitlines(keepends=True)
    target = folder / f"followed-{mode}.jsonl"
    target.write_bytes(b"".join(lines[:3]))
    body = folder / f"body-{mode}.jsonl"
    body.write_bytes(b"".join(lines[3 : 3 + count]))
    applied: dict[str, float] = {}
    original = SessionScreen.on_live_follow_grew

    def timed(self: SessionScreen, message: LiveFollow.Grew) -> None:
        original(self, message)
        now = time.time()
        for entry in message.entries:
            applied.setdefault(entry.id, now)

    SessionScreen.on_live_follow_grew = timed  # type: ignore[method-assign]
    log = folder / f"stamps-{mode}.json"
    app = InkApp(
        LaunchOptions(
            sessions_dir=folder,
            cwd="/nowhere",
            open_path=target,
            config_path=folder / "c.toml",
            follow=True,
        )
    )
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            writer = subprocess.Popen(
                [sys.executable, "-c", WRITER, str(body), str(target), mode, str(log)]
            )
            while writer.poll() is None:
                await pilot.pause(0.05)
            for _ in range(100):
                await pilot.pause(0.05)
    finally:
        SessionScreen.on_live_follow_grew = original  # type: ignore[method-assign]
    stamps = json.loads(log.read_text())
    return [applied[key] - stamp for key, stamp in stamps.items() if key in applied]


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def _idle(app: App[object], seconds: float) -> float:
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(1.0)
        before, start = _cpu(), time.monotonic()
        await asyncio.sleep(seconds)
        used, elapsed = _cpu() - before, time.monotonic() - start
    return used / elapsed


async def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="ink-tui-bench-follow-"))
    steady = await _latency(folder, "steady", 200)
    burst = await _latency(folder, "burst", 3000)
    quiet = generate_session(
        folder / "quiet",
        "/home/ada/code/calc-kit",
        seed=3,
        entries=400,
        clock_start=datetime(2026, 11, 1, tzinfo=UTC),
    )
    following = InkApp(
        LaunchOptions(
            sessions_dir=folder,
            cwd="/nowhere",
            open_path=quiet,
            config_path=folder / "c.toml",
            follow=True,
        )
    )
    ink_idle = await _idle(following, 10.0)
    minimal_idle = await _idle(App(), 10.0)
    print(f"{'measure':34}result")
    print("-" * 100)
    print(f"{'latency, 20 records/s':34}{_percentiles(steady)}")
    print(f"{'latency, bursts of 1,000':34}{_percentiles(burst)}")
    print(f"{'idle CPU, following a quiet file':34}{ink_idle * 100:5.2f} % of one core")
    print(f"{'idle CPU, minimal Textual app':34}{minimal_idle * 100:5.2f} % of one core")


def test_bench_follow() -> None:  # collected only by `pytest tests/bench`
    with process_collector():
        asyncio.run(main())


if __name__ == "__main__":
    with process_collector():  # as ``ink-tui`` runs the app (ink_tui.cli.entry)
        asyncio.run(main())
