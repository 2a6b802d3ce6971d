"""``ink-tui stats``: usage and estimated cost of this project's sessions (``--all``: every
project; ``--machines``: every mirrored machine's too), grouped by model, project, day, week or
machine (``--by machine`` reads every machine); ``ink-tui stats SESSION``: one session's work
as Ink's ``/status`` shows it (:mod:`ink_tui.session.rules.usage_totals`).

Every record of every branch counts once (each was a paid model call); subagent sessions
(``children/``) count in their project. Files are read only when they changed since the last
run (a per-file cache in the cache dir); nothing here ever writes a session file.
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ink_tui.cli.output import CommandError, SafeOutput

if TYPE_CHECKING:
    from ink_tui.session.rules.usage_totals import Bucket, PricedGroup, PricedTotals

__all__ = ["add_arguments", "run"]

EXIT_OK = 0


class StatsCommandError(CommandError):
    """A failure to report as one line on stderr (exit 2)."""


def add_arguments(stats: argparse.ArgumentParser) -> None:
    """The ``stats`` command's arguments and description."""
    stats.description = (
        "Sessions, turns, model calls, tool calls and their failure rate, tokens "
        "in / out / cache read / cache write, and the cost estimated from a price table "
        '(defaults dated; override in config.toml: [prices."provider/modelId"] input = …, '
        "output = …, cache_read = …, cache_write = …, USD per million tokens). Every branch "
        "counts: each record was a paid model call. Days are UTC. With SESSION: that "
        "session's work as Ink's /status shows it (whole file, every branch, subagents by "
        "their task records, summaries), priced at Ink's static rates."
    )
    stats.add_argument(
        "session",
        nargs="?",
        metavar="SESSION",
        help="one session (path, id, id prefix or file name): Ink's /status totals",
    )
    stats.add_argument("--all", action="store_true", help="every project (default: this one)")
    stats.add_argument(
        "--machines",
        action="store_true",
        help="every project of this machine and of every mirrored machine",
    )
    stats.add_argument(
        "--by",
        choices=("model", "project", "day", "week", "machine"),
        default=None,
        help="one row per model (default), project, day, ISO week or machine (--machines)",
    )
    stats.add_argument(
        "--since",
        metavar="DATE",
        help="only records on or after DATE (2026-10-05, 2026-10, 7d, 4w)",
    )
    stats.add_argument("--json", action="store_true", help="one JSON object")


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


def _width() -> int | None:
    """The terminal's width when stdout is one (the table fits it), else ``None``."""
    if not sys.stdout.isatty():
        return None
    import shutil

    return shutil.get_terminal_size().columns


