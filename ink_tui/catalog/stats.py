"""Usage and cost over many sessions, grouped by model, project, day, week or machine.

Built from each file's counts (:mod:`ink_tui.catalog.usage`: every record of every branch,
counted once, since each was a paid model call) and a price table
(:mod:`ink_tui.catalog.prices`). Cost is an estimate: tokens times the table's list prices. A
model the table does not price has its tokens counted, no cost, and is named in
:attr:`StatsReport.unpriced_models`; a row holding such tokens says so (``unpriced_tokens``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any, Final, Literal

from rich.cells import cell_len

from ink_tui.catalog.prices import PRICES_AS_OF, PriceTable
from ink_tui.catalog.usage import ABSURD_TOKENS, Counts, FileUsage
from ink_tui.humanize import THIS_MACHINE, compact_count, cut
from ink_tui.safetext import visible

__all__ = [
    "GROUPS",
    "HEADERS",
    "DayPoint",
    "Grouping",
    "SinceError",
    "StatsReport",
    "StatsRow",
    "build_report",
    "cost_text",
    "fit_key",
    "flagged_note",
    "parse_since",
    "report_table",
    "row_cells",
    "week_of",
]

Grouping = Literal["model", "project", "day", "week", "machine"]
GROUPS: Final[tuple[Grouping, ...]] = ("model", "project", "day", "week")
"""The groupings of one machine's sessions (``machine`` groups the archive's)."""
UNKNOWN: Final = "(unknown)"
KEY_WIDTH: Final = 40  # cells of the first column at most, when the width is not known
KEY_MIN_WIDTH: Final = 16  # cells it keeps however narrow the terminal
_RELATIVE: Final = re.compile(r"(\d{1,5})([dw])")


class SinceError(ValueError):
    """A ``--since`` that is not a date (the message says what is)."""


def parse_since(text: str, today: date) -> date:
    """``YYYY-MM-DD``, ``YYYY-MM`` (its first day), or ``Nd`` / ``Nw`` (that many days or
    weeks before ``today``)."""
    text = text.strip()
    relative = _RELATIVE.fullmatch(text)
    if relative:
        count = int(relative.group(1)) * (7 if relative.group(2) == "w" else 1)
        return today - timedelta(days=count)
    try:
        if re.fullmatch(r"\d{4}-\d{2}", text):
            return date.fromisoformat(text + "-01")
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            return date.fromisoformat(text)
    except ValueError:
        pass
    raise SinceError(f"--since {text!r}: give a date (2026-10-05), a month (2026-10), or 7d / 4w")


def week_of(day: str) -> str:
    """The ISO week of a ``YYYY-MM-DD`` day: ``2026-W41`` (``""`` for an unknown day)."""
    try:
        year, week, _ = date.fromisoformat(day).isocalendar()
    except ValueError:
        return ""
    return f"{year:04d}-W{week:02d}"


@dataclass(slots=True)
class StatsRow:
    """One group's figures."""

    key: str
    counts: Counts = field(default_factory=Counts)
    sessions: int = 0
    cost: float = 0.0  # USD, of the priced tokens
    unpriced_tokens: int = 0  # tokens of models with no price

    @property
    def failure_rate(self) -> float | None:
        calls = self.counts.tool_calls
        return None if calls == 0 else self.counts.tool_errors / calls

    @property
    def cost_known(self) -> float | None:
        """The cost, ``None`` when none of the row's tokens has a price."""
        if self.unpriced_tokens and self.unpriced_tokens == self.counts.tokens:
            return None
        return self.cost

    def to_json(self) -> dict[str, Any]:
        counts = self.counts
        rate = self.failure_rate
        return {
            "key": self.key,
            "sessions": self.sessions,
            "turns": counts.turns,
            "requests": counts.requests,
            "requestsWithoutUsage": counts.unreported,
            "requestsWithAbsurdUsage": counts.flagged,
            "toolCalls": counts.tool_calls,
            "toolErrors": counts.tool_errors,
            "toolFailureRate": None if rate is None else round(rate, 4),
            "inputTokens": counts.input,
            "outputTokens": counts.output,
            "cacheReadTokens": counts.cache_read,
            "cacheWriteTokens": counts.cache_write,
            "costUsd": None if self.cost_known is None else round(self.cost, 6),
            "unpricedTokens": self.unpriced_tokens,
        }


@dataclass(frozen=True, slots=True)
class DayPoint:
    """One day of the chart: tokens and the cost of the priced ones."""

    day: str
    tokens: int
    cost: float


@dataclass(slots=True)
class StatsReport:
    group_by: Grouping
    rows: list[StatsRow]
    total: StatsRow
    days: list[DayPoint]  # the days with activity, in order (quiet days are not held)
    unpriced_models: list[str]
    since: date | None = None
    problems: list[str] = field(default_factory=list)
    prices_as_of: str = PRICES_AS_OF

    def to_json(self) -> dict[str, Any]:
        return {
            "groupBy": self.group_by,
            "since": None if self.since is None else self.since.isoformat(),
            "pricesAsOf": self.prices_as_of,
            "rows": [row.to_json() for row in self.rows],
            "total": self.total.to_json(),
            "unpricedModels": self.unpriced_models,
            "problems": self.problems,
        }


def _group_key(group_by: Grouping, usage: FileUsage, day: str, model: str) -> str:
    if group_by == "model":
        return model or UNKNOWN
    if group_by == "project":
        return usage.project
    if group_by == "machine":
        return usage.machine or THIS_MACHINE
    if group_by == "day":
        return day or UNKNOWN
    return week_of(day) or UNKNOWN


