"""``ink-tui context SESSION``: the context Ink would rebuild on resume, as text (one block per
message, tool calls and results named, any shape Ink's code would trip on marked ``⚠``) or, with
``--json``, in the fixtures' ``.expected.json`` shape."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ink_tui.cli.output import CommandError, SafeOutput
from ink_tui.session.conversation.pairing import shown_id
from ink_tui.session.reading.jsoncodec import encode_json
from ink_tui.session.reading.shapes import MISSING, list_items, not_a_list, not_an_object
from ink_tui.session.rules.content import content_text

if TYPE_CHECKING:  # imported when the command runs
    from ink_tui.session import Context

__all__ = ["add_arguments", "run", "transcript"]

EXIT_OK = 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``context SESSION [--json]``."""
    parser.add_argument("session", metavar="SESSION", help="path, id, id prefix or file name")
    parser.add_argument("--json", action="store_true", help="the fixtures' .expected.json shape")


def run(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
    """``ink-tui context SESSION [--json]``."""
    from ink_tui.catalog.scan import resolve_session
    from ink_tui.session import SessionError, build_context, open_session

    path = resolve_session(base, cwd, args.session)
    try:
        context = build_context(open_session(path, warn=SafeOutput(sys.stderr).as_textio()))
    except SessionError as error:
        if args.json:
            out.json({"ok": False, "error": error.message})
        raise CommandError(error.one_line()) from None
    if args.json:
        out.json(context.to_json())
    else:
        out.write(transcript(context))
    return EXIT_OK


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
    from ink_tui.session.conversation.context import unframe_summary

    out = []
    if context.compacted:
        out.append(f"(compacted: the first {context.compaction_boundary} messages are the floor)\n")
    for index, message in enumerate(context.messages):
        if not isinstance(message, dict):
            out.append(f"[{index}] ⚠ {not_an_object('message', message)}\n")
            continue
        role = message.get("role")
        if role == "user":
            framed = unframe_summary(message)
            label = f"{framed[0]} summary" if framed else "user"
            body = framed[1] if framed else _transcript_text(message.get("content"))
            out.append(f"[{index}] {label}\n{_indent(body)}")
        elif role == "assistant":
            out.extend(_assistant_text(index, message))
        elif role == "toolResult":
            out.extend(_results_text(index, message))
        else:
            out.append(f"[{index}] {role}\n")
    return "".join(out)
