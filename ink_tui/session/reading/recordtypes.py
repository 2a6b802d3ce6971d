"""Ink's records as types (``TypedDict``: typing only, no cost when the program runs).

Two kinds, never mixed up:

- **Written shapes** (:class:`UserMessage`, :class:`AssistantMessage`, :class:`ToolResultMessage`,
  the entries, :class:`SessionHeader`…): exactly what Ink writes (spec §2), in its key order. A
  record ink-tui builds (the chat's replies, fill-ins, summaries, the demo) is typed with them,
  so mypy checks every field it writes.
- **Read shapes** (:class:`EntryRecord`, :class:`ReadMessage`, :class:`HeaderRecord`,
  :data:`MarkerRecord`): what a record read from a file is KNOWN to hold. A file can hold
  anything (a hostile one: docs/security.md); Ink's ``open()`` checks only a few fields
  (spec §3), and the reader applies the same checks before it hands a record out. The fields
  it checked carry their type; every other field is ``object``, so mypy makes the code narrow
  it (``isinstance``, or the guards below) before using it: a type here never claims more than
  was checked.

A JSON object from a file is :data:`JsonObject` (``dict[str, object]``: JSON keys are always
strings); :func:`json_object` and :func:`json_list` narrow a value to one.
"""

from __future__ import annotations

from typing import Literal, NotRequired, Required, TypeAlias, TypedDict, TypeGuard, cast

__all__ = [
    "AssistantBlock",
    "AssistantMessage",
    "BranchSummaryEntry",
    "CompactionEntry",
    "Content",
    "ContentBlock",
    "EntryRecord",
    "HeaderRecord",
    "ImageBlock",
    "JsonObject",
    "LabelEntry",
    "MarkerRecord",
    "Message",
    "MessageEntry",
    "ModelSelection",
    "PositionMarker",
    "ReadMessage",
    "SessionHeader",
    "SessionInfoEntry",
    "SessionModelMarker",
    "TextBlock",
    "ThinkingBlock",
    "ThinkingLevelChangeEntry",
    "ToolCallBlock",
    "ToolResult",
    "ToolResultMessage",
    "Usage",
    "UserMessage",
    "json_list",
    "json_object",
    "read_message",
]

JsonObject: TypeAlias = dict[str, object]
"""A JSON object as parsed: string keys, values of any JSON type."""


def json_object(value: object) -> TypeGuard[JsonObject]:
    """Whether ``value`` is a JSON object (a ``dict``; parsed JSON has string keys only)."""
    return isinstance(value, dict)


def json_list(value: object) -> list[object]:
    """``value`` when it is a JSON array, else no items (what the view and the text outputs
    read of a ``blocks`` or ``results`` that is not a list)."""
    return value if isinstance(value, list) else []


# -- written shapes: what Ink writes ------------------------------------------------------------


class Usage(TypedDict):
    """An assistant message's (or a summary's) token counts; unreported keys are left out."""

    inputTokens: int
    outputTokens: int
    cacheReadTokens: NotRequired[int]
    cacheWriteTokens: NotRequired[int]


class TextBlock(TypedDict):
    type: Literal["text"]
    text: str


class ImageBlock(TypedDict):
    type: Literal["image"]
    data: str  # base64
    mimeType: str


class ThinkingBlock(TypedDict):
    type: Literal["thinking"]
    thinking: str
    signature: NotRequired[str]


class ToolCallBlock(TypedDict):
    type: Literal["toolCall"]
    id: str
    name: str
    arguments: object  # the parsed JSON arguments, as the model sent them


ContentBlock: TypeAlias = TextBlock | ImageBlock
Content: TypeAlias = str | list[ContentBlock]
"""A user message's or a tool result's ``content``: a string, or text then image blocks."""
AssistantBlock: TypeAlias = TextBlock | ThinkingBlock | ToolCallBlock


class UserMessage(TypedDict):
    role: Literal["user"]
    content: Content


class AssistantMessage(TypedDict):
    role: Literal["assistant"]
    blocks: list[AssistantBlock]
    usage: Usage
    stopReason: str | None
    model: NotRequired[str]  # the wire id
    modelReference: NotRequired[str]  # provider/modelId
    usageMissing: NotRequired[Literal[True]]


class ToolResult(TypedDict):
    toolCallId: str
    toolName: str
    content: Content
    isError: bool
    taskRecord: NotRequired[JsonObject]  # the task tool's, persisted but never sent


class ToolResultMessage(TypedDict):
    role: Literal["toolResult"]
    results: list[ToolResult]


