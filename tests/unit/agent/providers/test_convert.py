"""ink_tui.agent.providers without a server: model references, endpoints, request conversion
(Anthropic Messages and Chat Completions payloads) and thinking-level settings. Streaming:
test_stream.py."""

from __future__ import annotations

from typing import Any

import pytest
from wire import TOOL, assert_same

from ink_tui.agent.providers import MissingApiKey, ModelRef, parse_model_ref, resolve_endpoint
from ink_tui.agent.providers.convert import anthropic_request, chat_request

# --- model references -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reference", "provider", "model_id", "display"),
    [
        ("claude-opus-4", "anthropic", "claude-opus-4", "claude-opus-4"),
        ("anthropic/claude-opus-4", "anthropic", "claude-opus-4", "claude-opus-4"),
        ("glm-5.3", "zai", "glm-5.3", "zai/glm-5.3"),
        ("anthropic/glm-4.6", "anthropic", "glm-4.6", "glm-4.6"),
        ("OpenAI/gpt-5.2", "openai", "gpt-5.2", "openai/gpt-5.2"),
        ("deepseek/deepseek-v4-pro", "deepseek", "deepseek-v4-pro", "deepseek/deepseek-v4-pro"),
        ("moonshotai-cn/kimi-k3", "moonshotai-cn", "kimi-k3", "moonshotai-cn/kimi-k3"),
        ("openrouter/x/y", "anthropic", "openrouter/x/y", "openrouter/x/y"),
        ("zai/", "anthropic", "zai/", "zai/"),
    ],
)
def test_parse_model_ref(reference: str, provider: str, model_id: str, display: str) -> None:
    ref = parse_model_ref(reference)
    assert ref == ModelRef(provider, model_id)
    assert ref.display == display
    assert ref.reference == f"{provider}/{model_id}"


def test_resolve_endpoint() -> None:
    env = {"MOONSHOT_API_KEY": "k", "OPENAI_API_KEY": "o", "OPENAI_BASE_URL": "http://x/v1/"}
    moon = resolve_endpoint(ModelRef("moonshotai", "kimi-k3"), env)
    assert (moon.base_url, moon.api_key) == ("https://api.moonshot.ai/v1", "k")
    assert resolve_endpoint(ModelRef("moonshotai-cn", "k"), env).base_url == (
        "https://api.moonshot.cn/v1"
    )
    assert resolve_endpoint(ModelRef("openai", "g"), env).base_url == "http://x/v1"
    for provider, var in [
        ("anthropic", "ANTHROPIC_API_KEY"),
        ("zai", "ZAI_API_KEY"),
        ("deepseek", "DEEPSEEK_API_KEY"),
    ]:
        with pytest.raises(MissingApiKey, match=var):
            resolve_endpoint(ModelRef(provider, "m"), {var: "  "})


# --- request conversion -----------------------------------------------------------------

IMG = {"type": "image", "data": "AAAA", "mimeType": "image/png"}
HISTORY: list[dict[str, Any]] = [
    {"role": "user", "content": [{"type": "text", "text": "look"}, IMG]},
    {
        "role": "assistant",
        "blocks": [
            {"type": "thinking", "thinking": "signed", "signature": "s1"},
            {"type": "thinking", "thinking": "unsigned"},
            {"type": "text", "text": "ok"},
            {"type": "toolCall", "id": "t1", "name": "read", "arguments": {"path": "a"}},
        ],
        "usage": {"inputTokens": 1, "outputTokens": 1},
        "stopReason": "tool_use",
    },
    {
        "role": "toolResult",
        "results": [
            {
                "toolCallId": "t1",
                "toolName": "read",
                "content": [{"type": "text", "text": "r"}, IMG],
                "isError": False,
                "taskRecord": {"x": 1},
            },
        ],
    },
    {"role": "user", "content": "next"},
]


