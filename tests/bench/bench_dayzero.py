"""Benchmark: day zero, in the style of the session-recall tools' own (issue 21).

Run by hand (never in CI, never asserts on time): ``python tests/bench/bench_dayzero.py``
(``--quick`` for 2,000 sessions; ``--help``). Through pytest:
``python -m pytest tests/bench/bench_dayzero.py -s`` runs ``--quick``.

"Day zero" is a tree ink-tui has never seen: no index, no cache. The tree has 20,000 sessions
whose sizes follow the heavy tail of ``bench_index.py``'s tree (log-normal, 4 KB to 40 MB, the
same mean, so about 12.7 GB) plus one 100 MB session, in the same ten projects, 3,900 sessions
in the ``--cwd`` project. It is generated once on both cores and cached under
``/tmp/ink-tui-bench-dayzero-<hash>``. In one run, each a fresh ``python -m ink_tui`` process:

1. the first full index (``ink-tui index --all``): wall time, CPU time and the peak RSS; then
   the same again with nothing changed (every file looked at, none read);
2. the first answer of ``ink-tui search --fresh`` in a fresh process (every file looked at
   first), the trust window of the index's last check (5 s) waited out;
3. the median of 20 searches (20 different queries, each a fresh process): with ``--fresh``,
   and as they run by default (a search within 5 s of a check trusts it, and says so);
4. the picker's first painted row (launch in a 120x40 pseudo-terminal, the index warm) beside a
   minimal Textual app launched alternately;
5. after one session grew (an exchange appended to the newest session of the ``--cwd``
   project, holding a word found nowhere else, once the trust window is over): the first answer
   of ``ink-tui search`` for that word (it must be found: never a stale answer), and the
   picker's first row. Each of the five rounds grows the session again.

The published figures beside them (their trees differ from this one, so compare per session and
per byte, not row by row): deja-vu, 19,195 sessions: build 17.6 s, first answer 26 ms, median
search 97 ms; agentsview: build 3 min 56 s, first answer 1.44 s, median search 113 ms.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import multiprocessing
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

from bench_index import (  # noqa: E402
    CWD,
    OTHER_CWDS,
    PICKER_MARKER,
    ROOT,
    SEARCH_QUERIES,
    Spec,
    cached_build,
    environment,
    ink,
    launch,
    marker_session,
    project_plan,
    read_all,
    session_sizes,
    tree_plan,
)
from bench_ui import MINIMAL_APP, MINIMAL_MARKER, append_exchange  # noqa: E402

from ink_tui.catalog.index.checks import TRUST_SECONDS  # noqa: E402
from ink_tui.demo import MODELS, generate_session  # noqa: E402
from ink_tui.paths import project_dir  # noqa: E402

VERSION = "dayzero-v1"
FULL = Spec(sessions=20_000, total_mb=12_700, big_mb=100, picker=3_900)
QUICK = Spec(sessions=2_000, total_mb=1_270, big_mb=20, picker=390)
QUERIES = tuple(query for query in SEARCH_QUERIES if query != "role:user 报表")  # 20
GROW_MARKER = "dayzerogrew"
ROUNDS = 5
PUBLISHED = {  # name: (sessions, build s, first answer s, median search s)
    "deja-vu": (19_195, 17.6, 0.026, 0.097),
    "agentsview": (None, 236.0, 1.44, 0.113),
}


# -- the tree -----------------------------------------------------------------------------------


def _generate(job: tuple[str, str, int, int, float, int]) -> int:
    """One session (run in a worker process); returns its size in bytes."""
    folder, cwd, seed, size, start, model = job
    path = generate_session(
        Path(folder),
        cwd,
        seed=seed,
        target_bytes=size,
        clock_start=datetime.fromtimestamp(start, UTC),
        model=MODELS[model],
    )
    return path.stat().st_size


def build_tree(spec: Spec, target: Path) -> dict[str, Any]:
    """Write the tree into ``target`` on every core; return what the benchmark needs."""
    now = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
    plan, sizes = tree_plan(spec)
    big_bytes = spec.big_mb * 1_000_000
    rng = random.Random(13)
    jobs = [
        (
            str(project_dir(target, cwd)),
            cwd,
            rng.getrandbits(32),
            size,
            (now - timedelta(hours=index * 0.15 + rng.uniform(0, 0.1))).timestamp(),
            rng.randrange(len(MODELS)),
        )
        for index, (cwd, size) in enumerate(zip(plan, sizes, strict=True))
    ]
    jobs.append(
        (
            str(project_dir(target, CWD)),
            CWD,
            1,
            big_bytes,
            (now - timedelta(days=40)).timestamp(),
            0,
        )
    )
    jobs.sort(key=lambda job: -job[3])  # the biggest first: the pool ends evenly
    started = time.perf_counter()
    written = 0
    with multiprocessing.Pool(os.cpu_count() or 1) as pool:
        for done, size in enumerate(pool.imap_unordered(_generate, jobs, chunksize=4), 1):
            written += size
            if done % 1000 == 0 or done == len(jobs):
                print(
                    f"  generated {done:,}/{len(jobs):,} sessions, {written / 1e6:,.0f} MB, "
                    f"{time.perf_counter() - started:.0f} s",
                    flush=True,
                )
    files = sorted(target.rglob("*.jsonl"))
    newest = max(path.stat().st_mtime for path in files)
    marker_session(
        project_dir(target, CWD),
        CWD,
        PICKER_MARKER,
        datetime.fromtimestamp(newest, UTC) + timedelta(minutes=1),
    )
    files = sorted(target.rglob("*.jsonl"))
    return {
        "sessions": len(files),
        "bytes": sum(path.stat().st_size for path in files),
        "projects": {folder.name: len(list(folder.glob("*.jsonl"))) for folder in target.iterdir()},
        "seconds": round(time.perf_counter() - started, 1),
    }


def generator_hash() -> str:
    digest = hashlib.sha256(VERSION.encode())
    for path in sorted((ROOT / "ink_tui" / "demo").glob("*.py")):
        digest.update(path.read_bytes())
    for function in (session_sizes, project_plan, tree_plan, marker_session, build_tree, _generate):
        digest.update(inspect.getsource(function).encode())
    digest.update(repr((OTHER_CWDS, CWD)).encode())
    return digest.hexdigest()[:10]


def cached_tree(spec: Spec) -> tuple[Path, dict[str, Any]]:
    base = Path(tempfile.gettempdir()) / f"ink-tui-bench-dayzero-{generator_hash()}" / spec.name
    return base, cached_build(base, lambda target: build_tree(spec, target))


def grow(path: Path, word: str) -> None:
    """Append one exchange whose answer holds ``word`` (as Ink would: a user line, a reply)."""
    append_exchange(path, "and the changelog?", f"The changelog mentions {word} once.")


# -- processes ----------------------------------------------------------------------------------


@dataclass
class Run:
    code: int
    wall: float
    cpu: float
    peak_mb: float
    stdout: str
    stderr: str


def _tree_sample(root: int) -> dict[int, tuple[int, float]]:
    """``{pid: (RSS bytes, CPU seconds)}`` of ``root`` and every process below it (``/proc``)."""
    parents: dict[int, int] = {}
    stats: dict[int, list[str]] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                text = Path(entry.path, "stat").read_text()
            except OSError:
                continue
            fields = text[text.rindex(")") + 2 :].split()
            parents[int(entry.name)] = int(fields[1])
            stats[int(entry.name)] = fields
    tick, page = os.sysconf("SC_CLK_TCK"), os.sysconf("SC_PAGE_SIZE")
    found: dict[int, tuple[int, float]] = {}
    for pid, fields in stats.items():
        ancestor = pid
        while ancestor not in (root, 0, 1) and ancestor in parents:
            ancestor = parents[ancestor]
        if ancestor == root:
            cpu = (int(fields[11]) + int(fields[12])) / tick
            found[pid] = (int(fields[21]) * page, cpu)
    return found


def run(argv: Sequence[str], env: dict[str, str]) -> Run:
    """One process: wall time; CPU time of it (``RUSAGE_CHILDREN`` before and after) and of the
    processes below it (a parallel index's workers: sampled from ``/proc`` every 50 ms, so a
    little is missed); the peak of their summed RSS (sampled alike); its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        process = subprocess.Popen(
            list(argv), env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err
        )
        peak, below = 0, dict[int, float]()  # below: CPU last seen of each process it started
        while process.poll() is None:
            sample = _tree_sample(process.pid)
            peak = max(peak, sum(rss for rss, _ in sample.values()))
            below.update({pid: cpu for pid, (_, cpu) in sample.items() if pid != process.pid})
            time.sleep(0.05)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        cpu += sum(below.values())  # workers are waited for by their forkserver, not by it
        out.seek(0)
        err.seek(0)
        return Run(
            process.returncode,
            wall,
            cpu,
            max(peak / 1e6, after.ru_maxrss / 1024),
            out.read().decode("utf-8", "replace"),
            err.read().decode("utf-8", "replace"),
        )


