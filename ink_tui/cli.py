"""The ``ink-tui`` command: subcommands over the core, or the full-screen app.

Every failure is one line on stderr naming the file (and line), never a traceback. Subcommands
never import Textual; the app is imported only when it runs.

Start-up is most of what a command costs (``ink-tui search`` answers in about 10 ms once running),
so each command imports what it needs when it runs: ``index`` and ``search`` never load the
context, the writer or the repair, and no command loads the app
(``tests/unit/test_import_hygiene.py`` checks both).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from ink_tui.clitext import CommandError, SafeOutput

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["main"]

COMMAND_MODULES: dict[str, str] = {
    "check": "ink_tui.clicheck",
    "repair": "ink_tui.clicheck",
    "index": "ink_tui.clisearch",
    "search": "ink_tui.clisearch",
    "rename": "ink_tui.climanage",
    "label": "ink_tui.climanage",
    "delete": "ink_tui.climanage",
    "trash": "ink_tui.climanage",
    "prune": "ink_tui.climanage",
    "adopt": "ink_tui.climanage",
    "stats": "ink_tui.clistats",
    "export": "ink_tui.cliexport",
    "changes": "ink_tui.clichanges",
    "replay": "ink_tui.clireplay",
    "tree": "ink_tui.clitree",
}
"""Subcommands run by a module of their own, by name. Each such module has
``add_commands(subparsers) -> list[ArgumentParser]`` (adding its subcommands) and
``run(args, sessions_dir, cwd, out) -> int``, imports what a command needs only when it runs, and
reports a failure by raising :class:`~ink_tui.clitext.CommandError` (one line, exit 2)."""

SUBCOMMANDS = ("list", "context", *COMMAND_MODULES)
EXIT_OK, EXIT_REPAIRABLE, EXIT_FAILED = 0, 1, 2


class CliError(CommandError):
    """A failure to report as one line on stderr."""


ONE_LINE_ERRORS = (
    ("ink_tui.catalog.scan", "ResolveError"),
    ("ink_tui.launch", "LaunchError"),
    ("ink_tui.session.writing.writer", "ConcurrentWriteError"),
    ("ink_tui.session.writing.writer", "RecordNotWrittenError"),
)
"""The other failures said in one line, by module: a module a command never imported cannot have
raised its error, so none is imported to be caught."""


def _one_line_errors() -> tuple[type[Exception], ...]:
    found: list[type[Exception]] = [CommandError]
    for module, name in ONE_LINE_ERRORS:
        if module in sys.modules:
            found.append(getattr(sys.modules[module], name))
    return tuple(found)


class OneLineParser(argparse.ArgumentParser):
    """argparse, with usage errors as one line instead of usage text and exit (and paths in
    the help never broken at a hyphen)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        from ink_tui.launch import HelpFormatter

        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise CliError(f"{message} (see {self.prog} --help)")


def _global_options(parser: argparse.ArgumentParser, *, after_command: bool = False) -> None:
    """``--sessions-dir``, ``--cwd`` and ``--demo``, accepted before or after the command."""
    from ink_tui.launch import demo_dir

    default = argparse.SUPPRESS if after_command else None
    parser.add_argument(
        "--sessions-dir",
        metavar="DIR",
        default=default,
        help="Ink's sessions folder (default: $INK_SESSIONS_DIR, else ~/.ink/sessions)",
    )
    parser.add_argument(
        "--cwd",
        metavar="DIR",
        default=default,
        help="the project whose sessions come first (default: .)",
    )
    parser.add_argument(
        "--demo",
        action="store_true",
        default=argparse.SUPPRESS if after_command else False,
        help=f"the demo sessions the app shows with --demo ({demo_dir()}; generated the first "
        "time), their project as the cwd",
    )


class _Commands:
    """The subcommands' adder, each command's one-line help noted as it is added (argparse keeps
    it only in private state)."""

    def __init__(self, commands: Any) -> None:
        self.commands = commands
        self.lines: list[tuple[str, str]] = []

    def add_parser(self, name: str, **options: Any) -> argparse.ArgumentParser:
        if "help" in options:  # as argparse lists them: those with a help line
            self.lines.append((name, str(options["help"] or "")))
        parser: argparse.ArgumentParser = self.commands.add_parser(name, **options)
        return parser


def build_parser() -> argparse.ArgumentParser:
    """The subcommand parser (``ink-tui list|context|check|repair …``)."""
    return _build()[0]


def _build() -> tuple[argparse.ArgumentParser, list[tuple[str, str]]]:
    """The subcommand parser, and each subcommand with its one-line help, in order."""
    from ink_tui.launch import VersionAction

    parser = OneLineParser(
        prog="ink-tui", description="Read, check and repair Ink's session files."
    )
    _global_options(parser)
    parser.add_argument("--version", action=VersionAction)
    commands = _Commands(parser.add_subparsers(dest="command", required=True, metavar="COMMAND"))
    listing = commands.add_parser("list", help="sessions of this project, newest first")
    listing.add_argument("--all", action="store_true", help="sessions of every project")
    listing.add_argument("--json", action="store_true", help="one JSON array")
    listing.add_argument(
        "--ink",
        action="store_true",
        help="exactly what `ink sessions` prints here: the sessions Ink lists, Ink's lines",
    )
    context = commands.add_parser("context", help="the context Ink would rebuild")
    context.add_argument("session", metavar="SESSION", help="path, id, id prefix or file name")
    context.add_argument("--json", action="store_true", help="the fixtures' .expected.json shape")
    more = [_command_module(name).add_commands(commands) for name in _command_module_names()]
    for command in (listing, context, *(parser for ps in more for parser in ps)):
        _global_options(command, after_command=True)
    return parser, commands.lines


