"""Ink messages → request payloads: ``anthropic_request`` (Messages API) and ``chat_request``
(Chat Completions). The response side (stream events → one Ink message) is in ``assemble.py``.

Both payloads pass :func:`wire_safe`: the SDKs serialise a body with ``json.dumps(…,
allow_nan=False)`` and encode it as UTF-8, so a lone surrogate (which Ink keeps: a model cut
mid-emoji writes one) or a number JSON cannot hold (``1e400`` reads as Infinity) would make every
request of the session fail. What is written to the session keeps Ink's values; only what is sent
changes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from ink_tui.agent.tools.specs import ToolSpec
from ink_tui.safetext import utf8_safe
from ink_tui.session.reading.jsoncodec import encode_json

Json = dict[str, Any]
_INT64 = 2**63


def wire_safe(value: Any) -> Any:
    """``value`` as a request body the SDKs can send: each lone surrogate as U+FFFD (what Node
    sends for one), a non-finite number as ``null`` (as ``JSON.stringify`` writes it), an
    integer past 64 bits as the double JavaScript holds. Everything else is returned as is."""
    if isinstance(value, str):
        return utf8_safe(value)
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, int):
        if -_INT64 <= value < 2 * _INT64:
            return value
        try:
            return wire_safe(float(value))
        except OverflowError:
            return None
    if isinstance(value, dict):
        return {utf8_safe(str(key)): wire_safe(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [wire_safe(item) for item in value]
    return value


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


def anthropic_request(
    system: str, messages: Sequence[Mapping[str, Any]], tools: Sequence[ToolSpec]
) -> Json:
    """``{system, messages, tools?}`` for ``messages.stream``."""
    wire: list[Json] = []
    for msg in messages:
        role = msg.get("role")
        if role == "user":
            wire.append({"role": "user", "content": _anthropic_content(msg.get("content", ""))})
        elif role == "assistant":
            content = _anthropic_assistant(msg["blocks"])
            if content:  # the API refuses an empty assistant turn (an empty reply, recorded)
                wire.append({"role": "assistant", "content": content})
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
    sendable: Json = wire_safe(payload)
    return sendable


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
    provider: str, system: str, messages: Sequence[Mapping[str, Any]], tools: Sequence[ToolSpec]
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
                        # JSON.stringify's text, as Ink sends it (lone surrogates as \\udXXX)
                        "arguments": encode_json(b.get("arguments", {})).decode("utf-8"),
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
    sendable: Json = wire_safe(payload)
    return sendable
