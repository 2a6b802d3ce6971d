"""Benchmark: the goals of the secrets audit (``ink-tui secrets``), each beside references
measured in the same run.

Run by hand (never in CI, never asserts on time): ``python tests/bench/bench_secrets.py``
(``--quick`` for the small tree, ``--runs N`` audits for the speed (median; default 3), ``--only
speed,gate,recall`` for some measures, ``--no-wait`` not to wait while a test suite runs;
``--help``). Through pytest: ``python -m pytest tests/bench/bench_secrets.py -s`` runs ``--quick
--runs 1`` (add ``-n 0`` to see what it prints: the suite's ``-n auto`` swallows it). At the end,
the goals' table (``bench_index.print_rows``).

The data: the sessions dir is the tree of ``bench_index.py`` (2,052 sessions, 1.3 GB; ``--quick``:
212 sessions, 130 MB), generated there and cached under ``/tmp/ink-tui-bench-index-<hash>``. It is
synthetic and holds no secret: every finding in it is a false positive (printed by kind and
field, never a value). The files are in the page cache throughout (read once first, untimed).

- speed: ``python -m ink_tui --sessions-dir TREE secrets --all --json``, a real process, wall
  time, median of ``--runs`` (after one untimed audit of the tree's smallest session: bytecode
  compiled); MB/s = the bytes of the files it audits / wall time (goal: ≥ 100 MB/s). Alternately,
  in the same run, the references over the same tree: ``rg -c -F -f CLUES TREE`` (CLUES: the
  provider rules' clues, ``ink_tui.secrets.rules.RULES``, one fixed string a line: the cheap look
  for clues alone) and ``rg -c -F zzqqxx TREE`` (a string found nowhere: reading the files at
  ``rg``'s speed, a ``cat``), and ``ink-tui secrets`` of that smallest session (the fixed cost of
  a process). ``rg`` runs on every core, the audit on one: the CPU times are printed too.
- gate: one pass over the tree in-process, as ``secretsaudit.audit_files`` makes it, each part
  timed with ``time.perf_counter``: reading the file, the gate
  (``ink_tui.secrets.gate.lines_that_may_hold_secrets`` over its bytes), parsing the lines it lets
  through (``orjson``), the detector over their records (``ink_tui.secrets.find_in_value``); and
  how many lines the gate lets through of all.
- recall: in-process, one session file per planted case of ``tests/secretsets.py`` (``planted()``;
  the goal: ≥ 70 secrets of ≥ 30 kinds, ≥ 98 % found), its text in one of the fields a session
  has, in turn (prompt string, user content block, assistant text, thinking, tool-call arguments,
  tool result content, compaction summary, branch summary, session_info name), between a benign
  prompt and a benign answer; ``audit_files`` over them: a planted line with a finding is found
  (a finding of the planted kind, and the gate's yes, are counted too). One file per look-alike
  (``lookalikes()``, ≥ 30; goal: no finding), placed the same way. The same over the raw texts
  through ``find_secrets`` (found; with the exact span; of the planted kind).
"""

from __future__ import annotations

import importlib
import json
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

BENCH = Path(__file__).resolve().parent
for _folder in (BENCH, BENCH.parent):  # bench_index …, and tests/ (secretsets)
    if str(_folder) not in sys.path:
        sys.path.insert(0, str(_folder))

from bench_archive import wait_for_suites  # noqa: E402
from bench_index import (  # noqa: E402
    CACHE_ROOT,
    FULL,
    QUICK,
    Row,
    Run,
    Tree,
    cached_tree,
    environment,
    fmt_runs,
    ink,
    measure_parser,
    ms,
    parsed_measures,
    print_rows,
    read_all,
    run_timed,
    verdict,
)

from ink_tui.catalog.roots import Root  # noqa: E402
from ink_tui.catalog.secretsaudit import SessionSecrets, audit_files, files_of  # noqa: E402
from ink_tui.secrets import find_in_value, find_secrets  # noqa: E402
from ink_tui.secrets.gate import lines_that_may_hold_secrets  # noqa: E402
from ink_tui.secrets.rules import RULES  # noqa: E402

