"""Ink messages → request payloads, and stream events → one Ink assistant message.

Request side: ``anthropic_request`` (Messages API) and ``chat_request`` (Chat Completions).
Response side: ``AnthropicAssembler`` and ``ChatAssembler`` take the events as plain dicts (the
SDK objects' ``model_dump()``), report deltas through a callback and build the finished message
in Ink's key order: ``role, blocks, usage, stopReason, model, modelReference, usageMissing?``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ink_tui.agent.providers.model import ModelRef
from ink_tui.agent.tools.specs import ToolSpec

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


# --- requests: Anthropic ------------------------------------------------------------------


def _anthropic_content(content: Any) -> Any:
    if isinstance(content, str):
        return content
    out: list[Json] = []
    for block in content:
        if block.get("type") == "image":
            out.append(
                {
                    "type": "image",
                    "source": {
                        "type": "base64",
                        "media_type": block.get("mimeType", ""),
                        "data": block.get("data", ""),
                    },
                }
            )
        else:
            out.append({"type": "text", "text": block.get("text", "")})
    return out


def _anthropic_assistant(blocks: Sequence[Json]) -> list[Json]:
    out: list[Json] = []
    for block in blocks:
        kind = block.get("type")
        if kind == "thinking":
            if block.get("signature"):
                out.append(
                    {
                        "type": "thinking",
                        "thinking": block.get("thinking", ""),
                        "signature": block["signature"],
                    }
                )
            elif block.get("thinking"):
                out.append({"type": "text", "text": block["thinking"]})
        elif kind == "text":
            if block.get("text"):
                out.append({"type": "text", "text": block["text"]})
        elif kind == "toolCall":
            out.append(
                {
                    "type": "tool_use",
                    "id": block.get("id", ""),
                    "name": block.get("name", ""),
                    "input": block.get("arguments", {}),
                }
            )
    return out


def anthropic_request(system: str, messages: Sequence[Json], tools: Sequence[ToolSpec]) -> Json:
    """``{system, messages, tools?}`` for ``messages.stream``."""
    wire: list[Json] = []
    for msg in messages:
        role = msg.get("role")
        if role == "user":
            wire.append({"role": "user", "content": _anthropic_content(msg.get("content", ""))})
        elif role == "assistant":
            wire.append({"role": "assistant", "content": _anthropic_assistant(msg["blocks"])})
        elif role == "toolResult":
            wire.append(
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": r.get("toolCallId", ""),
                            "content": _anthropic_content(r.get("content", "")),
                            "is_error": bool(r.get("isError", False)),
                        }
                        for r in msg.get("results", [])
                    ],
                }
            )
    payload: Json = {"system": system, "messages": wire}
    if tools:
        payload["tools"] = [
            {"name": t.name, "description": t.description, "input_schema": t.parameters}
            for t in tools
        ]
    return payload


# --- requests: Chat Completions -----------------------------------------------------------


def _data_url(block: Json) -> Json:
    url = f"data:{block.get('mimeType', '')};base64,{block.get('data', '')}"
    return {"type": "image_url", "image_url": {"url": url}}


def _chat_user(content: Any) -> Any:
    if isinstance(content, str):
        return content
    parts: list[Json] = []
    has_text = False
    for block in content:
        if block.get("type") == "image":
            parts.append(_data_url(block))
        else:
            has_text = True
            parts.append({"type": "text", "text": block.get("text", "")})
    if not has_text:
        parts.insert(0, {"type": "text", "text": "(see attached image)"})
    return parts


def chat_request(
    provider: str, system: str, messages: Sequence[Json], tools: Sequence[ToolSpec]
) -> Json:
    """``{messages, tools?}`` for ``chat.completions.create`` (Ink's ``toWireMessages``).

    Thinking replays as ``reasoning_content`` only for deepseek (always, ``""`` included) and
    moonshot (when non-empty). Tool-result images follow the batch as one user message.
    """
    replay = provider in ("deepseek", "moonshotai", "moonshotai-cn")
    fill_empty = provider == "deepseek"
    wire: list[Json] = [{"role": "system", "content": system}]
    pending: list[Json] = []

    def flush() -> None:
        if pending:
            head = {"type": "text", "text": "Attached image(s) from tool result:"}
            wire.append({"role": "user", "content": [head, *pending]})
            pending.clear()

    for msg in messages:
        role = msg.get("role")
        if role != "toolResult":
            flush()
        if role == "user":
            wire.append({"role": "user", "content": _chat_user(msg.get("content", ""))})
        elif role == "assistant":
            blocks = msg.get("blocks", [])
            text = "\n".join(b.get("text", "") for b in blocks if b.get("type") == "text")
            calls = [
                {
                    "id": b.get("id", ""),
                    "type": "function",
                    "function": {
                        "name": b.get("name", ""),
                        "arguments": json.dumps(b.get("arguments", {}), ensure_ascii=False),
                    },
                }
                for b in blocks
                if b.get("type") == "toolCall"
            ]
            out: Json = {"role": "assistant", "content": None if text == "" and calls else text}
            if calls:
                out["tool_calls"] = calls
            if replay:
                reasoning = "\n".join(
                    b.get("thinking", "") for b in blocks if b.get("type") == "thinking"
                )
                if reasoning or fill_empty:
                    out["reasoning_content"] = reasoning
            wire.append(out)
        elif role == "toolResult":
            for r in msg.get("results", []):
                content = r.get("content", "")
                has_images = False
                if isinstance(content, str):
                    text = content
                else:
                    texts = []
                    for block in content:
                        if block.get("type") == "image":
                            has_images = True
                            pending.append(_data_url(block))
                        else:
                            texts.append(block.get("text", ""))
                    text = "\n".join(texts)
                if text == "":
                    text = "(see attached image)" if has_images else "(no tool output)"
                wire.append(
                    {"role": "tool", "tool_call_id": r.get("toolCallId", ""), "content": text}
                )
    flush()
    payload: Json = {"messages": wire}
    if tools:
        payload["tools"] = [
            {
                "type": "function",
                "function": {
                    "name": t.name,
                    "description": t.description,
                    "parameters": t.parameters,
                },
            }
            for t in tools
        ]
    return payload


# --- responses ----------------------------------------------------------------------------


def _parse_args(raw: str) -> Any:
    if raw.strip() == "":
        return {}
    try:
        return json.loads(raw)
    except ValueError:
        return {}


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
            if btype == "text":
                self.blocks[index] = {"type": "text", "text": block.get("text", "")}
            elif btype == "thinking":
                self.blocks[index] = {"type": "thinking", "thinking": block.get("thinking", "")}
            elif btype == "tool_use":
                self.blocks[index] = {
                    "type": "toolCall",
                    "id": block.get("id", ""),
                    "name": block.get("name", ""),
                    "arguments": {},
                }
                self.raw_json[index] = ""
                self.on_event(StreamEvent("tool_call_start", id=block["id"], name=block["name"]))
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
                fragment = delta.get("partial_json", "")
                self.raw_json[index] += fragment
                if fragment:
                    self.on_event(StreamEvent("tool_call_delta", text=fragment, id=target["id"]))
        elif kind == "content_block_stop":
            index = int(event.get("index", 0))
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
                block = {
                    "type": "toolCall",
                    "id": str(call.get("id") or f"call_{index}"),
                    "name": str(function.get("name") or ""),
                    "arguments": {},
                }
                self.tools[index] = block
                self.raw_json[index] = ""
                self.blocks.append(block)
                self.on_event(StreamEvent("tool_call_start", id=block["id"], name=block["name"]))
            elif function.get("name") and not block["name"]:
                block["name"] = str(function["name"])
            fragment = function.get("arguments") or ""
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
        blocks = self.blocks or [{"type": "text", "text": "(empty)"}]
        return _finish(self.ref, blocks, self.usage, stop, self.usage_seen)
