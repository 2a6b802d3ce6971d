"""Benchmark: the goals of ``ink-tui mcp`` (the recall server), each beside references measured in
the same run.

Run by hand (never in CI, never asserts on time): ``python tests/bench/bench_mcp.py``
(``--quick`` for the small tree, ``--runs N`` fresh servers for the first answer, ``--only
first,searches,mixed`` for some measures; ``--help``). Through pytest: ``python -m pytest
tests/bench/bench_mcp.py -s`` runs ``--quick``.

The data: the sessions dir is the tree of ``bench_index.py`` (2,052 sessions, 1.3 GB, the
``--cwd`` project holding 400; ``--quick``: 212 sessions, 130 MB), generated there and cached
under ``/tmp/ink-tui-bench-index-<hash>``. Its index is built once by ``ink-tui index --all``
(untimed, cached under ``/tmp/ink-tui-bench-mcp-<hash>``) and brought up to date at the start of
each run (untimed: a cached index may be older than the code that reads it); no mirrored
machine. The files are in the page cache throughout.

Every figure comes from a real ``python -m ink_tui --sessions-dir TREE --cwd CWD mcp`` process
driven by the ``mcp`` SDK's own client over stdio (``stdio_client``, ``ClientSession``), timed
in this process around the client's calls (what an agent waits for: the JSON-RPC round trip and
the client's parsing included). The searches: 5 words of differing frequency in the tree (rare
to nearly everywhere), ``scope="all"``, ``limit=10``.

- first: spawn → ``initialize`` returned → the first ``search_sessions`` answer, in a fresh
  server (goal: ≤ 300 ms), median of ``--runs``; alternately with two references, each a fresh
  process timed from spawn to exit: ``python -c pass`` (the interpreter's start) and ``python -c
  "import mcp.server.mcpserver"`` (the SDK's import alone).
- searches: in one server, after its first call, 50 ``search_sessions`` (the 5 words in turn):
  median (goal: ≤ 20 ms) and p90; the reference is the median of 20 ``ping`` round trips (the
  transport and the SDK alone).
- mixed: in a fresh server, 100 calls: searches (scopes project and all), ``list_sessions``
  (project, all), and ``read_session``, ``session_context``, ``session_changes`` of sessions the
  searches found (and the tree's biggest session when none did: the peak covers it), each with a
  ``budget_tokens`` of 500, 4,000 or 20,000. The server's peak RSS (``VmHWM`` of
  ``/proc/PID/status``, read after every call) after them (goal: ≤ 120 MB), beside a process that
  only imports the SDK.

Budgets (goal: 100 %): every answer of the run, its text content (what the model reads) counted
as ``ceil(len(text) / 4)`` tokens, must be within the ``budget_tokens`` asked (4,000 when not
given); those that are not are listed. Tool errors, answers that say the index was still being
updated, and the server's stderr are printed too.
"""

from __future__ import annotations

import hashlib
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any, TextIO

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

BENCH = Path(__file__).resolve().parent
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

from bench_archive import wait_for_suites  # noqa: E402
from bench_index import (  # noqa: E402
    CACHE_ROOT,
    CWD,
    FULL,
    QUICK,
    Row,
    Tree,
    cached_build,
    cached_tree,
    environment,
    fmt_runs,
    index_file,
    ink,
    measure_parser,
    ms,
    parsed_measures,
    peak_rss_kb,
    print_rows,
    read_all,
    rg_command,
    run_timed,
    verdict,
)

VERSION = "mcp-v1"
RUNS = 5
SCOPE = "all"  # the timed searches look at every project of the tree
LIMIT = 10
DEFAULT_BUDGET = 4000  # the tools' budget_tokens when none is given
BUDGETS = (500, 4000, 20000)
# (rare … nearly everywhere): in 2, 379, 1,008, 1,029 and 1,995 of the 2,052 sessions of the full
# tree (2, 39, 97, 111 and 200 of the 212 of the quick one)
QUERIES = ("release", "mypy", "sidebar", "exception", "retry")
FIRST_QUERY = "mypy"
SEARCHES = 50
PINGS = 20
MIXED = 100
TIMEOUT = 120.0  # seconds a call may take before the client gives up
GOAL_FIRST = 0.300
GOAL_SEARCH = 0.020
GOAL_RSS_MB = 120
PYTHON_PASS = [sys.executable, "-c", "pass"]
SDK_IMPORT = [sys.executable, "-c", "import mcp.server.mcpserver"]
SDK_IDLE = "import mcp.server.mcpserver, sys; print('ready', flush=True); sys.stdin.read()"


