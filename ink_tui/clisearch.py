"""``ink-tui index`` and ``ink-tui search``: the catalog index from the command line.

Both bring the index up to date first (only files that changed are read). When the index cannot
be used (a newer ink-tui's, or locked), ``search`` builds a throwaway one in a temporary folder
for this run and says so; nothing here ever writes a session file.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ink_tui.clitext import CommandError, SafeOutput
from ink_tui.humanize import human_size
from ink_tui.paths import cwd_folder_name

if TYPE_CHECKING:  # imported when a command runs: the app's start-up never pays for them
    from ink_tui.catalog.index import CatalogIndex, IndexReport
    from ink_tui.catalog.search import SearchHit

__all__ = ["add_commands", "cmd_index", "cmd_search", "run"]

EXIT_OK, EXIT_NO_HITS, EXIT_FAILED = 0, 1, 2


class IndexCommandError(CommandError):
    """A failure to report as one line on stderr (the command's exit code is 2)."""


def add_commands(commands: Any) -> list[argparse.ArgumentParser]:
    """The ``index`` and ``search`` subcommands; returns their parsers."""
    index = commands.add_parser("index", help="bring the search index up to date")
    index.add_argument("--all", action="store_true", help="every project (default: this one)")
    index.add_argument("--rebuild", action="store_true", help="start again from an empty index")
    search = commands.add_parser(
        "search",
        help="find sessions by what was said in them",
        description='Words must all match; "a phrase"; -word excludes; prefix*; filters '
        "project: model: role:user|assistant|tool after:DATE before:DATE. Quote the query "
        "when it holds -words: ink-tui search 'retry -flaky'.",
    )
    search.add_argument("query", nargs="+", metavar="QUERY")
    search.add_argument("--all", action="store_true", help="every project (default: this one)")
    search.add_argument("--json", action="store_true", help="one JSON array of hits")
    search.add_argument("--limit", type=int, default=50, metavar="N", help="at most N hits (50)")
    return [index, search]


def run(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
    """Run ``index`` or ``search`` (``args.command``)."""
    return (cmd_index if args.command == "index" else cmd_search)(args, base, cwd, out)


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
    from ink_tui.catalog.index import update_index
    from ink_tui.catalog.scan import unreadable_folder

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


@contextlib.contextmanager
def _opened(err: SafeOutput, *, rebuild: bool = False, fallback: bool) -> Iterator[CatalogIndex]:
    from ink_tui.catalog.index import CatalogIndex, IndexUnavailable

    try:
        index = CatalogIndex.open(rebuild=rebuild)
    except IndexUnavailable as error:
        if not fallback:
            raise IndexCommandError(str(error)) from None
        import tempfile

        err.line(f"ink-tui: {error}; searching a temporary index instead")
        with (
            tempfile.TemporaryDirectory(prefix="ink-tui-index-") as folder,
            CatalogIndex.open(Path(folder) / "index.sqlite3") as temporary,
        ):
            yield temporary
        return
    if index.notice:
        err.line(f"ink-tui: {index.notice}")
    with index:
        yield index


def cmd_index(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
    """``ink-tui index [--all] [--rebuild]``."""
    err = SafeOutput(sys.stderr)
    with _opened(err, rebuild=args.rebuild, fallback=False) as index:
        report = _update(index, base, None if args.all else cwd, show_progress=sys.stderr.isatty())
        out.line(report.sentence())
        out.line(f"index: {index.path} ({human_size(index.size_bytes())})")
    return EXIT_OK


def cmd_search(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
    """``ink-tui search QUERY [--all] [--json] [--limit N]``; exit 1 when nothing matched."""
    from ink_tui.catalog.index import IndexUnavailable
    from ink_tui.catalog.query import QueryError, parse_query
    from ink_tui.catalog.search import search_index

    if args.limit < 1:
        raise IndexCommandError(f"--limit must be 1 or more, not {args.limit}")
    try:
        query = parse_query(" ".join(args.query))
    except QueryError as error:
        raise IndexCommandError(f"search: {error}") from None
    everywhere = args.all or bool(query.projects)
    err = SafeOutput(sys.stderr)
    with _opened(err, fallback=True) as index:
        _update(index, base, None if everywhere else cwd, show_progress=False)
        projects = None if everywhere else [cwd_folder_name(cwd)]
        try:
            hits = search_index(index, query, projects=projects, limit=args.limit)
        except IndexUnavailable as error:
            raise IndexCommandError(str(error)) from None
    if args.json:
        out.json([hit.to_json() for hit in hits])
    elif hits:
        out.write(_hit_lines(hits, show_project=everywhere))
    else:
        where = "any project" if everywhere else "this project (--all searches every project)"
        err.line(f"ink-tui: no record in {where} matches {' '.join(args.query)}")
    return EXIT_OK if hits else EXIT_NO_HITS


def _hit_lines(hits: list[SearchHit], *, show_project: bool) -> str:
    lines: list[str] = []
    current: Path | None = None
    for hit in hits:
        if hit.file != current:
            current = hit.file
            where = f"{hit.project} · " if show_project else ""
            short = (hit.session_id or "?")[:8]
            lines.append(f"{hit.heading()}  [{where}{short}]  {hit.file}")
        when = (hit.timestamp or "")[:16].replace("T", " ")
        lines.append(f"  {when:16}  {hit.role:<9}  {hit.snippet}")
    return "\n".join(lines) + "\n"
