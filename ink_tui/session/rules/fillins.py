"""The results Ink writes for tool calls it did not run, or did not see finish (spec §6, §8).

Each is an ordinary ``isError`` result that pairs its call; what it says is what happened:

- ``(not executed: reached max turns)``: the turn cap was hit (checked first);
- ``Tool call "<name>" was not executed: the response hit the output token limit…``: every call
  of an assistant message whose ``stopReason`` is ``max_tokens`` (Ink never runs them);
- ``Tool <name> did not respond to the interrupt within 10s — result abandoned…``: a call still
  running 10 s after an interrupt (it may still be running);
- ``(interrupted before this tool ran)`` and ``(force quit before this tool ran)``;
- ``[ink] this tool call was interrupted before a result was recorded — the outcome is
  unknown…`` (imp-era ``[imp]``): a continuation's closure of a dangling call;
- ``Tool "<name>" blocked by extension <ext>: <reason>`` (late Ink names the extension) or
  ``Tool "<name>" blocked by an extension: <reason>``: an extension's gate refused the call.

:func:`fill_in` recognises them, once, for every view; :func:`resume_closure` is what closes
the dangling calls of a context before ink-tui's chat goes on (an output-limit message's calls
get the output-limit text: Ink never runs them, so their outcome is known).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from ink_tui.session.reading.jsvalues import js_template
from ink_tui.session.reading.recordtypes import JsonObject, json_list, json_object
from ink_tui.session.reading.shapes import MISSING, js_key

__all__ = [
    "FORCE_QUIT_REASON",
    "INTERRUPTED_REASON",
    "MAX_TURNS_REASON",
    "OUTPUT_LIMIT_STOP",
    "UNKNOWN_OUTCOME_TEXT",
    "FillIn",
    "fill_in",
    "is_unknown_outcome",
    "output_limit_text",
    "resume_closure",
]

FORCE_QUIT_REASON: Final = "(force quit before this tool ran)"
INTERRUPTED_REASON: Final = "(interrupted before this tool ran)"
MAX_TURNS_REASON: Final = "(not executed: reached max turns)"
UNKNOWN_OUTCOME_TEXT: Final = (
    "[ink] this tool call was interrupted before a result was recorded — the outcome is unknown; "
    "it may have partially executed. Re-inspect or re-run it before relying on its effects."
)
"""The closure current Ink's continuation writes (``child-resume.ts@b1deda4d``); ink-tui too."""
_UNKNOWN_OUTCOME_OPENINGS: Final = tuple(
    f"[{tag}] this tool call was interrupted before a result was recorded"
    for tag in ("ink", "imp")  # imp-era builds wrote the same text tagged [imp]
)
_OUTPUT_LIMIT: Final = re.compile(
    r'Tool call "(?P<tool>.*)" was not executed: the response hit the output token limit, '
    r"so its arguments may be truncated\. Re-issue the tool call with complete arguments\.",
    re.DOTALL,
)
_ABANDONED: Final = re.compile(
    r"Tool (?P<tool>.+?) did not respond to the interrupt within (?P<grace>[0-9.]+)s — "
    r"result abandoned",
    re.DOTALL,
)
_NAMED_BLOCK: Final = re.compile(
    r'Tool "(?P<tool>.*?)" blocked by extension (?P<ext>.+?): (?P<reason>.*)', re.DOTALL
)
_UNNAMED_BLOCK: Final = re.compile(r'Tool "(?P<tool>.*?)" blocked by an extension: ', re.DOTALL)
OUTPUT_LIMIT_STOP: Final = "max_tokens"

Kind = Literal[
    "max_turns",
    "output_limit",
    "abandoned",
    "interrupted",
    "force_quit",
    "unknown_outcome",
    "extension_block",
]
Ran = Literal["no", "maybe"]


@dataclass(frozen=True, slots=True)
class FillIn:
    """What a fill-in result says happened to its call."""

    kind: Kind
    label: str  # a few words for the status: "not run: output limit", "blocked by extension x"
    ran: Ran  # "no": it never ran; "maybe": it ran, or may have, and its end is unknown
    extension: str | None = None  # the extension that blocked it, when Ink names it

    @property
    def status(self) -> str:
        """As a call's status says it, the same in the view, the replay and the export:
        ``⊘ not run: output limit`` (it never ran), ``? abandoned after interrupt`` (it may
        have)."""
        return f"{'⊘' if self.ran == 'no' else '?'} {self.label}"