# -- the index ----------------------------------------------------------------------------------


def index_root(tree: Tree) -> Path:
    digest = hashlib.sha256(f"{VERSION}\0{tree.path}".encode())
    return CACHE_ROOT / f"ink-tui-bench-mcp-{digest.hexdigest()[:10]}"


def warm_index(tree: Tree, home: Path) -> Path:
    """``$XDG_CACHE_HOME`` holding the tree's index (built once, cached), brought up to date."""
    argv = ink("index", "--all", "--sessions-dir", tree.path, "--cwd", CWD)

    def build(target: Path) -> dict[str, Any]:
        print("  first index: ink-tui index --all …", flush=True)
        run = run_timed(argv, environment(home, target))
        if run.code != 0:
            raise RuntimeError(f"ink-tui index --all failed: {run.first_error}")
        return {"wall": round(run.wall, 1), "bytes": index_file(target).stat().st_size}

    cache = index_root(tree) / f"{tree.path.name}-cache"
    meta = cached_build(cache, build)
    run = run_timed(argv, environment(home, cache))
    if run.code != 0:
        raise RuntimeError(f"ink-tui index --all failed: {run.first_error}")
    print(
        f"  index {index_file(cache)} ({meta['bytes'] / 1e6:,.0f} MB, first built in "
        f"{meta['wall']} s); brought up to date in {ms(run.wall)}",
        flush=True,
    )
    return cache


# -- the client ---------------------------------------------------------------------------------


@dataclass
class Call:
    tool: str
    arguments: dict[str, Any]
    seconds: float
    text: str  # the answer's text content: what the model reads
    error: bool
    structured: dict[str, Any] | None
    hwm_kb: int = 0  # the server's VmHWM after the call (0: not read)

    @property
    def budget(self) -> int:
        return int(self.arguments.get("budget_tokens", DEFAULT_BUDGET))

    @property
    def tokens(self) -> int:
        return math.ceil(len(self.text) / 4)

    @property
    def updating(self) -> bool:
        """The answer says the index was still being brought up to date (or could not be)."""
        return bool(self.structured and "index" in self.structured)

    def label(self) -> str:
        shown = ", ".join(
            f"{key}={Path(value).name!r} ({session_mb(value)})"
            if key == "session"
            else f"{key}={value!r}"
            for key, value in self.arguments.items()
        )
        return f"{self.tool}({shown})"


def session_mb(file: str) -> str:
    try:
        return f"{Path(file).stat().st_size / 1e6:,.1f} MB"
    except OSError:
        return "?"


@dataclass
class Server:
    session: ClientSession
    started: float  # perf_counter() just before the spawn
    initialized: float  # seconds from the spawn to initialize's answer
    pid: int | None = None
    calls: list[Call] = field(default_factory=list)

    async def call(self, tool: str, arguments: dict[str, Any], *, rss: bool = False) -> Call:
        started = time.perf_counter()
        result = await self.session.call_tool(tool, arguments)
        seconds = time.perf_counter() - started
        text = "\n".join(block.text for block in result.content if block.type == "text")
        call = Call(
            tool, arguments, seconds, text, bool(result.is_error), result.structured_content
        )
        if rss:
            call.hwm_kb = peak_rss_kb(self.server_pid())[0]
        self.calls.append(call)
        return call

    def server_pid(self) -> int:
        if self.pid is None:
            self.pid = server_pid()
        return self.pid


_PPID = re.compile(r"^PPid:\s+(\d+)$", re.MULTILINE)