def checked(result: Run, what: str) -> Run:
    if result.code != 0:
        tail = (result.stderr or result.stdout).strip().splitlines()[-1:]
        raise SystemExit(f"{what} failed (exit {result.code}): {' '.join(tail)}")
    return result


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.0f} ms"


# -- the run ------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2,000 sessions instead of 20,000")
    parser.add_argument("--generate-only", action="store_true", help="build the tree and stop")
    parser.add_argument("--keep", type=Path, help="keep the index: move its cache dir here")
    args = parser.parse_args(argv)
    spec = QUICK if args.quick else FULL
    tree, meta = cached_tree(spec)
    sessions, size = int(meta["sessions"]), int(meta["bytes"])
    print(f"tree: {tree}: {sessions:,} sessions, {size / 1e9:.2f} GB", flush=True)
    if args.generate_only:
        return 0
    read_all(tree)  # in the page cache: day zero means no index, not a cold disk
    home = Path(tempfile.mkdtemp(prefix="ink-tui-bench-dayzero-run-"))
    try:
        env = environment(home, home / "cache")
        where = ("--sessions-dir", tree, "--cwd", CWD)
        rows: list[tuple[str, str, str, str]] = []  # measure, ink-tui, deja-vu, agentsview

        def search(query: str, *extra: str) -> Run:
            result = run(ink("search", query, "--all", *extra, *where), env)
            if result.code not in (0, 1):  # 1: nothing found
                checked(result, f"ink-tui search {query!r}")
            return result

        first = checked(run(ink("index", "--all", *where), env), "ink-tui index --all")
        rate, per_session = size / 1e6 / first.wall, first.wall / sessions * 1000
        print(
            f"first full index: {first.wall:.1f} s wall, {first.cpu:.1f} s CPU, peak RSS "
            f"{first.peak_mb:,.0f} MB; {rate:,.0f} MB/s, {per_session:.1f} ms per session",
            flush=True,
        )
        rows.append(
            (
                "first full index (day zero)",
                f"{first.wall:.1f} s ({per_session:.1f} ms/session, {rate:,.0f} MB/s), "
                f"peak {first.peak_mb:,.0f} MB",
                f"17.6 s ({17.6 / 19_195 * 1000:.2f} ms/session)",
                "3 min 56 s",
            )
        )

        again = checked(run(ink("index", "--all", *where), env), "ink-tui index --all")
        print(f"index again, nothing changed: {ms(again.wall)}", flush=True)
        rows.append(("index again, nothing changed (every file looked at)", ms(again.wall), "", ""))
        time.sleep(TRUST_SECONDS + 0.5)  # the check just made is not trusted by the next search

        answer = search(QUERIES[0], "--fresh")
        print(f"first answer ({QUERIES[0]!r}, every file checked): {ms(answer.wall)}", flush=True)
        rows.append(
            ("first answer, fresh process, every file checked", ms(answer.wall), "26 ms", "1.44 s")
        )

        for label, extra in (
            ("every file checked (--fresh)", ("--fresh",)),
            (f"trusting a check under {TRUST_SECONDS:.0f} s old", ()),
        ):
            times = []
            print(f"{len(QUERIES)} searches, {label}:", flush=True)
            search(QUERIES[0], "--fresh")  # a check for the trusting pass to start from
            for query in QUERIES:
                result = search(query, *extra)
                hits = len(result.stdout.strip().splitlines())
                print(f"  {query!r:>36}: {ms(result.wall):>7}  {hits:>3} lines", flush=True)
                times.append(result.wall)
            rows.append(
                (
                    f"median of {len(times)} searches, {label}",
                    ms(statistics.median(times)),
                    "97 ms",
                    "113 ms",
                )
            )

        def picker_rounds(label: str, before: Any = None) -> None:
            ours, base = [], []
            for _ in range(ROUNDS):
                if before is not None:
                    before()
                base.append(launch([sys.executable, "-c", MINIMAL_APP], MINIMAL_MARKER, env))
                ours.append(launch(ink(*where), PICKER_MARKER, env))
            mine, minimal = statistics.median(ours), statistics.median(base)
            print(f"{label}: {ms(mine)} (minimal Textual app {ms(minimal)}, {mine / minimal:.2f}x)")
            rows.append(
                (label, f"{ms(mine)} ({mine / minimal:.2f}x a minimal Textual app)", "n/a", "n/a")
            )

        picker_rounds("picker's first row, indexed")

        newest = next(
            path
            for path in sorted(
                project_dir(tree, CWD).glob("*.jsonl"), key=lambda p: p.stat().st_mtime
            )[::-1]
        )
        grown = []
        for round_ in range(ROUNDS):
            word = f"{GROW_MARKER}{round_}x{os.getpid()}"
            time.sleep(TRUST_SECONDS + 0.5)  # it grows while nobody searches
            grow(newest, word)
            result = search(word)
            if word not in result.stdout:
                raise SystemExit(f"search after growth did not find {word!r}: a stale answer")
            grown.append(result.wall)
        print(f"after one session grew, first answer: {ms(statistics.median(grown))}", flush=True)
        rows.append(
            (
                "after one session grew: first answer (found)",
                ms(statistics.median(grown)),
                "n/a",
                "n/a",
            )
        )
        counter = iter(range(1000))
        picker_rounds(
            "after one session grew: picker's first row",
            lambda: grow(newest, f"{GROW_MARKER}p{next(counter)}"),
        )

        print(f"\nday zero: {sessions:,} sessions, {size / 1e9:.2f} GB (their trees differ)")
        print("| measure | ink-tui | deja-vu (19,195 sessions) | agentsview |")
        print("|---|---|---|---|")
        for row in rows:
            print("| " + " | ".join(row) + " |")
        if args.keep:
            shutil.rmtree(args.keep, ignore_errors=True)
            shutil.move(home / "cache", args.keep)
            print(f"the index is kept in {args.keep} (an $XDG_CACHE_HOME)")
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return 0


def test_bench_dayzero() -> None:
    """Collected by ``pytest tests/bench/bench_dayzero.py -s``: ``--quick``; asserts nothing."""
    main(["--quick"])


if __name__ == "__main__":
    raise SystemExit(main())
