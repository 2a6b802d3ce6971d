"""Benchmark: the goals of issue 10 (the index), each beside a reference measured in the same run.

Run by hand (never in CI, never asserts on time): ``python tests/bench/bench_index.py``
(``--quick`` for a small tree, ``--only open,picker`` for some measures; ``--help``). Through
pytest: ``python -m pytest tests/bench/bench_index.py -s`` runs ``--quick``.

The data: a generated sessions tree (cached under ``/tmp/ink-tui-bench-index-<hash>``, the hash
covering the demo generator and this file's tree builder): about 2,050 sessions, 1.3 GB, 10
project folders (the four demo projects, one of them Chinese, and six more), the project of
``--cwd`` holding 400 sessions, sizes from a few KB to 40 MB plus one 100 MB session in that
project. Two small sessions carry marker titles: the newest of the ``--cwd`` project (the
picker's first row) and the newest of all (in another project: the first row after Tab).
``--quick``: 210 sessions, 130 MB, a 20 MB session, 40 sessions in the ``--cwd`` project.

Every app figure comes from a real ``python -m ink_tui`` process in a 120x40 pseudo-terminal
(the harness of ``bench_ui.py``): the clock starts just before ``fork()`` (or the key) and stops
when the bytes written to the terminal, escape sequences stripped, first hold a marker text. The
reference is a minimal Textual app launched the same way, alternately with the app, in the same
run. "Never indexed" (cold) gives every launch a fresh empty ``$XDG_CACHE_HOME``; "indexed"
(warm) uses one built by ``ink-tui index --all`` (timed: the first full index). The files are in
the page cache throughout (the tree is read once before), so "cold" means no index, not a cold
disk.

Measures whose command or module does not exist yet (``ink-tui index``, ``ink-tui search``,
``ink_tui.catalog.index``/``.search``) print ``n/a: … not available yet`` and the run goes on.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import inspect
import json
import os
import random
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
BENCH = Path(__file__).resolve().parent
for _path in (ROOT, BENCH):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from bench_ui import (  # noqa: E402
    COLUMNS,
    END_MARKER,
    MINIMAL_APP,
    MINIMAL_MARKER,
    ROWS,
    Terminal,
    append_exchange,
    plain,
)

from ink_tui.demo import MODELS, PROJECTS, generate_session  # noqa: E402
from ink_tui.paths import project_dir  # noqa: E402
from ink_tui.session.writing.writer import SessionWriter  # noqa: E402

VERSION = "index-v1"
CACHE_ROOT = Path(tempfile.gettempdir())
CWD = PROJECTS[0].cwd  # the picker's project ("--cwd")
OTHER_CWDS = (
    PROJECTS[3].cwd,  # the Chinese project: many sessions, so CJK queries have hits
    PROJECTS[1].cwd,
    PROJECTS[2].cwd,
    "/home/ada/code/billing-api",
    "/home/ada/code/infra",
    "/home/ada/notes",
    "/srv/ml/pipeline",
    "/home/ada/code/mobile-app",
    "/Users/mei/work/dotfiles",
)
OTHER_WEIGHTS = (350, 300, 250, 200, 180, 120, 100, 80, 70)  # 1,650 sessions beside the 400
PICKER_MARKER = "PICKROWMARKER"  # title of the newest session of the --cwd project
TAB_MARKER = "TABROWMARKER"  # title of the newest session of all (another project)
OVERSHOOT = 1.12  # a generated session ends its turn past its target: ~12 % more bytes overall
RUNS = 3
TIMEOUT = 300.0
SETTLE = 2.0  # seconds without output that count as "the app is done" (RSS measure)

# What search is measured with: English words, phrases, identifiers, Chinese 2- and 4-character
# substrings, filters, a file name and a word found nowhere.
SEARCH_QUERIES = (
    "exception",
    "retry",
    "sidebar",
    "mypy",
    "commit",
    "overlaps",
    '"swallows the original exception"',
    '"find the bug"',
    "fetch_json",
    "sum_list",
    "ledger.py",
    "报表",
    "清洗",
    "函数",
    "月度汇总",
    "类型注解",
    "重复代码",
    "role:user retry",
    "role:user 报表",
    "role:assistant fetch_json",
    "zqxjvbenchnothing",
)
CLI_QUERIES = ("fetch_json", "exception", "月度汇总")  # ink-tui search --all beside rg


def search_api() -> tuple[Callable[[Path], Any], Callable[..., list[Any]]]:
    """``(CatalogIndex.open, search_index)``: the one place that names the in-process API."""
    from ink_tui.catalog.index import CatalogIndex
    from ink_tui.catalog.search import search_index

    return CatalogIndex.open, search_index


def index_file(cache: Path) -> Path:
    """Where the index lives under ``$XDG_CACHE_HOME`` (platformdirs' user cache dir, Linux)."""
    return cache / "ink-tui" / "index.sqlite3"


# -- the tree -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Spec:
    sessions: int  # generated sessions, the big one included (the two marker sessions not)
    total_mb: int  # about, the big one included
    big_mb: int
    picker: int  # sessions in the --cwd project, the big one included

    @property
    def name(self) -> str:
        return f"tree-{self.sessions}-{self.total_mb}mb-big{self.big_mb}-cwd{self.picker}"


FULL = Spec(sessions=2050, total_mb=1300, big_mb=100, picker=400)
QUICK = Spec(sessions=210, total_mb=130, big_mb=20, picker=40)


def session_sizes(count: int, total: int, cap: int, seed: int) -> list[int]:
    """``count`` log-normal sizes from 4 KB to ``cap`` adding up to about ``total``."""
    rng = random.Random(seed)
    raw = [rng.lognormvariate(0.0, 1.7) for _ in range(count)]
    scale = total / sum(raw)
    for _ in range(8):  # clamping moves the sum: rescale what is not clamped
        sizes = [min(cap, max(4_000, value * scale)) for value in raw]
        scale *= 1 + (total - sum(sizes)) / max(1.0, sum(s for s in sizes if 4_000 < s < cap))
    return [int(size) for size in sizes]


def project_plan(spec: Spec, seed: int) -> list[str]:
    """The cwd of every small session (in generation order, newest last-generated first)."""
    rest = spec.sessions - spec.picker
    weights = [weight * rest / sum(OTHER_WEIGHTS) for weight in OTHER_WEIGHTS]
    counts = [max(1, int(weight)) for weight in weights]
    counts[0] += rest - sum(counts)
    plan = [CWD] * (spec.picker - 1)  # the big session is the project's last one
    for cwd, count in zip(OTHER_CWDS, counts, strict=True):
        plan += [cwd] * count
    random.Random(seed).shuffle(plan)
    return plan


def marker_session(folder: Path, cwd: str, text: str, when: datetime) -> Path:
    """A two-message session whose first user line (its title) starts with ``text``."""
    folder.mkdir(parents=True, exist_ok=True)
    writer = SessionWriter.new(folder, cwd, model=MODELS[0], clock=lambda: when)
    writer.append_message({"role": "user", "content": f"{text} look at the release notes"})
    writer.append_message(
        {
            "role": "assistant",
            "blocks": [{"type": "text", "text": "The release notes look fine."}],
            "usage": {"inputTokens": 10, "outputTokens": 5},
            "stopReason": "end_turn",
            "model": MODELS[0].model_id,
            "modelReference": f"{MODELS[0].provider}/{MODELS[0].model_id}",
        }
    )
    os.utime(writer.path, (when.timestamp(), when.timestamp()))
    return writer.path


def add_end_marker(path: Path, when: datetime) -> None:
    """One final exchange whose answer holds :data:`END_MARKER` (only in the last block)."""
    answer = f"Wrapping up.\n\nAll done {END_MARKER} here."
    append_exchange(path, "one last thing: sum it up", answer, clock=lambda: when)
    os.utime(path, (when.timestamp(), when.timestamp()))


def tree_plan(spec: Spec) -> tuple[list[str], list[int]]:
    """The cwd and the size of every session but the big one (in generation order)."""
    plan = project_plan(spec, seed=11)
    big_bytes = spec.big_mb * 1_000_000
    sizes = session_sizes(
        len(plan),
        int((spec.total_mb * 1_000_000 - big_bytes) / OVERSHOOT),
        cap=min(40_000_000, big_bytes // 2),
        seed=7,
    )
    return plan, sizes


def build_tree(spec: Spec, target: Path) -> dict[str, Any]:
    """Write the tree into ``target``; return what the benchmark needs to know about it."""
    now = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
    plan, sizes = tree_plan(spec)
    big_bytes = spec.big_mb * 1_000_000
    rng = random.Random(13)
    started = time.perf_counter()
    written = 0
    newest = 0.0
    for index, (cwd, size) in enumerate(zip(plan, sizes, strict=True)):
        path = generate_session(
            project_dir(target, cwd),
            cwd,
            seed=rng.getrandbits(32),
            target_bytes=size,
            clock_start=now - timedelta(hours=index * 1.5 + rng.uniform(0, 1)),
            model=rng.choice(MODELS),
        )
        written += path.stat().st_size
        newest = max(newest, path.stat().st_mtime)
        if index % 200 == 199 or index == len(plan) - 1:
            print(
                f"  generated {index + 1}/{len(plan)} sessions, {written / 1e6:,.0f} MB, "
                f"{time.perf_counter() - started:.0f} s",
                flush=True,
            )
    print(f"  generating the {spec.big_mb} MB session …", flush=True)
    big = generate_session(
        project_dir(target, CWD),
        CWD,
        seed=1,
        target_bytes=big_bytes,
        clock_start=now - timedelta(days=40),
    )
    add_end_marker(big, now - timedelta(days=2))
    newest_at = datetime.fromtimestamp(max(newest, now.timestamp()), UTC)
    marker_session(project_dir(target, CWD), CWD, PICKER_MARKER, newest_at + timedelta(minutes=1))
    marker_session(
        project_dir(target, OTHER_CWDS[1]),
        OTHER_CWDS[1],
        TAB_MARKER,
        newest_at + timedelta(minutes=2),
    )
    files = sorted(target.rglob("*.jsonl"))
    projects = {folder.name: len(list(folder.glob("*.jsonl"))) for folder in target.iterdir()}
    return {
        "sessions": len(files),
        "bytes": sum(path.stat().st_size for path in files),
        "big": str(big.relative_to(target)),
        "projects": projects,
        "seconds": round(time.perf_counter() - started, 1),
    }


def generator_hash() -> str:
    digest = hashlib.sha256(VERSION.encode())
    for path in sorted((ROOT / "ink_tui" / "demo").glob("*.py")):
        digest.update(path.read_bytes())
    for function in (
        session_sizes,
        project_plan,
        tree_plan,
        marker_session,
        add_end_marker,
        build_tree,
    ):
        digest.update(inspect.getsource(function).encode())
    return digest.hexdigest()[:10]


@dataclass
class Tree:
    path: Path
    meta: dict[str, Any]

    @property
    def big(self) -> Path:
        return self.path / self.meta["big"]

    @property
    def bytes(self) -> int:
        return int(self.meta["bytes"])

    @property
    def sessions(self) -> int:
        return int(self.meta["sessions"])

    @property
    def picker_sessions(self) -> int:
        return len(list(project_dir(self.path, CWD).glob("*.jsonl")))


def cached_build(base: Path, build: Callable[[Path], dict[str, Any]]) -> dict[str, Any]:
    """What ``build`` says of the tree it writes at ``base``, built once (beside its final
    place, renamed when complete) and cached there."""
    done = base / ".complete.json"
    if not done.exists():
        scratch = base.with_name(base.name + ".partial")
        shutil.rmtree(scratch, ignore_errors=True)
        shutil.rmtree(base, ignore_errors=True)
        scratch.mkdir(parents=True)
        print(f"  generating {base.name} into {base} (cached) …", flush=True)
        meta = build(scratch)
        (scratch / ".complete.json").write_text(json.dumps(meta, indent=1) + "\n")
        scratch.rename(base)
    return dict(json.loads(done.read_text()))


def cached_tree(spec: Spec) -> Tree:
    """The tree for ``spec``, generated once."""
    base = CACHE_ROOT / f"ink-tui-bench-index-{generator_hash()}" / spec.name
    return Tree(base, cached_build(base, lambda target: build_tree(spec, target)))


def read_all(tree: Path) -> None:
    """Read every file once, so that every measure finds the tree in the page cache."""
    for path in tree.rglob("*.jsonl"):
        with path.open("rb") as handle:
            while handle.read(1 << 22):
                pass


# -- processes ----------------------------------------------------------------------------------


def ink(*args: str | Path) -> list[str]:
    return [sys.executable, "-m", "ink_tui", *(str(arg) for arg in args)]


def environment(home: Path, cache: Path) -> dict[str, str]:
    """The app's environment: the pty's size, its own config/state dirs, the given cache dir."""
    env = dict(os.environ)
    env.pop("TEXTUAL", None)
    env.pop("INK_SESSIONS_DIR", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as an installed ink-tui runs: bytecode cached
    env.update(
        TERM="xterm-256color",
        COLUMNS=str(COLUMNS),
        LINES=str(ROWS),
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_STATE_HOME=str(home / "state"),
        XDG_DATA_HOME=str(home / "data"),
        XDG_CACHE_HOME=str(cache),
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    )
    return env


@dataclass
class Run:
    code: int
    wall: float
    cpu: float  # user + system of the child
    stdout: str
    stderr: str

    @property
    def first_error(self) -> str:
        lines = (self.stderr or self.stdout).strip().splitlines()
        return lines[-1][:160] if lines else f"exit {self.code}"


def run_timed(argv: Sequence[str], env: dict[str, str], timeout: float = 3600) -> Run:
    """Wall time and CPU time (``RUSAGE_CHILDREN`` before/after) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        list(argv),
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=timeout,
        check=False,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    decode = lambda data: data.decode("utf-8", "replace")  # noqa: E731
    return Run(done.returncode, wall, cpu, decode(done.stdout), decode(done.stderr))


def available(command: str, option: str, env: dict[str, str]) -> str | None:
    """``None`` when ``ink-tui COMMAND --help`` describes ``option``; else why not."""
    try:
        run = run_timed(ink(command, "--help"), env, timeout=120)
    except subprocess.TimeoutExpired:
        return f"`ink-tui {command} --help` hung"
    if run.code == 0 and option in run.stdout and command in run.stdout:
        return None
    return f"`ink-tui {command}` not available yet"


def rg_command(query: str, tree: Path) -> list[str]:
    """A fair text search over the same files: fixed string, any case, a count per file."""
    if shutil.which("rg"):
        return ["rg", "-F", "-i", "-c", "--no-messages", query, str(tree)]
    return ["grep", "-r", "-F", "-i", "-c", query, str(tree)]


def rg_name() -> str:
    return "rg -F -i -c" if shutil.which("rg") else "grep -r -F -i -c (rg not installed)"


# -- the pseudo-terminal ------------------------------------------------------------------------


def wait_until(
    terminal: Terminal, offset: int, test: Callable[[str], bool], timeout: float = TIMEOUT
) -> float:
    """``perf_counter()`` when the output written after byte ``offset`` first passes ``test``
    (given the text, escape sequences stripped, from 4 KB before the newest read)."""
    deadline = time.perf_counter() + timeout
    seen = offset
    if test(plain(bytes(terminal.output[offset:]))):
        return time.perf_counter()
    while time.perf_counter() < deadline:
        if terminal.read(deadline - time.perf_counter()):
            if test(plain(bytes(terminal.output[max(offset, seen - 4096) :]))):
                return time.perf_counter()
            seen = len(terminal.output)
    raise TimeoutError(f"{test.__doc__ or 'the expected text'} not seen within {timeout} s")


def wait_after(terminal: Terminal, offset: int, marker: str, timeout: float = TIMEOUT) -> float:
    """``perf_counter()`` when the output written after byte ``offset`` first holds ``marker``."""

    def holds(text: str) -> bool:
        return marker in text

    holds.__doc__ = repr(marker)
    return wait_until(terminal, offset, holds, timeout)


def counted(at_least: int) -> Callable[[str], bool]:
    """A test: the picker's status line counts ``at_least`` sessions (``N sessions``)."""

    def test(text: str) -> bool:
        return any(int(found) >= at_least for found in _COUNT.findall(text))

    test.__doc__ = f"a count of {at_least} sessions"
    return test


_COUNT = re.compile(r"(\d+) sessions?\b")


def settle(terminal: Terminal, quiet: float = SETTLE, limit: float = TIMEOUT) -> None:
    """Read until nothing arrives for ``quiet`` seconds (at most ``limit`` seconds)."""
    deadline = time.perf_counter() + limit
    while time.perf_counter() < deadline and terminal.read(quiet):
        pass


@contextlib.contextmanager
def spawned(argv: Sequence[str], env: dict[str, str]) -> Iterator[Terminal]:
    terminal = Terminal.spawn(argv, env)
    try:
        yield terminal
    except (EOFError, TimeoutError):
        print("  the app ended or hung; its last output:", file=sys.stderr)
        print(plain(bytes(terminal.output))[-1500:], file=sys.stderr)
        raise
    finally:
        terminal.close()
        with contextlib.suppress(ProcessLookupError, ChildProcessError):
            os.kill(terminal.pid, signal.SIGKILL)
            os.waitpid(terminal.pid, 0)


def launch(argv: Sequence[str], marker: str, env: dict[str, str]) -> float:
    with spawned(argv, env) as terminal:
        return wait_after(terminal, 0, marker) - terminal.started


def peak_rss_kb(pid: int) -> tuple[int, int]:
    """``(VmHWM, VmRSS)`` of a live process, in KB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value
    return int(fields["VmHWM"].split()[0]), int(fields["VmRSS"].split()[0])


# -- scenarios ----------------------------------------------------------------------------------


@dataclass
class Bench:
    tree: Tree
    runs: int
    home: Path
    warm: Path | None = None  # $XDG_CACHE_HOME holding a full index
    warm_missing: str = "the index could not be built"
    rows: list[Row] = field(default_factory=list)
    minimal: list[float] = field(default_factory=list)

    def cold(self) -> dict[str, str]:
        """A fresh, empty cache dir (never indexed)."""
        return environment(self.home, Path(tempfile.mkdtemp(prefix="cold-", dir=self.home)))

    def warm_env(self) -> dict[str, str]:
        assert self.warm is not None
        return environment(self.home, self.warm)

    def paired(
        self, argv: Sequence[str], marker: str, env: Callable[[], dict[str, str]]
    ) -> tuple[float, float]:
        """Medians of the app and of the minimal app, launched alternately."""
        ours: list[float] = []
        base: list[float] = []
        minimal = [sys.executable, "-c", MINIMAL_APP]
        for _ in range(self.runs):
            base.append(launch(minimal, MINIMAL_MARKER, environment(self.home, self.home / "m")))
            ours.append(launch(argv, marker, env()))
        self.minimal += base
        print(f"    minimal app: {fmt_runs(base)}   ink-tui: {fmt_runs(ours)}", flush=True)
        return statistics.median(ours), statistics.median(base)


@dataclass
class Row:
    measure: str
    reference: str
    ours: str
    figure: str  # the ratio or the figure the goal is about
    goal: str
    verdict: str


def fmt_runs(values: Sequence[float]) -> str:
    return "[" + ", ".join(f"{value * 1000:,.0f}" for value in values) + "] ms"


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.0f} ms"


def verdict(ok: bool) -> str:
    return "meets" if ok else "misses"


def na(bench: Bench, measure: str, goal: str, why: str, reference: str = "") -> None:
    print(f"  n/a: {why}", flush=True)
    bench.rows.append(Row(measure, reference, "n/a", "n/a", goal, f"n/a: {why}"))


def measure_index(bench: Bench, missing: str | None) -> None:
    tree = bench.tree
    measure = "first full index"
    goal = "≥ 80 MB/s wall, index ≤ 30 % of session bytes"
    print(f"\nfirst full index: ink-tui index --all over {tree.bytes / 1e9:.2f} GB", flush=True)
    reference = run_timed([sys.executable, "-c", PARSE_ALL, str(tree.path)], os.environ.copy())
    ref_text = (
        f"read + orjson.loads every line: {tree.bytes / 1e6 / reference.cpu:,.0f} MB/s CPU"
        if reference.code == 0
        else "reference failed"
    )
    print(f"  reference ({ref_text}; {reference.wall:.1f} s wall)", flush=True)
    if missing:
        bench.warm_missing = missing
        na(bench, measure, goal, missing, ref_text)
        return
    cache = Path(tempfile.mkdtemp(prefix="warm-", dir=bench.home))
    env = environment(bench.home, cache)
    first = run_timed(ink("index", "--all", "--sessions-dir", tree.path, "--cwd", CWD), env)
    if first.code != 0:
        bench.warm_missing = f"`ink-tui index --all` failed: {first.first_error}"
        na(bench, measure, goal, bench.warm_missing, ref_text)
        return
    bench.warm = cache
    again = run_timed(ink("index", "--all", "--sessions-dir", tree.path, "--cwd", CWD), env)
    folder = index_file(cache).parent
    index_bytes = sum(
        path.stat().st_size for path in folder.glob(index_file(cache).name + "*") if path.is_file()
    )
    all_bytes = sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())
    wall_rate, cpu_rate = tree.bytes / 1e6 / first.wall, tree.bytes / 1e6 / max(first.cpu, 1e-9)
    share = index_bytes / tree.bytes * 100
    print(
        f"  first index: {first.wall:.1f} s wall, {first.cpu:.1f} s CPU (this process: the worker "
        "processes of a parallel index are not counted)",
        flush=True,
    )
    print(f"    {wall_rate:,.0f} MB/s wall, {cpu_rate:,.0f} MB/s per CPU second", flush=True)
    print(
        f"  index: {index_bytes / 1e6:,.1f} MB ({share:.1f} % of the sessions; "
        f"{all_bytes / 1e6:,.1f} MB in {folder})",
        flush=True,
    )
    print(f"  again, nothing changed: {again.wall:.2f} s wall, {again.cpu:.2f} s CPU", flush=True)
    for line in first.stdout.strip().splitlines()[-3:]:
        print(f"  | {line}")
    bench.rows.append(
        Row(
            measure,
            ref_text,
            f"{first.wall:.1f} s wall, {first.cpu:.1f} s CPU; index {index_bytes / 1e6:,.1f} MB",
            f"{wall_rate:,.0f} MB/s wall, {share:.1f} %",
            goal,
            verdict(wall_rate >= 80 and share <= 30),
        )
    )


PARSE_ALL = """
import os, sys, orjson
for root, _, files in os.walk(sys.argv[1]):
    for name in files:
        if name.endswith(".jsonl"):
            with open(os.path.join(root, name), "rb") as handle:
                for line in handle:
                    if line.strip():
                        orjson.loads(line)
"""


def measure_open(bench: Bench) -> None:
    big = bench.tree.big
    argv = ink("--sessions-dir", bench.tree.path, "--cwd", CWD, big)
    size = big.stat().st_size / 1e6
    for warm, goal in ((False, 1.5), (True, 1.3)):
        state = "already indexed" if warm else "never indexed"
        measure = f"{size:.0f} MB session, launch → last screen, {state}"
        print(f"\n{measure}", flush=True)
        if warm and bench.warm is None:
            na(bench, measure, f"≤ {goal}x minimal app", bench.warm_missing)
            continue
        ours, base = bench.paired(argv, END_MARKER, bench.warm_env if warm else bench.cold)
        ratio = ours / base
        bench.rows.append(
            Row(measure, ms(base), ms(ours), f"{ratio:.1f}x", f"≤ {goal}x", verdict(ratio <= goal))
        )


def measure_picker(bench: Bench) -> None:
    argv = ink("--sessions-dir", bench.tree.path, "--cwd", CWD)
    count = bench.tree.picker_sessions
    for warm, goal in ((True, 1.3), (False, 3.0)):
        state = "warm (indexed)" if warm else "cold (no index)"
        measure = f"picker, {count}-session project, {state}"
        print(f"\n{measure}: launch → first painted row", flush=True)
        if warm and bench.warm is None:
            na(bench, measure, f"≤ {goal}x minimal app", bench.warm_missing)
            continue
        ours, base = bench.paired(argv, PICKER_MARKER, bench.warm_env if warm else bench.cold)
        ratio = ours / base
        bench.rows.append(
            Row(measure, ms(base), ms(ours), f"{ratio:.1f}x", f"≤ {goal}x", verdict(ratio <= goal))
        )


SCREENFUL = 30  # rows: more than the picker's list shows at 120x40


def tab_once(bench: Bench, env: dict[str, str]) -> tuple[float, float, float]:
    """Seconds from Tab to: the first all-projects row, a screenful counted, every row counted."""
    total = bench.tree.sessions
    with spawned(ink("--sessions-dir", bench.tree.path, "--cwd", CWD), env) as terminal:
        wait_after(terminal, 0, PICKER_MARKER)
        settle(terminal, 0.5, 30)
        offset = len(terminal.output)
        sent = time.perf_counter()
        os.write(terminal.fd, b"\t")
        first = wait_after(terminal, offset, TAB_MARKER, 60) - sent
        screen = wait_until(terminal, offset, counted(min(total, SCREENFUL)), 120) - sent
        every = wait_until(terminal, offset, counted(total), 300) - sent
    return first, screen, every


def measure_tab(bench: Bench) -> None:
    """Tab in the picker: cold first (today's way: a scan), then warm (the goal)."""
    total = bench.tree.sessions
    reference = ""
    for warm in (False, True):
        state = "warm" if warm else "cold (no index; the reference)"
        measure = f"Tab → all projects ({total:,} sessions), {state}"
        print(f"\n{measure}", flush=True)
        if warm and bench.warm is None:
            na(bench, measure, "rows within 150 ms", bench.warm_missing, reference)
            continue
        runs = [
            tab_once(bench, bench.warm_env() if warm else bench.cold()) for _ in range(bench.runs)
        ]
        first, screen, every = (statistics.median(run[i] for run in runs) for i in range(3))
        print(
            f"    first row {fmt_runs([run[0] for run in runs])}, {SCREENFUL} rows counted "
            f"{fmt_runs([run[1] for run in runs])}, all {total} counted "
            f"{fmt_runs([run[2] for run in runs])}",
            flush=True,
        )
        figures = f"first row {ms(first)}, {SCREENFUL} rows {ms(screen)}, all {ms(every)}"
        if not warm:
            reference = f"cold: {figures}"
        bench.rows.append(
            Row(
                measure,
                "" if not warm else reference,
                figures,
                f"{ms(screen)} to {SCREENFUL} rows",
                "≤ 150 ms" if warm else "(reference)",
                verdict(screen <= 0.150) if warm else "info",
            )
        )


def measure_rss(bench: Bench) -> None:
    big = bench.tree.big
    size = big.stat().st_size / 1e6
    with spawned(
        [sys.executable, "-c", MINIMAL_APP], environment(bench.home, bench.home / "m")
    ) as t:
        wait_after(t, 0, MINIMAL_MARKER)
        settle(t, 1.0, 10)
        minimal_hwm, _ = peak_rss_kb(t.pid)
    for warm in (True, False):
        state = "indexed" if warm else "never indexed"
        measure = f"peak RSS, {size:.0f} MB session open, g then G, {state}"
        print(f"\n{measure}", flush=True)
        if warm and bench.warm is None:
            na(
                bench,
                measure,
                "≤ 250 MB",
                bench.warm_missing,
                f"minimal app {minimal_hwm / 1024:.0f} MB",
            )
            continue
        env = bench.warm_env() if warm else bench.cold()
        with spawned(ink("--sessions-dir", bench.tree.path, "--cwd", CWD, big), env) as terminal:
            wait_after(terminal, 0, END_MARKER)
            settle(terminal)
            for key in (b"g", b"G"):
                os.write(terminal.fd, key)
                settle(terminal)
            hwm, rss = peak_rss_kb(terminal.pid)
        print(f"    VmHWM {hwm / 1024:,.0f} MB, VmRSS {rss / 1024:,.0f} MB at the end", flush=True)
        bench.rows.append(
            Row(
                measure,
                f"minimal app {minimal_hwm / 1024:.0f} MB",
                f"{hwm / 1024:,.0f} MB (now {rss / 1024:,.0f} MB)",
                f"{hwm / 1024:,.0f} MB",
                "≤ 250 MB",
                verdict(hwm / 1024 <= 250) if warm else f"{verdict(hwm / 1024 <= 250)} (info)",
            )
        )


def measure_cli(bench: Bench, missing: str | None) -> None:
    tree = bench.tree
    measure = f"`ink-tui search Q --all`, {tree.sessions:,} sessions / {tree.bytes / 1e9:.2f} GB"
    print(f"\n{measure}, warm, beside {rg_name()} (median of {bench.runs} after one warm-up)")
    ours_all: list[float] = []
    rg_all: list[float] = []
    for query in CLI_QUERIES:
        rg = rg_command(query, tree.path)
        subprocess.run(rg, capture_output=True, check=False)
        rg_runs = [run_timed(rg, os.environ.copy()) for _ in range(bench.runs)]
        files = sum(1 for line in rg_runs[0].stdout.splitlines() if not line.endswith(":0"))
        rg_time = statistics.median(run.wall for run in rg_runs)
        rg_all.append(rg_time)
        line = f"  {query!r:>14}: {rg_name().split(' (')[0]} {ms(rg_time)} ({files} files)"
        if missing is None and bench.warm is not None:
            argv = ink("search", query, "--all", "--sessions-dir", tree.path, "--cwd", CWD)
            env = bench.warm_env()
            run_timed(argv, env)
            runs = [run_timed(argv, env) for _ in range(bench.runs)]
            if runs[0].code != 0:
                line += f"; ink-tui search failed: {runs[0].first_error}"
                missing = f"`ink-tui search` failed: {runs[0].first_error}"
            else:
                ours = statistics.median(run.wall for run in runs)
                ours_all.append(ours)
                hits = len(runs[0].stdout.strip().splitlines())
                line += f"; ink-tui search {ms(ours)} ({hits} lines), {ours / rg_time:.2f}x"
        print(line, flush=True)
    reference = f"{rg_name().split(' (')[0]} {ms(statistics.median(rg_all))}"
    if missing is None and bench.warm is None:
        missing = bench.warm_missing
    if missing is not None or len(ours_all) != len(rg_all):
        na(bench, measure, f"≤ 0.5x {rg_name()}", missing or "search failed", reference)
        return
    ratio = statistics.median(ours / rg for ours, rg in zip(ours_all, rg_all, strict=True))
    bench.rows.append(
        Row(
            measure,
            reference,
            ms(statistics.median(ours_all)),
            f"{ratio:.2f}x",
            "≤ 0.5x rg",
            verdict(ratio <= 0.5),
        )
    )


def measure_search(bench: Bench) -> None:
    measure = f"search in-process, {len(SEARCH_QUERIES)} queries"
    goal = "p50 ≤ 20 ms"
    print(f"\n{measure} (median of 5 per query after one warm-up; projects=None, limit=50)")
    try:
        open_index, search_index = search_api()
    except ImportError as error:
        na(bench, measure, goal, f"in-process search not available yet ({error})")
        return
    if bench.warm is None:
        na(bench, measure, goal, bench.warm_missing)
        return
    started = time.perf_counter()
    try:
        index = open_index(index_file(bench.warm))
    except Exception as error:  # an API still in the making: say it, go on
        na(bench, measure, goal, f"CatalogIndex.open failed: {error!r}"[:160])
        return
    opened = time.perf_counter() - started
    medians: list[float] = []
    for query in SEARCH_QUERIES:
        try:
            hits = search_index(index, query, projects=None, limit=50)
            times = []
            for _ in range(5):
                started = time.perf_counter()
                search_index(index, query, projects=None, limit=50)
                times.append(time.perf_counter() - started)
        except Exception as error:
            print(f"  {query!r:>36}: failed: {error!r}"[:160])
            continue
        medians.append(statistics.median(times))
        print(f"  {query!r:>36}: {statistics.median(times) * 1000:7.1f} ms  {len(hits):>3} hits")
    with contextlib.suppress(Exception):
        index.close()
    if not medians:
        na(bench, measure, goal, "every query failed")
        return
    ordered = sorted(medians)
    p50 = statistics.median(ordered)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    print(f"  index opened in {ms(opened)}; p50 {ms(p50)}, p95 {ms(p95)}, max {ms(ordered[-1])}")
    bench.rows.append(
        Row(
            measure,
            f"index open {ms(opened)}",
            f"p50 {p50 * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms",
            f"{p50 * 1000:.1f} ms",
            goal,
            verdict(p50 <= 0.020),
        )
    )


# -- main ---------------------------------------------------------------------------------------

MEASURES = ("index", "open", "picker", "tab", "rss", "cli", "search")


def wait_for_tests(skip: bool) -> None:
    """The machine is shared: never measure while a test suite runs (wait for it)."""
    if skip:
        return
    mine = {os.getpid(), os.getppid()}
    while True:
        found = subprocess.run(["pgrep", "-f", "pytest"], capture_output=True, text=True)
        pids = [int(pid) for pid in found.stdout.split() if int(pid) not in mine]
        if not pids:
            return
        print(f"  a test suite is running (pids {pids}); waiting …", flush=True)
        time.sleep(15)


def print_rows(rows: Sequence[Row], reference: str = "reference", ours: str = "ink-tui") -> None:
    """The goals' table in Markdown (the benchmarks that compare with a reference share it)."""
    print(f"| measure | {reference} | {ours} | figure | goal | verdict |")
    print("|---|---|---|---|---|---|")
    for row in rows:
        print(
            f"| {row.measure} | {row.reference} | {row.ours} | {row.figure} | {row.goal} "
            f"| {row.verdict} |"
        )


def wanted_measures(
    parser: argparse.ArgumentParser, only: str, measures: Sequence[str]
) -> set[str]:
    """The measures ``--only`` names (a usage error for one that does not exist)."""
    wanted = {name.strip() for name in only.split(",") if name.strip()}
    if unknown := wanted - set(measures):
        parser.error(f"unknown measures: {', '.join(sorted(unknown))}")
    return wanted


def measure_parser(
    doc: str, measures: Sequence[str], runs: int, *, quick: str, runs_help: str
) -> argparse.ArgumentParser:
    """The options of every benchmark over the index bench's tree: ``--quick``, ``--runs``,
    ``--only`` (a subset of ``measures``) and ``--no-wait``; a benchmark may add its own."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=quick)
    parser.add_argument("--runs", type=int, default=runs, help=runs_help)
    parser.add_argument(
        "--only", default=",".join(measures), help=f"comma-separated subset of {','.join(measures)}"
    )
    parser.add_argument("--no-wait", action="store_true", help="do not wait for running pytest")
    return parser


def parsed_measures(
    parser: argparse.ArgumentParser, argv: Sequence[str] | None, measures: Sequence[str]
) -> tuple[argparse.Namespace, set[str]]:
    """The arguments, and the measures ``--only`` names."""
    args = parser.parse_args(argv)
    return args, wanted_measures(parser, args.only, measures)


def print_table(bench: Bench) -> None:
    print("\nissue 10 goals (the minimal app's launches in this run:", end=" ")
    print(f"{fmt_runs(bench.minimal)})" if bench.minimal else "none)")
    print_rows(bench.rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = measure_parser(
        __doc__,
        MEASURES,
        RUNS,
        quick="a 130 MB tree instead of 1.3 GB",
        runs_help="launches per figure (median)",
    )
    args, wanted = parsed_measures(parser, argv, MEASURES)

    spec = QUICK if args.quick else FULL
    print(f"preparing data ({spec.name}, cached under {CACHE_ROOT}/ink-tui-bench-index-…)")
    tree = cached_tree(spec)
    print(
        f"  {tree.path}: {tree.sessions:,} sessions, {tree.bytes / 1e9:.2f} GB, "
        f"{len(tree.meta['projects'])} projects ({tree.picker_sessions} in the --cwd one), "
        f"biggest {tree.big.stat().st_size / 1e6:.0f} MB",
        flush=True,
    )
    wait_for_tests(args.no_wait)
    read_all(tree.path)
    home = Path(tempfile.mkdtemp(prefix="ink-tui-bench-index-run-"))
    try:
        env = environment(home, home / "probe")
        missing_index = available("index", "--rebuild", env)
        missing_search = available("search", "--limit", env)
        print(f"  ink-tui index: {missing_index or 'available'}")
        print(f"  ink-tui search: {missing_search or 'available'}")
        print(f"  text search reference: {rg_name()}")
        # one throw-away launch of each: bytecode compiled, files cached
        launch([sys.executable, "-c", MINIMAL_APP], MINIMAL_MARKER, environment(home, home / "m"))
        launch(
            ink("--sessions-dir", tree.path, "--cwd", CWD),
            PICKER_MARKER,
            environment(home, home / "w"),
        )
        bench = Bench(tree, args.runs, home)
        if "index" in wanted or wanted & {"open", "picker", "tab", "rss", "cli", "search"}:
            measure_index(bench, missing_index)
            if "index" not in wanted:
                bench.rows = []
        steps = {
            "open": measure_open,
            "picker": measure_picker,
            "tab": measure_tab,
            "rss": measure_rss,
            "cli": lambda b: measure_cli(b, missing_search),
            "search": measure_search,
        }
        for name, step in steps.items():
            if name in wanted:
                step(bench)
        print_table(bench)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return 0


def test_bench_index() -> None:
    """Collected by ``pytest tests/bench/bench_index.py -s``: ``--quick``; asserts nothing."""
    main(["--quick", "--no-wait"])


if __name__ == "__main__":
    raise SystemExit(main())
