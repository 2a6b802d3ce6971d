"""Arguments of the full-screen app and its start.

``ink-tui [SESSION] [-c | -r ID] [--demo [--reset]] [--sessions-dir DIR] [--cwd DIR]``; the
subcommands (``list``, ``context``, ``check``, ``repair`` …) are parsed in :mod:`ink_tui.cli`,
which hands their names and help lines over for ``--help`` to list. Nothing here imports Textual
until the app runs (``--version`` and ``--help`` never do).
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from ink_tui.paths import cache_dir, project_dir, sessions_dir
from ink_tui.session.reading.records import THINKING_LEVELS

if TYPE_CHECKING:
    from ink_tui.session.rules.modelref import ModelRef

__all__ = [
    "HelpFormatter",
    "VersionAction",
    "build_app_parser",
    "demo_dir",
    "package_version",
    "prepare_demo",
    "run_app",
    "startup_thinking",
]

DEMO_FOLDER = "demo-sessions"

CommandLines = Callable[[], list[tuple[str, str]]]
"""Every subcommand and its one-line help (:func:`ink_tui.cli.command_lines`)."""


def demo_dir() -> Path:
    """Where the demo sessions live: ``demo-sessions`` in the cache dir (on Linux
    ``~/.cache/ink-tui/demo-sessions``), for the app and every command alike."""
    return cache_dir() / DEMO_FOLDER


class VersionAction(argparse.Action):
    """``--version``: the version is looked up only when asked for."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: Any) -> None:
        kwargs.setdefault("help", "show the version and exit")
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        sys.stdout.write(f"ink-tui {package_version()}\n")  # argparse's own version goes here
        parser.exit()


def package_version() -> str:
    """The installed distribution's version (``importlib.metadata``), else the package's own."""
    from importlib import metadata  # only for --version: ~50 ms nobody else pays

    try:
        return metadata.version("ink-tui")
    except metadata.PackageNotFoundError:  # running from a source tree that is not installed
        from ink_tui import __version__

        return __version__


class LaunchError(Exception):
    """A start-up failure to report as one line."""


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


class _AppParser(argparse.ArgumentParser):
    commands: CommandLines | None = None  # listed by --help, read only then

    def error(self, message: str) -> NoReturn:
        raise LaunchError(f"{message} (see {self.prog} --help)")

    def format_help(self) -> str:
        commands = self.commands() if self.commands is not None else []
        if commands:
            import shutil
            import textwrap

            names = max(len(name) for name, _ in commands)
            room = max(20, shutil.get_terminal_size().columns - 2 - names - 4)  # as argparse
            lines = ["commands (ink-tui COMMAND --help says more; each takes --demo):"]
            for name, help_line in commands:
                wrapped = textwrap.wrap(help_line, room, break_on_hyphens=False) or [""]
                lines.append(f"  {name:<{names}}  {wrapped[0]}")
                lines += [f"  {'':<{names}}  {more}" for more in wrapped[1:]]
            self.epilog = "\n".join(lines)
        return super().format_help()


def build_app_parser(commands: CommandLines | None = None) -> argparse.ArgumentParser:
    """The app's parser; ``commands`` gives the subcommands its ``--help`` lists."""
    parser = _AppParser(
        prog="ink-tui",
        description="Browse, follow and continue Ink's sessions.",
        formatter_class=HelpFormatter,  # the command list as it is, paths whole
    )
    parser.commands = commands
    parser.add_argument(
        "session",
        nargs="?",
        metavar="SESSION",
        help="open this session: path, id, id prefix or file name",
    )
    start = parser.add_mutually_exclusive_group()
    start.add_argument(
        "-c",
        "--continue",
        dest="continue_",
        action="store_true",
        help="open the newest session of the project",
    )
    start.add_argument(
        "-r", "--resume", metavar="ID", help="open the session with this id (or prefix)"
    )
    parser.add_argument("--version", action=VersionAction)
    parser.add_argument(
        "--demo",
        action="store_true",
        help=f"browse demo sessions, in {demo_dir()}: generated the first time and kept after "
        "that (with whatever you chat into them); every command takes --demo too",
    )
    parser.add_argument(
        "--reset",
        action="store_true",
        help="with --demo: delete the demo sessions and generate them again",
    )
    parser.add_argument(
        "--follow", action="store_true", help="follow the opened session as Ink writes it"
    )
    parser.add_argument(
        "--chat",
        action="store_true",
        help="open the chat pane: on SESSION / -r ID / -c, or on a new session",
    )
    parser.add_argument(
        "--model",
        metavar="PROVIDER/MODEL",
        help="the chat's model (wins over the session's; saved as Ink's /model does)",
    )
    parser.add_argument(
        "--thinking",
        metavar="LEVEL",
        choices=THINKING_LEVELS,
        help="the chat's thinking level: " + ", ".join(THINKING_LEVELS),
    )
    parser.add_argument("--sessions-dir", metavar="DIR", help="Ink's sessions folder")
    parser.add_argument("--cwd", metavar="DIR", help="the project whose sessions come first")
    return parser


