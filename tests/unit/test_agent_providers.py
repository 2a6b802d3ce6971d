"""ink_tui.agent.providers: model refs, request conversion, and streaming against a local SSE
server on 127.0.0.1 speaking both wire formats (Anthropic Messages and Chat Completions)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from ink_tui.agent.providers import (
    IncompleteStream,
    MissingApiKey,
    ModelRef,
    ProviderError,
    StreamEvent,
    UnsupportedProvider,
    parse_model_ref,
    resolve_endpoint,
    stream_turn,
)
from ink_tui.agent.providers.convert import anthropic_request, chat_request
from ink_tui.agent.tools.specs import ToolSpec

# --- local SSE server ---------------------------------------------------------------------


class Script:
    """What the server answers next: an HTTP status and either SSE frames or a JSON body."""

    def __init__(self) -> None:
        self.status = 200
        self.frames: list[str] = []
        self.body: Any = None
        self.requests: list[tuple[str, dict[str, Any], dict[str, str]]] = []


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"
    script: Script

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        body = json.loads(self.rfile.read(length) or b"{}")
        self.script.requests.append(
            (self.path, body, {k.lower(): v for k, v in self.headers.items()})
        )
        script = self.script
        if script.status != 200:
            data = json.dumps(script.body).encode()
            self.send_response(script.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        for frame in script.frames:
            self.wfile.write(frame.encode())
            self.wfile.flush()


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, Script]]:
    script = Script()
    handler = type("Handler", (_Handler,), {"script": script})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", script
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture
def srv(server: tuple[str, Script]) -> tuple[str, Script]:
    url, script = server
    script.status, script.frames, script.body = 200, [], None
    script.requests.clear()
    return url, script


def a_sse(event: dict[str, Any]) -> str:
    return f"event: {event['type']}\ndata: {json.dumps(event)}\n\n"


def c_sse(chunk: dict[str, Any] | str) -> str:
    return f"data: {chunk if isinstance(chunk, str) else json.dumps(chunk)}\n\n"


def anthropic_env(url: str) -> dict[str, str]:
    return {"ANTHROPIC_API_KEY": "dummy", "ANTHROPIC_BASE_URL": url}


def chat_env(url: str) -> dict[str, str]:
    return {
        "OPENAI_API_KEY": "dummy",
        "OPENAI_BASE_URL": f"{url}/v1",
        "DEEPSEEK_API_KEY": "dummy",
        "DEEPSEEK_BASE_URL": f"{url}/v1",
    }


def assert_same(actual: Any, expected: Any) -> None:
    """Equal, and every dict's keys in the same order."""
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
USER = [{"role": "user", "content": "hi"}]

# --- Anthropic streams ----------------------------------------------------------------------


def message_start(**usage: int) -> dict[str, Any]:
    return {
        "type": "message_start",
        "message": {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-x",
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 1, **usage},
        },
    }


def block(index: int, content_block: dict[str, Any], *deltas: dict[str, Any]) -> list[str]:
    frames = [
        a_sse({"type": "content_block_start", "index": index, "content_block": content_block})
    ]
    frames += [a_sse({"type": "content_block_delta", "index": index, "delta": d}) for d in deltas]
    frames.append(a_sse({"type": "content_block_stop", "index": index}))
    return frames


def ending(stop: str, output: int) -> list[str]:
    return [
        a_sse(
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop, "stop_sequence": None},
                "usage": {"output_tokens": output},
            }
        ),
        a_sse({"type": "message_stop"}),
    ]


