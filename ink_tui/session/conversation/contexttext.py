"""A rebuilt context as text: one block per message, tool calls and results named, any shape
Ink's code would trip on marked ``⚠``. Used by ``ink-tui context`` and by recall's
``session_context`` (each message is session text: the caller makes it safe to show)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from ink_tui.session.conversation.pairing import shown_id
from ink_tui.session.reading.jsoncodec import encode_json
from ink_tui.session.reading.shapes import MISSING, list_items, not_a_list, not_an_object
from ink_tui.session.rules.content import content_text

if TYPE_CHECKING:
    from ink_tui.session.conversation.context import Context, ContextPlan

__all__ = ["message_text", "transcript", "transcript_parts"]


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
    if context.compacted:
        yield f"(compacted: the first {context.compaction_boundary} messages are the floor)\n"
    for index, message in enumerate(messages):
        yield message_text(index, message)


def message_text(index: int, message: object) -> str:
    """One message of a context as :func:`transcript` shows it (``[index] role`` first)."""
    from ink_tui.session.conversation.context import unframe_summary

    if not isinstance(message, dict):
        return f"[{index}] ⚠ {not_an_object('message', message)}\n"
    role = message.get("role")
    if role == "user":
        framed = unframe_summary(message)
        label = f"{framed[0]} summary" if framed else "user"
        body = framed[1] if framed else _transcript_text(message.get("content"))
        return f"[{index}] {label}\n{_indent(body)}"
    if role == "assistant":
        return "".join(_assistant_text(index, message))
    if role == "toolResult":
        return "".join(_results_text(index, message))
    return f"[{index}] {role}\n"