def command_lines() -> list[tuple[str, str]]:
    """Every subcommand and its one-line help, in the order ``ink-tui COMMAND --help`` lists
    them: what the app's ``--help`` shows (taken from the subcommand parser, never retyped)."""
    return _build()[1]


def _command_module_names() -> list[str]:
    return list(dict.fromkeys(COMMAND_MODULES.values()))


def _command_module(name: str) -> Any:
    return importlib.import_module(name)


def _resolve(args: argparse.Namespace, wanted: str) -> Path:
    from ink_tui.catalog.scan import resolve_session

    return resolve_session(_base(args), _cwd(args), wanted)


def _base(args: argparse.Namespace) -> Path:
    """The sessions folder: ``--sessions-dir``, ``$INK_SESSIONS_DIR``, Ink's; with ``--demo`` the
    app's demo folder (generated the first time, as ``ink-tui --demo`` does)."""
    from ink_tui.paths import sessions_dir

    if not args.demo:
        return sessions_dir(args.sessions_dir)
    if args.sessions_dir:
        raise CliError("--demo reads the demo sessions: leave out --sessions-dir")
    from ink_tui.launch import prepare_demo

    return prepare_demo()[0]


def _cwd(args: argparse.Namespace) -> str:
    if args.demo and not args.cwd:
        from ink_tui.demo import DEMO_CWD

        return DEMO_CWD
    return os.path.abspath(args.cwd or os.getcwd())


def cmd_list(args: argparse.Namespace, out: SafeOutput) -> int:
    from ink_tui.catalog.inklist import ink_sessions_text
    from ink_tui.catalog.scan import list_sessions, unreadable_folder
    from ink_tui.clitext import session_table

    if args.ink and (args.all or args.json):
        raise CliError("--ink prints what `ink sessions` prints for one project: no --all, --json")
    base = _base(args)
    cwd = None if args.all else _cwd(args)
    problem = unreadable_folder(base, cwd)
    if problem is not None:
        raise CliError(problem)
    if args.ink:  # Ink's own list: the sessions Ink lists, in Ink's words
        out.write(ink_sessions_text(list_sessions(base, cwd, include_hidden=False)))
        return EXIT_OK
    rows = list_sessions(base, cwd)
    if args.json:
        out.json([row.to_dict() for row in rows])
    elif not rows:
        where = base if args.all else f"{base} (project folder for {_cwd(args)})"
        missing = "" if base.exists() else f" ({base} does not exist)"
        out.write(
            f"no sessions in {where}{missing}; point elsewhere with --sessions-dir or "
            "$INK_SESSIONS_DIR\n"
        )
    else:
        out.write(session_table(rows, show_project=args.all))
    return EXIT_OK


def cmd_context(args: argparse.Namespace, out: SafeOutput) -> int:
    from ink_tui.clitext import transcript
    from ink_tui.session import SessionError, build_context, open_session

    path = _resolve(args, args.session)
    try:
        context = build_context(open_session(path, warn=_stderr().as_textio()))
    except SessionError as error:
        if args.json:
            out.json({"ok": False, "error": error.message})
        raise CliError(error.one_line()) from None
    if args.json:
        out.json(context.to_json())
    else:
        out.write(transcript(context))
    return EXIT_OK


COMMANDS = {
    "list": cmd_list,
    "context": cmd_context,
}


def _run_subcommand(argv: Sequence[str], out: SafeOutput) -> int:
    args = build_parser().parse_args(argv)
    module = COMMAND_MODULES.get(args.command)
    if module is None:
        return COMMANDS[args.command](args, out)
    run = _command_module(module).run
    code: int = run(args, _base(args), _cwd(args), out)
    return code


def _first_positional(argv: Sequence[str]) -> str | None:
    takes_value = {"--sessions-dir", "--cwd", "-r", "--resume", "--model", "--thinking"}
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg in takes_value:
            skip = True
        elif not arg.startswith("-"):
            return arg
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``ink-tui`` console script; returns the exit code."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    try:
        if _first_positional(arguments) in SUBCOMMANDS:
            return _run_subcommand(arguments, SafeOutput(sys.stdout))
        from ink_tui.launch import run_app

        return run_app(arguments, command_lines)
    except _one_line_errors() as error:
        _error_line(str(error))
        return EXIT_FAILED
    except BrokenPipeError:  # pragma: no cover - `ink-tui list | head`
        return EXIT_OK
    except OSError as error:
        _error_line(_os_error_text(error))
        return EXIT_FAILED
    except KeyboardInterrupt:
        return 130
    except Exception as error:  # a bug: its traceback logged, one line here (or raised)
        if os.environ.get("INK_TUI_DEBUG"):
            raise
        from ink_tui.logs import unforeseen

        _error_line(f"{unforeseen(error, 'ink-tui')}; INK_TUI_DEBUG=1 prints it here")
        return EXIT_FAILED


def _stderr() -> SafeOutput:
    """stderr, through the command line's one door to the terminal."""
    return SafeOutput(sys.stderr)


def _os_error_text(error: OSError) -> str:
    """``<path>: <reason>`` (``<path> -> <other path>`` for a rename), each path on one line."""
    from ink_tui.safetext import one_line

    reason = error.strerror or str(error)
    names = [name for name in (error.filename, error.filename2) if name is not None]
    if not names:
        return reason
    return " -> ".join(one_line(os.fsdecode(name)) for name in names) + f": {reason}"


def _error_line(text: str) -> None:
    """One line on stderr. Session text and paths inside it are made visible (untrusted), and
    a line break or tab left in it shows as ``␊``/``␉``: nothing can fake a line of output."""
    from ink_tui.safetext import one_line

    _stderr().line(one_line(f"ink-tui: {text}"))
