"""Benchmark: the goal of issue 22 (the archive), each figure beside its one-machine reference.

The goal: "picker and search over 10 machines x 2,000 sessions: within 1.3x the same over one
machine's 2,000". Run by hand (never in CI, never asserts on time):
``python tests/bench/bench_archive.py`` (``--quick`` for the small tree, ``--mirrors N`` for
another count of mirrored machines, ``--only picker,search,list`` for some measures; ``--help``).
Through pytest: ``python -m pytest tests/bench/bench_archive.py -s`` runs ``--quick``.

The data: this machine's sessions dir is the tree of ``bench_index.py`` (2,050 sessions, 1.3 GB,
the ``--cwd`` project holding 400; ``--quick``: 210 sessions, 130 MB), generated there and cached
under ``/tmp/ink-tui-bench-index-<hash>``. Each mirrored machine (``mirror01`` …, 9 by default:
with this machine, 10 machines, 20,500 sessions) is a copy of that tree made of hard links, in
``<XDG_DATA_HOME>/ink-tui/machines/NAME/`` (no session byte is copied). The layout is cached
under ``/tmp/ink-tui-bench-archive-<hash>``, with two warm ``$XDG_CACHE_HOME`` dirs: the one
machine's index (built by ``ink-tui index --all``, no mirror) and the every-machine index (built
by a first ``ink-tui search … --machines``, which indexes every mirror too: both builds are
timed, and their times kept for the runs that find them cached). Before the figures, one search
of each scope brings its index up to date (untimed). The files are in the page cache throughout.

What is measured, the reference (one machine: no mirror, its own index) and the 10 machines run
alternately, a median of ``--runs`` each, printed as a ratio (goal: at most 1.3x):

- picker: launch → the first screen of this project (the mirrors must not slow the usual start;
  with mirrors this project is this project on every machine: the time until a mirror's row
  joins it is printed too); with the app idle, Tab → the first screen of all projects (no
  mirror) beside Tab Tab → the first screen of all machines (a mirror's name painted in the
  machine column), and → the status line counting every session of it; launch → that same
  screen with the Tab(s) pressed as soon as the first screen shows. Real ``python -m ink_tui``
  processes in a 120x40 pseudo-terminal (the harness of ``bench_ui.py`` / ``bench_index.py``).
- ``ink-tui search WORD --machines --json --limit 50`` beside ``ink-tui search WORD --all --json
  --limit 50`` (one machine), for a rare, a mid-frequency and a very common word; no
  ``--fresh``, but every search of an index starts more than 5 s after the previous one ended
  (the trust window of ``catalog/index/checks.py``), so that each one looks at every file
  (``checkedNow`` in its output says so).
- ``ink-tui list --machines --json`` beside ``ink-tui list --all --json`` (one machine).
"""

from __future__ import annotations

import hashlib
import inspect
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

from bench_index import (  # noqa: E402
    CACHE_ROOT,
    CWD,
    FULL,
    PICKER_MARKER,
    QUICK,
    TAB_MARKER,
    Row,
    Run,
    Tree,
    cached_build,
    cached_tree,
    counted,
    environment,
    fmt_runs,
    index_file,
    ink,
    launch,
    measure_parser,
    ms,
    parsed_measures,
    print_rows,
    read_all,
    rg_command,
    run_timed,
    settle,
    spawned,
    verdict,
    wait_after,
    wait_until,
)
from bench_ui import MINIMAL_APP, MINIMAL_MARKER  # noqa: E402

VERSION = "archive-v1"
MIRRORS = 9  # with this machine: the goal's 10 machines
RUNS = 3
GOAL = 1.3
TRUST_GAP = 5.5  # seconds between two searches of one index (its checks are trusted for 5 s)
NOTHING = "zqxjvbenchnothing"  # found nowhere: the search that builds the every-machine index
# (rare, mid-frequency, very common): in 2, 379 and 1,995 of the 2,052 sessions of the full tree
WORDS = ("release", "mypy", "retry")
MIRROR_ROW = re.compile(r"\bmirror\d\d\b")