_FIXED: Final[dict[str, FillIn]] = {
    MAX_TURNS_REASON: FillIn("max_turns", "not run: max turns", "no"),
    INTERRUPTED_REASON: FillIn("interrupted", "not run: interrupted", "no"),
    FORCE_QUIT_REASON: FillIn("force_quit", "not run: force quit", "no"),
}
_OUTPUT_LIMITED: Final = FillIn("output_limit", "not run: output limit", "no")
_ABANDONED_CALL: Final = FillIn("abandoned", "abandoned after interrupt", "maybe")
_UNKNOWN: Final = FillIn("unknown_outcome", "unknown outcome", "maybe")
_UNNAMED: Final = FillIn("extension_block", "blocked by an extension", "no")


def output_limit_text(name: object) -> str:
    """Ink's result for a call of a ``max_tokens`` message (``name`` as a template shows it)."""
    shown = js_template(name)
    return (
        f'Tool call "{shown}" was not executed: the response hit the output token limit, so its '
        "arguments may be truncated. Re-issue the tool call with complete arguments."
    )


def _text(result: object) -> str | None:
    """An ``isError`` result's text: its string content, or its first block's text."""
    if not json_object(result) or result.get("isError") is not True:
        return None
    content = result.get("content")
    if isinstance(content, list):
        first = content[0] if content else None
        content = first.get("text") if json_object(first) else None
    return content if isinstance(content, str) else None


def is_unknown_outcome(result: object) -> bool:
    """Whether a tool result is a continuation's closure (``[ink]`` or imp-era ``[imp]``).

    Such a result pairs its call like any other; the call may have partly run.
    """
    text = _text(result)
    return text is not None and text.startswith(_UNKNOWN_OUTCOME_OPENINGS)


def fill_in(result: object) -> FillIn | None:
    """What Ink's fill-in ``result`` says happened to its call; ``None`` for any other result."""
    text = _text(result)
    if text is None:
        return None
    fixed = _FIXED.get(text)
    if fixed is not None:
        return fixed
    if text.startswith(_UNKNOWN_OUTCOME_OPENINGS):
        return _UNKNOWN
    if _OUTPUT_LIMIT.fullmatch(text):
        return _OUTPUT_LIMITED
    if _ABANDONED.match(text):
        return _ABANDONED_CALL
    named = _NAMED_BLOCK.match(text)
    if named is not None:
        extension = named["ext"]
        return FillIn("extension_block", f"blocked by extension {extension}", "no", extension)
    if _UNNAMED_BLOCK.match(text):
        return _UNNAMED
    return None


def _answered(messages: Sequence[object]) -> set[str]:
    return {
        js_key(result.get("toolCallId", MISSING))
        for message in messages
        if json_object(message) and message.get("role") == "toolResult"
        for result in json_list(message.get("results"))
        if json_object(result)
    }


def resume_closure(messages: Sequence[object], reason: str) -> JsonObject | None:
    """One ``toolResult`` closing every unanswered call of ``messages`` before a chat goes on:
    ``reason`` for each, except the calls of a ``max_tokens`` message, which get Ink's
    output-limit text (Ink never runs them, spec §6). Otherwise as
    :func:`~ink_tui.session.conversation.pairing.synthesize_missing_results`."""
    answered = _answered(messages)
    results: list[JsonObject] = []
    for message in messages:
        if not json_object(message) or message.get("role") != "assistant":
            continue
        cut = message.get("stopReason") == OUTPUT_LIMIT_STOP
        for block in json_list(message.get("blocks")):
            if not json_object(block) or block.get("type") != "toolCall":
                continue
            raw_id, raw_name = block.get("id", MISSING), block.get("name", MISSING)
            if js_key(raw_id) in answered:
                continue
            fields: JsonObject = {"toolCallId": raw_id, "toolName": raw_name}
            result = {key: value for key, value in fields.items() if value is not MISSING}
            text = output_limit_text(raw_name) if cut else reason
            results.append({**result, "content": text, "isError": True})
    return {"role": "toolResult", "results": results} if results else None
