"""``/compact``: summarise the older part of the context and append a ``compaction`` entry, as
Ink's ``src/core/compaction.ts`` does.

The cut keeps about ``KEEP_RECENT_TOKENS`` of the newest messages verbatim (``retainedTail``),
snapped back to the nearest user or assistant message; the rest is sent to the model as one
text transcript with Ink's summarisation prompt (or its update prompt when the context already
starts with a summary). Nothing is written unless a complete, non-empty summary comes back.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ink_tui.agent.windows import RESERVE_TOKENS
from ink_tui.session.conversation.context import unframe_summary
from ink_tui.session.reading.jsoncodec import encode_json
from ink_tui.session.reading.records import USAGE_KEYS
from ink_tui.session.reading.recordtypes import JsonObject, json_list, json_object, read_message
from ink_tui.session.rules.content import content_text
from ink_tui.session.rules.tokens import estimated_tokens

__all__ = [
    "KEEP_RECENT_TOKENS",
    "CompactionPlan",
    "estimate_tokens",
    "nothing_to_compact",
    "plan_compaction",
    "summary_request",
]

Message = Mapping[str, Any]  # a message as the chat holds it: written or read (recordtypes)

KEEP_RECENT_TOKENS = 20000

SUMMARY_MAX_TOKENS = math.floor(0.8 * RESERVE_TOKENS)
IMAGE_CHARS = 4800
# Ink anchors the estimate only on a reply whose input + output + cache-read tokens are not 0
ANCHOR_KEYS = ("inputTokens", "outputTokens", "cacheReadTokens")

SUMMARIZATION_SYSTEM_PROMPT = (
    "You are a context summarization assistant. Read the conversation between a user and an AI "
    "coding agent, then produce a structured summary in the exact format specified by the user "
    "prompt. Do NOT continue the conversation. Do NOT answer any questions in it. ONLY output "
    "the summary."
)

_FORMAT_NEW = """\
## Goal
[What is the user trying to accomplish? Can be multiple items.]

## Constraints & Preferences
- [Any constraints, preferences, or requirements mentioned by the user]
- [Or "(none)" if none were mentioned]

## Progress
### Done
- [x] [Completed tasks/changes]

### In Progress
- [ ] [Current work]

### Blocked
- [Issues preventing progress, if any]

## Key Decisions
- **[Decision]**: [Brief rationale]

## Next Steps
1. [Ordered list of what should happen next]

## Critical Context
- [Any data, code references, or facts needed to continue]
- [Or "(none)" if not applicable]"""

_FORMAT_UPDATE = """\
## Goal
[Preserve existing goals, add new ones if the task expanded]

## Constraints & Preferences
- [Preserve existing, add new ones discovered]

## Progress
### Done
- [x] [Include previously done items AND newly completed items]

### In Progress
- [ ] [Current work - update based on progress]

### Blocked
- [Current blockers - remove if resolved]

## Key Decisions
- **[Decision]**: [Brief rationale] (preserve all previous, add new)

## Next Steps
1. [Update based on current state]

