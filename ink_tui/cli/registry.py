"""Every command of ``ink-tui``, in one list: the parser tree, ``ink-tui --help`` (one line per
command, in this order) and the dispatch are all built from it.

Adding a command: a module in :mod:`ink_tui.cli.commands` with ``add_arguments(parser)`` and
``run(args, sessions folder, cwd, out) -> exit code`` (importing what it needs when it runs),
and its line here, naming the module (and the two functions, when named otherwise): a command's
module is imported only when the line names it. The global options (``--sessions-dir``,
``--cwd``, ``--demo``) come with every command; ``ink-tui COMMAND --help`` shows its arguments
and its module's description.
"""

from __future__ import annotations

import ink_tui.cli.app as app
from ink_tui.cli.parsing import Command, DefaultCommand, Lazy

__all__ = ["APP", "COMMANDS"]

APP = DefaultCommand(description=app.DESCRIPTION, add_arguments=app.add_arguments, run=app.run)
"""What ``ink-tui`` runs when the line names no command: the full-screen app."""


def command(
    name: str, help: str, module: str, *, add_arguments: str = "add_arguments", run: str = "run"
) -> Command:
    """The command ``name``, its functions in ``ink_tui.cli.commands.<module>`` (imported when
    the line names it)."""
    where = f"ink_tui.cli.commands.{module}"
    return Command(name, help, add_arguments=Lazy(where, add_arguments), run=Lazy(where, run))


COMMANDS: tuple[Command, ...] = (
    command("list", "sessions of this project, newest first", "listing"),
    command("context", "the context Ink would rebuild", "context"),
    command(
        "check",
        "torn tail, corruption, chain, pairing",
        "check",
        add_arguments="add_check_arguments",
        run="run_check",
    ),
    command(
        "repair",
        "fix what check reports as fixable",
        "check",
        add_arguments="add_repair_arguments",
        run="run_repair",
    ),
    command(
        "index",
        "bring the search index up to date",
        "search",
        add_arguments="add_index_arguments",
        run="run_index",
    ),
    command(
        "search",
        "find sessions by what was said in them",
        "search",
        add_arguments="add_search_arguments",
        run="run_search",
    ),
    command(
        "rename",
        "name a session as Ink's /name does",
        "manage",
        add_arguments="add_rename_arguments",
        run="run_rename",
    ),
    command(
        "label",
        "label an entry as Ink's /tree L does",
        "manage",
        add_arguments="add_label_arguments",
        run="run_label",
    ),
    command(
        "delete",
        "move a session and its children to the trash",
        "manage",
        add_arguments="add_delete_arguments",
        run="run_delete",
    ),
    command(
        "trash",
        "list, restore or empty the trash",
        "manage",
        add_arguments="add_trash_arguments",
        run="run_trash",
    ),
    command(
        "prune",
        "move orphaned child sessions (of every project folder) to the trash",
        "manage",
        add_arguments="add_prune_arguments",
        run="run_prune",
    ),
    command(
        "adopt",
        "copy a session from ~/.imp/sessions into Ink's folder, so ink -r resumes it",
        "manage",
        add_arguments="add_adopt_arguments",
        run="run_adopt",
    ),
    command(
        "machines",
        "the other machines whose sessions are mirrored here",
        "machines",
        add_arguments="add_machines_arguments",
        run="run_machines",
    ),
    command(
        "sync",
        "bring the other machines' sessions into their mirrors",
        "machines",
        add_arguments="add_sync_arguments",
        run="run_sync",
    ),
    command("mcp", "serve the archive to coding agents (MCP over stdio, read-only)", "mcp"),
    command("read", "a session's turns as text for an agent, cut to a budget of tokens", "read"),
    command(
        "secrets",
        "find the secrets in sessions: kind, where, fingerprint (never the secret)",
        "secrets",
    ),
    command("scrub", "replace each secret in a session with [REDACTED:kind:fingerprint]", "scrub"),
    command(
        "push",
        "put this machine's sessions in an S3 store (for machines nobody can reach)",
        "machines",
        add_arguments="add_push_arguments",
        run="run_push",
    ),
    command("stats", "tokens, tool calls and estimated cost of the sessions", "stats"),
    command("export", "a branch of a session as Markdown, HTML or JSON", "export"),
    command("changes", "the files a session changed through edit and write, as diffs", "changes"),
    command("replay", "play a session back at its own pace", "replay"),
    command("tree", "the session's whole tree, as Ink's /tree lists it", "tree"),
)
"""The commands, in the order ``ink-tui --help`` lists them."""
