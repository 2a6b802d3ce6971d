"""Benchmark: opening a big session against the cost of just parsing its JSON lines.

Run by hand: ``python tests/bench/bench_core.py [--mb 100]``, or through pytest:
``python -m pytest tests/bench/bench_core.py -s`` (it prints, it never asserts on wall time).

Measured on one generated session (cached under ``/tmp/ink-tui-bench``; the cache key includes a
hash of the generator's source, so a changed generator makes a new file):

- (a) reference: read the file and ``orjson.loads`` every line;
- (b) ``open_session`` + ``build_context``;
- the cyclic garbage collector's share: the time spent in collections during (b) (with the
  default thresholds, as a library user runs it), then one full ``gc.collect()`` with the
  session open, and with its whole branch loaded as the session view loads it (``load_branch``):
  what every full collection costs in the first steps after an open;
- the picker's preview of the last three turns: before, a whole ``open_session`` +
  ``load_branch`` (what it did until issue 9); now ``read_last_turns`` (from the end).

Times are the best of three runs in this process, (a) and (b) taking turns (CPU times too).
Peak RSS comes from a fresh subprocess doing only (a) or only (b), started by a small launcher
that reads ``RUSAGE_CHILDREN`` (``ru_maxrss`` is in KB on Linux). The goals from the issue: time
ratio b/a <= 1.5, peak RSS of (b) <= 2x the file size.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ink_tui.demo import generate_session  # noqa: E402
from ink_tui.session.conversation.branchview import load_branch  # noqa: E402
from ink_tui.session.conversation.context import build_context  # noqa: E402
from ink_tui.session.conversation.lastturns import read_last_turns  # noqa: E402
from ink_tui.session.reading.reader import open_session  # noqa: E402

CACHE_DIR = Path(tempfile.gettempdir()) / "ink-tui-bench"
CWD = "/home/ada/code/calc-kit"

REFERENCE_CODE = """
import sys, orjson
data = open(sys.argv[1], "rb").read()
for line in data.split(b"\\n"):
    if line.strip():
        orjson.loads(line)
"""
OPEN_CODE = """
import sys
from ink_tui.session.reading.reader import open_session
from ink_tui.session.conversation.context import build_context
session = open_session(sys.argv[1], warn=None)
build_context(session)
"""
LAUNCHER_CODE = """
import resource, subprocess, sys
subprocess.run([sys.executable, "-c", *sys.argv[1:]], check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""
BASELINE_CODE = """
import orjson
from ink_tui.session.reading.reader import open_session
from ink_tui.session.conversation.context import build_context
"""


def generator_hash() -> str:
    digest = hashlib.sha256()
    for path in sorted((ROOT / "ink_tui" / "demo").glob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:10]


def bench_file(mb: int, seed: int, cache_dir: Path = CACHE_DIR) -> tuple[Path, float | None]:
    """The cached session (generated when missing) and the generation time (None if reused)."""
    target = cache_dir / f"bench-{mb}mb-seed{seed}-{generator_hash()}.jsonl"
    if target.exists():
        return target, None
    cache_dir.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(dir=cache_dir))
    started = time.perf_counter()
    path = generate_session(
        scratch,
        CWD,
        seed=seed,
        target_bytes=mb * 1_000_000,
        clock_start=datetime(2026, 9, 1, 8, 0, tzinfo=UTC),
    )
    elapsed = time.perf_counter() - started
    os.replace(path, target)
    shutil.rmtree(scratch, ignore_errors=True)
    return target, elapsed


def reference(path: Path) -> int:
    count = 0
    data = path.read_bytes()
    for line in data.split(b"\n"):
        if line.strip():
            orjson.loads(line)
            count += 1
    return count


def open_and_build(path: Path) -> tuple[int, int, bool]:
    session = open_session(path, warn=None)
    context = build_context(session)
    return len(session.entries), len(context.messages), context.compacted


def old_preview(path: Path) -> int:
    """The preview before issue 9: the whole file opened, the whole branch built."""
    session = open_session(path, warn=None)
    return len(load_branch(session, session.leaf_id).turns[-3:])


def new_preview(path: Path) -> int:
    return len(read_last_turns(path, 3).turns)


def interleaved(
    runs: int, first: Callable[[], object], second: Callable[[], object]
) -> list[float]:
    """Best wall and CPU seconds of ``first`` and ``second``, run in turns so that a busy machine
    slows both alike: ``[wall first, wall second, cpu first, cpu second]``."""
    best = [float("inf")] * 4
    for _ in range(runs):
        for index, action in enumerate((first, second)):
            wall, cpu = time.perf_counter(), time.process_time()
            action()
            best[index] = min(best[index], time.perf_counter() - wall)
            best[index + 2] = min(best[index + 2], time.process_time() - cpu)
    return best


def best_of(runs: int, action: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - started)
    return best