def server_pid() -> int:
    """The pid of the ``ink_tui … mcp`` child of this process (``stdio_client`` spawns it)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:  # gone meanwhile
            continue
        parent = _PPID.search(status)
        if parent and int(parent.group(1)) == os.getpid() and b"ink_tui" in argv and b"mcp" in argv:
            found.append(int(entry.name))
    if len(found) != 1:
        raise RuntimeError(f"expected one ink-tui mcp child of this process, found {found}")
    return found[0]


@dataclass
class Bench:
    tree: Tree
    runs: int
    home: Path
    cache: Path
    errlog: TextIO  # the servers' stderr
    rows: list[Row] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)  # every call of the run (budgets)
    shutdowns: list[float] = field(default_factory=list)  # stdin closed → the server gone

    def env(self) -> dict[str, str]:
        return environment(self.home, self.cache)

    @asynccontextmanager
    async def server(self) -> AsyncIterator[Server]:
        """A fresh ``ink-tui mcp``, initialized; every call it answered is kept."""
        argv = ink("--sessions-dir", self.tree.path, "--cwd", CWD, "mcp")
        params = StdioServerParameters(command=argv[0], args=argv[1:], env=self.env())
        started = time.perf_counter()
        async with (
            stdio_client(params, errlog=self.errlog) as (read, write),
            ClientSession(read, write, read_timeout_seconds=TIMEOUT) as session,
        ):
            await session.initialize()
            server = Server(session, started, time.perf_counter() - started)
            try:
                yield server
            finally:
                self.calls += server.calls
                closing = time.perf_counter()
        self.shutdowns.append(time.perf_counter() - closing)


def search(query: str, **more: Any) -> dict[str, Any]:
    return {"query": query, "scope": SCOPE, "limit": LIMIT, **more}


# -- measures -----------------------------------------------------------------------------------


async def first_answer(bench: Bench) -> tuple[float, float, Call]:
    """Spawn → initialize, spawn → the first search's answer, in a fresh server."""
    async with bench.server() as server:
        call = await server.call("search_sessions", search(FIRST_QUERY))
        answered = time.perf_counter() - server.started
        return server.initialized, answered, call


def measure_first(bench: Bench) -> None:
    print(
        f"\nfirst answer: spawn → search_sessions({FIRST_QUERY!r}, scope={SCOPE!r}) answered, "
        f"fresh server, {bench.runs} runs, alternately with python -c pass and the SDK's import",
        flush=True,
    )
    passes: list[float] = []
    imports: list[float] = []
    inits: list[float] = []
    firsts: list[float] = []
    calls: list[Call] = []
    for _ in range(bench.runs):
        passes.append(run_timed(PYTHON_PASS, bench.env()).wall)
        imports.append(run_timed(SDK_IMPORT, bench.env()).wall)
        initialized, answered, call = anyio.run(first_answer, bench)
        inits.append(initialized)
        firsts.append(answered)
        calls.append(call)
    print(f"  python -c pass: {fmt_runs(passes)}", flush=True)
    print(f"  python -c 'import mcp.server.mcpserver': {fmt_runs(imports)}", flush=True)
    print(f"  ink-tui mcp, spawn → initialize returned: {fmt_runs(inits)}", flush=True)
    print(f"  ink-tui mcp, spawn → first search answered: {fmt_runs(firsts)}", flush=True)
    print(f"  the search call alone: {fmt_runs([call.seconds for call in calls])}", flush=True)
    print(f"  {answer_summary(calls[0])}", flush=True)
    first, ref_pass, ref_import = (statistics.median(v) for v in (firsts, passes, imports))
    bench.rows.append(
        Row(
            "fresh `ink-tui mcp`: spawn → first search_sessions answered (initialize included)",
            f"python -c pass {ms(ref_pass)}; SDK import {ms(ref_import)}",
            f"{ms(first)} (initialize at {ms(statistics.median(inits))})",
            f"{ms(first)}: {first / ref_pass:.1f}x python, {first / ref_import:.1f}x SDK import",
            f"≤ {ms(GOAL_FIRST)}",
            verdict(first <= GOAL_FIRST),
        )
    )


def answer_summary(call: Call) -> str:
    """What a search answered, in a few words."""
    found = call.structured or {}
    if call.error:
        return f"error: {call.text[:160]}"
    if not found.get("found"):
        return f"found nothing: {found.get('searched')}"
    return (
        f"{len(found['hits'])} hits shown of {found['totalHits']} in {found['totalSessions']} "
        f"sessions, {call.tokens:,} tokens"
    )


