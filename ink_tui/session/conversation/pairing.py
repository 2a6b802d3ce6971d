"""Tool-call pairing: each ``toolCall`` joined to its result by ``toolCallId``.

Mirrors the read-only scan of Ink's ``buildContinuationHistory``: it reports dangling calls, call
ids declared twice, results with no earlier call and results recorded twice, and decides whether
the transcript is continuable (the refusal texts are Ink's).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ink_tui.session.reading.jsoncodec import encode_json
from ink_tui.session.reading.recordtypes import JsonObject, json_list, json_object
from ink_tui.session.reading.shapes import (
    MISSING,
    iteration_error,
    js_items,
    js_key,
    null_read,
)
from ink_tui.session.rules.fillins import (
    FORCE_QUIT_REASON,
    INTERRUPTED_REASON,
    MAX_TURNS_REASON,
    UNKNOWN_OUTCOME_TEXT,
    is_unknown_outcome,
)

__all__ = [
    "FORCE_QUIT_REASON",
    "INTERRUPTED_REASON",
    "MAX_TURNS_REASON",
    "UNKNOWN_OUTCOME_TEXT",
    "ClosingScan",
    "Pairing",
    "PairingScan",
    "ToolCall",
    "is_unknown_outcome",
    "json_value",
    "pair_tool_calls",
    "shown_id",
    "synthesize_missing_results",
]


@dataclass(slots=True)
class ToolCall:
    """One ``toolCall`` block and where its result is (indices into the context messages).

    ``id`` and ``name`` are for display (a non-string id shown as JSON: ``null``, ``["x"]``,
    ``undefined`` when absent); ``raw_id`` and ``raw_name`` are the values as the file holds them
    (:data:`~ink_tui.session.reading.shapes.MISSING` when absent), which a closing result repeats.
    """

    id: str
    name: str
    message_index: int
    result_index: int | None = None
    arguments: object = None
    is_error: bool | None = None  # of its result, once paired
    unknown_outcome: bool = False  # its result is a continuation's [ink]/[imp] closure
    raw_id: object = None
    raw_name: object = None

    def to_json(self) -> JsonObject:
        return {
            "id": json_value(self.raw_id),
            "name": json_value(self.raw_name),
            "messageIndex": self.message_index,
            "resultIndex": self.result_index,
        }

    def closure(self, reason: str) -> JsonObject:
        """The result that closes this call, as Ink writes it (``JSON.stringify`` leaves out a
        field whose value is ``undefined``): the id and name as the file holds them, so not
        always the strings a :class:`~ink_tui.session.reading.recordtypes.ToolResult` has."""
        result: JsonObject = {"toolCallId": self.raw_id, "toolName": self.raw_name}
        fields = {key: value for key, value in result.items() if value is not MISSING}
        return {**fields, "content": reason, "isError": True}


@dataclass(slots=True)
class Pairing:
    """The pairing of a message list, and whether it can be continued.

    ``duplicate_calls``, ``orphan_results`` and ``duplicate_results`` hold the ids as the file
    holds them (not always strings); :func:`shown_id` makes one readable."""

    calls: list[ToolCall] = field(default_factory=list)
    duplicate_calls: list[object] = field(default_factory=list)
    orphan_results: list[object] = field(default_factory=list)
    duplicate_results: list[object] = field(default_factory=list)
    problem: str | None = None
    """Ink's refusal text: the first problem its scan stops at, or ``None`` when only a crash tail
    (calls of the last assistant message, followed by nothing but results) is left to close. A
    shape Ink's scan throws on (``message.blocks is not iterable``) is a problem too."""

    @property
    def dangling(self) -> list[ToolCall]:
        return [call for call in self.calls if call.result_index is None]

    def _note(self, text: str) -> None:
        if self.problem is None:
            self.problem = text

    def to_json(self) -> JsonObject:
        return {
            "calls": [call.to_json() for call in self.calls],
            "dangling": [
                {"id": json_value(call.raw_id), "name": json_value(call.raw_name)}
                for call in self.dangling
            ],
            "duplicateCalls": [json_value(value) for value in self.duplicate_calls],
            "orphanResults": [json_value(value) for value in self.orphan_results],
            "duplicateResults": [json_value(value) for value in self.duplicate_results],
            "problem": self.problem,
        }


def json_value(value: object) -> object:
    """``value`` for JSON output: an absent one is ``null`` (as ``JSON.stringify`` writes an
    ``undefined`` array item)."""
    return None if value is MISSING else value


def shown_id(value: object) -> str:
    """A call id as text: a string as it is, anything else as JSON (``undefined`` if absent)."""
    if isinstance(value, str):
        return value
    if value is MISSING:
        return "undefined"
    return encode_json(value).decode("utf-8")


def _boundary_problem(role: object, pending: dict[str, ToolCall]) -> str:
    ids = ", ".join(call.id for call in pending.values())
    shown = role if isinstance(role, str) else shown_id(role)  # undefined, null, [] …
    return (
        f"a new {shown} message begins a turn while tool call(s) {ids} are still awaiting "
        "results — the transcript cannot be paired unambiguously (start a new task instead)"
    )


def _scan_fails(index: int, error: str) -> str:
    """The problem when Ink's scan throws: it cannot continue the session either."""
    return (
        f"Ink's continuation scan fails at message {index} (TypeError: {error}) — the transcript "
        "is not continuable (start a new task instead)"
    )