## Critical Context
- [Preserve important context, add new if needed]"""

_TAIL = (
    "\n\nKeep each section concise. Preserve exact file paths, function names, and error messages."
)

SUMMARIZATION_PROMPT = (
    "The messages above are a conversation to summarize. Create a structured context checkpoint "
    "summary that another AI agent will use to continue the work.\n\nUse this EXACT format:\n\n"
    + _FORMAT_NEW
    + _TAIL
)

UPDATE_SUMMARIZATION_PROMPT = (
    "The messages above are NEW conversation messages to incorporate into the existing summary "
    "provided in <previous-summary> tags.\n\nUpdate the existing structured summary with new "
    "information. RULES:\n"
    "- PRESERVE all existing information from the previous summary\n"
    "- ADD new progress, decisions, and context from the new messages\n"
    '- UPDATE the Progress section: move items from "In Progress" to "Done" when completed\n'
    '- UPDATE "Next Steps" based on what was accomplished\n'
    "- PRESERVE exact file paths, function names, and error messages\n"
    "- If something is no longer relevant, you may remove it\n\nUse this EXACT format:\n\n"
    + _FORMAT_UPDATE
    + _TAIL
)


def _stringify(value: Any) -> str:
    """``JSON.stringify(value ?? {})``: compact, non-ASCII kept raw."""
    return encode_json({} if value is None else value).decode("utf-8")


def _chars(value: object) -> int:
    message: JsonObject = value if json_object(value) else {}  # nothing else counts
    role = message.get("role")
    if role == "assistant":
        total = 0
        for block in json_list(message.get("blocks")):
            if not json_object(block):
                continue
            kind = block.get("type")
            if kind == "text":
                total += len(str(block.get("text", "")))
            elif kind == "thinking":
                total += len(str(block.get("thinking", "")))
            elif kind == "toolCall":
                total += len(str(block.get("name", ""))) + len(_stringify(block.get("arguments")))
        return total
    contents = (
        [r.get("content") for r in json_list(message.get("results")) if json_object(r)]
        if role == "toolResult"
        else [message.get("content")]
    )
    total = 0
    for content in contents:
        if isinstance(content, str):
            total += len(content)
            continue
        for block in json_list(content):
            if json_object(block):
                image = block.get("type") == "image"
                total += IMAGE_CHARS if image else len(str(block.get("text", "")))
    return total


def message_tokens(message: object) -> int:
    return estimated_tokens(_chars(message))


def _reported(usage: JsonObject, key: str) -> int:
    """A usage count as a whole number; 0 for one Python cannot count (``1e400`` reads as
    Infinity, which Ink's ``JSON.parse`` accepts and ``int()`` refuses) and for a value that
    is not a number."""
    value = usage.get(key, 0)
    if not isinstance(value, int | float) or not math.isfinite(value):
        return 0
    return int(value)


def estimate_tokens(messages: Sequence[object], floor: int = 0) -> int:
    """The last assistant reply's reported usage plus chars/4 of the messages after it."""
    for index in range(len(messages) - 1, floor - 1, -1):
        message = read_message(messages[index])
        assistant = message is not None and message["role"] == "assistant"
        usage = message.get("usage") if message is not None and assistant else None
        if json_object(usage) and usage and any(_reported(usage, key) for key in ANCHOR_KEYS):
            reported = sum(_reported(usage, key) for key in USAGE_KEYS)
            return reported + sum(message_tokens(m) for m in messages[index + 1 :])
    return sum(message_tokens(m) for m in messages)


@dataclass(frozen=True, slots=True)
class CompactionPlan:
    """Which messages are summarised and which are kept."""

    previous_summary: str | None  # update mode: the summary the context starts with
    summarised: list[object]
    retained: list[object]
    tokens_before: int


def _cut_index(messages: Sequence[object], keep_recent: int) -> int:
    kept = 0
    for index in range(len(messages) - 1, -1, -1):
        kept += message_tokens(messages[index])
        if kept >= keep_recent:
            for back in range(index, -1, -1):
                message = read_message(messages[back])
                if message is not None and message["role"] in ("user", "assistant"):
                    return back
            return 0
    return 0


def plan_compaction(
    messages: Sequence[object],
    compaction_boundary: int = 0,
    keep_recent: int = KEEP_RECENT_TOKENS,
) -> CompactionPlan | None:
    """What ``/compact`` would summarise, or ``None`` when nothing is safe to compact yet."""
    previous: str | None = None
    first = 0
    if messages and json_object(messages[0]):
        framed = unframe_summary(messages[0])
        if framed is not None and framed[0] == "compaction":
            previous, first = framed[1], 1
    cut = _cut_index(messages, keep_recent)
    if cut <= first:
        return None
    return CompactionPlan(
        previous,
        list(messages[first:cut]),
        list(messages[cut:]),
        estimate_tokens(messages, compaction_boundary),
    )


def _tokens(count: int) -> str:
    """``17k``, ``1.2k``, ``950``: a token estimate as a person reads it."""
    if count < 1000:
        return str(count)
    if count < 10_000:
        return f"{count / 1000:.1f}k".replace(".0k", "k")
    return f"{round(count / 1000)}k"


def nothing_to_compact(messages: Sequence[object], keep_recent: int = KEEP_RECENT_TOKENS) -> str:
    """Why :func:`plan_compaction` found nothing to summarise, in one line: the newest
    ``keep_recent`` tokens (estimated as characters / 4, as the cut is) stay verbatim."""
    first = 0
    head = messages[0] if messages else None
    if json_object(head) and (framed := unframe_summary(head)) and framed[0] == "compaction":
        first = 1
    size = sum(message_tokens(m) for m in messages[first:])
    since = " since the last compaction" if first else ""
    keep = _tokens(keep_recent)
    if size < keep_recent:
        return (
            f"the context{since} is about {_tokens(size)} tokens and Ink keeps the newest "
            f"{keep} verbatim: nothing older to summarise"
        )
    start = "the first message after the summary" if first else "the first message"
    return (
        f"the context{since} is about {_tokens(size)} tokens, but the newest {keep} that Ink "
        f"keeps verbatim reach back to {start} (a cut must fall before a user or assistant "
        "message): nothing older to summarise"
    )


def _clip(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]}\n…[truncated {len(text) - limit} chars]"


def transcript(messages: Sequence[object]) -> str:
    """The conversation as Ink's ``serializeForSummary`` writes it (thinking left out)."""
    parts: list[str] = []
    for value in messages:
        message: JsonObject = value if json_object(value) else {}
        role = message.get("role")
        if role == "user":
            text = content_text(message.get("content"), show_non_string_text=True)
            parts.append(f"[user]\n{_clip(text, 4000)}")
        elif role == "assistant":
            for block in json_list(message.get("blocks")):
                if not json_object(block):
                    continue
                if block.get("type") == "text" and block.get("text"):
                    parts.append(f"[assistant]\n{_clip(str(block.get('text', '')), 4000)}")
                elif block.get("type") == "toolCall":
                    args = _stringify(block.get("arguments"))
                    parts.append(f"[assistant calls {block.get('name')}]\n{_clip(args, 400)}")
        elif role == "toolResult":
            for result in json_list(message.get("results")):
                if not json_object(result):
                    continue
                flag = " (error)" if result.get("isError") else ""
                body = _clip(content_text(result.get("content"), show_non_string_text=True), 800)
                parts.append(f"[tool result {result.get('toolName')}{flag}]\n{body}")
    return "\n\n".join(parts)


def summary_request(plan: CompactionPlan) -> Message:
    """The one user message sent to the summariser."""
    text = transcript(plan.summarised)
    if plan.previous_summary is not None:
        content = (
            f"<previous-summary>\n{plan.previous_summary}\n</previous-summary>\n\n"
            f"{text}\n\n---\n\n{UPDATE_SUMMARIZATION_PROMPT}"
        )
    else:
        content = f"{text}\n\n---\n\n{SUMMARIZATION_PROMPT}"
    return {"role": "user", "content": content}