def nearest_rank(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


async def later_searches(bench: Bench) -> tuple[list[Call], list[float]]:
    async with bench.server() as server:
        await server.call("search_sessions", search(FIRST_QUERY))
        calls = [
            await server.call("search_sessions", search(QUERIES[number % len(QUERIES)]))
            for number in range(SEARCHES)
        ]
        pings = []
        for _ in range(PINGS):
            started = time.perf_counter()
            await server.session.send_ping()
            pings.append(time.perf_counter() - started)
        return calls, pings


def frequency(tree: Tree, query: str) -> int:
    """Sessions of the tree holding ``query`` (as a fixed string, any case)."""
    files = subprocess.run(rg_command(query, tree.path), capture_output=True, text=True).stdout
    return sum(1 for line in files.splitlines() if not line.endswith(":0"))


def measure_searches(bench: Bench) -> None:
    print(
        f"\nlater searches: {SEARCHES} search_sessions in one server after its first call "
        f"(scope={SCOPE!r}, limit={LIMIT}), then {PINGS} pings",
        flush=True,
    )
    calls, pings = anyio.run(later_searches, bench)
    for query in QUERIES:
        mine = [call for call in calls if call.arguments["query"] == query]
        times = [call.seconds for call in mine]
        print(
            f"  {query!r:>12} (in {frequency(bench.tree, query):,} of {bench.tree.sessions:,} "
            f"sessions): median {statistics.median(times) * 1000:.1f} ms, max "
            f"{max(times) * 1000:.1f} ms; {answer_summary(mine[0])}",
            flush=True,
        )
    times = [call.seconds for call in calls]
    median, p90 = statistics.median(times), nearest_rank(times, 0.9)
    ping = statistics.median(pings)
    print(
        f"  all {len(times)}: median {median * 1000:.1f} ms, p90 {p90 * 1000:.1f} ms, max "
        f"{max(times) * 1000:.1f} ms; ping round trip median {ping * 1000:.2f} ms",
        flush=True,
    )
    bench.rows.append(
        Row(
            f"later search_sessions, one server ({SEARCHES} calls, 5 words, limit {LIMIT})",
            f"ping round trip {ping * 1000:.1f} ms",
            f"median {median * 1000:.1f} ms, p90 {p90 * 1000:.1f} ms",
            f"{median * 1000:.1f} ms",
            f"≤ {GOAL_SEARCH * 1000:.0f} ms",
            verdict(median <= GOAL_SEARCH),
        )
    )


def mixed_plan(rng: random.Random) -> list[tuple[str, str]]:
    """The calls after the first searches, in a random order: ``(tool, scope or '')``."""
    first = len(QUERIES)
    plan = [("search_sessions", ("project", "all")[n % 2]) for n in range(30 - first)]
    plan += [("list_sessions", ("project", "all")[n % 2]) for n in range(10)]
    plan += [(tool, "") for tool in ("read_session", "session_context", "session_changes")] * 20
    rng.shuffle(plan)
    assert len(plan) == MIXED - first
    return plan


def sessions_found(calls: Sequence[Call]) -> dict[str, list[str]]:
    """The sessions the searches found: their file, the entry ids of their hits."""
    found: dict[str, list[str]] = {}
    for call in calls:
        for hit in (call.structured or {}).get("hits", []):
            found.setdefault(hit["file"], []).append(hit["entryId"])
    return found


def is_big(file: str, tree: Tree) -> bool:
    return Path(file).resolve() == tree.big.resolve()


async def mixed_calls(bench: Bench) -> tuple[Server, int, int, bool]:
    """100 mixed calls in a fresh server; its VmHWM after initialize and at the end, whether
    the searches found the tree's biggest session (else it is added to those read)."""
    rng = random.Random(5)
    async with bench.server() as server:
        started_kb = peak_rss_kb(server.server_pid())[0]
        for query in QUERIES:
            await server.call("search_sessions", search(query, budget_tokens=20000), rss=True)
        found = sessions_found(server.calls)
        big_found = any(is_big(file, bench.tree) for file in found)
        if not big_found:
            found[str(bench.tree.big)] = []
        pool = list(found.items())
        reads = 0
        for tool, scope in mixed_plan(rng):
            budget = rng.choice(BUDGETS)
            arguments: dict[str, Any]
            if tool == "search_sessions":
                arguments = {"query": rng.choice(QUERIES), "scope": scope, "limit": LIMIT}
            elif tool == "list_sessions":
                arguments = {"scope": scope, "limit": rng.choice((10, 20, 50))}
            else:
                file, entries = pool[reads % len(pool)]
                reads += 1
                arguments = {"session": file}
                if tool == "read_session":
                    choice = rng.choice(("entry", "last", "all"))
                    if choice == "entry" and entries:
                        arguments["entry_id"] = rng.choice(entries)
                    elif choice == "last":
                        arguments["turns"] = "last"
                elif tool == "session_context" and entries and rng.random() < 0.5:
                    arguments["at_entry"] = rng.choice(entries)
            await server.call(tool, {**arguments, "budget_tokens": budget}, rss=True)
        ended_kb = peak_rss_kb(server.server_pid())[0]
        return server, started_kb, ended_kb, big_found


def touches_big(call: Call, tree: Tree) -> bool:
    return "session" in call.arguments and is_big(call.arguments["session"], tree)


def sdk_idle_kb(env: dict[str, str]) -> int:
    """VmHWM of a process that only imports the SDK (a reference for the server's)."""
    with subprocess.Popen(
        [sys.executable, "-c", SDK_IDLE], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE
    ) as process:
        assert process.stdout is not None and process.stdin is not None
        process.stdout.readline()
        kb = peak_rss_kb(process.pid)[0]
        process.stdin.close()
        process.wait(30)
    return kb


def measure_mixed(bench: Bench) -> None:
    print(
        f"\n{MIXED} mixed calls in a fresh server (budgets {', '.join(map(str, BUDGETS))}): "
        "peak RSS",
        flush=True,
    )
    reference = sdk_idle_kb(bench.env())
    server, started_kb, ended_kb, big_found = anyio.run(mixed_calls, bench)
    calls = server.calls
    counts = {
        tool: sum(1 for c in calls if c.tool == tool)
        for tool in dict.fromkeys(c.tool for c in calls)
    }
    read = {c.arguments["session"] for c in calls if "session" in c.arguments}
    sizes = sorted(Path(file).stat().st_size for file in read)
    print(
        f"  calls: {', '.join(f'{tool} {count}' for tool, count in counts.items())}; "
        f"{len(read)} sessions read ({sizes[0] / 1e3:,.0f} KB to {sizes[-1] / 1e6:,.1f} MB)",
        flush=True,
    )
    on_big = [n for n, call in enumerate(calls) if touches_big(call, bench.tree)]
    before = [call.hwm_kb for call in calls[: on_big[0] if on_big else len(calls)]]
    print(
        f"  the tree's biggest session ({bench.tree.big.stat().st_size / 1e6:,.0f} MB) was "
        + ("found by the searches" if big_found else "added to them (no search found it)")
        + f"; calls on it: {len(on_big)}, VmHWM before the first: "
        + f"{max(before, default=started_kb) / 1024:,.0f} MB",
        flush=True,
    )
    for tool in counts:
        times = [c.seconds for c in calls if c.tool == tool]
        print(
            f"  {tool}: median {statistics.median(times) * 1000:,.1f} ms, max "
            f"{max(times) * 1000:,.0f} ms",
            flush=True,
        )
    print("  slowest calls:")
    for call in sorted(calls, key=lambda c: c.seconds, reverse=True)[:5]:
        print(f"    {ms(call.seconds):>9}  {call.label()}", flush=True)
    rises = [(calls[0].hwm_kb - started_kb, calls[0])] + [
        (now.hwm_kb - before.hwm_kb, now) for before, now in pairwise(calls)
    ]
    print(f"  VmHWM after initialize {started_kb / 1024:,.0f} MB; the calls that raised it most:")
    for rise, call in sorted(rises, key=lambda pair: pair[0], reverse=True)[:5]:
        if rise > 0:
            print(f"    +{rise / 1024:6,.1f} MB  {call.label()}", flush=True)
    peak = ended_kb / 1024
    print(
        f"  peak after {len(calls)} calls: {peak:,.0f} MB (a process importing the SDK alone: "
        f"{reference / 1024:,.0f} MB)",
        flush=True,
    )
    bench.rows.append(
        Row(
            f"peak RSS (VmHWM) of the server after {len(calls)} mixed calls",
            f"SDK import alone {reference / 1024:,.0f} MB",
            f"{peak:,.0f} MB (after initialize {started_kb / 1024:,.0f} MB)",
            f"{peak:,.0f} MB",
            f"≤ {GOAL_RSS_MB} MB",
            verdict(peak <= GOAL_RSS_MB),
        )
    )


def report_calls(bench: Bench) -> None:
    """Every answer of the run against its budget; errors and index notes."""
    calls = bench.calls
    if not calls:
        return
    over = [call for call in calls if call.tokens > call.budget]
    within = len(calls) - len(over)
    print(f"\nbudgets: {within} of {len(calls)} answers within budget (text / 4, rounded up)")
    for call in over:
        print(f"  over: {call.tokens:,} tokens for {call.budget:,}: {call.label()}", flush=True)
    by_budget: dict[int, list[float]] = {}
    for call in calls:
        if not call.error:
            by_budget.setdefault(call.budget, []).append(call.tokens / call.budget)
    for budget, shares in sorted(by_budget.items()):
        print(
            f"  budget {budget:,}: {len(shares)} answers, {statistics.median(shares) * 100:.0f} % "
            f"of it used (median), {max(shares) * 100:.0f} % at most",
            flush=True,
        )
    for call in calls:
        if call.error:
            print(f"  tool error: {call.label()}: {call.text[:200]}", flush=True)
    updating = [call for call in calls if call.updating]
    if updating:
        said = (updating[0].structured or {}).get("index")
        print(f"  {len(updating)} answers said the index was not up to date, e.g. {said}")
    slow = [shutdown for shutdown in bench.shutdowns if shutdown > 0.5]
    print(
        f"  server shutdowns (stdin closed → gone): {fmt_runs(bench.shutdowns)}"
        + (f"; {len(slow)} over 0.5 s" if slow else ""),
        flush=True,
    )
    bench.rows.append(
        Row(
            "answers within their budget_tokens (text content, ceil(chars / 4))",
            "",
            f"{within} of {len(calls)}",
            f"{within / len(calls) * 100:.0f} %",
            "100 %",
            verdict(within == len(calls)),
        )
    )


def report_stderr(bench: Bench) -> None:
    bench.errlog.flush()
    bench.errlog.seek(0)
    lines = bench.errlog.read().splitlines()
    if not lines:
        print("\nthe servers wrote nothing to stderr")
        return
    print(f"\nthe servers wrote {len(lines)} lines to stderr; the last ones:")
    for line in lines[-15:]:
        print(f"  | {line[:200]}")


# -- main ---------------------------------------------------------------------------------------

MEASURES = ("first", "searches", "mixed")


def main(argv: Sequence[str] | None = None) -> int:
    parser = measure_parser(
        __doc__,
        MEASURES,
        RUNS,
        quick="the 210-session tree (130 MB)",
        runs_help="fresh servers for the first answer",
    )
    args, wanted = parsed_measures(parser, argv, MEASURES)

    spec = QUICK if args.quick else FULL
    print(f"preparing data ({spec.name}, cached under {CACHE_ROOT}/ink-tui-bench-index-…)")
    tree = cached_tree(spec)
    print(
        f"  {tree.path}: {tree.sessions:,} sessions, {tree.bytes / 1e9:.2f} GB, "
        f"{tree.picker_sessions} in the --cwd project",
        flush=True,
    )
    wait_for_suites(args.no_wait)
    read_all(tree.path)
    home = Path(tempfile.mkdtemp(prefix="ink-tui-bench-mcp-run-"))
    try:
        with (home / "stderr.txt").open("w+", encoding="utf-8") as errlog:
            bench = Bench(tree, args.runs, home, warm_index(tree, home), errlog)
            # untimed: bytecode compiled, the SDK's files cached, the index looked at
            run_timed(SDK_IMPORT, bench.env())
            _, answered, _ = anyio.run(first_answer, bench)
            print(f"  warm-up server: first search answered at {ms(answered)}", flush=True)
            bench.calls = []
            bench.shutdowns = []
            steps = {"first": measure_first, "searches": measure_searches, "mixed": measure_mixed}
            for name, step in steps.items():
                if name in wanted:
                    step(bench)
            report_calls(bench)
            report_stderr(bench)
            first = (
                f"; first answer: median of {bench.runs} fresh servers" if "first" in wanted else ""
            )
            print(f"\nthe goals of ink-tui mcp, {tree.sessions:,} sessions indexed{first}")
            print_rows(bench.rows, "reference (this run)", "ink-tui mcp")
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return 0


def test_bench_mcp() -> None:
    """Collected by ``pytest tests/bench/bench_mcp.py -s``: ``--quick``; asserts nothing."""
    main(["--quick", "--no-wait", "--runs", "1"])


if __name__ == "__main__":
    raise SystemExit(main())
