"""``ink-tui tree SESSION [--filter MODE]``: the session's whole tree as Ink's ``/tree`` lists it.

One line per row, in ``/tree``'s order and indentation (a single-child chain stays flat; the branch
holding the current leaf first), ``• `` on the current branch, a label as ``[label] `` before the
text, ``  ◂`` after the current leaf. ``--filter`` is one of ``/tree``'s five (default, no-tools,
user-only, labeled-only, all); the current leaf shows under every one. The rules are
:mod:`ink_tui.session.conversation.navtree`'s. On a terminal a line is cut to its width, as
``/tree`` cuts it; elsewhere it is whole. Session text goes through :class:`SafeOutput`, and a line
break inside a label or a name is shown as a space (one line per row).
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from ink_tui.cli.output import CommandError, SafeOutput
from ink_tui.safetext import visible

__all__ = ["add_arguments", "run"]

EXIT_OK = 0
FILTER_CHOICES = ("default", "no-tools", "user-only", "labeled-only", "all")
NO_ROWS = "  no entries match"


def add_arguments(tree: argparse.ArgumentParser) -> None:
    """The ``tree`` command's arguments and description."""
    tree.description = (
        "Every entry of the file as a tree, as Ink's /tree navigator lists it: "
        "siblings by timestamp, the current branch first and marked with •, labels in [ ], "
        "the current leaf marked with ◂. --filter picks one of /tree's filters."
    )
    tree.add_argument("session", metavar="SESSION", help="path, id, id prefix or file name")
    tree.add_argument(
        "--filter",
        choices=FILTER_CHOICES,
        default="default",
        help="default (no tool-only replies, no metadata), no-tools, user-only, labeled-only, all",
    )
    tree.add_argument("--ids", action="store_true", help="start each line with its entry id")


def _width(out: SafeOutput) -> int | None:
    """The terminal's width when printing to one (``/tree`` cuts its lines to it)."""
    isatty = getattr(out.stream, "isatty", None)
    if isatty is None or not isatty():
        return None
    return shutil.get_terminal_size().columns


def _cut(line: str, width: int | None) -> str:
    if width is None:
        return line
    from rich.cells import cell_len, set_cell_size

    return line if cell_len(line) <= width else set_cell_size(line, width - 1) + "…"


def run(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
    """``ink-tui tree SESSION [--filter MODE] [--ids]``."""
    from ink_tui.catalog.roots import resolve_anywhere
    from ink_tui.session import SessionError, open_session
    from ink_tui.session.conversation.navtree import ink_tree, row_line, tree_rows

    path = resolve_anywhere(base, cwd, args.session)
    try:
        session = open_session(path, warn=SafeOutput(sys.stderr).as_textio())
        rows = tree_rows(ink_tree(session), session.leaf_id, args.filter)
    except SessionError as error:
        raise CommandError(error.one_line()) from None
    except OSError as error:
        raise CommandError(f"{path}: {error.strerror or error}") from None
    width = _width(out)
    if not rows:
        out.line(NO_ROWS)
    for row in rows:
        line = row_line(row).replace("\r\n", " ").replace("\n", " ").replace("\r", " ")
        out.line(_cut(visible(f"{row.entry_id}  {line}" if args.ids else line), width))
    return EXIT_OK
