"""The command line's one parser tree, built from the command specs of
:mod:`ink_tui.cli.registry`.

``ink-tui COMMAND …`` runs a command; ``ink-tui [SESSION] [-c | -r ID] …`` runs the app, the
default command. The tree's root takes the global options (``--sessions-dir``, ``--cwd``,
``--demo``: before the command, and again after it) and has one child per command, plus the
app's own child, which is never typed: argparse has no default command, so :func:`parse` reads
the line's first word (the first argument that is no option nor an option's value, by the app's
own arguments and argparse's rules: ``-r ID``, ``--model=X``, abbreviations) and, when it names
no command, parses the line as the app's. ``ink-tui --help`` is the app's help, listing every
command with its one-line help from the same specs.

Only the command the line names gets its child built (``ink-tui --help`` lists every command
from the specs alone), so a line imports one command's module at most: the registry names each
command's module and functions (:class:`Lazy`), imported when first called, and a command's
module imports what its run needs only when it runs.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from ink_tui.cli.folders import demo_dir
from ink_tui.cli.output import CommandError, SafeOutput

__all__ = [
    "APP_NAME",
    "PROG",
    "Command",
    "DefaultCommand",
    "HelpFormatter",
    "Lazy",
    "OneLineParser",
    "VersionAction",
    "add_global_option",
    "add_global_options",
    "build_parser",
    "first_word",
    "global_option_helps",
    "package_version",
    "parse",
]

PROG = "ink-tui"
APP_NAME = "app"
"""The app's name in the tree. Nobody types it: a first word naming no command is the app's."""

CommandRun = Callable[[argparse.Namespace, Path, str, SafeOutput], int]
AddArguments = Callable[[argparse.ArgumentParser], None]


@dataclass(frozen=True, slots=True)
class Lazy:
    """The function ``name`` of module ``module``, imported when first called."""

    module: str
    name: str

    def __call__(self, *args: Any) -> Any:
        return getattr(importlib.import_module(self.module), self.name)(*args)


@dataclass(frozen=True, slots=True)
class Command:
    """One command: its name, the one line ``ink-tui --help`` lists for it, what adds its
    arguments (and its longer description) to its parser, and what runs it:
    ``run(args, sessions folder, cwd, out)`` returns the exit code and reports a failure by
    raising :class:`~ink_tui.cli.output.CommandError` (one line, exit 2)."""

    name: str
    help: str
    add_arguments: AddArguments
    run: CommandRun

    @property
    def module(self) -> str:
        """The module the command lives in."""
        return self.run.module if isinstance(self.run, Lazy) else self.run.__module__


@dataclass(frozen=True, slots=True)
class DefaultCommand:
    """What ``ink-tui`` runs when the line names no command: the app. Its arguments hold one
    positional, ``SESSION`` (dest ``session``), which takes the line's first word."""

    description: str
    add_arguments: AddArguments
    run: Callable[[argparse.Namespace], int]


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help, with no line broken at a hyphen (a path such as
    ``~/.cache/ink-tui/demo-sessions`` stays whole), and a text written in lines (the app's
    list of commands) kept as written."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        import textwrap

        text = " ".join(text.split())
        return textwrap.wrap(text, width, break_on_hyphens=False, break_long_words=False)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if "\n" in text:
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return "\n".join(indent + line for line in self._split_lines(text, width - len(indent)))


class OneLineParser(argparse.ArgumentParser):
    """argparse, with a usage error as one line (:class:`CommandError`, exit 2) instead of usage
    text, paths in the help never broken at a hyphen, and (for the app) the commands listed
    after the options."""

    listed: Sequence[tuple[str, str]] = ()
    """The commands and their one-line help, listed at the end of ``--help``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise CommandError(f"{message} (see {self.prog} --help)")

    def format_help(self) -> str:
        if self.listed:
            self.epilog = _command_list(self.listed)
        return super().format_help()


def _command_list(listed: Sequence[tuple[str, str]]) -> str:
    """``commands (…):`` and a line per command, its help wrapped to the terminal as argparse
    wraps an option's."""
    import shutil
    import textwrap

    names = max(len(name) for name, _ in listed)
    room = max(20, shutil.get_terminal_size().columns - 2 - names - 4)
    lines = [f"commands ({PROG} COMMAND --help says more; each takes --demo):"]
    for name, help_line in listed:
        wrapped = textwrap.wrap(help_line, room, break_on_hyphens=False) or [""]
        lines.append(f"  {name:<{names}}  {wrapped[0]}")
        lines += [f"  {'':<{names}}  {more}" for more in wrapped[1:]]
    return "\n".join(lines)