RUNS = 3
GOAL_MBPS = 100.0
GOAL_RECALL = 0.98
GOAL_PLANTED = 70
GOAL_KINDS = 30
GOAL_LOOKALIKES = 30
NOWHERE = "zzqqxx"  # found in no file: rg reads every byte and finds nothing
STAMP = "2026-11-21T09:00:00Z"
PLANTED_LINE = 3  # 1-based: the header, a benign prompt, the planted record, a benign answer
FIELDS = (
    "prompt string",
    "user content block",
    "assistant text",
    "thinking",
    "tool-call arguments",
    "tool result content",
    "compaction summary",
    "branch summary",
    "session_info name",
)

Files = list[tuple[Path, str | None, int]]


def secret_sets() -> tuple[list[tuple[str, str, str]], list[str]]:
    """``tests/secretsets.py``'s planted cases and look-alikes (imported by name: ``tests/`` is
    on the path when this runs, not a package a type checker sees)."""
    module = importlib.import_module("secretsets")
    return list(module.planted()), list(module.lookalikes())


def mb(size: float) -> str:
    return f"{size / 1e6:,.0f} MB"


def mbps(size: int, seconds: float) -> float:
    return size / 1e6 / seconds


def field_shape(path: str) -> str:
    """A finding's field without its indexes: ``message.blocks[].arguments.command``."""
    return re.sub(r"\[\d+\]", "[]", path)


@dataclass
class Bench:
    tree: Tree
    runs: int
    home: Path
    files: Files  # what ``ink-tui secrets --all`` audits in the tree
    rows: list[Row] = field(default_factory=list)
    cli_findings: list[dict[str, Any]] | None = None  # the last timed audit's (speed)

    @property
    def bytes(self) -> int:
        return sum(size for _, _, size in self.files)

    def env(self) -> dict[str, str]:
        return environment(self.home, self.home / "cache")


# -- speed --------------------------------------------------------------------------------------


def clue_file(folder: Path) -> Path:
    """The provider rules' clues, one fixed string a line (a pattern file for ``rg -f``)."""
    clues = sorted({clue for rule in RULES for clue in rule.clues})
    path = folder / "clues.txt"
    path.write_text("".join(f"{clue}\n" for clue in clues), encoding="utf-8")
    return path


def rg_fixed(tree: Path, *pattern: str) -> list[str]:
    """A count of matching lines per file, fixed strings, case kept (as the gate's clues)."""
    if shutil.which("rg"):
        return ["rg", "-c", "-F", "--no-messages", *pattern, str(tree)]
    return ["grep", "-r", "-c", "-F", *pattern, str(tree)]


def counted_lines(run: Run) -> int:
    """The lines a ``-c`` search counted, over every file."""
    if run.code not in (0, 1):
        raise RuntimeError(f"the reference search failed: {run.first_error}")
    return sum(int(line.rpartition(":")[2]) for line in run.stdout.splitlines() if line)


def audit(bench: Bench, *target: str | Path) -> Run:
    argv = ink("--sessions-dir", bench.tree.path, "secrets", *target, "--json")
    run = run_timed(argv, bench.env())
    if run.code not in (0, 1):  # 1: some secret found
        raise RuntimeError(
            f"ink-tui secrets {' '.join(map(str, target))} failed: {run.first_error}"
        )
    return run