class PairingScan:
    """:func:`pair_tool_calls` one message at a time (:meth:`add`), for a streamed context."""

    def __init__(self) -> None:
        self.pairing = Pairing()
        self.by_key: dict[str, ToolCall] = {}
        self.pending: dict[str, ToolCall] = {}  # declared, no result yet, in declaration order

    def add(self, index: int, message: object) -> None:
        """The context's message ``index``, after those before it."""
        if message is None:
            self.pairing._note(_scan_fails(index, null_read("role")))
            return
        shaped: JsonObject = message if json_object(message) else {}
        role = shaped.get("role", MISSING)
        if role != "toolResult" and self.pending:
            self.pairing._note(_boundary_problem(role, self.pending))
        if role == "assistant":
            self.assistant(index, shaped)
        elif role == "toolResult":
            self.results(index, shaped)

    def assistant(self, index: int, message: JsonObject) -> None:
        blocks = message.get("blocks", MISSING)
        items = js_items(blocks)
        if items is None:
            self.pairing._note(_scan_fails(index, iteration_error("message.blocks", blocks)))
            return
        for block in items:
            if block is None:
                self.pairing._note(_scan_fails(index, null_read("type")))
            elif json_object(block) and block.get("type") == "toolCall":
                self._declare(index, block)

    def _declare(self, index: int, block: JsonObject) -> None:
        raw_id, raw_name = block.get("id", MISSING), block.get("name", MISSING)
        key = js_key(raw_id)
        if key in self.by_key:
            self.pairing.duplicate_calls.append(raw_id)
            self.pairing._note(
                f"tool call {shown_id(raw_id)} is declared more than once — the transcript "
                "cannot be paired unambiguously (start a new task instead)"
            )
            return
        call = ToolCall(
            shown_id(raw_id),
            shown_id(raw_name),
            index,
            None,
            block.get("arguments"),
            raw_id=raw_id,
            raw_name=raw_name,
        )
        self.by_key[key] = call
        self.pending[key] = call
        self.pairing.calls.append(call)

    def results(self, index: int, message: JsonObject) -> None:
        results = message.get("results", MISSING)
        items = js_items(results)
        if items is None:
            self.pairing._note(_scan_fails(index, iteration_error("message.results", results)))
            return
        for result in items:
            if result is None:
                self.pairing._note(_scan_fails(index, null_read("toolCallId")))
                continue
            shaped: JsonObject = result if json_object(result) else {}
            self._answer(index, shaped.get("toolCallId", MISSING), shaped)

    def _answer(self, index: int, raw_id: object, result: JsonObject) -> None:
        pairing = self.pairing
        key = js_key(raw_id)
        found = self.by_key.get(key)
        if found is None:
            pairing.orphan_results.append(raw_id)
            pairing._note(
                f"a tool result for {shown_id(raw_id)} has no preceding tool call — the "
                "transcript is not continuable (start a new task instead)"
            )
        elif found.result_index is not None:
            pairing.duplicate_results.append(raw_id)
            pairing._note(
                f"the tool result for {shown_id(raw_id)} is recorded more than once — the "
                "transcript is not continuable (start a new task instead)"
            )
        else:
            found.result_index = index
            found.is_error = bool(result.get("isError"))
            found.unknown_outcome = is_unknown_outcome(result)
            self.pending.pop(key, None)


def pair_tool_calls(messages: Iterable[object]) -> Pairing:
    """Scan ``messages`` (a built context) and pair every call with its result.

    The lists cover every message. ``problem`` is where Ink's read-only scan in
    ``buildContinuationHistory`` (``child-resume.ts@b1deda4d``) stops: before each message, a role
    other than ``toolResult`` while calls still await results is a turn boundary it refuses;
    then a call id declared twice, a result with no earlier call, a result recorded twice. Where
    Ink's JavaScript throws on a shape (``null`` as a message, ``blocks`` that is not a list),
    the scan fails there. Ids are compared as JavaScript's ``Set`` compares them.
    """
    scan = PairingScan()
    for index, message in enumerate(messages):
        scan.add(index, message)
    return scan.pairing


def synthesize_missing_results(messages: Iterable[object], reason: str) -> JsonObject | None:
    """``synthesizeMissingToolResults``: one ``toolResult`` closing every unanswered call.

    As in Ink, a call counts as answered when any result anywhere names it, and a call id
    declared twice without an answer is closed twice. A closing result repeats the call's id and
    name as the file holds them. Shapes Ink's scan refuses are passed over here.
    """
    scan = ClosingScan()
    for message in messages:
        scan.add(message)
    return scan.closing(reason)


class ClosingScan:
    """:func:`synthesize_missing_results` one message at a time, for a streamed context: it
    keeps the calls' ids and names and the answered ids, not the messages."""

    def __init__(self) -> None:
        self.answered: set[str] = set()
        self.calls: list[tuple[str, object, object]] = []  # key, id and name as the file has them

    def add(self, message: object) -> None:
        """The context's next message."""
        if not json_object(message):
            return
        role = message.get("role")
        if role == "toolResult":
            self.answered.update(
                js_key(result.get("toolCallId", MISSING))
                for result in json_list(message.get("results"))
                if json_object(result)
            )
        elif role == "assistant":
            self.calls.extend(
                (
                    js_key(block.get("id", MISSING)),
                    block.get("id", MISSING),
                    block.get("name", MISSING),
                )
                for block in json_list(message.get("blocks"))
                if json_object(block) and block.get("type") == "toolCall"
            )

    def closing(self, reason: str) -> JsonObject | None:
        """The closing ``toolResult`` of the messages added so far (``None``: nothing open)."""
        results = [
            ToolCall("", "", 0, raw_id=raw_id, raw_name=raw_name).closure(reason)
            for key, raw_id, raw_name in self.calls
            if key not in self.answered
        ]
        return {"role": "toolResult", "results": results} if results else None
