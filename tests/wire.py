"""What the provider tests share: exact comparison, one tool spec, and the two wire formats.

Importable from every test folder as ``import wire`` (``pythonpath`` in pyproject.toml). A test
that is the same on both wires is parametrized over :data:`WIRES` (``ids`` :data:`WIRE_IDS`):
Anthropic Messages and Chat Completions, both served by ``fake_llm`` (tests/conftest.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ink_tui.agent.tools.specs import ToolSpec

__all__ = ["TOOL", "WIRES", "WIRE_IDS", "Wire", "assert_same"]


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


ANTHROPIC = Wire(
    "anthropic", "anthropic", "claude-x", "/v1/messages", "message_stop", "ANTHROPIC_API_KEY"
)
CHAT = Wire("chat", "openai", "gpt-x", "/v1/chat/completions", "finish_reason", "OPENAI_API_KEY")
WIRES = [ANTHROPIC, CHAT]
WIRE_IDS = ["anthropic-messages", "chat-completions"]