class VersionAction(argparse.Action):
    """``--version``: the version is looked up only when asked for."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: Any) -> None:
        kwargs.setdefault("help", "show the version and exit")
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        sys.stdout.write(f"{PROG} {package_version()}\n")  # argparse's own version goes here
        parser.exit()


def package_version() -> str:
    """The installed distribution's version (``importlib.metadata``), else the package's own."""
    from importlib import metadata  # only for --version: ~50 ms nobody else pays

    try:
        return metadata.version(PROG)
    except metadata.PackageNotFoundError:  # running from a source tree that is not installed
        from ink_tui import __version__

        return __version__


# -- the global options: before the command, and again after it --------------------------------


def add_global_option(
    parser: argparse.ArgumentParser, option: str, *, help: str, after_command: bool = False
) -> None:
    """``--sessions-dir DIR``, ``--cwd DIR`` or ``--demo``, parsed alike everywhere (the help
    line is the caller's). After the command its default is left out, so that the value given
    before the command stays."""
    if option == "--demo":
        default: Any = argparse.SUPPRESS if after_command else False
        parser.add_argument(option, action="store_true", default=default, help=help)
        return
    default = argparse.SUPPRESS if after_command else None
    parser.add_argument(option, metavar="DIR", default=default, help=help)


def global_option_helps() -> dict[str, str]:
    """The three global options and their help lines, as a command's help says them."""
    return {
        "--sessions-dir": "Ink's sessions folder (default: $INK_SESSIONS_DIR, else "
        "~/.ink/sessions)",
        "--cwd": "the project whose sessions come first (default: .)",
        "--demo": f"the demo sessions the app shows with --demo ({demo_dir()}; generated the "
        "first time), their project as the cwd",
    }


def add_global_options(
    parser: argparse.ArgumentParser, helps: dict[str, str], *, after_command: bool = False
) -> None:
    """The three global options (``helps``: :func:`global_option_helps`)."""
    for option, help_line in helps.items():
        add_global_option(parser, option, help=help_line, after_command=after_command)


# -- the tree ------------------------------------------------------------------------------------


def build_parser(
    default: DefaultCommand, commands: Sequence[Command], built: Sequence[Command] | None = None
) -> OneLineParser:
    """The tree: the root (the global options, ``--version``), the app's child (never typed;
    its help is ``ink-tui --help``, listing every command) and a child per command of
    ``built`` (default: every command), in the order given."""
    helps = global_option_helps()
    root = OneLineParser(prog=PROG, description="Read, check and repair Ink's session files.")
    add_global_options(root, helps)
    root.add_argument("--version", action=VersionAction)
    children = root.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=OneLineParser
    )
    app = children.add_parser(APP_NAME, prog=PROG, description=default.description)  # unlisted
    app.listed = [(command.name, command.help) for command in commands]
    default.add_arguments(app)
    for command in commands if built is None else built:
        parser = children.add_parser(command.name, help=command.help)
        command.add_arguments(parser)
        add_global_options(parser, helps, after_command=True)
    return root


def parse(
    argv: Sequence[str], default: DefaultCommand, commands: Sequence[Command]
) -> tuple[Command | None, argparse.Namespace]:
    """The command the line names (``None``: the app) and its arguments; a usage error raises
    :class:`CommandError`, ``--help`` and ``--version`` print and exit."""
    named = {command.name: command for command in commands}
    first = first_word(argv, default)
    if first in named:  # only its child is built: its module is the only one imported
        command = named[first]
        return command, build_parser(default, commands, [command]).parse_args(argv)
    return None, build_parser(default, commands, []).parse_args([APP_NAME, *argv])


def first_word(argv: Sequence[str], default: DefaultCommand) -> str | None:
    """The line's first argument that is no option nor an option's value, read as the app
    reads it (``ink-tui -r list`` resumes the session ``list``); everything after it is left
    to the command. A bad option before it is the same one-line error the app gives. A word
    after ``--`` names no command: it is the app's SESSION (``ink-tui -- list``)."""
    if "--" in argv:
        argv = argv[: list(argv).index("--")]
    probe = OneLineParser(prog=PROG, add_help=False)
    default.add_arguments(probe)  # SESSION takes the first word
    probe.add_argument("rest", nargs=argparse.REMAINDER)
    known, _ = probe.parse_known_args(argv)
    first: str | None = known.session
    return first