def measure_speed(bench: Bench) -> None:
    tree = bench.tree
    size = bench.bytes
    clues = clue_file(bench.home)
    clue_count = len(clues.read_text(encoding="utf-8").splitlines())
    rg_clues = rg_fixed(tree.path, "-f", str(clues))
    rg_raw = rg_fixed(tree.path, NOWHERE)
    tool = "rg" if shutil.which("rg") else "grep -r (rg not installed)"
    smallest = min(bench.files, key=lambda item: item[2])[0]
    print(
        f"\naudit speed: ink-tui secrets --all --json over {len(bench.files):,} files, "
        f"{mb(size)}, median of {bench.runs}, alternately with {tool} -c -F -f CLUES "
        f"({clue_count} clues), {tool} -c -F {NOWHERE!r} and ink-tui secrets of one small session",
        flush=True,
    )
    warm = audit(bench, smallest)  # untimed: bytecode compiled
    print(
        f"  warm-up: ink-tui secrets {smallest.name} ({smallest.stat().st_size:,} B): "
        f"{ms(warm.wall)}"
    )
    raws: list[Run] = []
    clue_runs: list[Run] = []
    ones: list[Run] = []
    ours: list[Run] = []
    for _ in range(bench.runs):
        raws.append(run_timed(rg_raw, bench.env()))
        clue_runs.append(run_timed(rg_clues, bench.env()))
        ones.append(audit(bench, smallest))
        ours.append(audit(bench, "--all"))
    clue_lines = counted_lines(clue_runs[0])
    counted_lines(raws[0])
    bench.cli_findings = list(json.loads(ours[-1].stdout))

    def wall(runs: list[Run]) -> float:
        return statistics.median(run.wall for run in runs)

    def cpu(runs: list[Run]) -> float:
        return statistics.median(run.cpu for run in runs)

    raw, clue, one, our = (wall(runs) for runs in (raws, clue_runs, ones, ours))
    for name, runs, whole in (
        (f"{tool} -c -F {NOWHERE!r} (reading)", raws, True),
        (f"{tool} -c -F -f CLUES", clue_runs, True),
        ("ink-tui secrets SMALLEST (the fixed cost of a process)", ones, False),
        ("ink-tui secrets --all --json", ours, True),
    ):
        rate = f"; {mbps(size, wall(runs)):,.0f} MB/s" if whole else ""
        print(
            f"  {name}: {fmt_runs([run.wall for run in runs])} wall, CPU {cpu(runs):,.2f} s" + rate,
            flush=True,
        )
    print(
        f"  lines holding a clue ({tool}): {clue_lines:,}; exit codes of ink-tui: "
        f"{sorted({run.code for run in ours})}; findings: {len(bench.cli_findings):,}",
        flush=True,
    )
    print(
        f"  ink-tui / {tool} clues: {our / clue:,.1f}x the time; / reading: {our / raw:,.1f}x; "
        f"per CPU second: ink-tui {mbps(size, cpu(ours)):,.0f} MB/s, {tool} clues "
        f"{mbps(size, cpu(clue_runs)):,.0f} MB/s; without the fixed cost: "
        f"{mbps(size, max(our - one, 1e-9)):,.0f} MB/s",
        flush=True,
    )
    report_tree_findings("ink-tui secrets --all --json", bench.cli_findings)
    speed = mbps(size, our)
    bench.rows.append(
        Row(
            f"`ink-tui secrets --all --json`, {len(bench.files):,} sessions / {size / 1e9:.2f} GB",
            f"{tool} clues {mbps(size, clue):,.0f} MB/s ({ms(clue)}); reading "
            f"{mbps(size, raw):,.0f} MB/s ({ms(raw)})",
            f"{ms(our)} (CPU {cpu(ours):,.1f} s)",
            f"{speed:,.1f} MB/s ({our / clue:,.1f}x {tool} clues' time)",
            f"≥ {GOAL_MBPS:.0f} MB/s",
            verdict(speed >= GOAL_MBPS),
        )
    )
    bench.rows.append(
        Row(
            "findings on the bench tree (synthetic: none planted), `ink-tui secrets --all`",
            "",
            f"{len(bench.cli_findings):,}",
            f"{len(bench.cli_findings):,}",
            "0",
            verdict(not bench.cli_findings),
        )
    )


def report_tree_findings(where: str, findings: Sequence[dict[str, Any]]) -> None:
    """The findings on the bench tree by kind and field (never a value): false positives."""
    if not findings:
        print(f"  {where}: no finding on the tree", flush=True)
        return
    sessions = len({finding["file"] for finding in findings})
    print(
        f"  {where}: {len(findings):,} findings in {sessions:,} sessions (false positives: "
        "the tree holds no secret), by kind and field:",
        flush=True,
    )
    counts = Counter((finding["kind"], field_shape(finding["field"])) for finding in findings)
    for (kind, path), count in counts.most_common(20):
        print(f"    {count:>6,}  {kind}  {path}", flush=True)
    if len(counts) > 20:
        print(f"    … and {len(counts) - 20} more kinds and fields", flush=True)


# -- gate ---------------------------------------------------------------------------------------


@dataclass
class Profile:
    files: int = 0
    bytes: int = 0
    lines: int = 0
    through: int = 0  # lines the gate let through
    broken: int = 0  # of them, not JSON
    with_findings: int = 0  # lines with a finding
    read: float = 0.0
    gate: float = 0.0
    parse: float = 0.0
    detect: float = 0.0
    findings: list[dict[str, Any]] = field(default_factory=list)

    @property
    def total(self) -> float:
        return self.read + self.gate + self.parse + self.detect


