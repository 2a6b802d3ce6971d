"""Stream events → one Ink assistant message.

``AnthropicAssembler`` and ``ChatAssembler`` take the events as plain dicts (the SDK objects'
``model_dump()``), report deltas through a callback and build the finished message in Ink's key
order: ``role, blocks, usage, stopReason, model, modelReference, usageMissing?``.

A call whose arguments are not a JSON object (malformed JSON, or an array, a string, a number)
gets :class:`InvalidArguments`: an empty dict, so the record holds ``{}`` (what every provider
accepts back as a call's input), carrying what the model sent for the call's error result.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ink_tui.session.rules.modelref import ModelRef

Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class StreamEvent:
    """One streamed delta.

    ``kind`` is ``text`` / ``thinking`` (``text`` holds the delta), ``tool_call_start`` (``id``,
    ``name``) or ``tool_call_delta`` (``id``, ``text`` holds a raw JSON fragment).
    """

    kind: str
    text: str = ""
    id: str = ""
    name: str = ""


EventSink = Callable[[StreamEvent], object]
EMPTY_TEXT = "(empty)"
"""The text block a Chat Completions reply with no content at all gets (Ink's assembly)."""


class InvalidArguments(dict[str, Any]):
    """A call's arguments that are not a JSON object: ``{}`` to every encoder (never written
    otherwise), with the ``raw`` text the model sent and the ``reason`` it was refused."""

    def __init__(self, raw: str, reason: str) -> None:
        super().__init__()
        self.raw = raw
        self.reason = reason


def _parse_args(raw: str) -> dict[str, Any]:
    if raw.strip() == "":
        return {}
    try:
        value = json.loads(raw)
    except ValueError as exc:
        return InvalidArguments(raw, f"not valid JSON ({exc})")
    if not isinstance(value, dict):
        return InvalidArguments(raw, f"a JSON {type(value).__name__}, not an object")
    return value


def _fragment(value: object) -> str:
    """An arguments fragment as text (a server may send the whole object, not a string)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _finish(
    ref: ModelRef, blocks: list[Json], usage: Json, stop: str | None, usage_seen: bool
) -> Json:
    msg: Json = {
        "role": "assistant",
        "blocks": blocks,
        "usage": usage,
        "stopReason": stop,
        "model": ref.model_id,
        "modelReference": ref.reference,
    }
    if not usage_seen:
        msg["usageMissing"] = True
    return msg


class AnthropicAssembler:
    """Messages API stream events (dicts) → one Ink assistant message."""

    def __init__(self, ref: ModelRef, on_event: EventSink) -> None:
        self.ref = ref
        self.on_event = on_event
        self.blocks: dict[int, Json] = {}
        self.raw_json: dict[int, str] = {}
        self.usage: Json = {}
        self.stop_reason: str | None = None
        self.complete = False
        self._open: set[int] = set()  # blocks started and not stopped

    def cut_note(self) -> str:
        """Where a stream that ended early stopped, for its error line."""
        if any(i in self.raw_json for i in self._open):
            return " (cut off in the middle of a tool call)"
        return ""

    def _usage(self, raw: Json | None) -> None:
        if not raw:
            return
        for wire_key, ink_key in (
            ("input_tokens", "inputTokens"),
            ("output_tokens", "outputTokens"),
            ("cache_read_input_tokens", "cacheReadTokens"),
            ("cache_creation_input_tokens", "cacheWriteTokens"),
        ):
            value = raw.get(wire_key)
            if isinstance(value, int):
                self.usage[ink_key] = value

    def feed(self, event: Json) -> None:
        kind = event.get("type")
        if kind == "message_start":
            self._usage((event.get("message") or {}).get("usage"))
        elif kind == "content_block_start":
            index = int(event.get("index", 0))
            block = event.get("content_block") or {}
            btype = block.get("type")
            self._open.add(index)
            if btype == "text":
                self.blocks[index] = {"type": "text", "text": block.get("text", "")}
            elif btype == "thinking":
                self.blocks[index] = {"type": "thinking", "thinking": block.get("thinking", "")}
            elif btype == "tool_use":
                # a missing id stays empty: the chat gives it a fresh one (call_ids.py)
                call_id, name = _text(block.get("id")), _text(block.get("name"))
                call: Json = {"type": "toolCall", "id": call_id, "name": name, "arguments": {}}
                self.blocks[index] = call
                self.raw_json[index] = ""
                self.on_event(StreamEvent("tool_call_start", id=call_id, name=name))
        elif kind == "content_block_delta":
            index = int(event.get("index", 0))
            delta = event.get("delta") or {}
            target = self.blocks.get(index)
            dtype = delta.get("type")
            if target is None:
                return
            if dtype == "text_delta":
                target["text"] += delta.get("text", "")
                self.on_event(StreamEvent("text", text=delta.get("text", "")))
            elif dtype == "thinking_delta":
                target["thinking"] += delta.get("thinking", "")
                self.on_event(StreamEvent("thinking", text=delta.get("thinking", "")))
            elif dtype == "signature_delta":
                target["signature"] = target.get("signature", "") + delta.get("signature", "")
            elif dtype == "input_json_delta" and index in self.raw_json:
                fragment = _fragment(delta.get("partial_json"))
                self.raw_json[index] += fragment
                if fragment:
                    self.on_event(StreamEvent("tool_call_delta", text=fragment, id=target["id"]))
        elif kind == "content_block_stop":
            index = int(event.get("index", 0))
            self._open.discard(index)
            if index in self.raw_json:
                self.blocks[index]["arguments"] = _parse_args(self.raw_json[index])
        elif kind == "message_delta":
            self.stop_reason = (event.get("delta") or {}).get("stop_reason")
            self._usage(event.get("usage"))
        elif kind == "message_stop":
            self.complete = True

    def message(self) -> Json:
        blocks = [self.blocks[i] for i in sorted(self.blocks)]
        for i, raw in self.raw_json.items():
            self.blocks[i]["arguments"] = _parse_args(raw)
        seen = bool(self.usage)
        usage = {"inputTokens": self.usage.get("inputTokens", 0)}
        usage["outputTokens"] = self.usage.get("outputTokens", 0)
        for key in ("cacheReadTokens", "cacheWriteTokens"):
            if key in self.usage:
                usage[key] = self.usage[key]
        return _finish(self.ref, blocks, usage, self.stop_reason, seen)


_FINISH = {"stop": "end_turn", "tool_calls": "tool_use", "length": "max_tokens"}


class ChatAssembler:
    """Chat Completions chunks (dicts) → one Ink assistant message (Ink's assembly rules)."""

    def __init__(self, ref: ModelRef, on_event: EventSink) -> None:
        self.ref = ref
        self.on_event = on_event
        self.blocks: list[Json] = []
        self.text: Json | None = None
        self.thinking: Json | None = None
        self.tools: dict[int, Json] = {}
        self.raw_json: dict[int, str] = {}
        self.usage: Json = {"inputTokens": 0, "outputTokens": 0}
        self.usage_seen = False
        self.stop_reason: str | None = None
        self.complete = False

    def cut_note(self) -> str:
        """Where a stream that ended early stopped, for its error line."""
        return " (cut off in a tool call)" if self.tools else ""

    def feed(self, chunk: Json) -> None:
        choices = chunk.get("choices") or []
        choice: Json = choices[0] if choices else {}
        delta: Json = choice.get("delta") or {}
        content = delta.get("content")
        if isinstance(content, str) and content:
            if self.text is None:
                self.text = {"type": "text", "text": ""}
                self.blocks.append(self.text)
            self.text["text"] += content
            self.on_event(StreamEvent("text", text=content))
        reasoning = delta.get("reasoning_content")
        if isinstance(reasoning, str) and reasoning:
            if self.thinking is None:
                self.thinking = {"type": "thinking", "thinking": ""}
                self.blocks.append(self.thinking)
            self.thinking["thinking"] += reasoning
            self.on_event(StreamEvent("thinking", text=reasoning))
        for call in delta.get("tool_calls") or []:
            index = int(call.get("index", 0))
            function = call.get("function") or {}
            block = self.tools.get(index)
            if block is None:
                block = {  # a missing id stays empty: the chat gives it a fresh one (call_ids.py)
                    "type": "toolCall",
                    "id": str(call.get("id") or ""),
                    "name": str(function.get("name") or ""),
                    "arguments": {},
                }
                self.tools[index] = block
                self.raw_json[index] = ""
                self.blocks.append(block)
                self.on_event(StreamEvent("tool_call_start", id=block["id"], name=block["name"]))
            elif function.get("name") and not block["name"]:
                block["name"] = str(function["name"])
            fragment = _fragment(function.get("arguments"))
            if fragment:
                self.raw_json[index] += fragment
                self.on_event(StreamEvent("tool_call_delta", text=fragment, id=block["id"]))
        finish = choice.get("finish_reason")
        if finish is not None:
            self.complete = True
            self.stop_reason = _FINISH.get(finish)
        raw = chunk.get("usage") or choice.get("usage")
        if isinstance(raw, dict):
            self._usage(raw)

    def _usage(self, raw: Json) -> None:
        details = raw.get("prompt_tokens_details") or {}
        numbers = (
            raw.get("prompt_tokens"),
            raw.get("completion_tokens"),
            raw.get("cached_tokens"),
            raw.get("prompt_cache_hit_tokens"),
            details.get("cached_tokens"),
        )
        if any(isinstance(n, int) for n in numbers):
            self.usage_seen = True
        cached = next(
            (
                n
                for n in (
                    details.get("cached_tokens"),
                    raw.get("prompt_cache_hit_tokens"),
                    raw.get("cached_tokens"),
                )
                if isinstance(n, int)
            ),
            0,
        )
        prompt = raw.get("prompt_tokens") or 0
        completion = raw.get("completion_tokens") or 0
        self.usage["inputTokens"] = max(self.usage["inputTokens"], prompt - cached)
        self.usage["outputTokens"] = max(self.usage["outputTokens"], completion)
        if cached > 0:
            self.usage["cacheReadTokens"] = max(self.usage.get("cacheReadTokens", 0), cached)

    def message(self) -> Json:
        for index, raw in self.raw_json.items():
            self.tools[index]["arguments"] = _parse_args(raw)
        stop = self.stop_reason
        if stop is None and self.tools:
            stop = "tool_use"
        blocks = self.blocks or [{"type": "text", "text": EMPTY_TEXT}]
        return _finish(self.ref, blocks, self.usage, stop, self.usage_seen)