class CollectorClock:
    """Adds up the time the cyclic garbage collector runs (``gc.callbacks``)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.collections = 0
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            self.collections += 1
        else:
            self.seconds += time.perf_counter() - self._started

    def during(self, action: Callable[[], object]) -> tuple[float, int]:
        """Seconds and number of collections while ``action`` runs (best of one run)."""
        gc.collect()
        self.seconds, self.collections = 0.0, 0
        gc.callbacks.append(self)
        try:
            action()
        finally:
            gc.callbacks.remove(self)
        return self.seconds, self.collections


def collector_figures(path: Path, runs: int) -> dict[str, float]:
    """The collector's share of an open, and the cost of a full collection afterwards."""
    clock = CollectorClock()
    during = min(clock.during(lambda: open_and_build(path)) for _ in range(runs))
    session = open_session(path, warn=None)
    after_open = best_of(runs, gc.collect)
    loaded = load_branch(session, session.leaf_id)
    after_load = best_of(runs, gc.collect)
    tracked = len(gc.get_objects())
    del loaded, session
    return {
        "gc_during_open": during[0],
        "gc_collections_during_open": during[1],
        "full_collection_open": after_open,
        "full_collection_loaded": after_load,
        "tracked_loaded": tracked,
    }


def peak_rss_kb(code: str, *args: str) -> int:
    """Peak RSS (KB) of a fresh interpreter running ``code``.

    A small launcher process runs it and reads ``RUSAGE_CHILDREN``. Measuring straight from this
    (large) process would not work: Linux carries a process's RSS high-water mark into a forked
    child and across ``execve``, so every child would report at least our own size.
    """
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    completed = subprocess.run(
        [sys.executable, "-c", LAUNCHER_CODE, code, *args],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return int(completed.stdout.strip().splitlines()[-1])


def main(argv: Sequence[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mb", type=int, default=100, help="session size in MB (default 100)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=3, help="best of N (default 3)")
    options = parser.parse_args(argv)

    path, generated = bench_file(options.mb, options.seed)
    size = path.stat().st_size
    lines = reference(path)
    entries, messages, compacted = open_and_build(path)
    session = open_session(path, warn=None)
    kinds: dict[str, int] = {}
    for entry in session.entries:
        kinds[entry.type] = kinds.get(entry.type, 0) + 1
    positions = len(session.positions)
    models = len(session.session_models)
    del session

    time_ref, time_open, cpu_ref, cpu_open = interleaved(
        options.runs, lambda: reference(path), lambda: open_and_build(path)
    )
    collector = collector_figures(path, options.runs)
    time_old_preview = best_of(options.runs, lambda: old_preview(path))
    time_new_preview = best_of(options.runs, lambda: new_preview(path))
    rss_base = peak_rss_kb(BASELINE_CODE)
    rss_ref = peak_rss_kb(REFERENCE_CODE, str(path))
    rss_open = peak_rss_kb(OPEN_CODE, str(path))
    size_kb = size / 1024

    print()
    print(f"file        {path}")
    how = "reused from cache" if generated is None else f"generated in {generated:.1f} s"
    print(f"size        {size / 1e6:.1f} MB ({how})")
    print(f"lines       {lines} non-blank: {entries} entries, {positions} positions,", end=" ")
    print(f"{models} session_model")
    print("kinds       " + ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items())))
    print(f"context     {messages} messages, compacted={compacted}")
    print()
    print(f"{'measure':<38}{'time (s)':>10}{'peak RSS (MB)':>15}{'RSS/file':>10}")
    print("-" * 73)
    rows = (
        ("interpreter + imports only", None, rss_base),
        ("(a) read + orjson.loads every line", time_ref, rss_ref),
        ("(b) open_session + build_context", time_open, rss_open),
    )
    for label, seconds, rss in rows:
        shown = "" if seconds is None else f"{seconds:.3f}"
        print(f"{label:<38}{shown:>10}{rss / 1024:>15.1f}{rss / size_kb:>10.2f}")
    print("-" * 73)
    ratio = time_open / time_ref
    cpu_ratio = cpu_open / cpu_ref
    print(f"time ratio b/a: {ratio:.2f}   (goal <= 1.5)")
    print(f"CPU time: (a) {cpu_ref:.3f} s, (b) {cpu_open:.3f} s, ratio {cpu_ratio:.2f}", end=" ")
    print("(the same on a busy machine, where wall times swing)")
    print(f"RSS (b) / file size: {rss_open / size_kb:.2f}   (goal <= 2.0)")
    print()
    print("preview of the last 3 turns (picker, Space):")
    for label, seconds in (
        ("before: open_session + load_branch", time_old_preview),
        ("now: read_last_turns (from the end)", time_new_preview),
    ):
        print(f"  {label:<40}{seconds * 1000:9.1f} ms   {seconds / time_ref:6.3f} x (a)")
    print()
    print("the garbage collector (default thresholds, never switched off):")
    spent, count = collector["gc_during_open"], int(collector["gc_collections_during_open"])
    print(
        f"  in collections during (b)                 {spent * 1000:8.1f} ms ({count} collections)"
    )
    after_open = collector["full_collection_open"] * 1000
    print(f"  one full collection, session open         {after_open:8.1f} ms")
    print(
        f"  one full collection, whole branch loaded  "
        f"{collector['full_collection_loaded'] * 1000:8.1f} ms "
        f"({int(collector['tracked_loaded'])} tracked objects)"
    )
    return {
        "size": size,
        "time_reference": time_ref,
        "time_open": time_open,
        "ratio": ratio,
        "cpu_ratio": cpu_ratio,
        "rss_reference_kb": rss_ref,
        "rss_open_kb": rss_open,
        "time_old_preview": time_old_preview,
        "time_new_preview": time_new_preview,
        **collector,
    }


def test_bench_core() -> None:
    """Collected by ``pytest tests/bench/bench_core.py -s``; prints figures, asserts nothing."""
    main(["--mb", os.environ.get("INK_BENCH_MB", "100")])


if __name__ == "__main__":
    main()