def profile_pass(files: Files) -> Profile:
    """One pass as ``audit_files`` makes it, each part timed."""
    clock = time.perf_counter
    found = Profile()
    for path, _, _ in files:
        started = clock()
        data = path.read_bytes()
        read = clock()
        wanted = lines_that_may_hold_secrets(data)
        gated = clock()
        records: list[tuple[int, Any]] = []
        if wanted:
            lines = data.split(b"\n")
            for index in sorted(wanted):
                try:
                    records.append((index, orjson.loads(lines[index])))
                except orjson.JSONDecodeError:
                    found.broken += 1
        parsed = clock()
        results = [(index, find_in_value(record)) for index, record in records]
        detected = clock()
        found.read += read - started
        found.gate += gated - read
        found.parse += parsed - gated
        found.detect += detected - parsed
        found.files += 1
        found.bytes += len(data)
        found.lines += data.count(b"\n") + (0 if not data or data.endswith(b"\n") else 1)
        found.through += len(wanted)
        for index, findings in results:
            found.with_findings += bool(findings)
            found.findings += [
                {"file": str(path), "line": index + 1, "field": f.field, "kind": f.secret.kind}
                for f in findings
            ]
    return found


def measure_gate(bench: Bench) -> None:
    print(
        "\nthe gate, in-process: one pass over the tree as audit_files makes it, each part "
        "timed (read, gate, parse, detect)",
        flush=True,
    )
    profile = profile_pass(bench.files)
    size = profile.bytes
    share = profile.through / profile.lines if profile.lines else 0.0
    print(
        f"  {profile.files:,} files, {mb(size)}, {profile.lines:,} lines; the gate let "
        f"{profile.through:,} through ({share * 100:.2f} %), {profile.broken:,} of them not JSON; "
        f"{profile.with_findings:,} with a finding",
        flush=True,
    )
    for name, seconds in (
        ("read (path.read_bytes)", profile.read),
        ("gate (lines_that_may_hold_secrets)", profile.gate),
        ("parse (split, orjson.loads of the lines let through)", profile.parse),
        ("detect (find_in_value of their records)", profile.detect),
    ):
        print(
            f"  {name}: {seconds:,.2f} s, {seconds / profile.total * 100:.0f} % "
            f"({mbps(size, seconds):,.0f} MB/s of the tree)",
            flush=True,
        )
    per_line = profile.detect / profile.through * 1e6 if profile.through else 0.0
    print(
        f"  total {profile.total:,.2f} s: {mbps(size, profile.total):,.0f} MB/s in-process; "
        f"parse + detect {(profile.parse + profile.detect) / profile.total * 100:.0f} % "
        f"({per_line:,.0f} µs of detection a line let through)",
        flush=True,
    )
    report_tree_findings("in-process", profile.findings)
    if bench.cli_findings is not None and len(bench.cli_findings) != len(profile.findings):
        print(
            f"  note: the in-process pass found {len(profile.findings):,}, the process "
            f"{len(bench.cli_findings):,}",
            flush=True,
        )
    bench.rows.append(
        Row(
            "lines the gate lets through (in-process pass)",
            f"{profile.lines:,} lines",
            f"{profile.through:,}",
            f"{share * 100:.2f} %",
            "(info)",
            "info",
        )
    )
    bench.rows.append(
        Row(
            "time split in-process: read / gate / parse + detect",
            f"total {profile.total:,.1f} s ({mbps(size, profile.total):,.0f} MB/s)",
            f"{profile.read:,.1f} / {profile.gate:,.1f} / {profile.parse + profile.detect:,.1f} s",
            f"gate {mbps(size, profile.gate):,.0f} MB/s; parse + detect "
            f"{(profile.parse + profile.detect) / profile.total * 100:.0f} %",
            "(info)",
            "info",
        )
    )


# -- recall -------------------------------------------------------------------------------------


def placed(slot: int, text: str) -> dict[str, Any]:
    """The record holding ``text`` in the field ``FIELDS[slot]`` (entry ``e2``, after ``e1``)."""
    entry = {"id": "e2", "parentId": "e1", "timestamp": STAMP}
    call = {"type": "toolCall", "id": "c2", "name": "bash", "arguments": {"command": text}}
    result = {"toolCallId": "c2", "toolName": "bash", "isError": False, "content": text}
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": text},
        {"role": "user", "content": [{"type": "text", "text": text}]},
        {"role": "assistant", "blocks": [{"type": "text", "text": text}]},
        {"role": "assistant", "blocks": [{"type": "thinking", "thinking": text}]},
        {"role": "assistant", "blocks": [call]},
        {"role": "toolResult", "results": [result]},
    ]
    if slot < len(messages):
        return {"type": "message", **entry, "message": messages[slot]}
    if slot == 6:
        return {
            "type": "compaction",
            **entry,
            "summary": text,
            "tokensBefore": 1,
            "retainedTail": [],
        }
    if slot == 7:
        return {"type": "branchSummary", **entry, "summary": text}
    return {"type": "session_info", **entry, "name": text}


