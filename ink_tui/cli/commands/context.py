"""``ink-tui context SESSION``: the context Ink would rebuild on resume, as text (one block per
message, tool calls and results named, any shape Ink's code would trip on marked ``⚠``) or, with
``--json``, in the fixtures' ``.expected.json`` shape; secrets masked, as everything the command
line prints (``[REDACTED:<kind>:<fp8>]``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ink_tui.cli.output import CommandError, SafeOutput, masked_json_value
from ink_tui.session.conversation.contexttext import transcript_parts
from ink_tui.session.reading.jsoncodec import encode_json

if TYPE_CHECKING:  # imported when the command runs
    from ink_tui.session.conversation.context import ContextPlan

__all__ = ["add_arguments", "json_parts", "run"]

EXIT_OK = 0
JSON_BATCH = 256  # messages encoded at once by --json


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``context SESSION [--json]``."""
    parser.add_argument("session", metavar="SESSION", help="path, id, id prefix or file name")
    parser.add_argument("--json", action="store_true", help="the fixtures' .expected.json shape")


def run(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
    """``ink-tui context SESSION [--json]``.

    The messages stream from the file to the output (a million-message branch is never in
    memory). Should the file change under them meanwhile, the output stops there and the error
    is said in one line (exit 2)."""
    from ink_tui.catalog.roots import resolve_anywhere
    from ink_tui.session import SessionError, open_session
    from ink_tui.session.conversation.context import stream_context

    path = resolve_anywhere(base, cwd, args.session)
    started = False
    try:
        plan = stream_context(open_session(path, warn=SafeOutput(sys.stderr).as_textio()))
        messages = plan.messages()
        if args.json and not out.secrets_shown:  # (text is masked as it is written)
            messages = (masked_json_value(message) for message in messages)
        parts = json_parts(plan, messages) if args.json else transcript_parts(plan, messages)
        for chunk in batched_text(parts):
            started = True
            if args.json:
                out.write_json_text(chunk)
            else:
                out.write(chunk)
    except SessionError as error:
        if args.json and not started:
            out.json({"ok": False, "error": error.message})
        raise CommandError(error.one_line()) from None
    if args.json:
        out.write_json_text("\n")
    return EXIT_OK


def json_parts(plan: ContextPlan, messages: Iterable[Any] | None = None) -> Iterator[str]:
    """The context's ``--json`` text (``Context.to_json`` as ``JSON.stringify(…, null, 2)``), a
    few hundred messages at a time. (A message nested deeper than ``INDENT_DEPTH`` is written
    compact with its batch, where encoding the whole context would write all of it compact.)"""
    head = {
        "ok": True,
        "leafId": plan.leaf_id,
        "compacted": plan.compacted,
        "compactionBoundary": plan.compaction_boundary,
    }
    yield encode_json(head, indent=True).decode("utf-8")[: -len("\n}")] + ',\n  "messages": ['
    separator = "\n"
    messages = iter(plan.messages() if messages is None else messages)
    while batch := list(islice(messages, JSON_BATCH)):
        # One encoding per batch: "[\n  {…},\n  {…}\n]", its items then indented one more level.
        encoded = encode_json(batch, indent=True).decode("utf-8")
        if encoded.startswith("[\n"):
            items = "  " + encoded[2:-2].replace("\n", "\n  ")
        else:  # too deep to indent: compact, one item at a time
            items = ",\n".join(f"    {encode_json(item).decode('utf-8')}" for item in batch)
        yield separator + items
        separator = ",\n"
    yield "]\n}" if separator == "\n" else "\n  ]\n}"


def batched_text(parts: Iterable[str], size: int = 1 << 16) -> Iterator[str]:
    """``parts`` joined into pieces of about ``size`` characters (fewer writes)."""
    batch: list[str] = []
    length = 0
    for part in parts:
        batch.append(part)
        length += len(part)
        if length >= size:
            yield "".join(batch)
            batch, length = [], 0
    if batch:
        yield "".join(batch)