Message: TypeAlias = UserMessage | AssistantMessage | ToolResultMessage
"""An AgentMessage as Ink writes it (``role`` tells the three apart)."""


class ModelSelection(TypedDict):
    """``{provider, modelId}``: a header's staged ``model``."""

    provider: str
    modelId: str


class SessionHeader(TypedDict):
    """Line 1 of a session file, in Ink's key order."""

    type: Literal["session"]
    version: Literal[1]
    id: str
    timestamp: str
    cwd: str
    parent: NotRequired[str]
    launch: NotRequired[JsonObject]
    model: NotRequired[ModelSelection]


class MessageEntry(TypedDict):
    type: Literal["message"]
    id: str
    parentId: str | None
    timestamp: str
    message: Message


class CompactionEntry(TypedDict):
    type: Literal["compaction"]
    id: str
    parentId: str | None
    timestamp: str
    summary: str
    retainedTail: list[Message]
    tokensBefore: int
    usage: NotRequired[Usage]
    model: NotRequired[str]
    modelReference: NotRequired[str]
    usageMissing: NotRequired[Literal[True]]


class BranchSummaryEntry(TypedDict):
    type: Literal["branchSummary"]
    id: str
    parentId: str | None
    timestamp: str
    summary: str
    usage: NotRequired[Usage]
    model: NotRequired[str]
    modelReference: NotRequired[str]
    usageMissing: NotRequired[Literal[True]]


class ThinkingLevelChangeEntry(TypedDict):
    type: Literal["thinkingLevelChange"]
    id: str
    parentId: str | None
    timestamp: str
    thinkingLevel: str


class SessionInfoEntry(TypedDict):
    type: Literal["session_info"]
    id: str
    parentId: str | None
    timestamp: str
    name: str


class LabelEntry(TypedDict):
    type: Literal["label"]
    id: str
    parentId: str | None
    timestamp: str
    targetId: str
    label: str


class PositionMarker(TypedDict):
    """Written by ``/fork`` and ``/tree`` moves. ``open()`` keeps one only when ``leafId`` is
    null or a string, so a kept marker read from a file has this shape too."""

    type: Literal["position"]
    leafId: str | None


class SessionModelMarker(TypedDict):
    """Written by ``/model``. ``open()`` refuses one that is not exactly this (a known provider,
    a non-blank ``modelId``, a boolean ``explicit``), so one read from a file has it too."""

    type: Literal["session_model"]
    provider: str
    modelId: str
    explicit: bool


# -- read shapes: what ink-tui has checked of a record from a file ----------------------------


class EntryRecord(TypedDict, total=False):
    """A tree entry as ``open()`` accepted it: its head (``type``, a non-empty ``id``,
    ``parentId`` null or a string, a string ``timestamp``) is checked; so is the string field its
    type requires (``message.role``, ``summary``, ``thinkingLevel``, ``name``, ``targetId`` and
    ``label``; a message comes typed from ``Entry.message``). Every other field is as the file
    holds it, and a record read again from the file is checked again."""

    type: Required[str]
    id: Required[str]
    parentId: Required[str | None]
    timestamp: Required[str]
    message: object
    summary: object
    retainedTail: object
    tokensBefore: object
    usage: object
    model: object
    modelReference: object
    usageMissing: object
    thinkingLevel: object
    name: object
    targetId: object
    label: object


class ReadMessage(TypedDict, total=False):
    """A message read from a file: ``role`` is a string (``open()`` checks that, and nothing
    else, of a ``message`` entry's message); every other field is as the file holds it."""

    role: Required[str]
    content: object
    blocks: object
    results: object
    usage: object
    stopReason: object
    model: object
    modelReference: object
    usageMissing: object


def read_message(value: object) -> ReadMessage | None:
    """``value`` as a message when it is an object with a string ``role`` (what ``open()``
    checks), else ``None`` (a ``retainedTail`` item may be anything)."""
    if isinstance(value, dict) and isinstance(value.get("role"), str):
        return cast(ReadMessage, value)  # role checked; every other field stays ``object``
    return None


class HeaderRecord(TypedDict, total=False):
    """A header as ``open()`` accepted it: ``type`` is ``"session"``, ``version`` the number 1,
    ``id`` a string, and ``model``, when present, a valid :class:`ModelSelection`. Ink does not
    check ``cwd`` or the rest (read them as ``object``)."""

    type: Required[str]
    version: Required[int]
    id: Required[str]
    timestamp: object
    cwd: object
    parent: object
    launch: object
    model: ModelSelection


MarkerRecord: TypeAlias = PositionMarker | SessionModelMarker
"""A file-level marker ``open()`` kept (both shapes are checked in full)."""
