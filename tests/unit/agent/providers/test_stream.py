"""ink_tui.agent.providers.stream_turn: streaming through the real SDKs against ``fake_llm``
(tests/conftest.py), a local server speaking both wire formats (Anthropic Messages and Chat
Completions). What is the same on both is one test parametrized over ``wire.WIRES``; what only
one wire has (thinking signatures, interleaved Chat tool calls) has its own test. Request
conversion and model references: test_convert.py."""

from __future__ import annotations

from typing import Any

import pytest
from wire import ANTHROPIC, TOOL, WIRE_IDS, WIRES, Wire, assert_same

from ink_tui.agent.providers import (
    IncompleteStream,
    MissingApiKey,
    ProviderError,
    StreamEvent,
    UnsupportedProvider,
    stream_turn,
)
from ink_tui.agent.providers.retry import RetryPolicy

USER = [{"role": "user", "content": "hi"}]
NO_RETRY = RetryPolicy(retries=0)


async def turn(model: str, fake_llm: Any) -> dict[str, Any]:
    """One turn on ``model``: no system prompt, no tools, events dropped."""
    return await stream_turn(
        model, "", USER, [], on_event=lambda e: None, env=fake_llm.env(), retry=NO_RETRY
    )


# --- both wires --------------------------------------------------------------------------------


@pytest.mark.parametrize("wire", WIRES, ids=WIRE_IDS)
async def test_a_text_reply(wire: Wire, fake_llm: Any) -> None:
    wire.reply(fake_llm, text="Hello", usage=(10, 5), chunk=3)  # deltas "Hel", "lo"
    events: list[StreamEvent] = []
    msg = await stream_turn(
        wire.reference,
        "sys",
        USER,
        [TOOL],
        on_event=events.append,
        env=fake_llm.env(),
        retry=NO_RETRY,
    )
    assert_same(
        msg,
        {
            "role": "assistant",
            "blocks": [{"type": "text", "text": "Hello"}],
            "usage": {"inputTokens": 10, "outputTokens": 5},
            "stopReason": "end_turn",
            "model": wire.model_id,
            "modelReference": wire.reference,
        },
    )
    assert [(e.kind, e.text) for e in events] == [("text", "Hel"), ("text", "lo")]
    request = fake_llm.requests[0]
    assert request.path == wire.path
    body = request.body
    assert body["tools"] == wire.tools(TOOL)
    if wire is ANTHROPIC:
        assert (body["system"], body["messages"]) == ("sys", USER)
        headers = request.headers
        assert "dummy" in (headers.get("x-api-key", "") + headers.get("authorization", ""))
    else:
        assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
        assert body["messages"] == [{"role": "system", "content": "sys"}, *USER]
        assert request.headers["authorization"] == "Bearer dummy"


@pytest.mark.parametrize("wire", WIRES, ids=WIRE_IDS)
async def test_a_stream_without_its_final_event_is_incomplete(wire: Wire, fake_llm: Any) -> None:
    wire.reply(fake_llm, text="half", cut=True)
    with pytest.raises(IncompleteStream, match=wire.end_event):
        await turn(wire.reference, fake_llm)


@pytest.mark.parametrize("status", [401, 500])
@pytest.mark.parametrize("wire", WIRES, ids=WIRE_IDS)
async def test_an_http_error_is_one_line_naming_the_key_on_401(
    wire: Wire, status: int, fake_llm: Any
) -> None:
    fake_llm.error(status, wire.error_body("bad\nthings"))
    with pytest.raises(ProviderError) as info:
        await turn(wire.reference, fake_llm)
    text = str(info.value)
    assert "\n" not in text
    assert f"{wire.provider} HTTP {status}" in text and "bad things" in text
    assert not isinstance(info.value, IncompleteStream)
    assert (wire.key_variable in text) == (status == 401)


# --- Anthropic Messages only ---------------------------------------------------------------


async def test_anthropic_thinking_tools_and_usage(fake_llm: Any) -> None:
    fake_llm.anthropic(
        thinking="Let me think.",  # chunk=8: two thinking deltas, then one text delta
        signature="sig==",
        text="Running.",
        tool_calls=[("toolu_1", "bash", {"command": "ls"})],  # three argument fragments
        usage=(10, 42),
        cache=(7, 3),
        chunk=8,
    )
    events: list[StreamEvent] = []
    msg = await stream_turn(
        "anthropic/claude-x",
        "sys",
        USER,
        [],
        on_event=events.append,
        env=fake_llm.env(),
        retry=NO_RETRY,
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
    assert "tools" not in fake_llm.requests[0].body


async def test_anthropic_raw_stop_reason_passes_through(fake_llm: Any) -> None:
    fake_llm.anthropic(stop="pause_turn", usage=(10, 1))  # no content block at all
    msg = await turn("claude-x", fake_llm)
    assert msg["stopReason"] == "pause_turn"
    assert msg["blocks"] == []


# --- Chat Completions only ----------------------------------------------------------------


async def test_chat_reasoning_tool_calls_and_cached_usage(fake_llm: Any) -> None:
    chunk = fake_llm.chat_chunk
    usage = {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}
    fake_llm.raw(
        "chat",
        [
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
            # call 1 opens before call 0's arguments are complete
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
            chunk(usage={**usage, "prompt_tokens_details": {"cached_tokens": 60}}),
            "[DONE]",
        ],
    )
    events: list[StreamEvent] = []
    msg = await stream_turn(
        "deepseek/deepseek-x",
        "",
        USER,
        [],
        on_event=events.append,
        env=fake_llm.env(),
        retry=NO_RETRY,
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


async def test_chat_length_and_missing_usage(fake_llm: Any) -> None:
    chunk = fake_llm.chat_chunk
    fake_llm.raw("chat", [chunk({"content": "abc"}), chunk({}, "length"), "[DONE]"])
    msg = await turn("openai/gpt-x", fake_llm)
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


async def test_missing_key_raises_before_network(fake_llm: Any) -> None:
    with pytest.raises(MissingApiKey, match="ZAI_API_KEY"):
        await stream_turn("glm-5.3", "", USER, [], on_event=lambda e: None, env={})
    with pytest.raises(UnsupportedProvider, match="openai-codex"):
        await stream_turn("openai-codex/gpt-5.5", "", USER, [], on_event=lambda e: None, env={})
    assert fake_llm.requests == []