def write_session(path: Path, number: int, text: str) -> Path:
    """A session: a header, a benign prompt, ``text`` in field ``number % 9``, a benign answer."""
    records = [
        {"type": "session", "version": 1, "id": f"s{number}", "timestamp": STAMP, "cwd": "/x"},
        {
            "type": "message",
            "id": "e1",
            "parentId": None,
            "timestamp": STAMP,
            "message": {"role": "user", "content": "Deploy the app to staging, please."},
        },
        placed(number % len(FIELDS), text),
        {
            "type": "message",
            "id": "e3",
            "parentId": "e2",
            "timestamp": STAMP,
            "message": {"role": "assistant", "blocks": [{"type": "text", "text": "Done."}]},
        },
    ]
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


def sessions_of(folder: Path, texts: Sequence[str]) -> Files:
    folder.mkdir(parents=True)
    paths = [write_session(folder / f"{n:03d}.jsonl", n, text) for n, text in enumerate(texts)]
    return [(path, None, path.stat().st_size) for path in paths]


def measure_recall(bench: Bench) -> None:
    planted, lookalikes = secret_sets()
    kinds = Counter(kind for kind, _, _ in planted)
    print(
        f"\nrecall and false positives, in-process: {len(planted)} planted secrets of "
        f"{len(kinds)} kinds, {len(lookalikes)} look-alikes, one session each, the text in "
        f"{len(FIELDS)} fields in turn",
        flush=True,
    )
    folder = bench.home / "recall"
    planted_files = sessions_of(folder / "planted", [text for _, text, _ in planted])
    lookalike_files = sessions_of(folder / "lookalikes", lookalikes)
    started = time.perf_counter()
    audited = list(audit_files(planted_files))
    looked = list(audit_files(lookalike_files))
    seconds = time.perf_counter() - started

    found = kind_right = gated = 0
    by_field: dict[str, list[int]] = {name: [0, 0] for name in FIELDS}
    missed: list[str] = []
    other_kind: list[str] = []
    strays: list[str] = []
    for number, ((kind, _, _), session) in enumerate(zip(planted, audited, strict=True)):
        name = FIELDS[number % len(FIELDS)]
        on_line = [f for f in session.findings if f.line == PLANTED_LINE]
        by_field[name][1] += 1
        gated += PLANTED_LINE - 1 in lines_that_may_hold_secrets(session.file.read_bytes())
        if on_line:
            found += 1
            by_field[name][0] += 1
            if any(f.kind == kind for f in on_line):
                kind_right += 1
            else:
                other_kind.append(
                    f"#{number} {kind} in the {name}: found as "
                    f"{', '.join(sorted({f.kind for f in on_line}))}"
                )
        else:
            missed.append(f"#{number} {kind} in the {name}{unread(session)}")
        strays += [
            f"#{number} ({kind}) line {f.line}: {f.kind} in {f.field}"
            for f in session.findings
            if f.line != PLANTED_LINE
        ]
    false_positives = [
        f"#{number} {lookalikes[number]!r:.70} in the {FIELDS[number % len(FIELDS)]}: "
        f"{', '.join(sorted({f'{f.kind} in {f.field}' for f in session.findings}))}"
        for number, session in enumerate(looked)
        if session.findings
    ]

    raw = [find_secrets(text) for _, text, _ in planted]
    raw_found = sum(bool(secrets) for secrets in raw)
    raw_exact = raw_kind = 0
    for (kind, _, value), secrets in zip(planted, raw, strict=True):
        raw_exact += any(secret.value == value for secret in secrets)
        raw_kind += any(secret.kind == kind for secret in secrets)
    raw_false = [text for text in lookalikes if find_secrets(text)]
    recall = found / len(planted) if planted else 0.0

    print(
        f"  audit_files over {len(planted_files) + len(lookalike_files)} sessions in {ms(seconds)}"
    )
    print(
        f"  planted: {found} of {len(planted)} found ({recall * 100:.1f} %), {kind_right} with "
        f"a finding of the planted kind; the gate let {gated} of {len(planted)} planted lines "
        "through",
        flush=True,
    )
    print(
        "  by field: "
        + ", ".join(f"{name} {hit}/{total}" for name, (hit, total) in by_field.items()),
        flush=True,
    )
    for line in missed:
        print(f"  missed: {line}", flush=True)
    for line in other_kind:
        print(f"  another kind: {line}", flush=True)
    for line in strays:
        print(f"  finding off the planted line: {line}", flush=True)
    print(f"  look-alikes: {len(false_positives)} of {len(lookalikes)} with a finding", flush=True)
    for line in false_positives:
        print(f"    false positive: {line}", flush=True)
    print(
        f"  find_secrets on the raw texts: {raw_found} of {len(planted)} planted found, "
        f"{raw_exact} with the exact span, {raw_kind} of the planted kind; {len(raw_false)} of "
        f"{len(lookalikes)} look-alikes with a finding",
        flush=True,
    )
    for text in raw_false:
        print(f"    false positive (raw): {text!r:.90}", flush=True)

    big_enough = len(planted) >= GOAL_PLANTED and len(kinds) >= GOAL_KINDS
    bench.rows.append(
        Row(
            f"recall: {len(planted)} planted secrets, {len(kinds)} kinds, {len(FIELDS)} fields "
            "(audit_files)",
            f"find_secrets on the raw texts: {raw_found}/{len(planted)} ({raw_exact} exact "
            f"spans, {raw_kind} of the planted kind)",
            f"{found}/{len(planted)} ({kind_right} of the planted kind)",
            f"{recall * 100:.1f} %",
            f"≥ {GOAL_RECALL * 100:.0f} % of ≥ {GOAL_PLANTED} secrets, ≥ {GOAL_KINDS} kinds",
            verdict(recall >= GOAL_RECALL and big_enough),
        )
    )
    bench.rows.append(
        Row(
            f"false positives: {len(lookalikes)} look-alikes (audit_files)",
            f"find_secrets on the raw texts: {len(raw_false)}",
            f"{len(false_positives)}",
            f"{len(false_positives)}",
            f"0 on ≥ {GOAL_LOOKALIKES}",
            verdict(not false_positives and len(lookalikes) >= GOAL_LOOKALIKES),
        )
    )