async def test_anthropic_text(srv: tuple[str, Script]) -> None:
    url, script = srv
    script.frames = [
        a_sse(message_start()),
        *block(
            0,
            {"type": "text", "text": ""},
            {"type": "text_delta", "text": "Hel"},
            {"type": "text_delta", "text": "lo"},
        ),
        *ending("end_turn", 5),
    ]
    events: list[StreamEvent] = []
    msg = await stream_turn(
        "claude-x",
        "sys",
        USER,
        [TOOL],
        on_event=events.append,
        env=anthropic_env(url),
        max_retries=0,
    )
    assert_same(
        msg,
        {
            "role": "assistant",
            "blocks": [{"type": "text", "text": "Hello"}],
            "usage": {"inputTokens": 10, "outputTokens": 5},
            "stopReason": "end_turn",
            "model": "claude-x",
            "modelReference": "anthropic/claude-x",
        },
    )
    assert [(e.kind, e.text) for e in events] == [("text", "Hel"), ("text", "lo")]
    path, body, headers = script.requests[0]
    assert path == "/v1/messages"
    assert body["system"] == "sys"
    assert body["messages"] == [{"role": "user", "content": "hi"}]
    assert body["tools"] == [
        {"name": "bash", "description": "Run a command", "input_schema": TOOL.parameters}
    ]
    assert "dummy" in (headers.get("x-api-key", "") + headers.get("authorization", ""))


async def test_anthropic_thinking_tools_and_usage(srv: tuple[str, Script]) -> None:
    url, script = srv
    script.frames = [
        a_sse(message_start(cache_read_input_tokens=7, cache_creation_input_tokens=3)),
        *block(
            0,
            {"type": "thinking", "thinking": "", "signature": ""},
            {"type": "thinking_delta", "thinking": "Let me "},
            {"type": "thinking_delta", "thinking": "think."},
            {"type": "signature_delta", "signature": "sig=="},
        ),
        *block(1, {"type": "text", "text": ""}, {"type": "text_delta", "text": "Running."}),
        *block(
            2,
            {"type": "tool_use", "id": "toolu_1", "name": "bash", "input": {}},
            {"type": "input_json_delta", "partial_json": ""},
            {"type": "input_json_delta", "partial_json": '{"comm'},
            {"type": "input_json_delta", "partial_json": 'and": "l'},
            {"type": "input_json_delta", "partial_json": 's"}'},
        ),
        *ending("tool_use", 42),
    ]
    events: list[StreamEvent] = []
    msg = await stream_turn(
        "anthropic/claude-x",
        "sys",
        USER,
        [],
        on_event=events.append,
        env=anthropic_env(url),
        max_retries=0,
    )
    assert_same(
        msg,
        {
            "role": "assistant",
            "blocks": [
                {"type": "thinking", "thinking": "Let me think.", "signature": "sig=="},
                {"type": "text", "text": "Running."},
                {
                    "type": "toolCall",
                    "id": "toolu_1",
                    "name": "bash",
                    "arguments": {"command": "ls"},
                },
            ],
            "usage": {
                "inputTokens": 10,
                "outputTokens": 42,
                "cacheReadTokens": 7,
                "cacheWriteTokens": 3,
            },
            "stopReason": "tool_use",
            "model": "claude-x",
            "modelReference": "anthropic/claude-x",
        },
    )
    assert [e.kind for e in events] == [
        "thinking",
        "thinking",
        "text",
        "tool_call_start",
        "tool_call_delta",
        "tool_call_delta",
        "tool_call_delta",
    ]
    assert "tools" not in script.requests[0][1]


async def test_anthropic_raw_stop_reason_passes_through(srv: tuple[str, Script]) -> None:
    url, script = srv
    script.frames = [a_sse(message_start()), *ending("pause_turn", 1)]
    msg = await stream_turn(
        "claude-x", "", USER, [], on_event=lambda e: None, env=anthropic_env(url), max_retries=0
    )
    assert msg["stopReason"] == "pause_turn"
    assert msg["blocks"] == []


async def test_anthropic_without_message_stop_is_incomplete(srv: tuple[str, Script]) -> None:
    url, script = srv
    script.frames = [
        a_sse(message_start()),
        *block(0, {"type": "text", "text": ""}, {"type": "text_delta", "text": "half"}),
        *ending("end_turn", 5)[:1],
    ]
    with pytest.raises(IncompleteStream, match="message_stop"):
        await stream_turn(
            "claude-x",
            "",
            USER,
            [],
            on_event=lambda e: None,
            env=anthropic_env(url),
            max_retries=0,
        )