def mirror_name(number: int) -> str:
    return f"mirror{number:02d}"


# -- the layout ---------------------------------------------------------------------------------


def link_mirrors(tree: Path, mirrors: int, target: Path) -> dict[str, Any]:
    """``target`` as ``$XDG_DATA_HOME``: ``mirrors`` mirrors of ``tree``, each file a hard link."""
    started = time.perf_counter()
    files = sorted(path.relative_to(tree) for path in tree.rglob("*.jsonl"))
    machines = target / "ink-tui" / "machines"
    for number in range(1, mirrors + 1):
        mirror = machines / mirror_name(number)
        for folder in sorted({path.parent for path in files}):
            (mirror / folder).mkdir(parents=True, exist_ok=True)
        for path in files:
            os.link(tree / path, mirror / path)
    return {
        "mirrors": mirrors,
        "links": mirrors * len(files),
        "seconds": round(time.perf_counter() - started, 1),
    }


def layout_root(tree: Tree) -> Path:
    """The cache of the layouts made of ``tree`` (keyed by it and by the layout's builders)."""
    digest = hashlib.sha256(f"{VERSION}\0{tree.path}".encode())
    for function in (link_mirrors, build_index):
        digest.update(inspect.getsource(function).encode())
    return CACHE_ROOT / f"ink-tui-bench-archive-{digest.hexdigest()[:10]}"


def build_index(argv: Sequence[str], env: dict[str, str], cache: Path) -> dict[str, Any]:
    """Run ``argv`` (a first index into ``cache``, the env's ``$XDG_CACHE_HOME``) and again
    (nothing changed); what they took, and the index's size."""
    first = run_timed(argv, env)
    if first.code not in (0, 1):  # 1: a search found nothing
        raise RuntimeError(f"{' '.join(argv[2:6])} … failed: {first.first_error}")
    again = run_timed(argv, env)
    return {
        "wall": round(first.wall, 1),
        "cpu": round(first.cpu, 1),
        "again": round(again.wall, 2),
        "bytes": disk_bytes(index_file(cache).parent),
    }


def disk_bytes(folder: Path, *, shared: bool = True) -> int:
    """The blocks the files under ``folder`` take (each inode once; ``shared=False``: not a
    file with another link, as the mirrors' are the tree's)."""
    seen: set[tuple[int, int]] = set()
    total = 0
    for path in folder.rglob("*"):
        info = path.lstat()
        if (info.st_dev, info.st_ino) not in seen and (
            shared or info.st_nlink == 1 or path.is_dir()
        ):
            seen.add((info.st_dev, info.st_ino))
            total += info.st_blocks * 512
    return total


@dataclass
class Layout:
    tree: Tree
    mirrors: int
    data: Path  # $XDG_DATA_HOME holding the mirrors
    one_cache: Path  # $XDG_CACHE_HOME: this machine's index (no mirror)
    many_cache: Path  # $XDG_CACHE_HOME: the index of this machine and every mirror
    one_meta: dict[str, Any]
    many_meta: dict[str, Any]
    home: Path  # this run's config and state dirs

    @property
    def machines(self) -> int:
        return self.mirrors + 1

    def one(self) -> dict[str, str]:
        """One machine: no mirror (an empty data dir), its own index."""
        env = environment(self.home, self.one_cache)
        env["XDG_DATA_HOME"] = str(self.home / "no-mirrors")
        return env

    def many(self) -> dict[str, str]:
        """This machine and every mirror, their index."""
        env = environment(self.home, self.many_cache)
        env["XDG_DATA_HOME"] = str(self.data)
        return env


