"""``ink-tui mcp``: the archive as an MCP server over stdio, for coding agents
(:mod:`ink_tui.recall`). Read-only; secrets in session text masked unless ``--no-redact``.
``--check`` calls every tool once against this archive and prints what an agent receives."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ink_tui.cli.output import SafeOutput

__all__ = ["add_arguments", "run"]

EXIT_OK, EXIT_FAILED = 0, 1


def add_arguments(mcp: argparse.ArgumentParser) -> None:
    """``mcp [--check] [--no-redact]``."""
    mcp.description = (
        "Serve the session archive to coding agents over stdio (Model Context Protocol): "
        "search_sessions, list_sessions, read_session, session_context and session_changes, "
        "read-only. Add it to an agent as the command `ink-tui mcp` (docs: Agents recall). "
        "--check: call every tool once here and print what an agent receives (exit 1 when a "
        "tool fails or cannot be tried)."
    )
    mcp.add_argument(
        "--check",
        action="store_true",
        help="call every tool once against this archive and print the answers, then exit",
    )
    mcp.add_argument(
        "--no-redact",
        action="store_true",
        help="return session text as it is (by default secrets are masked)",
    )


def run(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
    """``ink-tui mcp [--check] [--no-redact]``: serves until the client closes stdin."""
    if args.check:
        return _check(base, cwd, out, redact=not args.no_redact)
    from ink_tui.recall.server import serve

    serve(base, cwd, redact=not args.no_redact)
    return EXIT_OK


def _check(base: Path, cwd: str, out: SafeOutput, *, redact: bool) -> int:
    from ink_tui.humanize import plural
    from ink_tui.recall.check import check_tools

    def said(name: str, arguments: dict[str, Any], text: str, error: bool) -> None:
        out.line(f"── {name} {json.dumps(arguments, ensure_ascii=False)}")
        out.line(f"error: {text}" if error else text)
        out.line("")

    out.line("ink-tui mcp --check: each tool called once, its answer as an agent receives it")
    out.line("")
    report = check_tools(base, cwd, redact=redact, said=said)
    from ink_tui.recall.server import TOOLS

    missing = [f"{name} (not listed)" for name in TOOLS if name not in report.listed]
    if report.failed or missing:
        out.line(f"failed: {', '.join(report.failed + missing)}")
        return EXIT_FAILED
    if report.skipped:
        out.line(f"not tried (no session in the archive): {', '.join(report.skipped)}")
        return EXIT_FAILED
    slowest = max(seconds for *_, seconds in report.calls)
    out.line(
        f"ok: {plural(len(report.calls), 'tool')} answered (the slowest in "
        f"{slowest * 1000:,.0f} ms); add `ink-tui mcp` to an agent (docs: Agents recall)"
    )
    return EXIT_OK
