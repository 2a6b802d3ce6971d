"""Record types of Ink's session format and the checks ``open()`` applies to each line.

Records stay plain ``dict`` objects as parsed: their key order is what Ink wrote, so re-encoding
them gives back the same bytes. This module only classifies and validates them.
"""

from __future__ import annotations

from enum import Enum
from typing import Final

from ink_tui.session.reading.errors import RecordError
from ink_tui.session.reading.lines import JS_WHITESPACE
from ink_tui.session.reading.recordtypes import JsonObject, json_object

__all__ = [
    "BRANCH_SUMMARY_PREFIX",
    "COMPACTION_SUMMARY_PREFIX",
    "ENTRY_TYPES",
    "PROVIDERS",
    "THINKING_LEVELS",
    "USAGE_KEYS",
    "LineKind",
    "classify_record",
    "is_plain_message",
    "is_session_header",
    "is_valid_model",
]

COMPACTION_SUMMARY_PREFIX: Final = (
    "[Conversation summary — earlier messages were compacted to save context space. "
    "Treat this as established context, not as a new request.]"
)
BRANCH_SUMMARY_PREFIX: Final = (
    "[Branch summary — this context was explored on a branch you later left; keep its lessons. "
    "Treat this as established context, not as a new request.]"
)

PROVIDERS: Final = (
    "anthropic",
    "openai",
    "openai-codex",
    "zai",
    "deepseek",
    "moonshotai",
    "moonshotai-cn",
)
THINKING_LEVELS: Final = ("off", "minimal", "low", "medium", "high", "xhigh", "max")
USAGE_KEYS: Final = ("inputTokens", "outputTokens", "cacheReadTokens", "cacheWriteTokens")
"""The token counts of a ``usage`` object, in the order Ink writes them (the last two optional)."""

# type -> (the string fields open() checks, Ink's error text when one is not a string)
_REQUIRED_STRINGS: Final[dict[str, tuple[tuple[tuple[str, ...], ...], str]]] = {
    "message": ((("message", "role"),), "message entry has no valid message.role"),
    "compaction": ((("summary",),), "compaction entry missing summary"),
    "branchSummary": ((("summary",),), "branchSummary entry missing summary"),
    "thinkingLevelChange": ((("thinkingLevel",),), "thinkingLevelChange entry missing level"),
    "session_info": ((("name",),), "session_info entry missing name"),
    "label": ((("targetId",), ("label",)), "label entry missing targetId/label"),
}
ENTRY_TYPES: Final = tuple(_REQUIRED_STRINGS)


class LineKind(Enum):
    """What one line after the header is."""

    ENTRY = "entry"
    POSITION = "position"
    SKIPPED_POSITION = "skipped-position"  # a position whose leafId is neither null nor a string
    SESSION_MODEL = "session_model"


def is_valid_model(model: object) -> bool:
    """``{provider, modelId}`` with a known provider and a non-blank model id."""
    if not json_object(model):
        return False
    model_id = model.get("modelId")
    return (
        model.get("provider") in PROVIDERS
        and isinstance(model_id, str)
        and model_id.strip(JS_WHITESPACE) != ""
    )


def is_session_header(header: JsonObject) -> bool:
    """``type`` is ``"session"``, ``version`` the number 1 and ``id`` a string (model aside)."""
    version = header.get("version")
    return (
        header.get("type") == "session"
        and version == 1
        and not isinstance(version, bool)
        and isinstance(header.get("id"), str)
    )


def _dig(record: JsonObject, path: tuple[str, ...]) -> object:
    value: object = record
    for key in path:
        if not json_object(value):
            return None
        value = value.get(key)
    return value


def is_plain_message(record: object) -> bool:
    """Whether ``record`` is a well-formed ``message`` entry: the checks :func:`classify_record`
    makes of one, inlined for the hot paths (opening a file, reading a payload again), which
    fall back to it for anything else."""
    if type(record) is not dict or record.get("type") != "message":
        return False
    entry_id = record.get("id")
    parent = record.get("parentId", 0)
    message = record.get("message")
    return (
        type(entry_id) is str
        and entry_id != ""
        and (parent is None or type(parent) is str)
        and type(record.get("timestamp")) is str
        and type(message) is dict
        and type(message.get("role")) is str
    )


def classify_record(record: object) -> LineKind:
    """Apply ``open()``'s checks to one parsed line after the header, in Ink's order.

    Raises :class:`RecordError` with Ink's wording (without the ``session line N:`` prefix).
    ``None`` is the caller's concern: Ink throws a ``TypeError`` on it.
    """
    if not json_object(record):
        raise RecordError("missing entry type")  # not an object (null is the caller's concern)
    kind = record.get("type")
    if kind == "position":
        leaf = record.get("leafId", 0)  # a missing key is undefined in JS: skipped
        if leaf is None or isinstance(leaf, str):
            return LineKind.POSITION
        return LineKind.SKIPPED_POSITION  # silently ignored by open()
    if kind == "session_model":
        if not is_valid_model(record):
            raise RecordError("invalid session model")
        if not isinstance(record.get("explicit"), bool):
            raise RecordError("invalid session model explicit flag")
        return LineKind.SESSION_MODEL
    if not isinstance(kind, str):
        raise RecordError("missing entry type")
    entry_id = record.get("id")
    if not isinstance(entry_id, str) or entry_id == "":
        raise RecordError("missing entry id")
    parent = record.get("parentId", ...)
    if parent is not None and not isinstance(parent, str):
        raise RecordError("invalid parentId")
    if not isinstance(record.get("timestamp"), str):
        raise RecordError("missing timestamp")
    if kind == "message":  # by far the most common: checked without the table
        message = record.get("message")
        if not json_object(message) or not isinstance(message.get("role"), str):
            raise RecordError(_REQUIRED_STRINGS["message"][1])
        return LineKind.ENTRY
    required = _REQUIRED_STRINGS.get(kind)
    if required is None:
        raise RecordError(f'unknown entry type "{kind}"')
    paths, message_text = required
    if not all(isinstance(_dig(record, path), str) for path in paths):
        raise RecordError(message_text)
    return LineKind.ENTRY