def _active_days(spent: dict[str, DayPoint]) -> list[DayPoint]:
    """The days with activity, in order: as many as the records' days, whatever span they
    cover (a record of 0001-01-01 beside one of 9999-12-31 makes two points, not 3.6 million;
    the chart fills in the quiet days of the span it draws)."""
    return [spent[day] for day in sorted(day for day in spent if day)]


def build_report(
    files: Iterable[FileUsage],
    prices: PriceTable,
    group_by: Grouping = "model",
    *,
    since: date | None = None,
) -> StatsReport:
    """Sum ``files`` by ``group_by``, only days on or after ``since`` (an unknown day is then
    left out). Rows: the biggest cost first for model and project (then tokens), in time order
    for day and week."""
    rows: dict[str, StatsRow] = {}
    members: dict[str, set[int]] = {}
    total = StatsRow("total")
    total_members: set[int] = set()
    spent: dict[str, DayPoint] = {}
    unpriced: set[str] = set()
    price_cache: dict[str, Any] = {}
    files = list(files)
    problems = [usage.problem for usage in files if usage.problem]
    since_text = None if since is None else since.isoformat()
    for number, usage in enumerate(files):
        for (day, model), counts in usage.buckets.items():
            if since_text is not None and (not day or day < since_text):
                continue
            if model not in price_cache:
                price_cache[model] = prices.price_of(model) if model else None
            price = price_cache[model]
            cost = 0.0
            if price is None:
                if counts.tokens:
                    unpriced.add(model or UNKNOWN)
            else:
                cost = price.cost(
                    counts.input, counts.output, counts.cache_read, counts.cache_write
                )
            key = _group_key(group_by, usage, day, model)
            row = rows.get(key)
            if row is None:
                row = rows[key] = StatsRow(key)
                members[key] = set()
            for target in (row, total):
                target.counts.add(counts)
                target.cost += cost
                if price is None:
                    target.unpriced_tokens += counts.tokens
            members[key].add(number)
            total_members.add(number)
            if day:
                before = spent.get(day, DayPoint(day, 0, 0.0))
                spent[day] = DayPoint(day, before.tokens + counts.tokens, before.cost + cost)
    for key, row in rows.items():
        row.sessions = len(members[key])
    total.sessions = len(total_members)
    ordered = list(rows.values())
    if group_by in ("day", "week"):
        ordered.sort(key=lambda row: row.key)
    else:
        ordered.sort(key=lambda row: (-row.cost, -row.counts.tokens, row.key))
    return StatsReport(
        group_by=group_by,
        rows=ordered,
        total=total,
        days=_active_days(spent),
        unpriced_models=sorted(unpriced),
        since=since,
        problems=[*problems, *prices.problems],
    )


# -- as text (the command line's table, the stats screen's cells) -----------------------------

HEADERS: Final = (
    "sessions", "turns", "calls", "tools", "failed", "in", "out", "cache r", "cache w", "cost",
)  # fmt: skip


def cost_text(row: StatsRow) -> str:
    """``$12.34``; ``?`` when no token of the row has a price; ``$1.20+?`` when some have none."""
    known = row.cost_known
    if known is None:
        return "?"
    text = f"${known:,.2f}"
    return text + "+?" if row.unpriced_tokens else text


def row_cells(row: StatsRow) -> list[str]:
    """The figures of a row as :data:`HEADERS` names them (tokens abbreviated: 1.2M); the
    calls of a row holding a flagged call (absurd usage, not counted) end in ``!``."""
    counts = row.counts
    rate = row.failure_rate
    return [
        str(row.sessions),
        str(counts.turns),
        f"{counts.requests}!" if counts.flagged else str(counts.requests),
        str(counts.tool_calls),
        "-" if rate is None else f"{100 * rate:.1f}%",
        compact_count(counts.input),
        compact_count(counts.output),
        compact_count(counts.cache_read),
        compact_count(counts.cache_write),
        cost_text(row),
    ]


def flagged_note(report: StatsReport) -> str | None:
    """What to say of the calls whose usage was absurd (``None``: there were none)."""
    flagged = report.total.counts.flagged
    if not flagged:
        return None
    calls = "1 model call reports" if flagged == 1 else f"{flagged:,} model calls report"
    return (
        f"flagged: {calls} over {ABSURD_TOKENS:,} tokens (corrupt or hand-made): counted as "
        "calls (marked !), not in tokens or cost"
    )


def fit_key(key: str, width: int) -> str:
    """``key`` (a model, project, day or week) made visible and cut to ``width`` terminal
    cells with ``…``, so a 200-character model name cannot widen the table."""
    return cut(visible(key), width)


def report_table(report: StatsReport, width: int | None = None) -> str:
    """The report as aligned text: a row per group, then the total, in ``width`` cells (a key
    longer than fits, or than :data:`KEY_WIDTH` without a width, is cut with ``…``)."""
    head = [report.group_by, *HEADERS]
    lines = [[row.key, *row_cells(row)] for row in report.rows]
    lines.append(["total", *row_cells(report.total)])
    widths = [max(cell_len(line[i]) for line in [head, *lines]) for i in range(len(head))]
    figures = sum(widths[1:]) + 2 * (len(widths) - 1)
    room = KEY_WIDTH if width is None else max(KEY_MIN_WIDTH, width - figures)
    for line in lines:
        line[0] = fit_key(line[0], room)
    widths[0] = max(cell_len(line[0]) for line in [head, *lines])

    def render(cells: list[str]) -> str:
        first = cells[0] + " " * (widths[0] - cell_len(cells[0]))
        rest = (cell.rjust(width) for cell, width in zip(cells[1:], widths[1:], strict=True))
        return "  ".join([first, *rest]).rstrip()

    rule = "-" * cell_len(render(head))
    return "\n".join([render(head), rule, *map(render, lines[:-1]), rule, render(lines[-1])]) + "\n"
