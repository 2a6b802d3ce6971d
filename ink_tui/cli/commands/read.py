"""``ink-tui read SESSION``: a session's turns as text, each block citing its entry, cut to a
budget of tokens: what the MCP server's ``read_session`` answers (:mod:`ink_tui.recall.reading`),
for agents without MCP. Secrets in session text are masked unless ``--no-redact``."""

from __future__ import annotations

import argparse
from pathlib import Path

from ink_tui.cli.output import CommandError, SafeOutput

__all__ = ["add_arguments", "run"]

EXIT_OK = 0


def add_arguments(read: argparse.ArgumentParser) -> None:
    """``read SESSION [--turns A:B | --entry ID] [--budget N] [--json] [--no-redact]``."""
    read.description = (
        "A session's current branch as text for an agent: prompts, replies, tool calls, cut "
        "results and summaries, each block citing its entry and turn; over the budget, whole "
        "blocks are left out from the middle, and the last line says which and how to read "
        "them. Secrets are masked unless --no-redact."
    )
    read.add_argument("session", metavar="SESSION", help="path, or id, id prefix or file name")
    which = read.add_mutually_exclusive_group()
    which.add_argument("--turns", metavar="A:B", help="turns A to B (numbers, first, last)")
    which.add_argument("--entry", metavar="ID", help="the turn holding this entry")
    read.add_argument(
        "--budget", type=int, default=4000, metavar="N", help="at most N tokens (4000)"
    )
    read.add_argument("--json", action="store_true", help="one JSON object")
    read.add_argument("--no-redact", action="store_true", help="session text as it is")


def run(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
    """``ink-tui read SESSION …``: exit 0, 2 when it cannot be read as asked."""
    from ink_tui.export.redact import Redactor
    from ink_tui.recall.reading import ReadError, read_answer

    redactor = None if args.no_redact else Redactor(secrets=True)
    if args.no_redact:
        out.show_secrets()
    try:
        answer = read_answer(
            base,
            cwd,
            args.session,
            turns=args.turns,
            entry_id=args.entry,
            budget_tokens=args.budget,
            redactor=redactor,
        )
    except ReadError as error:
        raise CommandError(f"read: {error}") from None
    if args.json:
        out.json(answer)
        return EXIT_OK
    omitted = answer["omitted"]
    note = None
    if omitted is not None:
        note = (
            f"… {omitted['blocks']} blocks (turns {omitted['turns']}, about "
            f"{omitted['tokens']:,} tokens) left out for the budget: "
            f"ink-tui read {args.session} --turns {omitted['turns']}\n"
        )
        if omitted["afterEntry"] is None:
            out.write(note + "\n")
    for block in answer["blocks"]:
        out.line(f"[turn {block['turn']} · {block['time']} · {block['entryId']}] {block['head']}")
        out.write(block["text"] + "\n\n")
        if note is not None and block["entryId"] == omitted["afterEntry"]:
            out.write(note + "\n")
    return EXIT_OK
