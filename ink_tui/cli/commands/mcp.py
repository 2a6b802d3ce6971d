"""``ink-tui mcp``: the archive as an MCP server over stdio, for coding agents
(:mod:`ink_tui.recall`). Read-only; secrets in session text masked unless ``--no-redact``."""

from __future__ import annotations

import argparse
from pathlib import Path

from ink_tui.cli.output import SafeOutput

__all__ = ["add_arguments", "run"]


def add_arguments(mcp: argparse.ArgumentParser) -> None:
    """``mcp [--no-redact]``."""
    mcp.description = (
        "Serve the session archive to coding agents over stdio (Model Context Protocol): "
        "search_sessions and list_sessions, read-only. Add it to an agent as the command "
        "`ink-tui mcp` (docs: Agents recall)."
    )
    mcp.add_argument(
        "--no-redact",
        action="store_true",
        help="return session text as it is (by default secrets are masked)",
    )


def run(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
    """``ink-tui mcp [--no-redact]``: serves until the client closes stdin."""
    from ink_tui.recall.server import serve

    serve(base, cwd, redact=not args.no_redact)
    return 0
