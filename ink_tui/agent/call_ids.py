"""Tool-call ids that are unique in their session.

Ink refuses to continue a transcript in which a call id is declared twice (``tool call … is
declared more than once``), and some OpenAI-compatible servers send ``call_1`` at every turn.
Before an assistant message is written, a call id that the session already holds (in any
entry of the file, on any branch, or in the context) or that the message repeats is replaced by
a fresh one; the tool results are then written with the new id, so they pair with it.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from ink_tui.session.reading.files import open_regular
from ink_tui.session.reading.jsoncodec import JsonDecodeError, decode_line

__all__ = ["file_call_ids", "record_call_ids", "unique_call_ids"]

Message = Mapping[str, Any]  # a message as the chat holds it: written or read (recordtypes)

_NOT_ID = re.compile(r"[^A-Za-z0-9_-]")  # what Anthropic's tool_use ids may not hold
_BASE_LENGTH = 40


def record_call_ids(value: object) -> Iterator[str]:
    """Every ``toolCall`` id and ``toolResult`` ``toolCallId`` inside ``value``, at any depth
    (a compaction's retained tail holds messages too)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if item.get("type") == "toolCall" and item.get("id") is not None:
                yield str(item["id"])
            if item.get("toolCallId") is not None:
                yield str(item["toolCallId"])
            stack.extend(v for v in item.values() if isinstance(v, dict | list))
        elif isinstance(item, list):
            stack.extend(v for v in item if isinstance(v, dict | list))


def file_call_ids(path: Path) -> set[str]:
    """The call ids of every line of a session file (blocking: run it in a thread). Only lines
    that mention ``toolCall`` are parsed; a line that is not JSON (a torn tail) is skipped."""
    ids: set[str] = set()
    with open_regular(path) as stream:
        for line in stream:
            if b"toolCall" not in line:
                continue
            try:
                record = decode_line(line)
            except JsonDecodeError:
                continue
            ids.update(record_call_ids(record))
    return ids


def messages_call_ids(messages: Iterable[object]) -> set[str]:
    ids: set[str] = set()
    for message in messages:
        ids.update(record_call_ids(message))
    return ids


def _fresh(original: str, taken: set[str], token: Callable[[int], str]) -> str:
    base = _NOT_ID.sub("", original)[:_BASE_LENGTH] or "call"
    while True:
        candidate = f"{base}_{token(4)}"
        if candidate not in taken:
            return candidate


def unique_call_ids(
    message: Message, taken: set[str], *, token: Callable[[int], str] = secrets.token_hex
) -> Message:
    """``message`` with every call id found in ``taken`` (or repeated in the message, or empty)
    replaced by a fresh one (``call_1`` → ``call_1_3f9a0c2e``); the ids it ends with are added
    to ``taken``. The message is returned as it is when nothing changes."""
    blocks = message.get("blocks")
    if not isinstance(blocks, list):
        return message
    changed = False
    out: list[Any] = []
    for block in blocks:
        if isinstance(block, dict) and block.get("type") == "toolCall":
            call_id = "" if block.get("id") is None else str(block["id"])
            if call_id == "" or call_id in taken:
                call_id = _fresh(call_id, taken, token)
                block = {**block, "id": call_id}  # the key keeps its place
                changed = True
            taken.add(call_id)
        out.append(block)
    return {**message, "blocks": out} if changed else message
