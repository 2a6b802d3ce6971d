"""Tool-call pairing: each ``toolCall`` joined to its result by ``toolCallId``.

Mirrors the read-only scan of Ink's ``buildContinuationHistory``: it reports dangling calls, call
ids declared twice, results with no earlier call and results recorded twice, and decides whether
the transcript is continuable (the refusal texts are Ink's).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

__all__ = [
    "FORCE_QUIT_REASON",
    "UNKNOWN_OUTCOME_TEXT",
    "Pairing",
    "ToolCall",
    "is_unknown_outcome",
    "pair_tool_calls",
    "synthesize_missing_results",
]

Message = dict[str, Any]

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


def is_unknown_outcome(result: Any) -> bool:
    """Whether a tool result is a continuation's closure (``[ink]`` or imp-era ``[imp]``).

    Such a result pairs its call like any other; the call may have partly run.
    """
    if not isinstance(result, dict) or result.get("isError") is not True:
        return False
    content = result.get("content")
    if isinstance(content, list):  # blocks: the text of the first one
        first = content[0] if content else None
        content = first.get("text") if isinstance(first, dict) else None
    return isinstance(content, str) and content.startswith(_UNKNOWN_OUTCOME_OPENINGS)


@dataclass(slots=True)
class ToolCall:
    """One ``toolCall`` block and where its result is (indices into the context messages)."""

    id: str
    name: str
    message_index: int
    result_index: int | None = None
    arguments: Any = None
    is_error: bool | None = None  # of its result, once paired
    unknown_outcome: bool = False  # its result is a continuation's [ink]/[imp] closure

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "messageIndex": self.message_index,
            "resultIndex": self.result_index,
        }


@dataclass(slots=True)
class Pairing:
    """The pairing of a message list, and whether it can be continued."""

    calls: list[ToolCall] = field(default_factory=list)
    duplicate_calls: list[str] = field(default_factory=list)
    orphan_results: list[str] = field(default_factory=list)
    duplicate_results: list[str] = field(default_factory=list)
    problem: str | None = None
    """Ink's refusal text: the first problem its scan stops at, or ``None`` when only a crash tail
    (calls of the last assistant message, followed by nothing but results) is left to close."""

    @property
    def dangling(self) -> list[ToolCall]:
        return [call for call in self.calls if call.result_index is None]

    def _note(self, text: str) -> None:
        if self.problem is None:
            self.problem = text

    def to_json(self) -> dict[str, Any]:
        return {
            "calls": [call.to_json() for call in self.calls],
            "dangling": [{"id": call.id, "name": call.name} for call in self.dangling],
            "duplicateCalls": list(self.duplicate_calls),
            "orphanResults": list(self.orphan_results),
            "duplicateResults": list(self.duplicate_results),
            "problem": self.problem,
        }


def _boundary_problem(role: object, pending: dict[str, ToolCall]) -> str:
    ids = ", ".join(pending)
    return (
        f"a new {role} message begins a turn while tool call(s) {ids} are still awaiting results "
        "— the transcript cannot be paired unambiguously (start a new task instead)"
    )


def pair_tool_calls(messages: Sequence[Message]) -> Pairing:
    """Scan ``messages`` (a built context) and pair every call with its result.

    The lists cover every message. ``problem`` is where Ink's read-only scan in
    ``buildContinuationHistory`` (``child-resume.ts@b1deda4d``) stops: before each message, a role
    other than ``toolResult`` while calls still await results is a turn boundary it refuses;
    then a call id declared twice, a result with no earlier call, a result recorded twice.
    """
    pairing = Pairing()
    by_id: dict[str, ToolCall] = {}
    pending: dict[str, ToolCall] = {}  # declared, no result yet, in declaration order
    for index, message in enumerate(messages):
        role = message.get("role")
        if role != "toolResult" and pending:
            pairing._note(_boundary_problem(role, pending))
        if role == "assistant":
            for block in message.get("blocks") or ():
                if not isinstance(block, dict) or block.get("type") != "toolCall":
                    continue
                call_id = str(block.get("id"))
                if call_id in by_id:
                    pairing.duplicate_calls.append(call_id)
                    pairing._note(
                        f"tool call {call_id} is declared more than once — the transcript "
                        "cannot be paired unambiguously (start a new task instead)"
                    )
                    continue
                call = ToolCall(
                    call_id, str(block.get("name")), index, None, block.get("arguments")
                )
                by_id[call_id] = call
                pending[call_id] = call
                pairing.calls.append(call)
        elif role == "toolResult":
            for result in message.get("results") or ():
                if not isinstance(result, dict):
                    continue
                call_id = str(result.get("toolCallId"))
                found = by_id.get(call_id)
                if found is None:
                    pairing.orphan_results.append(call_id)
                    pairing._note(
                        f"a tool result for {call_id} has no preceding tool call — the "
                        "transcript is not continuable (start a new task instead)"
                    )
                elif found.result_index is not None:
                    pairing.duplicate_results.append(call_id)
                    pairing._note(
                        f"the tool result for {call_id} is recorded more than once — the "
                        "transcript is not continuable (start a new task instead)"
                    )
                else:
                    found.result_index = index
                    found.is_error = bool(result.get("isError"))
                    found.unknown_outcome = is_unknown_outcome(result)
                    pending.pop(call_id, None)
    return pairing


def synthesize_missing_results(messages: Sequence[Message], reason: str) -> Message | None:
    """``synthesizeMissingToolResults``: one ``toolResult`` closing every unanswered call.

    As in Ink, a call counts as answered when any result anywhere names it, and a call id
    declared twice without an answer is closed twice.
    """
    answered = {
        str(result.get("toolCallId"))
        for message in messages
        if message.get("role") == "toolResult"
        for result in message.get("results") or ()
        if isinstance(result, dict)
    }
    results = [
        {
            "toolCallId": str(block.get("id")),
            "toolName": str(block.get("name")),
            "content": reason,
            "isError": True,
        }
        for message in messages
        if message.get("role") == "assistant"
        for block in message.get("blocks") or ()
        if isinstance(block, dict)
        and block.get("type") == "toolCall"
        and str(block.get("id")) not in answered
    ]
    return {"role": "toolResult", "results": results} if results else None
