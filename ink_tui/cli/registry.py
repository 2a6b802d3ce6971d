"""Every command of ``ink-tui``, in one list: the parser tree, ``ink-tui --help`` (one line per
command, in this order) and the dispatch are all built from it.

Adding a command: a module in :mod:`ink_tui.cli.commands` with ``add_arguments(parser)`` and
``run(args, sessions folder, cwd, out) -> exit code`` (importing what it needs when it runs),
and its line here. The global options (``--sessions-dir``, ``--cwd``, ``--demo``) come with
every command; ``ink-tui COMMAND --help`` shows its arguments and its module's description.
"""

from __future__ import annotations

import ink_tui.cli.app as app
from ink_tui.cli.commands import (
    changes,
    check,
    context,
    export,
    listing,
    manage,
    replay,
    search,
    stats,
    tree,
)
from ink_tui.cli.parsing import Command, DefaultCommand

__all__ = ["APP", "COMMANDS"]

APP = DefaultCommand(description=app.DESCRIPTION, add_arguments=app.add_arguments, run=app.run)
"""What ``ink-tui`` runs when the line names no command: the full-screen app."""

COMMANDS: tuple[Command, ...] = (
    Command(
        name="list",
        help="sessions of this project, newest first",
        add_arguments=listing.add_arguments,
        run=listing.run,
    ),
    Command(
        name="context",
        help="the context Ink would rebuild",
        add_arguments=context.add_arguments,
        run=context.run,
    ),
    Command(
        name="check",
        help="torn tail, corruption, chain, pairing",
        add_arguments=check.add_check_arguments,
        run=check.run_check,
    ),
    Command(
        name="repair",
        help="fix what check reports as fixable",
        add_arguments=check.add_repair_arguments,
        run=check.run_repair,
    ),
    Command(
        name="index",
        help="bring the search index up to date",
        add_arguments=search.add_index_arguments,
        run=search.run_index,
    ),
    Command(
        name="search",
        help="find sessions by what was said in them",
        add_arguments=search.add_search_arguments,
        run=search.run_search,
    ),
    Command(
        name="rename",
        help="name a session as Ink's /name does",
        add_arguments=manage.add_rename_arguments,
        run=manage.run_rename,
    ),
    Command(
        name="label",
        help="label an entry as Ink's /tree L does",
        add_arguments=manage.add_label_arguments,
        run=manage.run_label,
    ),
    Command(
        name="delete",
        help="move a session and its children to the trash",
        add_arguments=manage.add_delete_arguments,
        run=manage.run_delete,
    ),
    Command(
        name="trash",
        help="list, restore or empty the trash",
        add_arguments=manage.add_trash_arguments,
        run=manage.run_trash,
    ),
    Command(
        name="prune",
        help="move orphaned child sessions (of every project folder) to the trash",
        add_arguments=manage.add_prune_arguments,
        run=manage.run_prune,
    ),
    Command(
        name="adopt",
        help="copy a session from ~/.imp/sessions into Ink's folder, so ink -r resumes it",
        add_arguments=manage.add_adopt_arguments,
        run=manage.run_adopt,
    ),
    Command(
        name="stats",
        help="tokens, tool calls and estimated cost of the sessions",
        add_arguments=stats.add_arguments,
        run=stats.run,
    ),
    Command(
        name="export",
        help="a branch of a session as Markdown, HTML or JSON",
        add_arguments=export.add_arguments,
        run=export.run,
    ),
    Command(
        name="changes",
        help="the files a session changed through edit and write, as diffs",
        add_arguments=changes.add_arguments,
        run=changes.run,
    ),
    Command(
        name="replay",
        help="play a session back at its own pace",
        add_arguments=replay.add_arguments,
        run=replay.run,
    ),
    Command(
        name="tree",
        help="the session's whole tree, as Ink's /tree lists it",
        add_arguments=tree.add_arguments,
        run=tree.run,
    ),
)
"""The commands, in the order ``ink-tui --help`` lists them."""
