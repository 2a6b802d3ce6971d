"""``ink-tui check --all`` and ``ink-tui repair --all [--dry-run]``: every session at once.

Both go through every project folder of the sessions folder, top-level sessions and
``children/`` (subagent) sessions alike (:func:`ink_tui.catalog.checkup.sessions_to_check`).
``check --all`` prints one line per session with a problem and a summary; with ``--json``, one
array holding an object per session with a problem (clean sessions are left out, as in the text:
the array is the to-do list). ``repair --all`` applies what ``repair`` would without
``--force``, session by session, never stopping at a failure, and leaves alone any session a
writer may be active on. A progress bar is drawn on stderr when it is a terminal.
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ink_tui.catalog.checkup import (
    PROBLEM_KINDS,
    FileCheck,
    check_file,
    sessions_to_check,
    writer_activity,
)
from ink_tui.cli.commands.verdicts import check_verdict, repair_steps
from ink_tui.cli.output import SafeOutput
from ink_tui.humanize import plural
from ink_tui.paths import CHILDREN

__all__ = ["check_all", "problem_verdict", "repair_all"]

EXIT_OK, EXIT_REPAIRABLE, EXIT_FAILED = 0, 1, 2
PARALLEL_BYTES = 64 * 1024 * 1024
"""Below this many bytes of sessions, starting worker processes costs more than it saves."""
MAX_WORKERS = 8
NOT_CHECKED = "not checked (an internal error)"


def stderr_is_terminal() -> bool:
    """Whether progress may be drawn on stderr (a seam for tests)."""
    return sys.stderr.isatty()


@contextlib.contextmanager
def _progress(what: str, total: int) -> Iterator[Callable[[], None]]:
    """A step function advancing a bar on stderr (a no-op unless stderr is a terminal)."""
    if not stderr_is_terminal():
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    console = Console(file=sys.stderr)
    columns = (what, BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True, redirect_stdout=False) as bar:
        task = bar.add_task(what, total=total)
        yield lambda: bar.advance(task)


def problem_verdict(checked: FileCheck) -> tuple[int, str]:
    """``(exit code, verdict)`` of one checked file, in ``check``'s words."""
    if checked.report is None:
        return EXIT_FAILED, f"not repairable: Ink cannot open it: {checked.error}"
    return check_verdict(checked.report)


def _problem_json(checked: FileCheck, code: int, verdict: str) -> dict[str, Any]:
    """``check --json``'s object for this file, with ``file``, ``verdict`` and ``problems``."""
    head: dict[str, Any] = {"file": str(checked.path), "verdict": verdict}
    head["problems"] = list(checked.problems)
    if checked.report is None:
        return {**head, "ok": False, "error": checked.error, "exit": code}
    return {**head, **checked.report.to_json(), "exit": code}


def _where(base: Path) -> str:
    """The sessions folder, and a word when it does not exist (a typo in --sessions-dir?)."""
    return str(base) if base.exists() else f"{base} (it does not exist)"


def _kinds_sentence(kinds: Counter[str]) -> str:
    named = (*PROBLEM_KINDS, NOT_CHECKED)
    return ", ".join(f"{kinds[kind]} {kind}" for kind in named if kinds[kind])


@dataclass(frozen=True, slots=True)
class _Verdict:
    """What a worker sends back about one file (small: no session is kept)."""

    path: Path
    problems: tuple[str, ...] = ()
    code: int = EXIT_OK
    verdict: str = ""
    json: dict[str, Any] | None = None


def _verdict_of(path: Path, as_json: bool) -> _Verdict:
    try:
        checked = check_file(path)
    except Exception as error:  # a bug: logged, said in one line, the other sessions go on
        from ink_tui.logs import unforeseen

        line = unforeseen(error, f"checking {path}")
        failed = {"file": str(path), "ok": False, "error": line, "exit": EXIT_FAILED}
        return _Verdict(path, (NOT_CHECKED,), EXIT_FAILED, f"not checked: {line}", failed)
    if not checked.problems:
        return _Verdict(path)
    code, verdict = problem_verdict(checked)
    shown = _problem_json(checked, code, verdict) if as_json else None
    return _Verdict(path, tuple(checked.problems), code, verdict, shown)


