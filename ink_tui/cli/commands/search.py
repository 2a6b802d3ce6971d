"""``ink-tui index`` and ``ink-tui search``: the catalog index from the command line.

Both bring the index up to date first (only files that changed are read). When the index cannot
be used (a symlink or not a regular file, read-only, a newer ink-tui's, locked), ``index`` says
why in one line (exit 2), and ``search`` says why and searches the files without it: through a
throwaway index in a temporary folder, for this run
(:class:`ink_tui.catalog.index.fallback.SearchIndex`). Nothing here ever writes a session file.

``search`` trusts a check of every file made less than
:data:`~ink_tui.catalog.index.checks.TRUST_SECONDS` before (by any process), and then says so;
``--fresh`` checks anyway. It prints every hit up to ``--limit`` (the best sessions first, see
:mod:`ink_tui.catalog.search`), the matched words marked on a terminal, and says so when the
limit left hits out: a last line in text, ``truncated`` and the totals in ``--json``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ink_tui.cli.output import CommandError, SafeOutput
from ink_tui.humanize import THIS_MACHINE, human_size, plural
from ink_tui.paths import cwd_folder_name

if TYPE_CHECKING:  # imported when a command runs: the app's start-up never pays for them
    from ink_tui.catalog.index import CatalogIndex, IndexReport
    from ink_tui.catalog.search import SearchHit, SearchResult

__all__ = ["add_index_arguments", "add_search_arguments", "run_index", "run_search"]

EXIT_OK, EXIT_NO_HITS, EXIT_FAILED = 0, 1, 2


class IndexCommandError(CommandError):
    """A failure to report as one line on stderr (the command's exit code is 2)."""


def add_index_arguments(index: argparse.ArgumentParser) -> None:
    """``index [--all] [--rebuild]``."""
    index.add_argument("--all", action="store_true", help="every project (default: this one)")
    index.add_argument("--rebuild", action="store_true", help="start again from an empty index")


def add_search_arguments(search: argparse.ArgumentParser) -> None:
    """``search QUERY [--all] [--json] [--limit N] [--fresh]``, and the query language."""
    search.description = (
        'Words must all match; "a phrase"; -word excludes; prefix*; filters project: model: '
        "machine: role:user|assistant|tool after:DATE before:DATE. Quote the query when it "
        "holds -words: ink-tui search 'retry -flaky'."
    )
    search.add_argument("query", nargs="+", metavar="QUERY")
    search.add_argument("--all", action="store_true", help="every project (default: this one)")
    search.add_argument(
        "--machines",
        action="store_true",
        help="every project of this machine and of every mirrored machine",
    )
    search.add_argument(
        "--json", action="store_true", help="one JSON object: the hits, and how many were left out"
    )
    search.add_argument(
        "--fresh",
        action="store_true",
        help="check every file for changes even if that was done seconds ago",
    )
    search.add_argument(
        "--limit",
        type=int,
        default=50,
        metavar="N",
        help="at most N hits (50), dealt out over the best sessions; a cut is said",
    )


def _progress_bar(enabled: bool) -> contextlib.AbstractContextManager[object]:
    if not enabled:
        return contextlib.nullcontext()
    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, Progress, TimeRemainingColumn

    console = Console(file=sys.stderr)
    return Progress(
        "indexing", BarColumn(), DownloadColumn(), TimeRemainingColumn(), console=console,
        transient=True,
    )  # fmt: skip


def _update(
    index: CatalogIndex, base: Path, cwd: str | None, *, show_progress: bool
) -> IndexReport:
    from ink_tui.catalog.folders import unreadable_folder
    from ink_tui.catalog.index import update_index

    problem = unreadable_folder(base, cwd)
    if problem is not None:  # never taken for "every session was deleted"
        raise IndexCommandError(problem)

    with _progress_bar(show_progress) as bar:
        if bar is None:
            return update_index(index, base, cwd)
        from rich.progress import Progress

        assert isinstance(bar, Progress)
        task = bar.add_task("indexing", total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return update_index(index, base, cwd, progress=advance)


def run_index(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
    """``ink-tui index [--all] [--rebuild]``."""
    from ink_tui.catalog.index import CatalogIndex, IndexUnavailable

    err = SafeOutput(sys.stderr)
    try:
        with CatalogIndex.open(rebuild=args.rebuild) as index:
            if index.notice:
                err.line(f"ink-tui: {index.notice}")
            scope = None if args.all else cwd
            report = _update(index, base, scope, show_progress=sys.stderr.isatty())
            out.line(report.sentence())
            out.line(f"index: {index.path} ({human_size(index.size_bytes())})")
    except IndexUnavailable as error:
        raise IndexCommandError(f"{error}: not updated") from None
    return EXIT_OK


def run_search(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
    """``ink-tui search QUERY [--all | --machines] [--json] [--limit N] [--fresh]``; exit 1 when
    nothing matched."""
    from ink_tui.catalog.folders import unreadable_folder
    from ink_tui.catalog.index import IndexUnavailable
    from ink_tui.catalog.index.checks import TRUST_SECONDS
    from ink_tui.catalog.index.fallback import SearchIndex
    from ink_tui.catalog.query import QueryError, parse_query
    from ink_tui.catalog.roots import Root, mirror_roots
    from ink_tui.catalog.search import search

    if args.limit < 1:
        raise IndexCommandError(f"--limit must be 1 or more, not {args.limit}")
    try:
        query = parse_query(" ".join(args.query))
    except QueryError as error:
        raise IndexCommandError(f"search: {error}") from None
    machines = args.machines or bool(query.machines)
    everywhere = args.all or machines or bool(query.projects)
    scope = None if everywhere else cwd
    mirrors = mirror_roots() if machines else []
    problem = unreadable_folder(base, scope)
    if problem is not None:  # never taken for "no session holds it"
        raise IndexCommandError(problem)
    err = SafeOutput(sys.stderr)
    projects = None if everywhere else [cwd_folder_name(cwd)]
    with SearchIndex() as searched:
        try:
            trust = 0.0 if args.fresh else TRUST_SECONDS
            report = searched.update(base, scope, trust=trust, mirrors=mirrors)
            if searched.notice is not None:
                err.line(f"ink-tui: {searched.notice}")
            if report.not_indexed and not args.json:  # --json says it in filesNotIndexed
                err.line(f"ink-tui: {_not_indexed_note(report.not_indexed)}")
            with searched.open() as index:
                roots = [Root(base), *mirrors]
                result = search(index, query, projects=projects, limit=args.limit, roots=roots)
        except IndexUnavailable as error:
            raise IndexCommandError(str(error)) from None
        except QueryError as error:  # a machine: no mirror is of
            raise IndexCommandError(f"search: {error}") from None
    if args.json:
        checked = {
            "checkedAt": _iso(report.checked_ns),
            "checkedNow": not report.trusted,
            "filesNotIndexed": report.not_indexed,
        }
        out.json(result.to_json() | checked)
    elif result.hits:
        _print_hits(
            result, out, show_project=everywhere, show_machine=machines, colour=_colour(out)
        )
        if report.trusted:  # --json says it in checkedAt and checkedNow
            err.line(f"ink-tui: {_trusted_note(report.checked_ns)}")
    else:
        where = "this project (--all searches every project)"
        if everywhere:
            where = "any project of any machine" if machines else "any project"
        trusted = f"; {_trusted_note(report.checked_ns)}" if report.trusted else ""
        err.line(f"ink-tui: no record in {where} matches {' '.join(args.query)}{trusted}")
    return EXIT_OK if result.hits else EXIT_NO_HITS


def _trusted_note(checked_ns: int) -> str:
    """What a search answered without looking at the files says (on stderr)."""
    ago = max(0.0, (time.time_ns() - checked_ns) / 1e9)
    when = "under a second ago" if ago < 1 else f"{ago:.0f} s ago"
    return f"every file was checked {when}, not again (--fresh checks them now)"


def _not_indexed_note(count: int) -> str:
    """What a search says of changed files it could not search this time."""
    files = plural(count, "changed session file")
    return f"{files} not searched (another process was indexing them, or they went): search again"


def _iso(time_ns: int) -> str:
    """``2026-12-05T09:01:02.345Z``: when the files the answer rests on were checked."""
    from ink_tui.session.reading.timestamps import utc_timestamp

    return utc_timestamp(datetime.fromtimestamp(time_ns / 1e9, UTC))


def _colour(out: SafeOutput) -> bool:
    """Mark the matched words: on a terminal, unless ``NO_COLOR`` is set."""
    isatty = getattr(out.stream, "isatty", None)
    return bool(isatty and isatty()) and not os.environ.get("NO_COLOR")


_MARK_ON, _MARK_OFF = "\x1b[1;31m", "\x1b[0m"  # bold red, as grep marks a match


def _print_hits(
    result: SearchResult, out: SafeOutput, *, show_project: bool, show_machine: bool, colour: bool
) -> None:
    """Each session's line, then its hits (time, role, snippet); the cut, if any, last."""
    current: Path | None = None
    for hit in result.hits:
        if hit.file != current:
            current = hit.file
            out.line(_session_line(hit, show_project=show_project, show_machine=show_machine))
        when = (hit.timestamp or "")[:16].replace("T", " ")
        out.write(f"  {when:16}  {hit.role:<9}  ")
        _write_marked(out, hit, colour)
        out.write("\n")
    if result.truncated:
        hidden = result.total_hits - len(result.hits)
        out.line(
            f"… {plural(hidden, 'more hit')} in {plural(result.cut_sessions, 'session')} not shown"
            f" (--limit {result.total_hits} shows every hit)"
        )


def _session_line(hit: SearchHit, *, show_project: bool, show_machine: bool) -> str:
    where = f"{hit.project} · " if show_project else ""
    if show_machine:
        where = f"{hit.machine or THIS_MACHINE} · {where}"
    short = (hit.session_id or "?")[:8]
    count = plural(hit.session_hits, "hit")
    return f"{hit.heading()}  [{where}{short} · {count}]  {hit.file}"


def _write_marked(out: SafeOutput, hit: SearchHit, colour: bool) -> None:
    """The snippet, its marked words between our own colour codes (the text through the door)."""
    if not colour or not hit.marks:
        out.write(hit.snippet)
        return
    done = 0
    for start, end in hit.marks:
        out.write(hit.snippet[done:start])
        out.stream.write(_MARK_ON)
        out.write(hit.snippet[start:end])
        out.stream.write(_MARK_OFF)
        done = end
    out.write(hit.snippet[done:])
