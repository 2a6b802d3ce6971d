"""The folders a command reads, from the global options: the sessions folder (``--sessions-dir``,
else ``$INK_SESSIONS_DIR``, else Ink's), the project (``--cwd``, else the current directory), and
the demo sessions ``--demo`` reads instead (generated the first time, for the app and every
command alike)."""

from __future__ import annotations

import argparse
import os
from datetime import UTC, datetime
from pathlib import Path

from ink_tui.cli.output import CommandError
from ink_tui.paths import cache_dir, sessions_dir

__all__ = ["demo_dir", "prepare_demo", "project_cwd", "sessions_base"]

DEMO_FOLDER = "demo-sessions"


def demo_dir() -> Path:
    """Where the demo sessions live: ``demo-sessions`` in the cache dir (on Linux
    ``~/.cache/ink-tui/demo-sessions``), for the app and every command alike."""
    return cache_dir() / DEMO_FOLDER


def prepare_demo(*, reset: bool = False, now: datetime | None = None) -> tuple[Path, str]:
    """The demo sessions tree in the cache dir, generated once; ``(sessions dir, project cwd)``.

    An existing demo tree is used as it is (what was chatted into it stays); ``reset`` deletes
    it and generates it again.
    """
    from ink_tui.demo import DEMO_CWD, ensure_demo

    base = demo_dir()
    ensure_demo(base, reset=reset, now=now or datetime.now(UTC))
    return base, DEMO_CWD


def sessions_base(args: argparse.Namespace) -> Path:
    """A command's sessions folder: ``--sessions-dir``, ``$INK_SESSIONS_DIR``, Ink's; with
    ``--demo`` the app's demo folder (generated the first time, as ``ink-tui --demo`` does)."""
    if not args.demo:
        return sessions_dir(args.sessions_dir)
    if args.sessions_dir:
        raise CommandError("--demo reads the demo sessions: leave out --sessions-dir")
    return prepare_demo()[0]


def project_cwd(args: argparse.Namespace) -> str:
    """A command's project: ``--cwd``; with ``--demo`` (and no ``--cwd``) the demo's project;
    else the current directory."""
    if args.demo and not args.cwd:
        from ink_tui.demo import DEMO_CWD

        return DEMO_CWD
    return os.path.abspath(args.cwd or os.getcwd())
