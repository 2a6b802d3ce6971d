"""``ink-tui context SESSION``: the context Ink would rebuild on resume, as text (one block per
message, tool calls and results named, any shape Ink's code would trip on marked ``⚠``) or, with
``--json``, in the fixtures' ``.expected.json`` shape."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ink_tui.cli.output import CommandError, SafeOutput
from ink_tui.session.conversation.pairing import shown_id
from ink_tui.session.reading.jsoncodec import encode_json
from ink_tui.session.reading.shapes import MISSING, list_items, not_a_list, not_an_object
from ink_tui.session.rules.content import content_text

if TYPE_CHECKING:  # imported when the command runs
    from ink_tui.session import Context
    from ink_tui.session.conversation.context import ContextPlan

__all__ = ["add_arguments", "json_parts", "run", "transcript", "transcript_parts"]

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
        parts = json_parts(plan) if args.json else transcript_parts(plan, plan.messages())
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


def json_parts(plan: ContextPlan) -> Iterator[str]:
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
    messages = plan.messages()
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


def _transcript_text(content: Any) -> str:
    """A content as the transcript shows it: odd texts shown, each image said in a line."""
    return content_text(content, show_non_string_text=True, describe_images=True)


def _indent(text: str) -> str:
    return "".join(f"    {line}\n" for line in text.split("\n"))


def _assistant_text(index: int, message: dict[str, Any]) -> list[str]:
    model = message.get("modelReference") or message.get("model") or ""
    out = [f"[{index}] assistant {model}".rstrip() + "\n"]
    blocks = message.get("blocks", MISSING)
    odd = not_a_list("blocks", blocks)
    if odd is not None:
        out.append(f"  ⚠ {odd}\n")
    for number, block in enumerate(list_items(blocks)):
        kind = block.get("type") if isinstance(block, dict) else None
        if not isinstance(block, dict):
            out.append(f"  ⚠ {not_an_object(f'block {number}', block)}\n")
        elif kind == "text":
            out.append(_indent(str(block.get("text", ""))))
        elif kind == "thinking":
            out.append(f"  (thinking)\n{_indent(str(block.get('thinking', '')))}")
        elif kind == "toolCall":
            arguments = encode_json(block.get("arguments")).decode("utf-8")
            call_id = shown_id(block.get("id", MISSING))
            name = shown_id(block.get("name", MISSING))
            out.append(f"  → {name} {arguments}  [{call_id}]\n")
    return out


def _results_text(index: int, message: dict[str, Any]) -> list[str]:
    results = message.get("results", MISSING)
    odd = not_a_list("results", results)
    out = [] if odd is None else [f"[{index}] toolResult\n  ⚠ {odd}\n"]
    for number, result in enumerate(list_items(results)):
        if not isinstance(result, dict):
            out.append(f"[{index}] ⚠ {not_an_object(f'result {number}', result)}\n")
            continue
        status = "error" if result.get("isError") else "ok"
        name = shown_id(result.get("toolName", MISSING))
        call_id = shown_id(result.get("toolCallId", MISSING))
        out.append(
            f"[{index}] result of {name} [{call_id}] {status}\n"
            f"{_indent(_transcript_text(result.get('content')))}"
        )
    return out


def transcript(context: Context) -> str:
    """The rebuilt context as text: one block per message, tool calls and results named, and
    any shape Ink's code would trip on marked with ``⚠``."""
    return "".join(transcript_parts(context, context.messages))


def transcript_parts(context: Context | ContextPlan, messages: Iterable[object]) -> Iterator[str]:
    """:func:`transcript` a message at a time (``messages``: the context's, maybe streamed)."""
    from ink_tui.session.conversation.context import unframe_summary

    if context.compacted:
        yield f"(compacted: the first {context.compaction_boundary} messages are the floor)\n"
    for index, message in enumerate(messages):
        if not isinstance(message, dict):
            yield f"[{index}] ⚠ {not_an_object('message', message)}\n"
            continue
        role = message.get("role")
        if role == "user":
            framed = unframe_summary(message)
            label = f"{framed[0]} summary" if framed else "user"
            body = framed[1] if framed else _transcript_text(message.get("content"))
            yield f"[{index}] {label}\n{_indent(body)}"
        elif role == "assistant":
            yield from _assistant_text(index, message)
        elif role == "toolResult":
            yield from _results_text(index, message)
        else:
            yield f"[{index}] {role}\n"