def _workers(paths: list[Path]) -> int:
    """How many processes check ``paths``: one per CPU (at most :data:`MAX_WORKERS`) once
    there are :data:`PARALLEL_BYTES` to read, else this process alone."""
    usable = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    cpus = min(os.cpu_count() or 1 if usable is None else len(usable), MAX_WORKERS)
    if cpus < 2 or len(paths) < 2:
        return 1
    total = 0
    for path in paths:
        with contextlib.suppress(OSError):
            total += path.stat().st_size
        if total >= PARALLEL_BYTES:
            return cpus
    return 1


def _quiet_worker() -> None:
    """Ctrl-C is the parent's to handle: a worker stops when told, without a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def _checker(paths: list[Path], *, as_json: bool) -> Iterator[Iterator[_Verdict]]:
    """The verdicts of ``paths`` in their order, from worker processes when it pays (started
    before any progress bar's thread, so nothing is forked mid-draw)."""
    workers = _workers(paths)
    if workers == 1:
        yield (_verdict_of(path, as_json) for path in paths)
        return
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(workers, initializer=_quiet_worker)
    try:
        yield pool.map(functools.partial(_verdict_of, as_json=as_json), paths)
    finally:  # on Ctrl-C too: what has not started is cancelled, not waited for
        pool.shutdown(wait=True, cancel_futures=True)


def check_all(base: Path, out: SafeOutput, *, as_json: bool) -> int:
    """``ink-tui check --all [--json]``: the worst exit code of all sessions."""
    paths = sessions_to_check(base)
    worst, kinds, lines, found = EXIT_OK, Counter[str](), [], []
    with _checker(paths, as_json=as_json) as verdicts, _progress("checking", len(paths)) as step:
        for checked in verdicts:
            step()
            if not checked.problems:
                continue
            worst = max(worst, checked.code)
            kinds.update(checked.problems)
            if checked.json is not None:
                found.append(checked.json)
            lines.append(f"{checked.path}: {checked.verdict}")
    if as_json:
        out.json(found)
        return worst
    for line in lines:
        out.line(line)
    children = sum(path.parent.name == CHILDREN for path in paths)
    counted = plural(len(paths), "session")
    if children:
        counted += f" ({children} of them subagent sessions in children/)"
    problems = f"{len(lines)} with problems ({_kinds_sentence(kinds)})" if lines else "no problem"
    out.line(f"checked {counted} under {_where(base)}: {problems}")
    return worst


@dataclass(slots=True)
class _Repaired:
    """What ``repair --all`` did to one session."""

    status: str  # one of _STATUSES
    code: int
    lines: list[str] = field(default_factory=list)


FINE, DONE, WOULD, LIVE, REFUSED, FAILED = (
    "fine",
    "repaired",
    "would be repaired",
    "skipped (a writer may be active)",
    "not repairable",
    "failed",
)
_STATUSES = (DONE, WOULD, LIVE, REFUSED, FAILED, FINE)


def _busy(path: Path) -> str | None:
    """Why no repair may touch ``path`` now: recently modified, or a subagent's lease held."""
    busy = writer_activity(path)
    if busy is None and path.parent.name == CHILDREN:
        from ink_tui.session.rules.leases import lease_note  # Ink's child-resume lease

        busy = lease_note(path)
    return busy


def _repair_file(path: Path, *, dry_run: bool) -> _Repaired:
    from ink_tui.session import SessionError, open_session, report_session
    from ink_tui.session.writing.repair import (
        complete_record_problem,
        cut_complete_final_line,
        plan_continuation,
        repair_session,
    )
    from ink_tui.session.writing.writer import ConcurrentWriteError, RecordNotWrittenError

    try:
        session = open_session(path, warn=None)
        plan = plan_continuation(session)
    except SessionError as error:
        return _Repaired(REFUSED, EXIT_FAILED, [f"{error.one_line()} — not repaired"])
    except OSError as error:
        why = f"{path}: not repairable: {error.strerror or error}"
        return _Repaired(REFUSED, EXIT_FAILED, [why])
    if not plan.ok:
        return _Repaired(REFUSED, EXIT_FAILED, [f"{path}: not repairable: {plan.problem}"])
    if plan.torn is None and not plan.appended:
        return _Repaired(FINE, EXIT_OK)
    complete = cut_complete_final_line(session, plan.torn)
    if complete is not None:
        why = f"{complete_record_problem(complete)}; `ink-tui repair --force` on it alone cuts it"
        return _Repaired(REFUSED, EXIT_FAILED, [f"{path}: not repaired: {why}"])
    busy = _busy(path)
    if busy is not None:
        return _Repaired(LIVE, EXIT_REPAIRABLE, [f"{path}: skipped: {busy}"])
    if dry_run:
        steps = [line for line in repair_steps(plan, dry_run=True) if line is not None]
        return _Repaired(WOULD, EXIT_OK, [f"{path}: {line}" for line in steps])
    try:
        session, done = repair_session(path)
    except ConcurrentWriteError as error:
        return _Repaired(LIVE, EXIT_REPAIRABLE, [f"{path}: skipped: {error}"])
    except (SessionError, RecordNotWrittenError, OSError) as error:
        return _Repaired(FAILED, EXIT_FAILED, [f"{path}: repair failed: {error}"])
    if not done.ok:  # the file changed between the two reads
        return _Repaired(REFUSED, EXIT_FAILED, [f"{path}: not repaired: {done.problem}"])
    lines = [f"{path}: {line}" for line in repair_steps(done, dry_run=False) if line is not None]
    if done.backup is not None and done.torn is not None:
        lines.append(f"{path}: the {done.torn.bytes} bytes cut are kept in {done.backup}")
    code, verdict = check_verdict(report_session(session))
    lines.append(f"{path}: {verdict}")
    return _Repaired(DONE, code, lines)


def repair_all(base: Path, out: SafeOutput, *, dry_run: bool) -> int:
    """``ink-tui repair --all [--dry-run]``: the worst exit code left (as ``check`` gives it).

    The sessions are checked first (in worker processes when it pays); only those with a
    problem are read again, one by one, and repaired."""
    paths = sessions_to_check(base)
    worst, statuses, lines = EXIT_OK, Counter[str](), []
    with _checker(paths, as_json=False) as verdicts, _progress("checking", len(paths)) as step:
        flagged = []
        for checked in verdicts:
            step()
            if checked.problems:
                flagged.append(checked.path)
    statuses[FINE] = len(paths) - len(flagged)
    with _progress("checking" if dry_run else "repairing", len(flagged)) as step:
        for path in flagged:
            try:
                repaired = _repair_file(path, dry_run=dry_run)
            except Exception as error:  # a bug: logged, said in one line, the others go on
                from ink_tui.logs import unforeseen

                line = unforeseen(error, f"repairing {path}")
                repaired = _Repaired(FAILED, EXIT_FAILED, [f"{path}: repair failed: {line}"])
            step()
            worst = max(worst, repaired.code)
            statuses[repaired.status] += 1
            lines.extend(repaired.lines)
    for line in lines:
        out.line(line)
    counts = ", ".join(f"{statuses[status]} {status}" for status in _STATUSES if statuses[status])
    head = "dry run, nothing was written" if dry_run else "repair --all"
    out.line(f"{head}: {plural(len(paths), 'session')} under {_where(base)}: {counts or 'none'}")
    return worst