def prepare(tree: Tree, mirrors: int, home: Path) -> Layout:
    root = layout_root(tree)
    name = tree.path.name
    base = root / f"{name}-{mirrors}mirrors"
    print(f"  layout cached under {root}", flush=True)
    data_meta = cached_build(base / "data", lambda target: link_mirrors(tree.path, mirrors, target))
    print(f"  {data_meta['links']:,} hard links in {mirrors} mirrors", flush=True)
    layout = Layout(
        tree, mirrors, base / "data", root / f"{name}-one-cache", base / "cache", {}, {}, home
    )
    search_nothing = ("search", NOTHING, "--json", "--sessions-dir", tree.path, "--cwd", CWD)

    def index_one(target: Path) -> dict[str, Any]:
        print("  first index, one machine: ink-tui index --all …", flush=True)
        env = layout.one() | {"XDG_CACHE_HOME": str(target)}
        return build_index(
            ink("index", "--all", "--sessions-dir", tree.path, "--cwd", CWD), env, target
        )

    def index_many(target: Path) -> dict[str, Any]:
        print(f"  first index, {layout.machines} machines: ink-tui search --machines …", flush=True)
        env = layout.many() | {"XDG_CACHE_HOME": str(target)}
        return build_index(ink(*search_nothing, "--machines"), env, target)

    layout.one_meta = cached_build(layout.one_cache, index_one)
    layout.many_meta = cached_build(layout.many_cache, index_many)
    # Brought up to date (untimed): a cached index may be older than the code that reads it.
    for argv, env in (
        (ink(*search_nothing, "--all"), layout.one()),
        (ink(*search_nothing, "--machines"), layout.many()),
    ):
        run = run_timed(argv, env)
        print(f"  index up to date: {' '.join(argv[3:6])} {ms(run.wall)}", flush=True)
    return layout


# -- measures -----------------------------------------------------------------------------------


@dataclass
class Bench:
    layout: Layout
    runs: int
    rows: list[Row]

    def add(self, measure: str, ref: float, ours: float, *, info: bool = False) -> None:
        ratio = ours / ref
        goal, said = ("(info)", "info") if info else (f"≤ {GOAL}x", verdict(ratio <= GOAL))
        self.rows.append(Row(measure, ms(ref), ms(ours), f"{ratio:.2f}x", goal, said))

    def info(self, measure: str, ref: str, ours: str, figure: str) -> None:
        self.rows.append(Row(measure, ref, ours, figure, "(info)", "info"))


def measure_index(bench: Bench) -> None:
    layout = bench.layout
    one, many = layout.one_meta, layout.many_meta
    links = disk_bytes(layout.data, shared=False)
    print(
        f"\nfirst index: one machine {one['wall']} s wall ({one['cpu']} s CPU), "
        f"{one['bytes'] / 1e6:,.0f} MB; {layout.machines} machines {many['wall']} s wall "
        f"({many['cpu']} s CPU), {many['bytes'] / 1e6:,.0f} MB; again (nothing changed) "
        f"{one['again']} s / {many['again']} s; the mirrors take {links / 1e6:,.1f} MB beside the "
        f"tree's (their files are hard links to it)",
        flush=True,
    )
    bench.info(
        f"first index (cached runs: from the run that built it), {layout.machines} machines",
        f"1 machine: {one['wall']} s, {one['bytes'] / 1e9:.2f} GB",
        f"{many['wall']} s, {many['bytes'] / 1e9:.2f} GB",
        f"{many['wall'] / one['wall']:.1f}x time, {many['bytes'] / one['bytes']:.1f}x size",
    )


@dataclass
class PickerRun:
    first: float  # launch → the first screen of this project
    joined: float | None  # launch → a mirror's row in this project (None: no mirror)
    widest: float  # Tab(s) → the first screen of the widest scope
    every: float  # Tab(s) → the status line counting every session of it


def holds_mirror_row(text: str) -> bool:
    """a mirror's name (the machine column)"""
    return MIRROR_ROW.search(text) is not None


