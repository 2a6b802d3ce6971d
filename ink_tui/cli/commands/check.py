"""``ink-tui check`` and ``ink-tui repair``: one SESSION, or every session (``--all``).

``check`` exits 0 when Ink continues the session as it is, 1 when ``repair`` can fix it, 2 when
it cannot be repaired safely (or not read at all); ``check --all`` exits with the worst of its
sessions. ``repair`` fixes only what Ink's own continuation would (a torn final line, the
unanswered calls of the last turn), through the session writer's rules: the size is read again
first, whole records are appended, and a file another process changed meanwhile is left alone.
``repair --all`` does the same per session, never stopping at a failure, and skips any session
a writer may be active on (modified in the last minute, or a subagent's lease held).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ink_tui.cli.output import CommandError, SafeOutput

__all__ = [
    "add_check_arguments",
    "add_repair_arguments",
    "check_one",
    "repair_one",
    "run_check",
    "run_repair",
]

EXIT_OK, EXIT_REPAIRABLE, EXIT_FAILED = 0, 1, 2


class CheckCommandError(CommandError):
    """A failure to report as one line on stderr (exit 2)."""


def add_check_arguments(check: argparse.ArgumentParser) -> None:
    """``check [SESSION | --all] [--json]``."""
    check.add_argument("session", metavar="SESSION", nargs="?")
    check.add_argument(
        "--all",
        action="store_true",
        help="every session of every project (children/ included): only those with a problem",
    )
    check.add_argument("--json", action="store_true")


def add_repair_arguments(repair: argparse.ArgumentParser) -> None:
    """``repair [SESSION | --all] [--dry-run] [--force]``."""
    repair.add_argument("session", metavar="SESSION", nargs="?")
    repair.add_argument(
        "--all",
        action="store_true",
        help="every session check --all lists, safe repairs only; skips live sessions",
    )
    repair.add_argument("--dry-run", action="store_true", help="say what would be done")
    repair.add_argument(
        "--force",
        action="store_true",
        help="also cut a complete final record that fails Ink's checks (from a newer Ink?)",
    )


def _one_target(args: argparse.Namespace, command: str) -> None:
    """SESSION or ``--all``: exactly one of them (one usage line otherwise)."""
    usage = f"{command}: give a SESSION or --all"
    if args.all and args.session is not None:
        raise CheckCommandError(f"{usage}, not both (see ink-tui {command} --help)")
    if not args.all and args.session is None:
        raise CheckCommandError(f"{usage} (see ink-tui {command} --help)")


def _readable(base: Path) -> None:
    """Every project folder is read: the sessions folder must be readable."""
    from ink_tui.catalog.folders import unreadable_folder

    problem = unreadable_folder(base, None)
    if problem is not None:
        raise CheckCommandError(problem)


def run_check(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
    """``ink-tui check SESSION|--all [--json]``."""
    _one_target(args, "check")
    if args.all:
        _readable(base)
        from ink_tui.cli.commands.check_all import check_all

        return check_all(base, out, as_json=args.json)
    from ink_tui.catalog.roots import resolve_anywhere

    return check_one(resolve_anywhere(base, cwd, args.session), out, as_json=args.json)


def run_repair(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
    """``ink-tui repair SESSION|--all [--dry-run] [--force]``."""
    _one_target(args, "repair")
    if args.all and args.force:
        raise CheckCommandError(
            "repair --all never cuts a complete record: give --force with one SESSION"
        )
    if args.all:
        _readable(base)
        from ink_tui.cli.commands.check_all import repair_all

        return repair_all(base, out, dry_run=args.dry_run)
    from ink_tui.catalog.roots import resolve_anywhere

    path = resolve_anywhere(base, cwd, args.session)
    return repair_one(path, out, dry_run=args.dry_run, force=args.force)


def check_one(path: Path, out: SafeOutput, *, as_json: bool) -> int:
    """``ink-tui check SESSION [--json]``."""
    from ink_tui.cli.commands.verdicts import check_lines, check_verdict
    from ink_tui.session import SessionError, open_session, report_session

    try:
        session = open_session(path, warn=None)
        report = report_session(session)
    except SessionError as error:
        if as_json:
            out.json({"ok": False, "error": error.message, "exit": EXIT_FAILED})
        raise CheckCommandError(error.one_line()) from None
    code, _ = check_verdict(report)
    if as_json:
        out.json({**report.to_json(), "exit": code})
    else:
        out.write("".join(line + "\n" for line in check_lines(report)))
    return code


def repair_one(path: Path, out: SafeOutput, *, dry_run: bool, force: bool) -> int:
    """``ink-tui repair SESSION [--dry-run] [--force]``."""
    from ink_tui.cli.commands.verdicts import check_verdict, repair_steps
    from ink_tui.session import SessionError, open_session, report_session
    from ink_tui.session.writing.repair import (
        apply_torn_repair,
        complete_record_problem,
        cut_complete_final_line,
        plan_continuation,
    )
    from ink_tui.session.writing.writer import SessionWriter, mirror_refusal

    refusal = mirror_refusal(path)
    if refusal is not None:
        raise CheckCommandError(f"{path}: not repaired, nothing was written: {refusal}")
    try:
        session = open_session(path, warn=None)
        plan = plan_continuation(session)
    except SessionError as error:
        raise CheckCommandError(f"{error.one_line()} — not repaired, nothing was written") from None
    if not plan.ok:
        raise CheckCommandError(f"{path}: not repairable, nothing was written: {plan.problem}")
    if plan.torn is None and not plan.appended:
        out.write(f"{path}: nothing to repair\n")
        return EXIT_OK
    complete = cut_complete_final_line(session, plan.torn)
    if complete is not None and not force:
        raise CheckCommandError(
            f"{path}: not repaired, nothing was written: {complete_record_problem(complete)}; "
            "`ink-tui repair --force` cuts it, keeping a copy beside the session"
        )
    torn_line, closing_line = repair_steps(plan, dry_run=dry_run)
    if dry_run:
        for line in (torn_line, closing_line):
            if line is not None:
                out.write(line + "\n")
        again = "ink-tui repair --force" if complete is not None else "ink-tui repair"
        out.write(f"{path}: dry run, nothing was written (`{again}` does the above)\n")
        return EXIT_OK
    if plan.torn is not None and torn_line is not None:
        backup = apply_torn_repair(session, plan.torn)
        out.write(torn_line + "\n")
        if backup is not None:
            out.write(f"the {plan.torn.bytes} bytes cut are kept in {backup}\n")
    if plan.appended and closing_line is not None:
        writer = SessionWriter.for_session(open_session(path, warn=None))
        for message in plan.appended:
            writer.append_message(message)
        out.write(closing_line + "\n")
    code, verdict = check_verdict(report_session(open_session(path, warn=None)))
    out.write(f"{path}: {verdict}\n")
    return code