def prepare_demo(*, reset: bool = False, now: datetime | None = None) -> tuple[Path, str]:
    """The demo sessions tree in the cache dir, generated once; ``(sessions dir, project cwd)``.

    An existing demo tree is used as it is (what was chatted into it stays); ``reset`` deletes
    it and generates it again.
    """
    from ink_tui.demo import DEMO_CWD, ensure_demo

    base = demo_dir()
    ensure_demo(base, reset=reset, now=now or datetime.now(UTC))
    return base, DEMO_CWD


def startup_thinking(flag: str | None, env: Mapping[str, str]) -> str | None:
    """The startup thinking level: ``--thinking``, else ``INK_THINKING`` (as Ink's runner)."""
    if flag is not None:
        return flag
    level = env.get("INK_THINKING", "").strip()
    if not level:
        return None
    if level not in THINKING_LEVELS:
        raise LaunchError(
            f"INK_THINKING={level!r} is not a thinking level (one of {', '.join(THINKING_LEVELS)})"
        )
    return level


APP_GC_THRESHOLD = 10_000
"""Allocations between two young collections in the app's process (CPython's default: 700)."""


@contextmanager
def app_collector() -> Iterator[None]:
    """The app's garbage-collector policy while the app runs (the previous one after).

    Showing a 100 MB session keeps about 570,000 container objects alive. With CPython's
    default thresholds, building them runs about ten full collections, each longer as the heap
    grows (measured: 2-4 s of collection in the load, 1-2 s of it on the event loop). Young
    collections 14 times rarer make that one or two; the collector is never switched off and
    nothing is frozen. Library code (the core, the screens) never touches the collector.
    """
    previous = gc.get_threshold()
    gc.set_threshold(APP_GC_THRESHOLD, *previous[1:])
    try:
        yield
    finally:
        gc.set_threshold(*previous)


def _open_path(args: argparse.Namespace, base: Path, cwd: str) -> tuple[Path | None, str | None]:
    """The session to open first (``None``: the picker) and a notice on how it was found.
    (The listing is imported only to find one: the picker reads its rows from the index.)"""
    if args.session:
        from ink_tui.catalog.scan import resolve_session

        return resolve_session(base, cwd, args.session), None
    if args.resume is not None:
        from ink_tui.catalog.scan import resolve_resume

        resumed = resolve_resume(base, cwd, args.resume)
        return resumed.path, resumed.beyond_ink
    if args.continue_:
        from ink_tui.catalog.scan import newest_session

        open_path = newest_session(base, cwd)
        if open_path is None and not args.chat:  # -c --chat: a new session, as Ink's --continue
            raise LaunchError(f"no session to continue in {project_dir(base, cwd)}")
        return open_path, None
    return None, None


def _model(args: argparse.Namespace) -> ModelRef | None:
    if not args.model:
        return None
    from ink_tui.agent.providers import BadArgument, parse_model_ref

    try:
        model = parse_model_ref(args.model)
    except BadArgument as error:
        raise LaunchError(f"--model: {error}") from error
    if model.provider == "openai-codex":
        raise LaunchError(
            "--model openai-codex/…: the Responses API with the ChatGPT login is not "
            "supported by ink-tui; pick another provider"
        )
    return model


def run_app(argv: Sequence[str], commands: CommandLines | None = None) -> int:
    """Parse the app's arguments, find what to open and run the app (``commands``: the
    subcommands ``--help`` lists)."""
    args = build_app_parser(commands).parse_args(argv)
    base = sessions_dir(args.sessions_dir)
    cwd = os.path.abspath(args.cwd or os.getcwd())
    if args.reset and not args.demo:
        raise LaunchError("--reset goes with --demo: ink-tui --demo --reset")
    if args.demo:
        base, cwd = prepare_demo(reset=args.reset)
    open_path, notice = _open_path(args, base, cwd)
    if args.follow and open_path is None:
        raise LaunchError("--follow needs a session: ink-tui --follow SESSION, or -c --follow")
    if args.follow and args.chat:
        raise LaunchError("--follow and --chat do not go together: follow, then press c")
    model = _model(args)
    thinking = startup_thinking(args.thinking, os.environ)
    rows_ahead = None
    if open_path is None and not args.chat:  # the picker comes first: its rows are read now,
        from ink_tui.catalog.index.ahead import RowsAhead  # while the app is imported

        rows_ahead = RowsAhead.start(base, cwd)
    from ink_tui.ui.app import InkApp, LaunchOptions

    options = LaunchOptions(
        sessions_dir=base,
        cwd=cwd,
        open_path=open_path,
        follow=args.follow,
        chat=args.chat,
        model=model,
        thinking=thinking,
        notice=notice,
        rows_ahead=rows_ahead,
    )
    from ink_tui.agent.children import exit_cleanup

    app = InkApp(options)
    with app_collector(), exit_cleanup():  # a tool still running dies with the app
        app.run()
    return app.return_code or 0
