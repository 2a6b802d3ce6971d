"""``ink-tui list``: the sessions of this project (``--all``: of every project; ``--machines``:
of every project of every mirrored machine too), newest first, as a table that lines up in a
terminal, or as one JSON array; ``--ink``: exactly what ``ink sessions`` prints in this project
(:mod:`ink_tui.catalog.inklist`)."""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Final

from ink_tui.cli.output import CommandError, SafeOutput, columns, fit_end, fit_start, pad
from ink_tui.humanize import THIS_MACHINE, human_size, relative_age
from ink_tui.safetext import visible

if TYPE_CHECKING:  # imported when the command runs
    from ink_tui.catalog.row import SessionSummary

__all__ = ["add_arguments", "run", "session_table"]

EXIT_OK = 0
TITLE_COLUMNS: Final = 60
"""Terminal columns of a title in ``ink-tui list``; a longer one is cut and ends in ``…``."""
PROJECT_COLUMNS: Final = 40
"""The widest project column of ``ink-tui list --all``; a longer folder name keeps its end."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``list [--all] [--json] [--ink]``."""
    parser.add_argument("--all", action="store_true", help="sessions of every project")
    parser.add_argument(
        "--machines",
        action="store_true",
        help="sessions of every project of this machine and of every mirrored machine",
    )
    parser.add_argument("--json", action="store_true", help="one JSON array")
    parser.add_argument(
        "--ink",
        action="store_true",
        help="exactly what `ink sessions` prints here: the sessions Ink lists, Ink's lines",
    )


def run(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
    """``ink-tui list [--all | --machines] [--json]``, ``ink-tui list --ink``."""
    from ink_tui.catalog.folders import unreadable_folder
    from ink_tui.catalog.inklist import ink_sessions_text
    from ink_tui.catalog.scan import list_sessions

    if args.ink and (args.all or args.json or args.machines):
        raise CommandError(
            "--ink prints what `ink sessions` prints for one project: no --all, --machines, --json"
        )
    if args.machines:
        return _list_machines(args, base, out)
    scope = None if args.all else cwd
    problem = unreadable_folder(base, scope)
    if problem is not None:
        raise CommandError(problem)
    if args.ink:  # Ink's own list: the sessions Ink lists, in Ink's words
        out.write(ink_sessions_text(list_sessions(base, scope, include_hidden=False)))
        return EXIT_OK
    rows = list_sessions(base, scope)
    if args.json:
        out.json([row.to_dict() for row in rows])
    elif not rows:
        where = base if args.all else f"{base} (project folder for {cwd})"
        missing = "" if base.exists() else f" ({base} does not exist)"
        out.write(
            f"no sessions in {where}{missing}; point elsewhere with --sessions-dir or "
            "$INK_SESSIONS_DIR\n"
        )
    else:
        out.write(session_table(rows, show_project=args.all))
    return EXIT_OK


def _list_machines(args: argparse.Namespace, base: Path, out: SafeOutput) -> int:
    """``ink-tui list --machines [--json]``: every session of every machine, newest first,
    through the index (brought up to date: only what changed is read; ten machines' files read
    whole would take ten times one machine's ``list --all``); from the files when the index
    cannot be used, after one line saying why."""
    import sys

    from ink_tui.catalog.index.listing import refreshed_rows
    from ink_tui.catalog.roots import Root, mirror_roots, place_row
    from ink_tui.catalog.scan import list_sessions

    mirrors = mirror_roots()
    rows = refreshed_rows(base, None, mirrors=mirrors).rows_or_notice()
    if isinstance(rows, str):
        SafeOutput(sys.stderr).line(f"ink-tui: {rows}")
        rows = []
        for root in [Root(base), *mirrors]:
            for row in list_sessions(root.path, None):
                place_row(row, root)
                rows.append(row)
        rows.sort(key=lambda row: (row.mtime, row.file_name, row.project_folder), reverse=True)
    if args.json:
        out.json([row.to_dict() for row in rows])
    elif not rows:
        out.write(f"no sessions in {base}, and no machine is mirrored (see ink-tui machines)\n")
    else:
        out.write(session_table(rows, show_project=True, show_machine=True))
    return EXIT_OK


def session_table(
    rows: Iterable[SessionSummary], *, show_project: bool, show_machine: bool = False
) -> str:
    """One line per session: id prefix, age, messages, size, [machine], [project], title (and
    why hidden).

    Columns line up in a terminal: the project column is as wide as its widest folder (at most
    :data:`PROJECT_COLUMNS`), and a title longer than :data:`TITLE_COLUMNS` is cut with ``…``
    (session text is made visible first, so the widths are those printed)."""
    rows = list(rows)
    projects = [fit_start(visible(row.project_folder), PROJECT_COLUMNS) for row in rows]
    project_width = max(map(columns, projects), default=0)
    machines = [row.machine or THIS_MACHINE for row in rows]
    machine_width = max(map(len, machines), default=0)
    lines = []
    for row, project, machine in zip(rows, projects, machines, strict=True):
        ident = visible((row.id or "?")[:8])
        count = "-" if row.message_count is None else str(row.message_count)
        parts = [
            pad(ident, 8),
            f"{relative_age(row.mtime, time.time()):>8}",
            f"{count:>5} {'msg ' if count == '1' else 'msgs'}",
            f"{human_size(row.size):>9}",
        ]
        if show_machine:
            parts.append(pad(machine, machine_width))
        if show_project:
            parts.append(pad(project, project_width))
        title = fit_end(visible(row.title or ""), TITLE_COLUMNS)
        if row.hidden_reason:
            title = f"{title}  [hidden by Ink: {row.hidden_reason}]".strip()
        parts.append(title)
        lines.append("  ".join(parts))
    return "".join(line + "\n" for line in lines)
