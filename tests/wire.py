"""What the provider tests share: exact comparison, one tool spec, and the two wire formats.

Importable from every test folder as ``import wire`` (``pythonpath`` in pyproject.toml). A test
that is the same on both wires is parametrized over :data:`WIRES` (``ids`` :data:`WIRE_IDS`):
Anthropic Messages and Chat Completions, both served by ``fake_llm`` (tests/conftest.py).

For streams :meth:`FakeLLM.anthropic` / ``chat`` do not make (cut in a tool call, an error event,
odd ids), a :class:`Wire` builds the frames part by part in its own format, for ``fake_llm.raw``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ink_tui.agent.tools.specs import ToolSpec

__all__ = ["TOOL", "WIRES", "WIRE_IDS", "Frames", "Wire", "assert_same"]

Frames = list[Any]  # dicts (one event each) or str (a ``data:`` line as it is), for fake_llm.raw


def assert_same(actual: Any, expected: Any) -> None:
    """Equal, and every dict's keys in the same order (what Ink writes depends on it)."""
    assert actual == expected
    if isinstance(expected, dict):
        assert list(actual) == list(expected)
        for key in expected:
            assert_same(actual[key], expected[key])
    elif isinstance(expected, list):
        for a, e in zip(actual, expected, strict=True):
            assert_same(a, e)


TOOL = ToolSpec(
    name="bash",
    description="Run a command",
    parameters={"type": "object", "properties": {"command": {"type": "string"}}, "required": []},
)


@dataclass(frozen=True)
class Wire:
    """One streaming wire format, as a test parameter."""

    name: str  # the fake_llm method that queues a reply: "anthropic" | "chat"
    provider: str  # the provider a test talks to over it
    model_id: str
    path: str  # where the request goes
    end_event: str  # what a stream cut before its end lacks
    key_variable: str  # the API key a 401 names

    @property
    def reference(self) -> str:
        return f"{self.provider}/{self.model_id}"

    def reply(self, fake_llm: Any, **fields: Any) -> None:
        """Queue a reply (``text``, ``usage``, ``chunk``, ``cut`` mean the same on both)."""
        getattr(fake_llm, self.name)(**fields)

    def error_body(self, message: str) -> dict[str, Any]:
        """An error response body as this wire's servers send it."""
        if self.name == "anthropic":
            return {"type": "error", "error": {"type": "x", "message": message}}
        return {"error": {"message": message, "type": "x"}}

    # -- streams made part by part (for fake_llm.raw(wire.name, frames)) -------------------

    @property
    def anthropic(self) -> bool:
        return self.name == "anthropic"

    def opening(self) -> Frames:
        """The stream's start."""
        if self.anthropic:
            message = {
                "id": "msg_fake",
                "type": "message",
                "role": "assistant",
                "model": "fake",
                "content": [],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": {"input_tokens": 12, "output_tokens": 1},
            }
            return [{"type": "message_start", "message": message}]
        return [_chunk({"role": "assistant", "content": ""})]

    def text(self, index: int, text: str) -> Frames:
        """A text block at ``index`` (Anthropic's block index; Chat has none)."""
        if self.anthropic:
            delta = {"type": "text_delta", "text": text}
            return _block(index, {"type": "text", "text": ""}, [delta])
        return [_chunk({"content": text})]

    def call(
        self, index: int, call_id: str | None, name: str, *fragments: str, closed: bool = True
    ) -> Frames:
        """A tool call (``index``: Anthropic's block index, Chat's tool-call index) whose
        arguments come as ``fragments``; ``call_id`` None leaves the id out; ``closed=False``
        leaves Anthropic's block open."""
        if self.anthropic:
            start: dict[str, Any] = {"type": "tool_use", "name": name, "input": {}}
            if call_id is not None:
                start = {"type": "tool_use", "id": call_id, "name": name, "input": {}}
            deltas = [{"type": "input_json_delta", "partial_json": f} for f in fragments]
            frames = _block(index, start, deltas)
            return frames if closed else frames[:-1]
        head: dict[str, Any] = {"index": index, "type": "function"}
        if call_id is not None:
            head["id"] = call_id
        head["function"] = {"name": name, "arguments": ""}
        frames = [_chunk({"tool_calls": [head]})]
        frames += [
            _chunk({"tool_calls": [{"index": index, "function": {"arguments": f}}]})
            for f in fragments
        ]
        return frames

    def ending(self, stop: str = "end_turn") -> Frames:
        """The stream's end with Anthropic's ``stop`` reason (Chat's finish_reason for it)."""
        if self.anthropic:
            delta = {"stop_reason": stop, "stop_sequence": None}
            return [
                {"type": "message_delta", "delta": delta, "usage": {"output_tokens": 7}},
                {"type": "message_stop"},
            ]
        finish = {"tool_use": "tool_calls", "end_turn": "stop", "max_tokens": "length"}[stop]
        usage = {"prompt_tokens": 12, "completion_tokens": 7, "total_tokens": 19}
        return [_chunk({}, finish), {**_chunk(None), "usage": usage}, "[DONE]"]

    def error_event(self, message: str) -> Frames:
        """An error inside a 200 stream: Anthropic's ``event: error``, or the ``{"error": …}``
        chunk of proxies and OpenRouter."""
        if self.anthropic:
            return [{"type": "error", "error": {"type": "overloaded_error", "message": message}}]
        return [{"error": {"message": message, "type": "server_error"}}]

    def tools(self, tool: ToolSpec) -> list[dict[str, Any]]:
        """``tool`` as this wire's request body carries it."""
        if self.name == "anthropic":
            return [
                {
                    "name": tool.name,
                    "description": tool.description,
                    "input_schema": tool.parameters,
                }
            ]
        function = {
            "name": tool.name,
            "description": tool.description,
            "parameters": tool.parameters,
        }
        return [{"type": "function", "function": function}]


def _block(index: int, start: dict[str, Any], deltas: list[dict[str, Any]]) -> Frames:
    frames: Frames = [{"type": "content_block_start", "index": index, "content_block": start}]
    frames += [{"type": "content_block_delta", "index": index, "delta": d} for d in deltas]
    frames.append({"type": "content_block_stop", "index": index})
    return frames


def _chunk(delta: dict[str, Any] | None, finish: str | None = None) -> dict[str, Any]:
    choices = [] if delta is None else [{"index": 0, "delta": delta, "finish_reason": finish}]
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "fake",
        "choices": choices,
    }


ANTHROPIC = Wire(
    "anthropic", "anthropic", "claude-x", "/v1/messages", "message_stop", "ANTHROPIC_API_KEY"
)
CHAT = Wire("chat", "openai", "gpt-x", "/v1/chat/completions", "finish_reason", "OPENAI_API_KEY")
WIRES = [ANTHROPIC, CHAT]
WIRE_IDS = ["anthropic-messages", "chat-completions"]