def picker_run(layout: Layout, env: dict[str, str], mirrors: bool) -> PickerRun:
    """One launch: the first screen, then (the app idle) Tab(s) to the widest scope."""
    total = layout.tree.sessions * (layout.machines if mirrors else 1)
    with spawned(ink("--sessions-dir", layout.tree.path, "--cwd", CWD), env) as terminal:
        first = wait_after(terminal, 0, PICKER_MARKER) - terminal.started
        joined = None
        if mirrors:
            try:
                joined = wait_until(terminal, 0, holds_mirror_row, 30) - terminal.started
            except TimeoutError:
                print("    no mirror's row in this project within 30 s", flush=True)
        settle(terminal, 0.5, 30)
        offset = len(terminal.output)
        sent = time.perf_counter()
        if mirrors:
            os.write(terminal.fd, b"\t\t")
            widest = wait_until(terminal, offset, holds_mirror_row, 120) - sent
        else:
            os.write(terminal.fd, b"\t")
            widest = wait_after(terminal, offset, TAB_MARKER, 120) - sent
        every = wait_until(terminal, offset, counted(total), 300) - sent
    return PickerRun(first, joined, widest, every)


def eager_run(layout: Layout, env: dict[str, str], mirrors: bool) -> float:
    """Launch → the widest scope's first screen, the Tab(s) pressed as the first screen shows."""
    with spawned(ink("--sessions-dir", layout.tree.path, "--cwd", CWD), env) as terminal:
        wait_after(terminal, 0, PICKER_MARKER)
        offset = len(terminal.output)
        if mirrors:
            os.write(terminal.fd, b"\t\t")
            shown = wait_until(terminal, offset, holds_mirror_row, 120)
        else:
            os.write(terminal.fd, b"\t")
            shown = wait_after(terminal, offset, TAB_MARKER, 120)
    return shown - terminal.started


def measure_picker(bench: Bench) -> None:
    layout = bench.layout
    n = layout.machines
    sessions = layout.tree.sessions
    print(f"\npicker: 1 machine ({sessions:,} sessions) vs {n} machines ({n * sessions:,})")
    refs: list[PickerRun] = []
    ours: list[PickerRun] = []
    eager_ref: list[float] = []
    eager_ours: list[float] = []
    for _ in range(bench.runs):
        refs.append(picker_run(layout, layout.one(), mirrors=False))
        ours.append(picker_run(layout, layout.many(), mirrors=True))
    for _ in range(bench.runs):
        eager_ref.append(eager_run(layout, layout.one(), mirrors=False))
        eager_ours.append(eager_run(layout, layout.many(), mirrors=True))
    figures: list[tuple[str, Callable[[PickerRun], float]]] = [
        ("launch → first screen of this project", lambda run: run.first),
        ("Tab(s) → first screen of the widest scope", lambda run: run.widest),
        ("Tab(s) → every session counted", lambda run: run.every),
    ]
    for name, pick in figures:
        print(
            f"  {name}: 1 machine {fmt_runs([pick(r) for r in refs])}, {n} machines "
            f"{fmt_runs([pick(r) for r in ours])}",
            flush=True,
        )
    joined = [run.joined for run in ours if run.joined is not None]
    print(f"  launch → a mirror's row in this project: {fmt_runs(joined)}")
    print(
        f"  launch → widest scope, Tab(s) at once: 1 machine {fmt_runs(eager_ref)}, "
        f"{n} machines {fmt_runs(eager_ours)}",
        flush=True,
    )

    def median(runs: list[PickerRun], pick: Callable[[PickerRun], float]) -> float:
        return statistics.median(pick(run) for run in runs)

    bench.add(
        f"picker: launch → first screen of this project ({layout.tree.picker_sessions} sessions "
        f"here; {n} machines: {n}x)",
        median(refs, lambda run: run.first),
        median(ours, lambda run: run.first),
    )
    if joined:
        bench.info(
            f"picker, {n} machines: launch → a mirror's row joins this project",
            "",
            ms(statistics.median(joined)),
            ms(statistics.median(joined)),
        )
    bench.add(
        f"picker, app idle: Tab → all projects (1 machine) / Tab Tab → all machines ({n})",
        median(refs, lambda run: run.widest),
        median(ours, lambda run: run.widest),
    )
    bench.add(
        "picker: launch → that first screen, Tab(s) pressed at the first screen",
        statistics.median(eager_ref),
        statistics.median(eager_ours),
    )
    bench.add(
        f"picker, app idle: Tab(s) → status counts all ({sessions:,} / {n * sessions:,})",
        median(refs, lambda run: run.every),
        median(ours, lambda run: run.every),
        info=True,
    )