@pytest.mark.parametrize("status", [401, 500])
async def test_anthropic_http_error(srv: tuple[str, Script], status: int) -> None:
    url, script = srv
    script.status = status
    script.body = {"type": "error", "error": {"type": "x", "message": "bad\nthings"}}
    with pytest.raises(ProviderError) as info:
        await stream_turn(
            "claude-x",
            "",
            USER,
            [],
            on_event=lambda e: None,
            env=anthropic_env(url),
            max_retries=0,
        )
    text = str(info.value)
    assert "\n" not in text
    assert f"anthropic HTTP {status}" in text and "bad things" in text
    assert not isinstance(info.value, IncompleteStream)
    assert ("ANTHROPIC_API_KEY" in text) == (status == 401)


# --- Chat Completions streams ---------------------------------------------------------------


def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
    return c_sse(
        {
            "id": "c1",
            "object": "chat.completion.chunk",
            "created": 1,
            "model": "gpt-x",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }
    )


def usage_chunk(prompt: int, completion: int, cached: int | None = None) -> str:
    usage: dict[str, Any] = {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }
    if cached is not None:
        usage["prompt_tokens_details"] = {"cached_tokens": cached}
    return c_sse(
        {
            "id": "c1",
            "object": "chat.completion.chunk",
            "created": 1,
            "model": "gpt-x",
            "choices": [],
            "usage": usage,
        }
    )


async def test_chat_text(srv: tuple[str, Script]) -> None:
    url, script = srv
    script.frames = [
        chunk({"role": "assistant", "content": ""}),
        chunk({"content": "Hel"}),
        chunk({"content": "lo"}),
        chunk({}, "stop"),
        usage_chunk(12, 4),
        c_sse("[DONE]"),
    ]
    events: list[StreamEvent] = []
    msg = await stream_turn(
        "openai/gpt-x",
        "sys",
        USER,
        [TOOL],
        on_event=events.append,
        env=chat_env(url),
        max_retries=0,
    )
    assert_same(
        msg,
        {
            "role": "assistant",
            "blocks": [{"type": "text", "text": "Hello"}],
            "usage": {"inputTokens": 12, "outputTokens": 4},
            "stopReason": "end_turn",
            "model": "gpt-x",
            "modelReference": "openai/gpt-x",
        },
    )
    assert [(e.kind, e.text) for e in events] == [("text", "Hel"), ("text", "lo")]
    path, body, headers = script.requests[0]
    assert path == "/v1/chat/completions"
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
    assert body["messages"] == [{"role": "system", "content": "sys"}, *USER]
    assert body["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "bash",
                "description": "Run a command",
                "parameters": TOOL.parameters,
            },
        }
    ]
    assert headers["authorization"] == "Bearer dummy"