def unread(session: SessionSecrets) -> str:
    return f" (unreadable: {session.unreadable})" if session.unreadable else ""


# -- main ---------------------------------------------------------------------------------------

MEASURES = ("speed", "gate", "recall")


def main(argv: Sequence[str] | None = None) -> int:
    parser = measure_parser(
        __doc__,
        MEASURES,
        RUNS,
        quick="the 212-session tree (130 MB)",
        runs_help="timed audits (median)",
    )
    args, wanted = parsed_measures(parser, argv, MEASURES)

    spec = QUICK if args.quick else FULL
    print(f"preparing data ({spec.name}, cached under {CACHE_ROOT}/ink-tui-bench-index-…)")
    tree = cached_tree(spec)
    files = files_of([Root(tree.path)], None)
    print(
        f"  {tree.path}: {tree.sessions:,} sessions, {tree.bytes / 1e9:.2f} GB; the audit's "
        f"files: {len(files):,}, {sum(size for _, _, size in files) / 1e9:.2f} GB",
        flush=True,
    )
    wait_for_suites(args.no_wait)
    if wanted & {"speed", "gate"}:
        read_all(tree.path)
    home = Path(tempfile.mkdtemp(prefix="ink-tui-bench-secrets-run-"))
    try:
        bench = Bench(tree, args.runs, home, files)
        steps: dict[str, Callable[[Bench], None]] = {
            "speed": measure_speed,
            "gate": measure_gate,
            "recall": measure_recall,
        }
        for name, step in steps.items():
            if name in wanted:
                step(bench)
        runs = f"; speed: median of {bench.runs} audits" if "speed" in wanted else ""
        print(f"\nthe goals of the secrets audit, {len(files):,} sessions{runs}")
        print_rows(bench.rows, "reference (this run)", "ink-tui secrets")
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return 0


def test_bench_secrets() -> None:
    """Collected by ``pytest tests/bench/bench_secrets.py -s``: ``--quick``; asserts nothing."""
    main(["--quick", "--no-wait", "--runs", "1"])


if __name__ == "__main__":
    raise SystemExit(main())
