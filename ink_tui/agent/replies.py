"""What the chat says about a reply it cannot take as it came: one with nothing in it, a tool
call whose arguments are not a JSON object (recorded as ``{}``, never run), call ids that were
missing or already used (written as fresh ones)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ink_tui.agent.providers.assemble import EMPTY_TEXT, InvalidArguments
from ink_tui.agent.tools import TOOLS
from ink_tui.session.rules.fillins import OUTPUT_LIMIT_STOP, output_limit_text

__all__ = [
    "cut_at_output_limit",
    "empty_reply_notice",
    "output_limit_notice",
    "output_limit_results",
    "renamed_ids_notice",
    "unreadable_arguments",
]

Message = Mapping[str, Any]  # a message as the chat holds it: written or read (recordtypes)
SHOWN_ARGUMENTS = 200  # characters of the model's text quoted back to it


def empty_reply_notice(reply: Message) -> str | None:
    """The pane's notice for a reply with nothing to show (no block, or only blank text or the
    Chat assembler's placeholder, and thinking); ``None`` for any other reply."""
    for block in reply.get("blocks") or ():
        kind = block.get("type") if isinstance(block, dict) else None
        if kind == "thinking":
            continue
        text = block.get("text") if kind == "text" else None
        if not isinstance(text, str) or (text.strip() and text != EMPTY_TEXT):
            return None
    return (
        f"the model sent an empty reply (stop reason {reply.get('stopReason')}): it is written "
        "as Ink writes one; send again to go on"
    )


def cut_at_output_limit(reply: Message) -> bool:
    """Whether ``reply`` stopped at the output token limit: Ink runs none of its calls."""
    return reply.get("stopReason") == OUTPUT_LIMIT_STOP


def output_limit_notice(calls: int) -> str:
    """The pane's notice for a reply cut at the output token limit that holds tool calls."""
    they = "its tool call was" if calls == 1 else f"its {calls} tool calls were"
    return (
        f"the reply hit the output token limit, so {they} not run (Ink never runs the calls of "
        "such a reply: their arguments may be cut); the model is told to re-issue them"
    )


def output_limit_results(calls: list[Message]) -> list[Message]:
    """The results Ink gives the calls of a reply cut at the output token limit: none runs."""
    return [
        {
            "toolCallId": str(call.get("id")),
            "toolName": str(call.get("name")),
            "content": output_limit_text(call.get("name")),
            "isError": True,
        }
        for call in calls
    ]


def unreadable_arguments(name: str, arguments: object) -> tuple[str, str] | None:
    """For a known tool's call whose arguments are not a JSON object: the pane's notice and the
    call's error result (Ink's ``Error: invalid arguments for X — …`` wording). The call is
    never run, whatever the tool would do with no arguments (``ls`` would list the cwd)."""
    if not isinstance(arguments, InvalidArguments) or name not in TOOLS:
        return None
    what = arguments.reason.split(" (")[0]
    notice = (
        f"the model's {name} call sent arguments that are {what}: it was not run, and the "
        "model is told so (an error result)"
    )
    raw = arguments.raw
    sent = raw if len(raw) <= SHOWN_ARGUMENTS else raw[: SHOWN_ARGUMENTS - 1] + "…"
    result = (
        f"Error: invalid arguments for {name} — {arguments.reason}: {sent}. "
        "Fix the arguments and retry."
    )
    return notice, result


def _call_ids(message: Message) -> list[object]:
    blocks = message.get("blocks")
    items = blocks if isinstance(blocks, list) else []
    return [b.get("id") for b in items if isinstance(b, dict) and b.get("type") == "toolCall"]


def renamed_ids_notice(sent: Message, written: Message) -> str | None:
    """The pane's notice when the call ids of the reply as ``sent`` were replaced in the one
    ``written`` (missing, or already in the session: Ink refuses an id declared twice)."""
    pairs = [(a, b) for a, b in zip(_call_ids(sent), _call_ids(written), strict=False) if a != b]
    if not pairs:
        return None
    old, new = pairs[0]
    what = f"the tool-call id {old} was already used" if old else "a tool call came without an id"
    more = f" (and {len(pairs) - 1} more)" if len(pairs) > 1 else ""
    return f"{what}{more}: written as {new}, as Ink needs each id once (said once per chat)"
