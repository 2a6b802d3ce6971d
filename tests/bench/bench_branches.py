"""Benchmark: ``b`` in the session view -> the branches list painted, old screen beside new.

Run by hand (never in CI, never asserts on time): ``python tests/bench/bench_branches.py``.

The session: a generated ~95 MB session with about 400 leaves (``generate_session(...,
fork_rate=…)``; cached under ``/tmp/ink-tui-bench-branches`` keyed by a hash of the generator),
plus one final exchange whose answer carries a marker, so that the session view is known to be
on screen.

Each figure comes from a real app process in a pseudo-terminal (120x40), as in ``bench_ui.py``:
the app opens the session, the view paints its last block, the app is left until it is idle (the
view fills in the rest of the branch meanwhile; idle: under 30 ms of CPU in a second), then ``b``
is written to the terminal and the clock runs until the screen shows the list's title, ``N
leaves`` (both screens put it in their title in the same refresh that paints the list). Each
figure is the wall time a user waits and the CPU time the app spent meanwhile (all threads, from
``/proc``): on a busy machine the wall time also counts the time the app waited for a core.

The old screen (the collapsed fork tree, a ``Tree`` widget filled on the event loop) is measured
in the same app: a copy of the current sources with the old screen, its model and stylesheet
taken from :data:`OLD_REF` (the last commit before the flat list), run from that copy; both
run in the same invocation, alternately, under the app's GC policy (``process_collector``).

A headless figure of the new list alone is printed too: the build in the worker
(``build_branch_list``) on the same session with its branch loaded.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_ui import (  # noqa: E402
    END_MARKER,
    INK_APP,
    Terminal,
    environment,
    ms,
    plain,
    with_end_marker,
)

from ink_tui.demo import PROJECTS, generate_session  # noqa: E402
from ink_tui.session import leaves, open_session  # noqa: E402

OLD_REF = "282fcdb"  # the last commit with the fork-tree branches screen
CACHE = Path(tempfile.gettempdir()) / "ink-tui-bench-branches"
CWD = PROJECTS[0].cwd
RUNS = 5
IDLE_CPU = 0.03  # the app is idle once it uses less CPU than this over IDLE_WINDOW seconds
IDLE_WINDOW = 1.0
EARLY_DELAY = 0.3  # "early": b this long after the view's first paint


def generator_hash() -> str:
    digest = hashlib.sha256(b"branches-v1")
    for path in sorted((ROOT / "ink_tui" / "demo").glob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:10]


def big_forked_session(target: int, fork_rate: float) -> Path:
    """The cached session of ``target`` bytes with a fork after ``fork_rate`` of the turns."""
    name = f"session-{target // 1_000_000}mb-forks{fork_rate}-{generator_hash()}.jsonl"
    path = CACHE / name
    if path.exists():
        return path
    CACHE.mkdir(parents=True, exist_ok=True)
    print(f"  generating a {target / 1e6:.0f} MB session with many forks …", flush=True)
    source = generate_session(
        Path(tempfile.mkdtemp(dir=CACHE)),
        CWD,
        seed=9,
        target_bytes=target,
        clock_start=datetime(2026, 9, 1, 8, 0, tzinfo=UTC),
        fork_rate=fork_rate,
    )
    return with_end_marker(source, path)


OLD_SCREEN = (
    "ink_tui/ui/screens/branches.py",
    "ink_tui/session/conversation/forks.py",
    "styles/branches.tcss",
)


def old_tree(ref: str) -> Path:
    """This app with the old branches screen: the current ``ink_tui`` and ``styles``, with the
    screen, its model and its stylesheet (:data:`OLD_SCREEN`) as they were at ``ref``. Only the
    branches screen differs between the two apps measured."""
    target = Path(tempfile.mkdtemp(prefix="ink-tui-bench-branches-old-"))
    for folder in ("ink_tui", "styles"):
        shutil.copytree(ROOT / folder, target / folder, ignore=shutil.ignore_patterns("*.pyc"))
    for name in OLD_SCREEN:
        text = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{ref}:{name}"], capture_output=True, check=True
        ).stdout
        (target / name).write_bytes(text)
    return target


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the process used so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_until_idle(terminal: Terminal, timeout: float = 120.0) -> None:
    """Until the app is idle: the session view has loaded the whole branch in its worker (a
    big session paints its last turns first) and the collector has caught up."""
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        before = cpu_seconds(terminal.pid)
        terminal.drain(IDLE_WINDOW)  # reads for at least IDLE_WINDOW seconds
        if cpu_seconds(terminal.pid) - before < IDLE_CPU:
            return
    raise TimeoutError("the app never went idle")


def b_to_list(
    session: Path, marker: str, env: dict[str, str], *, early: bool, proof: str
) -> tuple[float, float]:
    """``(wall, cpu)`` seconds from writing ``b`` in the session view to ``marker`` on the
    screen: the time a user waits, and the CPU time the app spent meanwhile (all threads; on a
    busy machine the wall time also counts the time the app waited for a core)."""
    argv = [sys.executable, "-c", INK_APP, str(session.parent), CWD, str(session)]
    terminal = Terminal.spawn(argv, env)
    try:
        terminal.wait_for(END_MARKER)
        if early:  # as soon as the view painted its last turns: it is still reading the rest
            terminal.drain(EARLY_DELAY)
        else:
            wait_until_idle(terminal)
        seen = len(terminal.output)
        cpu = cpu_seconds(terminal.pid)
        sent = time.perf_counter()
        os.write(terminal.fd, b"b")
        deadline = sent + 120.0
        while time.perf_counter() < deadline:
            if terminal.read(deadline - time.perf_counter()) and marker in plain(
                bytes(terminal.output[seen:])
            ):
                result = time.perf_counter() - sent, cpu_seconds(terminal.pid) - cpu
                terminal.drain(0.5)
                if proof not in plain(bytes(terminal.output[seen:])):  # the app measured is
                    raise RuntimeError(f"not the screen expected: no {proof!r} on it")  # wrong
                return result
        raise TimeoutError(f"{marker!r} not seen within 120 s")
    except (EOFError, TimeoutError):
        print(plain(bytes(terminal.output))[-2000:], file=sys.stderr)
        raise
    finally:
        terminal.close()


def headless_build(session: Path) -> list[float]:
    """Seconds of ``build_branch_list`` alone, the branch loaded as the view leaves it."""
    from ink_tui.session.conversation.branchview import load_branch
    from ink_tui.session.conversation.forks import SessionSnapshot, build_branch_list

    opened = open_session(session, warn=None)
    load_branch(opened, opened.leaf_id)
    timings = []
    for _ in range(RUNS):
        started = time.perf_counter()
        build_branch_list(SessionSnapshot.of(opened), opened.leaf_id)
        timings.append(time.perf_counter() - started)
    return timings


def report(
    title: str, new_runs: list[tuple[float, float]], old_runs: list[tuple[float, float]]
) -> None:
    for name, runs in (("new list", new_runs), ("old tree", old_runs)):
        shown = [(round(wall, 3), round(cpu, 2)) for wall, cpu in runs]
        print(f"  {name} runs (wall, cpu): {shown}")
    print(f"{title} (pty, median of {len(new_runs)} runs)")
    print(f"  {'':<16} {'wall':>11} {'app cpu':>11}")
    medians = {}
    for name, runs in (("old fork tree", old_runs), ("new flat list", new_runs)):
        wall = statistics.median(wall for wall, _ in runs)
        cpu = statistics.median(cpu for _, cpu in runs)
        medians[name] = (wall, cpu)
        print(f"  {name:<16} {ms(wall):>11} {ms(cpu):>11}")
    (old_wall, old_cpu), (new_wall, new_cpu) = medians["old fork tree"], medians["new flat list"]
    print(f"  {'ratio old/new':<16} {old_wall / new_wall:>10.1f}x {old_cpu / new_cpu:>10.1f}x")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=95, help="size of the session")
    parser.add_argument("--fork-rate", type=float, default=0.046, help="forks per turn")
    parser.add_argument("--old-ref", default=OLD_REF)
    parser.add_argument("--runs", type=int, default=RUNS)
    args = parser.parse_args(argv)

    print("preparing data (cached under", CACHE, ")", flush=True)
    session = big_forked_session(args.mb * 1_000_000, args.fork_rate)
    opened = open_session(session, warn=None)
    count = len(leaves(opened))
    print(
        f"  {session.name}: {session.stat().st_size / 1e6:.1f} MB, {len(opened.entries):,} "
        f"entries, {count} leaves, {len(opened.positions)} position markers"
    )
    del opened
    new_marker, old_marker = f"{count:,} leaves", f"{count} leaves"  # (the new one: 1,682)
    old = old_tree(args.old_ref)
    config = Path(tempfile.mkdtemp(prefix="ink-tui-bench-branches-config-"))
    # PYTHONSAFEPATH: the current directory (maybe this repository) never shadows the sources
    env_new = {**environment(config), "PYTHONSAFEPATH": "1"}
    env_old = {**env_new, "PYTHONPATH": str(old)}

    for early in (False, True):
        when = "while the view still reads the branch" if early else "the app idle"
        print(f"\n-- b pressed {when}", flush=True)
        new_runs: list[tuple[float, float]] = []
        old_runs: list[tuple[float, float]] = []
        for run in range(args.runs):
            print(f"  run {run + 1}/{args.runs} …", flush=True)
            new_runs.append(
                b_to_list(session, new_marker, env_new, early=early, proof="Show branch")
            )
            old_runs.append(
                b_to_list(session, old_marker, env_old, early=early, proof="Current leaf:")
            )
        report(f"b -> first painted list, {count} leaves, {when}", new_runs, old_runs)
    build = headless_build(session)
    print(f"\nbuild_branch_list alone (headless, branch loaded): {[round(t, 3) for t in build]}")
    shutil.rmtree(config, ignore_errors=True)
    shutil.rmtree(old, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
