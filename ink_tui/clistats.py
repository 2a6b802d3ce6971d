"""``ink-tui stats``: usage and estimated cost of this project's sessions (``--all``: every
project), grouped by model, project, day or week.

Every record of every branch counts once (each was a paid model call); subagent sessions
(``children/``) count in their project. Files are read only when they changed since the last
run (a per-file cache in the cache dir); nothing here ever writes a session file.
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from ink_tui.clitext import CommandError, SafeOutput

__all__ = ["add_commands", "cmd_stats", "run"]

EXIT_OK = 0


class StatsCommandError(CommandError):
    """A failure to report as one line on stderr (exit 2)."""


def add_commands(commands: Any) -> list[argparse.ArgumentParser]:
    """The ``stats`` subcommand; returns its parser."""
    stats = commands.add_parser(
        "stats",
        help="tokens, tool calls and estimated cost of the sessions",
        description="Sessions, turns, model calls, tool calls and their failure rate, tokens "
        "in / out / cache read / cache write, and the cost estimated from a price table "
        '(defaults dated; override in config.toml: [prices."provider/modelId"] input = …, '
        "output = …, cache_read = …, cache_write = …, USD per million tokens). Every branch "
        "counts: each record was a paid model call. Days are UTC.",
    )
    stats.add_argument("--all", action="store_true", help="every project (default: this one)")
    stats.add_argument(
        "--by",
        choices=("model", "project", "day", "week"),
        default="model",
        help="one row per model (default), project, day or ISO week",
    )
    stats.add_argument(
        "--since",
        metavar="DATE",
        help="only records on or after DATE (2026-10-05, 2026-10, 7d, 4w)",
    )
    stats.add_argument("--json", action="store_true", help="one JSON object")
    return [stats]


def run(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
    """Run ``stats``."""
    return cmd_stats(args, base, cwd, out)


def _today() -> date:
    """Today (UTC, as the days of the report are): a seam for tests."""
    return datetime.now(UTC).date()


def _collect(collect: Any, base: Path, scope: str | None, *, show_progress: bool) -> Any:
    """``collect(base, scope)`` with a progress bar on stderr when it is a terminal (the
    first run reads every file; later ones only those that changed)."""
    if not show_progress:
        return collect(base, scope)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress

    with Progress(
        "reading sessions", BarColumn(), MofNCompleteColumn(), console=Console(file=sys.stderr),
        transient=True,
    ) as bar:  # fmt: skip
        task = bar.add_task("reading", total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return collect(base, scope, progress=advance)


def cmd_stats(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
    """``ink-tui stats [--all] [--by model|project|day|week] [--since DATE] [--json]``."""
    from ink_tui.catalog.prices import load_price_table
    from ink_tui.catalog.scan import unreadable_folder
    from ink_tui.catalog.stats import SinceError, build_report, parse_since, report_table
    from ink_tui.catalog.usage import collect_usage

    since = None
    if args.since is not None:
        try:
            since = parse_since(args.since, _today())
        except SinceError as error:
            raise StatsCommandError(str(error)) from None
    scope = None if args.all else cwd
    problem = unreadable_folder(base, scope)
    if problem is not None:
        raise StatsCommandError(problem)
    files = _collect(collect_usage, base, scope, show_progress=sys.stderr.isatty())
    report = build_report(files, load_price_table(), args.by, since=since)
    err = SafeOutput(sys.stderr)
    for line in report.problems:
        err.line(f"ink-tui: {line}")
    if args.json:
        out.json(report.to_json())
        return EXIT_OK
    if not report.rows:
        where = "any project" if args.all else "this project (--all reads every project)"
        when = "" if since is None else f" since {since.isoformat()}"
        out.line(f"no sessions in {where}{when}")
        return EXIT_OK
    out.write(report_table(report))
    if report.unpriced_models:
        out.line(
            f"no price for {', '.join(report.unpriced_models)}: tokens counted, cost '?' "
            '(add [prices."provider/modelId"] to config.toml)'
        )
    out.line(f"cost: estimated from list prices as of {report.prices_as_of}; days are UTC")
    return EXIT_OK