def run(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
    """``ink-tui stats [--all | --machines] [--by model|project|day|week|machine] [--since DATE]
    [--json]``, or
    ``ink-tui stats SESSION [--json]``."""
    from ink_tui.catalog.folders import unreadable_folder
    from ink_tui.catalog.prices import load_price_table
    from ink_tui.catalog.stats import (
        KEY_WIDTH,
        SinceError,
        build_report,
        fit_key,
        flagged_note,
        parse_since,
        report_table,
    )
    from ink_tui.catalog.usagecache import collect_usage

    if args.session is not None:
        given = [name for name, on in (("--all", args.all), ("--machines", args.machines),
                                       ("--by", args.by is not None),
                                       ("--since", args.since is not None)) if on]  # fmt: skip
        if given:
            raise StatsCommandError(
                f"stats SESSION shows one session's totals: {', '.join(given)} only go with "
                "the sessions of a project (leave SESSION out)"
            )
        return _session_stats(args, base, cwd, out)

    since = None
    if args.since is not None:
        try:
            since = parse_since(args.since, _today())
        except SinceError as error:
            raise StatsCommandError(str(error)) from None
    machines = args.machines or args.by == "machine"
    everywhere = args.all or machines
    scope = None if everywhere else cwd
    problem = unreadable_folder(base, scope)
    if problem is not None:
        raise StatsCommandError(problem)
    collect = collect_usage
    if machines:
        from functools import partial

        from ink_tui.catalog.roots import mirror_roots

        collect = partial(collect_usage, mirrors=mirror_roots())
    files = _collect(collect, base, scope, show_progress=sys.stderr.isatty())
    report = build_report(files, load_price_table(), args.by or "model", since=since)
    err = SafeOutput(sys.stderr)
    for line in report.problems:
        err.line(f"ink-tui: {line}")
    if args.json:
        out.json(report.to_json())
        return EXIT_OK
    if not report.rows:
        where = "this project (--all reads every project)"
        if everywhere:
            where = "any project of any machine" if machines else "any project"
        when = "" if since is None else f" since {since.isoformat()}"
        out.line(f"no sessions in {where}{when}")
        return EXIT_OK
    out.write(report_table(report, _width()))
    if report.unpriced_models:
        names = ", ".join(fit_key(model, KEY_WIDTH) for model in report.unpriced_models)
        out.line(
            f"no price for {names}: tokens counted, cost '?' "
            '(add [prices."provider/modelId"] to config.toml)'
        )
    flagged = flagged_note(report)
    if flagged is not None:
        out.line(flagged)
    out.line(f"cost: estimated from list prices as of {report.prices_as_of}; days are UTC")
    return EXIT_OK


# -- one session: Ink's /status totals -------------------------------------------------------

_BUCKET_NAMES = {"parent": "replies", "child": "subagents", "summarizer": "summaries"}
_INCOMPLETE = {
    "parent": "a model reply was recorded without usage (usageMissing)",
    "child": "a subagent's work is not known (a task call without its record, launched "
    "without usage, or usage marked incomplete)",
    "summarizer": "a summary was recorded without usage (usageMissing)",
}


def _counts(bucket: Bucket) -> list[str]:
    figures = (bucket.input, bucket.output, bucket.cache_read, bucket.cache_write)
    return [f"{bucket.calls:,}", *(f"{value:,}" for value in figures)]


def _aligned(rows: list[list[str]]) -> list[str]:
    """Rows as text: the first column left-aligned (in terminal cells), the rest right."""
    from rich.cells import cell_len

    widths = [max(cell_len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        first = row[0] + " " * (widths[0] - cell_len(row[0]))
        rest = (cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True))
        lines.append("  ".join([first, *rest]).rstrip())
    return lines


def _rates_note(priced: PricedTotals) -> str:
    """What the dollars are: Ink's static rates, and when its own figure may differ."""
    from ink_tui.session.rules.rates import INK_RATES_SOURCE

    if priced.money() is None:
        return "no usage recorded"
    if not priced.estimate:
        return "no usage names a provider/model reference: Ink prices none of it either"
    catalog = "Ink prices from the pi.dev catalog first, which ink-tui cannot read"
    if not priced.known:
        return (
            f"no rate in Ink's static table ({INK_RATES_SOURCE}) for these models; {catalog}, "
            "so its /status may show dollars here"
        )
    return (
        f"dollars at Ink's static rates ({INK_RATES_SOURCE}): an estimate; {catalog}, so its "
        "/status may show other dollars"
    )


def _session_json(session_id: str, path: Path, priced: PricedTotals) -> dict[str, Any]:
    from ink_tui.session.rules.rates import INK_RATES_SOURCE

    totals = priced.totals
    return {
        "session": session_id,
        "file": str(path),
        "work": priced.work(),
        "buckets": {
            name: {**bucket.to_json(), "incomplete": totals.incomplete[name]}
            for name, bucket in totals.buckets.items()
        },
        "total": totals.total.to_json(),
        "incomplete": totals.is_incomplete,
        "usd": priced.usd,
        "money": priced.money(),
        "subscription": priced.subscription,
        "unpricedTokens": priced.unpriced.tokens,
        "estimate": priced.estimate,
        "rates": INK_RATES_SOURCE,
        "byModel": [
            {
                "reference": group.reference,
                **group.bucket.to_json(),
                "priced": group.rate is not None,
                "subscription": group.rate is not None and group.rate.subscription,
                "costUsd": None
                if group.rate is None
                else group.rate.cost(*_tokens_of(group.bucket)),
            }
            for group in priced.groups
        ],
    }


def _tokens_of(bucket: Bucket) -> tuple[float, float, float, float]:
    return (bucket.input, bucket.output, bucket.cache_read, bucket.cache_write)


_MODEL_HEAD = ["by model (declared)", "calls", "in", "out", "cache read", "cache write", "cost"]


def _model_row(group: PricedGroup) -> list[str]:
    """A declared reference's usage and its cost at Ink's static rates (``no rate``: none)."""
    from ink_tui.catalog.stats import KEY_WIDTH, fit_key
    from ink_tui.session.rules.usage_totals import js_to_fixed

    name = "(none declared)" if group.reference is None else fit_key(group.reference, KEY_WIDTH)
    if group.rate is None:
        cost = "no rate"
    else:
        usd = group.rate.cost(*_tokens_of(group.bucket))
        cost = f"${js_to_fixed(usd, 3)}{' (sub)' if group.rate.subscription else ''}"
    return [name, *_counts(group.bucket), cost]


def _session_stats(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
    """``ink-tui stats SESSION [--json]``: the session's work as Ink's ``/status`` shows it."""
    from ink_tui.catalog.roots import resolve_anywhere
    from ink_tui.session import SessionError, open_session
    from ink_tui.session.rules.usage_totals import session_usage

    path = resolve_anywhere(base, cwd, args.session)
    err = SafeOutput(sys.stderr)
    try:
        session = open_session(path, warn=err.as_textio())
        priced = session_usage(session).priced()
    except SessionError as error:
        raise StatsCommandError(error.one_line()) from None
    except OSError as error:
        raise StatsCommandError(f"{path}: {error.strerror or error}") from None
    if args.json:
        out.json(_session_json(session.session_id, path, priced))
        return EXIT_OK
    totals = priced.totals
    out.line(f"{path}")
    out.line(f"{priced.work()}    (Ink's /status: the whole file, every branch)")
    out.line("")
    head = ["", "calls", "in", "out", "cache read", "cache write"]
    rows = [[_BUCKET_NAMES[name], *_counts(bucket)] for name, bucket in totals.buckets.items()]
    for line in _aligned([head, *rows, ["total", *_counts(totals.total)]]):
        out.line(line)
    for name, missing in totals.incomplete.items():
        if missing:
            out.line(f"incomplete ({_BUCKET_NAMES[name]}, the ! of the work): {_INCOMPLETE[name]}")
    if priced.groups:
        out.line("")
        out.line(
            "\n".join(_aligned([_MODEL_HEAD, *(_model_row(group) for group in priced.groups)]))
        )
    out.line("")
    out.line(_rates_note(priced))
    return EXIT_OK