def hits_of(run: Run) -> tuple[int, int, bool]:
    """``(hits shown, sessions with hits, checkedNow)`` of a ``--json`` search's output."""
    data = json.loads(run.stdout)
    return len(data["hits"]), int(data["totalSessions"]), bool(data["checkedNow"])


def measure_search(bench: Bench) -> None:
    layout = bench.layout
    tree = layout.tree
    n = layout.machines
    print(
        f"\nink-tui search WORD --json --limit 50: --all (1 machine) vs --machines ({n}); "
        f"every search of an index > {TRUST_GAP} s after its previous one (no --fresh)",
        flush=True,
    )
    ended = {"one": 0.0, "many": 0.0}
    where = ("--sessions-dir", tree.path, "--cwd", CWD)

    def search(side: str, word: str) -> Run:
        scope, env = ("--all", layout.one()) if side == "one" else ("--machines", layout.many())
        argv = ink("search", word, scope, "--json", "--limit", "50", *where)
        time.sleep(max(0.0, ended[side] + TRUST_GAP - time.perf_counter()))
        run = run_timed(argv, env)
        ended[side] = time.perf_counter()
        if run.code not in (0, 1):
            raise RuntimeError(f"search {word} {scope} failed: {run.first_error}")
        return run

    for word, kind in zip(WORDS, ("rare", "mid-frequency", "very common"), strict=True):
        files = subprocess.run(
            [*rg_command(word, tree.path)], capture_output=True, text=True, check=False
        ).stdout
        holding = sum(1 for line in files.splitlines() if not line.endswith(":0"))
        search("one", word)  # warm-up: bytecode, the index's pages
        search("many", word)
        refs: list[Run] = []
        ours: list[Run] = []
        for _ in range(bench.runs):
            refs.append(search("one", word))
            ours.append(search("many", word))
        ref, our = (statistics.median(run.wall for run in runs) for runs in (refs, ours))
        ref_hits, ref_sessions, _ = hits_of(refs[0])
        our_hits, our_sessions, _ = hits_of(ours[0])
        looked = all(hits_of(run)[2] for run in [*refs, *ours])
        print(
            f"  {word!r} ({kind}, in {holding} files of a tree): 1 machine "
            f"{fmt_runs([r.wall for r in refs])} ({ref_hits} hits of {ref_sessions} sessions), "
            f"{n} machines {fmt_runs([r.wall for r in ours])} ({our_hits} hits of "
            f"{our_sessions} sessions); CPU {statistics.median(r.cpu for r in refs):.2f} / "
            f"{statistics.median(r.cpu for r in ours):.2f} s; every file looked at: {looked}",
            flush=True,
        )
        bench.add(f"search {word!r} ({kind}, {holding} of {tree.sessions:,} sessions)", ref, our)


