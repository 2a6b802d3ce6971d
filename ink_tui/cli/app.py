"""The default command: the full-screen app, ``ink-tui [SESSION] [-c | -r ID] [--follow] [--chat]
[--model PROVIDER/MODEL] [--thinking LEVEL] [--demo [--reset]] [--sessions-dir DIR] [--cwd DIR]``.

Its arguments are the root of ``ink-tui --help`` (:mod:`ink_tui.cli.parsing` lists the commands
after them). The app itself, and with it Textual, is imported only when it runs: never for
``--help``, ``--version`` or a usage error (the one import of the ui from the command line).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from ink_tui.cli.folders import demo_dir, prepare_demo
from ink_tui.cli.output import CommandError
from ink_tui.cli.parsing import VersionAction, add_global_option
from ink_tui.paths import project_dir, sessions_dir
from ink_tui.session.reading.records import THINKING_LEVELS

if TYPE_CHECKING:
    from ink_tui.session.rules.modelref import ModelRef

__all__ = [
    "DESCRIPTION",
    "LaunchError",
    "add_arguments",
    "run",
    "startup_thinking",
]

DESCRIPTION = "Browse, follow and continue Ink's sessions."


class LaunchError(CommandError):
    """A start-up failure to report as one line (exit 2)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """SESSION, ``-c`` / ``-r ID``, ``--follow``, ``--chat`` and its model and thinking, the demo
    and the global options, in the order ``ink-tui --help`` lists them."""
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
    add_global_option(
        parser,
        "--demo",
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
    add_global_option(parser, "--sessions-dir", help="Ink's sessions folder")
    add_global_option(parser, "--cwd", help="the project whose sessions come first")


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


def _open_path(args: argparse.Namespace, base: Path, cwd: str) -> tuple[Path | None, str | None]:
    """The session to open first (``None``: the picker) and a notice on how it was found.
    (The listing is imported only to find one: the picker reads its rows from the index.)"""
    if args.session:
        from ink_tui.catalog.roots import resolve_anywhere

        return resolve_anywhere(base, cwd, args.session), None
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


def run(args: argparse.Namespace) -> int:
    """Find what to open and run the app; its exit code."""
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
    with exit_cleanup():  # a tool still running dies with the app
        app.run()
    return app.return_code or 0