async def test_chat_reasoning_tool_calls_and_cached_usage(srv: tuple[str, Script]) -> None:
    url, script = srv
    script.frames = [
        chunk({"role": "assistant", "reasoning_content": "Think"}),
        chunk({"reasoning_content": "ing."}),
        chunk(
            {
                "tool_calls": [
                    {
                        "index": 0,
                        "id": "call_a",
                        "type": "function",
                        "function": {"name": "bash", "arguments": ""},
                    }
                ]
            }
        ),
        chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"comm'}}]}),
        chunk(
            {
                "tool_calls": [
                    {
                        "index": 1,
                        "id": "call_b",
                        "type": "function",
                        "function": {"name": "read", "arguments": '{"path"'},
                    }
                ]
            }
        ),
        chunk({"tool_calls": [{"index": 0, "function": {"arguments": 'and": "ls"}'}}]}),
        chunk({"tool_calls": [{"index": 1, "function": {"arguments": ': "a.txt"}'}}]}),
        chunk({}, "tool_calls"),
        usage_chunk(100, 20, cached=60),
        c_sse("[DONE]"),
    ]
    events: list[StreamEvent] = []
    msg = await stream_turn(
        "deepseek/deepseek-x",
        "",
        USER,
        [],
        on_event=events.append,
        env=chat_env(url),
        max_retries=0,
    )
    assert_same(
        msg,
        {
            "role": "assistant",
            "blocks": [
                {"type": "thinking", "thinking": "Thinking."},
                {
                    "type": "toolCall",
                    "id": "call_a",
                    "name": "bash",
                    "arguments": {"command": "ls"},
                },
                {
                    "type": "toolCall",
                    "id": "call_b",
                    "name": "read",
                    "arguments": {"path": "a.txt"},
                },
            ],
            "usage": {"inputTokens": 40, "outputTokens": 20, "cacheReadTokens": 60},
            "stopReason": "tool_use",
            "model": "deepseek-x",
            "modelReference": "deepseek/deepseek-x",
        },
    )
    assert [(e.kind, e.id, e.name) for e in events if e.kind == "tool_call_start"] == [
        ("tool_call_start", "call_a", "bash"),
        ("tool_call_start", "call_b", "read"),
    ]
    assert "".join(e.text for e in events if e.id == "call_a") == '{"command": "ls"}'


async def test_chat_length_and_missing_usage(srv: tuple[str, Script]) -> None:
    url, script = srv
    script.frames = [chunk({"content": "abc"}), chunk({}, "length"), c_sse("[DONE]")]
    msg = await stream_turn(
        "openai/gpt-x", "", USER, [], on_event=lambda e: None, env=chat_env(url), max_retries=0
    )
    assert_same(
        msg,
        {
            "role": "assistant",
            "blocks": [{"type": "text", "text": "abc"}],
            "usage": {"inputTokens": 0, "outputTokens": 0},
            "stopReason": "max_tokens",
            "model": "gpt-x",
            "modelReference": "openai/gpt-x",
            "usageMissing": True,
        },
    )


async def test_chat_without_finish_reason_is_incomplete(srv: tuple[str, Script]) -> None:
    url, script = srv
    script.frames = [chunk({"content": "half"})]
    with pytest.raises(IncompleteStream, match="finish_reason"):
        await stream_turn(
            "openai/gpt-x",
            "",
            USER,
            [],
            on_event=lambda e: None,
            env=chat_env(url),
            max_retries=0,
        )


@pytest.mark.parametrize("status", [401, 500])
async def test_chat_http_error(srv: tuple[str, Script], status: int) -> None:
    url, script = srv
    script.status = status
    script.body = {"error": {"message": "nope\nnope", "type": "x"}}
    with pytest.raises(ProviderError) as info:
        await stream_turn(
            "openai/gpt-x",
            "",
            USER,
            [],
            on_event=lambda e: None,
            env=chat_env(url),
            max_retries=0,
        )
    text = str(info.value)
    assert "\n" not in text
    assert f"openai HTTP {status}" in text and "nope nope" in text
    assert ("OPENAI_API_KEY" in text) == (status == 401)


async def test_missing_key_raises_before_network(srv: tuple[str, Script]) -> None:
    _url, script = srv
    with pytest.raises(MissingApiKey, match="ZAI_API_KEY"):
        await stream_turn("glm-5.3", "", USER, [], on_event=lambda e: None, env={})
    with pytest.raises(UnsupportedProvider, match="openai-codex"):
        await stream_turn("openai-codex/gpt-5.5", "", USER, [], on_event=lambda e: None, env={})
    assert script.requests == []


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
                "function": {"name": "read", "arguments": '{"path": "a"}'},
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
    with pytest.raises(MissingApiKey, match="OPENAI_API_KEY"):
        resolve_endpoint(ModelRef("openai", "gpt-5"), {})
    with pytest.raises(MissingApiKey, match="ANTHROPIC_API_KEY"):  # a proxy still needs one
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