def test_anthropic_request_conversion() -> None:
    payload = anthropic_request("sys", HISTORY, [TOOL])
    image = {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": "AAAA"},
    }
    assert_same(
        payload,
        {
            "system": "sys",
            "messages": [
                {"role": "user", "content": [{"type": "text", "text": "look"}, image]},
                {
                    "role": "assistant",
                    "content": [
                        {"type": "thinking", "thinking": "signed", "signature": "s1"},
                        {"type": "text", "text": "unsigned"},
                        {"type": "text", "text": "ok"},
                        {"type": "tool_use", "id": "t1", "name": "read", "input": {"path": "a"}},
                    ],
                },
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": "t1",
                            "content": [{"type": "text", "text": "r"}, image],
                            "is_error": False,
                        },
                    ],
                },
                {"role": "user", "content": "next"},
            ],
            "tools": [
                {"name": "bash", "description": "Run a command", "input_schema": TOOL.parameters}
            ],
        },
    )


@pytest.mark.parametrize("provider", ["openai", "zai", "deepseek", "moonshotai"])
def test_chat_request_conversion(provider: str) -> None:
    payload = chat_request(provider, "sys", HISTORY, [])
    assistant: dict[str, Any] = {
        "role": "assistant",
        "content": "ok",
        "tool_calls": [
            {
                "id": "t1",
                "type": "function",
                # JSON.stringify's compact text, as Ink sends the arguments
                "function": {"name": "read", "arguments": '{"path":"a"}'},
            }
        ],
    }
    if provider in ("deepseek", "moonshotai"):
        assistant["reasoning_content"] = "signed\nunsigned"
    data_url = {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}
    assert_same(
        payload,
        {
            "messages": [
                {"role": "system", "content": "sys"},
                {"role": "user", "content": [{"type": "text", "text": "look"}, data_url]},
                assistant,
                {"role": "tool", "tool_call_id": "t1", "content": "r"},
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "Attached image(s) from tool result:"},
                        data_url,
                    ],
                },
                {"role": "user", "content": "next"},
            ]
        },
    )


def test_chat_reasoning_fill() -> None:
    bare = [
        {
            "role": "assistant",
            "blocks": [{"type": "toolCall", "id": "t", "name": "ls", "arguments": {}}],
        }
    ]
    deepseek = chat_request("deepseek", "", bare, [])["messages"][1]
    moonshot = chat_request("moonshotai", "", bare, [])["messages"][1]
    assert deepseek["content"] is None and deepseek["reasoning_content"] == ""
    assert "reasoning_content" not in moonshot


def test_a_local_openai_compatible_server_needs_no_key() -> None:
    """OPENAI_BASE_URL set (Ollama, llama.cpp, vLLM) and no key: a placeholder key is sent."""
    local = resolve_endpoint(
        ModelRef("openai", "qwen3"), {"OPENAI_BASE_URL": "http://127.0.0.1:11434/v1"}
    )
    assert local.base_url == "http://127.0.0.1:11434/v1"
    assert local.api_key
    with pytest.raises(MissingApiKey, match=r"OPENAI_API_KEY \(or OPENAI_BASE_URL for a local"):
        resolve_endpoint(ModelRef("openai", "gpt-5"), {})
    with pytest.raises(MissingApiKey, match=r"ANTHROPIC_API_KEY$"):  # a proxy still needs one
        resolve_endpoint(ModelRef("anthropic", "m"), {"ANTHROPIC_BASE_URL": "http://x"})


def test_thinking_levels_become_inks_request_settings() -> None:
    from ink_tui.agent.providers.thinking import anthropic_thinking, chat_thinking

    budget = anthropic_thinking("claude-sonnet-4-5", "medium", 16384)
    assert budget == {
        "max_tokens": 16384 + 8192,
        "thinking": {"type": "enabled", "budget_tokens": 8192, "display": "summarized"},
    }
    assert anthropic_thinking("claude-sonnet-4-5", "high", 60000)["max_tokens"] == 64000
    assert anthropic_thinking("claude-opus-4-1", "max", 16384)["max_tokens"] == 32000
    assert anthropic_thinking("claude-sonnet-4-5", "off", 16384) == {
        "thinking": {"type": "disabled"}
    }
    adaptive = anthropic_thinking("claude-opus-4-6", "low", 16384)
    assert adaptive["thinking"]["type"] == "adaptive"
    assert adaptive["output_config"] == {"effort": "low"}
    assert chat_thinking("openai", "gpt-5", "minimal") == {"reasoning_effort": "low"}
    assert chat_thinking("openai", "gpt-4o", "high") == {}  # not a reasoning model
    assert chat_thinking("deepseek", "deepseek-chat", "off") == {
        "extra_body": {"thinking": {"type": "disabled"}}
    }