def measure_list(bench: Bench) -> None:
    layout = bench.layout
    n = layout.machines
    argv = ("--json", "--sessions-dir", layout.tree.path, "--cwd", CWD)
    print(f"\nink-tui list --all --json (1 machine) vs list --machines --json ({n})", flush=True)
    one = ink("list", "--all", *argv)
    many = ink("list", "--machines", *argv)
    run_timed(one, layout.one())
    run_timed(many, layout.many())
    refs: list[Run] = []
    ours: list[Run] = []
    for _ in range(bench.runs):
        refs.append(run_timed(one, layout.one()))
        ours.append(run_timed(many, layout.many()))
    rows = len(json.loads(refs[0].stdout)), len(json.loads(ours[0].stdout))
    print(
        f"  1 machine {fmt_runs([r.wall for r in refs])} ({rows[0]:,} rows), {n} machines "
        f"{fmt_runs([r.wall for r in ours])} ({rows[1]:,} rows)",
        flush=True,
    )
    bench.add(
        f"list --json: --all ({rows[0]:,} rows) / --machines ({rows[1]:,} rows)",
        statistics.median(run.wall for run in refs),
        statistics.median(run.wall for run in ours),
    )


# -- main ---------------------------------------------------------------------------------------

SUITE = r"(-m pytest|(^|/)py\.?test)( |$)"  # pytest itself, not a server a test left behind


def wait_for_suites(skip: bool) -> None:
    """The machine is shared: never start measuring while a test suite runs (wait for it).
    ``bench_index.wait_for_tests`` would also wait for any process naming a pytest folder."""
    while not skip:
        found = subprocess.run(["pgrep", "-f", SUITE], capture_output=True, text=True)
        pids = [int(pid) for pid in found.stdout.split() if int(pid) != os.getpid()]
        if not pids:
            return
        print(f"  a test suite is running (pids {pids}); waiting …", flush=True)
        time.sleep(15)


MEASURES = ("picker", "search", "list")


def print_table(bench: Bench) -> None:
    layout = bench.layout
    print(
        f"\nissue 22 goal: {layout.machines} machines x {layout.tree.sessions:,} sessions within "
        f"{GOAL}x of one machine's (median of {bench.runs}; ratio = {layout.machines} machines / 1)"
    )
    print_rows(bench.rows, "1 machine", f"{layout.machines} machines")


def main(argv: Sequence[str] | None = None) -> int:
    parser = measure_parser(
        __doc__,
        MEASURES,
        RUNS,
        quick="the 210-session tree (130 MB)",
        runs_help="runs per figure (median)",
    )
    parser.add_argument("--mirrors", type=int, default=MIRRORS, help="mirrored machines")
    args, wanted = parsed_measures(parser, argv, MEASURES)

    spec = QUICK if args.quick else FULL
    print(f"preparing data ({spec.name}, cached under {CACHE_ROOT}/ink-tui-bench-index-…)")
    tree = cached_tree(spec)
    print(
        f"  {tree.path}: {tree.sessions:,} sessions, {tree.bytes / 1e9:.2f} GB, "
        f"{tree.picker_sessions} in the --cwd project; {args.mirrors} mirrors of it",
        flush=True,
    )
    wait_for_suites(args.no_wait)
    read_all(tree.path)
    home = Path(tempfile.mkdtemp(prefix="ink-tui-bench-archive-run-"))
    try:
        layout = prepare(tree, args.mirrors, home)
        # one throw-away launch of each: bytecode compiled, files cached
        launch([sys.executable, "-c", MINIMAL_APP], MINIMAL_MARKER, layout.one())
        launch(ink("--sessions-dir", tree.path, "--cwd", CWD), PICKER_MARKER, layout.many())
        bench = Bench(layout, args.runs, [])
        measure_index(bench)
        steps = {"picker": measure_picker, "search": measure_search, "list": measure_list}
        for name, step in steps.items():
            if name in wanted:
                step(bench)
        print_table(bench)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return 0


def test_bench_archive() -> None:
    """Collected by ``pytest tests/bench/bench_archive.py -s``: ``--quick``; asserts nothing."""
    main(["--quick", "--no-wait", "--runs", "1"])


if __name__ == "__main__":
    raise SystemExit(main())
