"""``ink-tui export``: one branch of a session as Markdown, HTML or JSON, on stdout or in a file.

The document never holds a control character (tool output's colours are dropped, every other
escape sequence and control is shown as a picture, ``␛``; JSON escapes them as ``\\u001b``), so
the same bytes are safe on a terminal, in a pipe and in a file; stdout still goes through
:class:`~ink_tui.cli.output.SafeOutput`. With ``-o FILE`` the file is written (an existing one only
with ``--force``) and stderr says what was written and, with ``--redact``, how much was masked.
Without ``--redact``, a branch holding secrets is not exported (exit 2, one line saying how many
and of what kind) unless ``--allow-secrets``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ink_tui.cli.output import CommandError, SafeOutput

__all__ = ["add_arguments", "run"]

EXIT_OK = 0


class ExportError(CommandError):
    """A failure to report as one line on stderr (exit 2)."""


def add_arguments(export: argparse.ArgumentParser) -> None:
    """The ``export`` command's arguments and description."""
    export.description = (
        "Markdown for a code forge, one self-contained HTML page, or JSON (the "
        "`context --json` shape). --tools, --thinking: Markdown and HTML only."
    )
    export.add_argument("session", metavar="SESSION", help="path, id, id prefix or file name")
    export.add_argument(
        "--format",
        choices=("md", "html", "json"),
        help="default: from the -o file's name (.html, .json), else md",
    )
    export.add_argument(
        "--branch", metavar="LEAF_ID", help="the branch ending at this entry (default: current)"
    )
    export.add_argument(
        "--tools",
        choices=("none", "cut", "full"),
        default="cut",
        help="tool calls: left out, outputs cut to 40 lines or 8,000 characters (default), whole",
    )
    export.add_argument("--thinking", action="store_true", help="include thinking blocks")
    export.add_argument(
        "--redact",
        action="store_true",
        help="replace each secret with [REDACTED:kind:fingerprint]; the home folder as ~",
    )
    export.add_argument(
        "--allow-secrets",
        action="store_true",
        help="without --redact, export even when the branch holds secrets (by default it stops)",
    )
    export.add_argument("-o", "--output", metavar="FILE", help="write FILE (default: stdout)")
    export.add_argument("--force", action="store_true", help="replace FILE if it exists")


def run(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
    """``ink-tui export SESSION [options]``."""
    from ink_tui.catalog.roots import resolve_anywhere
    from ink_tui.export import ExportOptions, SecretsFound, export_session, format_for, write_new
    from ink_tui.safetext import one_line
    from ink_tui.session import SessionError

    target = Path(args.output) if args.output else None
    if target is not None and target.is_dir():
        raise ExportError(f"{target}: is a folder; -o takes a file name")
    if target is not None and target.exists() and not args.force:
        raise ExportError(f"{target}: already exists; --force replaces it")
    path = resolve_anywhere(base, cwd, args.session)
    err = SafeOutput(sys.stderr)
    chosen = args.format or (format_for(target) if target is not None else "md")
    options = ExportOptions(chosen, args.tools, args.thinking, args.redact, args.allow_secrets)
    try:
        exported = export_session(path, args.branch, options, warn=err.as_textio())
    except SessionError as error:
        raise ExportError(error.one_line()) from None
    except SecretsFound as found:
        raise ExportError(
            f"{one_line(path.name)}: the export would hold {found} and nothing was written: "
            "--redact masks them, --allow-secrets exports them as they are"
        ) from None
    if target is None:
        if args.allow_secrets:
            out.show_secrets()  # asked for as they are
        out.write(exported.text)
        if args.redact:
            err.line(f"ink-tui: {exported.redaction}")
        return EXIT_OK
    try:
        write_new(target, exported.text, force=args.force)
    except FileExistsError:
        raise ExportError(f"{target}: already exists; --force replaces it") from None
    from ink_tui.humanize import human_size

    said = f"ink-tui: wrote {target} ({chosen}, {exported.holds}, "
    said += f"{human_size(len(exported.text.encode('utf-8')))})"
    if args.redact:
        said += f"; {exported.redaction}"
    err.line(said)
    return EXIT_OK
