"""ChatEngine end to end against ``fake_llm`` through the real SDKs: replies, thinking, tools and
approvals, provider errors and interrupts. Every scenario ends with ``chat_kit.check``: the file
opens cleanly, its context is what was sent plus what came back, and every call is paired."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from ink_tui.agent.chat import DENIED_TEXT, INTERRUPTED_TEXT
from ink_tui.agent.providers import IncompleteStream, MissingApiKey, ProviderError
from ink_tui.agent.start import load_chat, new_chat
from ink_tui.agent.tools import validate_arguments
from ink_tui.session.rules.modelref import ModelRef

ANTHROPIC = ("anthropic", "claude-sonnet-4-5")
OPENAI = ("openai", "gpt-4.1")
DEEPSEEK = ("deepseek", "deepseek-chat")
BOTH = pytest.mark.parametrize("pair", [ANTHROPIC, OPENAI], ids=["anthropic", "chat"])


def queue(fake: Any, pair: tuple[str, str], **reply: Any) -> None:
    """One reply in the wire format of ``pair``'s provider (``thinking``→``reasoning``)."""
    if pair[0] == "anthropic":
        fake.anthropic(**reply)
    else:
        if "thinking" in reply:
            reply["reasoning"] = reply.pop("thinking")
        fake.chat(**reply)


def opened(kit: Any, pair: tuple[str, str], *, thinking: str | None = None) -> Any:
    """A session holding one finished exchange, loaded for a chat."""
    path, _ = kit.session(
        {"role": "user", "content": "earlier"}, kit.assistant("earlier reply", pair), pair=pair
    )
    return load_chat(path, thinking=thinking)


def results_of(message: dict[str, Any]) -> list[tuple[str, Any, bool]]:
    assert message["role"] == "toolResult"
    return [(r["toolCallId"], r["content"], r["isError"]) for r in message["results"]]


# --- replies ----------------------------------------------------------------------------------


@BOTH
async def test_plain_text_reply(chat_kit: Any, pair: tuple[str, str]) -> None:
    fake = chat_kit.fake
    queue(fake, pair, text="Hello there, friend.")
    sink = chat_kit.sink()
    engine = chat_kit.engine(opened(chat_kit, pair), sink)
    outcome = await engine.send("hi")
    assert outcome.status == "done" and outcome.steps == 1
    assert (outcome.usage.input, outcome.usage.output) == (12, 7)
    reply = engine.messages[-1]
    assert reply == {
        "role": "assistant",
        "blocks": [{"type": "text", "text": "Hello there, friend."}],
        "usage": {"inputTokens": 12, "outputTokens": 7},
        "stopReason": "end_turn",
        "model": pair[1],
        "modelReference": f"{pair[0]}/{pair[1]}",
    }
    assert sink.text == "Hello there, friend."
    assert len([e for e in sink.deltas if e.kind == "text"]) == 4  # chunks of 5 characters
    assert sink.messages == [{"role": "user", "content": "hi"}, reply]
    assert len(fake.requests) == 1
    chat_kit.check(engine)


async def test_anthropic_thinking_is_replayed_signed(chat_kit: Any) -> None:
    fake = chat_kit.fake
    fake.anthropic(text="Answer.", thinking="Let me think it over.", signature="c2lnbmVk")
    fake.anthropic(text="Second answer.")
    sink = chat_kit.sink()
    engine = chat_kit.engine(opened(chat_kit, ANTHROPIC, thinking="high"), sink)
    await engine.send("first")
    assert engine.messages[-1]["blocks"] == [
        {"type": "thinking", "thinking": "Let me think it over.", "signature": "c2lnbmVk"},
        {"type": "text", "text": "Answer."},
    ]
    assert "".join(e.text for e in sink.deltas if e.kind == "thinking") == "Let me think it over."
    chat_kit.check(engine)
    await engine.send("second")
    body = fake.last.body
    assert body["thinking"]["type"] == "enabled"
    assert body["messages"][3]["content"][0] == {
        "type": "thinking",
        "thinking": "Let me think it over.",
        "signature": "c2lnbmVk",
    }
    chat_kit.check(engine)


async def test_deepseek_reasoning_content(chat_kit: Any) -> None:
    fake = chat_kit.fake
    fake.chat(text="Forty-two.", reasoning="Adding six and thirty-six.")
    fake.chat(text="Yes.")
    engine = chat_kit.engine(opened(chat_kit, DEEPSEEK), chat_kit.sink())
    await engine.send("sum?")
    assert engine.messages[-1]["blocks"] == [
        {"type": "thinking", "thinking": "Adding six and thirty-six."},
        {"type": "text", "text": "Forty-two."},
    ]
    chat_kit.check(engine)
    await engine.send("sure?")
    replayed = [m for m in fake.last.body["messages"] if m["role"] == "assistant"]
    assert [m["reasoning_content"] for m in replayed] == ["", "Adding six and thirty-six."]
    chat_kit.check(engine)


# --- tools ------------------------------------------------------------------------------------


@BOTH
async def test_read_runs_without_approval(chat_kit: Any, pair: tuple[str, str]) -> None:
    fake = chat_kit.fake
    (chat_kit.work / "notes.txt").write_text("alpha\nbeta\n")
    queue(fake, pair, text="Reading.", tool_calls=[("call_r", "read", {"path": "notes.txt"})])
    queue(fake, pair, text="It says alpha, beta.")
    sink = chat_kit.sink()
    engine = chat_kit.engine(opened(chat_kit, pair), sink)
    outcome = await engine.send("what is in notes.txt?")
    assert outcome.status == "done" and outcome.steps == 2
    assert sink.asked == []
    assert [call["id"] for call in sink.started] == ["call_r"]
    calls = [b for b in engine.messages[-3]["blocks"] if b["type"] == "toolCall"]
    assert calls == [
        {"type": "toolCall", "id": "call_r", "name": "read", "arguments": {"path": "notes.txt"}}
    ]
    [(call_id, content, is_error)] = results_of(engine.messages[-2])
    assert call_id == "call_r" and not is_error and "alpha" in content and "beta" in content
    assert len(fake.requests) == 2
    chat_kit.check(engine)


@BOTH
async def test_bash_approved_once_asks_again(chat_kit: Any, pair: tuple[str, str]) -> None:
    fake = chat_kit.fake
    queue(fake, pair, tool_calls=[("b1", "bash", {"command": "echo one"})])
    queue(fake, pair, tool_calls=[("b2", "bash", {"command": "echo two"})])
    queue(fake, pair, text="Both ran.")
    sink = chat_kit.sink(approvals=("once", "once"))
    engine = chat_kit.engine(opened(chat_kit, pair), sink)
    await engine.send("run them")
    assert [call["id"] for call in sink.asked] == ["b1", "b2"]
    first, second = engine.messages[-4], engine.messages[-2]
    assert results_of(first)[0][0] == "b1" and "one" in results_of(first)[0][1]
    assert results_of(second)[0][0] == "b2" and "two" in results_of(second)[0][1]
    assert engine.allowed == set()
    chat_kit.check(engine)


async def test_bash_always_is_not_asked_again(chat_kit: Any) -> None:
    fake = chat_kit.fake
    fake.anthropic(tool_calls=[("b1", "bash", {"command": "echo one > one.txt"})])
    fake.anthropic(tool_calls=[("b2", "bash", {"command": "echo two > two.txt"})])
    fake.anthropic(text="Done.")
    sink = chat_kit.sink(approvals=("always",))
    engine = chat_kit.engine(opened(chat_kit, ANTHROPIC), sink)
    outcome = await engine.send("write both")
    assert outcome.steps == 3
    assert [call["id"] for call in sink.asked] == ["b1"]
    assert (chat_kit.work / "two.txt").read_text() == "two\n"
    chat_kit.check(engine)


@BOTH
async def test_denied_call_is_an_error_result_the_model_reads(
    chat_kit: Any, pair: tuple[str, str]
) -> None:
    fake = chat_kit.fake
    queue(fake, pair, tool_calls=[("b1", "bash", {"command": "touch denied.txt"})])
    queue(fake, pair, text="Understood.")
    sink = chat_kit.sink(approvals=("deny",))
    engine = chat_kit.engine(opened(chat_kit, pair), sink)
    await engine.send("touch it")
    denial = DENIED_TEXT.format(tool="bash")
    assert results_of(engine.messages[-2]) == [("b1", denial, True)]
    assert not (chat_kit.work / "denied.txt").exists()
    assert sink.started == []
    last = fake.last.body["messages"][-1]
    if pair[0] == "anthropic":
        assert last["content"] == [
            {"type": "tool_result", "tool_use_id": "b1", "content": denial, "is_error": True}
        ]
    else:
        assert last == {"role": "tool", "tool_call_id": "b1", "content": denial}
    chat_kit.check(engine)


@BOTH
async def test_unknown_tool_and_invalid_arguments(chat_kit: Any, pair: tuple[str, str]) -> None:
    fake = chat_kit.fake
    calls = [
        ("u1", "frobnicate", {"x": 1}),
        ("r1", "read", {"file": "notes.txt"}),
        ("b1", "bash", {"cmd": "rm -rf /"}),
    ]
    queue(fake, pair, tool_calls=calls)
    queue(fake, pair, text="Sorry.")
    sink = chat_kit.sink()
    engine = chat_kit.engine(opened(chat_kit, pair), sink)
    await engine.send("go")
    results = results_of(engine.messages[-2])
    assert results == [
        (
            "u1",
            'Error: unknown tool "frobnicate". Available tools: bash, read, edit, write, grep, '
            "find, ls.",
            True,
        ),
        (
            "r1",
            "Error: invalid arguments for read — (root): must have required properties path. "
            "Fix the arguments and retry.",
            True,
        ),
        ("b1", validate_arguments("bash", {"cmd": "rm -rf /"}), True),
    ]
    assert str(results[2][1]).startswith("Error: invalid arguments for bash — ")
    assert sink.asked == [] and sink.started == []  # Ink checks before its approval gate
    chat_kit.check(engine)


# --- errors: nothing written unless the request was accepted ---------------------------------


@BOTH
@pytest.mark.parametrize("status", [500, 401])
async def test_http_error_writes_nothing(chat_kit: Any, pair: tuple[str, str], status: int) -> None:
    fake = chat_kit.fake
    fake.error(status, {"type": "error", "error": {"type": "x", "message": "no way"}})
    start = opened(chat_kit, pair)
    before = start.path.read_bytes()
    sink = chat_kit.sink()
    engine = chat_kit.engine(start, sink)
    messages = list(engine.messages)
    with pytest.raises(ProviderError) as info:
        await engine.send("hi")
    assert not isinstance(info.value, IncompleteStream)
    assert f"HTTP {status}" in str(info.value) and "no way" in str(info.value)
    assert start.path.read_bytes() == before
    assert engine.messages == messages and sink.messages == []
    assert len(fake.requests) == 1  # no retries (x-should-retry: false)
    assert not engine.running
    chat_kit.check(engine, replies=0, unsent=[{"role": "user", "content": "hi"}])


async def test_http_error_on_a_new_session_creates_no_file(chat_kit: Any) -> None:
    chat_kit.fake.error(500)
    start = new_chat(str(chat_kit.work), model=chat_kit.model(ANTHROPIC))
    engine = chat_kit.engine(start, chat_kit.sink())
    with pytest.raises(ProviderError):
        await engine.send("hi")
    assert list(chat_kit.project.iterdir()) == []
    assert engine.messages == []


async def test_a_model_chosen_before_the_first_message_goes_in_the_new_files_header(
    chat_kit: Any,
) -> None:
    """Ink's lazy creation: /model in a new session writes nothing; a model Ink would refuse is
    refused before anything exists; the first message creates the file, its header naming it."""
    start = new_chat(str(chat_kit.work), model=chat_kit.model(ANTHROPIC))
    engine = chat_kit.engine(start, chat_kit.sink())
    with pytest.raises(ValueError, match="not a model Ink accepts"):
        await engine.set_model(ModelRef("openai", "\ufeff"))
    await engine.set_model(chat_kit.model(OPENAI))
    assert engine.model == chat_kit.model(OPENAI)
    assert not chat_kit.project.exists() or list(chat_kit.project.iterdir()) == []
    chat_kit.fake.chat(text="hello")
    await engine.send("hi")
    [path] = list(chat_kit.project.iterdir())
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert records[0]["model"] == {"provider": "openai", "modelId": "gpt-4.1"}
    assert [record["type"] for record in records[1:]] == ["message", "message"]
    await engine.set_model(chat_kit.model(DEEPSEEK))  # the file exists now: a marker
    last = json.loads(path.read_text().splitlines()[-1])
    assert last == {"type": "session_model", **chat_kit.model(DEEPSEEK).to_json(), "explicit": True}


@BOTH
async def test_missing_key_writes_nothing(chat_kit: Any, pair: tuple[str, str]) -> None:
    start = opened(chat_kit, pair)
    before = start.path.read_bytes()
    key = f"{pair[0].upper()}_API_KEY"
    # a Chat Completions base URL of its own needs no key (a local server): drop both
    env = {k: v for k, v in chat_kit.fake.env().items() if k not in (key, "OPENAI_BASE_URL")}
    engine = chat_kit.engine(start, chat_kit.sink(), env=env)
    with pytest.raises(MissingApiKey, match=key):
        await engine.send("hi")
    assert start.path.read_bytes() == before
    assert chat_kit.fake.requests == []
    chat_kit.check(engine)


@BOTH
async def test_stream_without_final_event(chat_kit: Any, pair: tuple[str, str]) -> None:
    fake = chat_kit.fake
    queue(fake, pair, text="half an ans", cut=True)
    queue(fake, pair, text="A whole answer.")
    sink = chat_kit.sink()
    engine = chat_kit.engine(opened(chat_kit, pair), sink)
    with pytest.raises(IncompleteStream):
        await engine.send("hi")
    assert engine.messages[-1] == {"role": "user", "content": "hi"}  # accepted, so written
    assert sink.messages == [{"role": "user", "content": "hi"}]
    chat_kit.check(engine, replies=0)
    outcome = await engine.send("again")
    assert outcome.status == "done"
    assert [m["role"] for m in engine.messages[-3:]] == ["user", "user", "assistant"]
    chat_kit.check(engine)


# --- interrupts -------------------------------------------------------------------------------


@BOTH
async def test_interrupt_while_streaming(chat_kit: Any, pair: tuple[str, str]) -> None:
    fake = chat_kit.fake
    fake.hold("partial")
    sink = chat_kit.sink()
    engine = chat_kit.engine(opened(chat_kit, pair), sink)
    sink.delta_hook = lambda event: engine.interrupt()
    outcome = await asyncio.wait_for(engine.send("tell me"), 20)
    assert outcome.status == "interrupted" and outcome.steps == 0
    assert sink.text == "partial"
    assert engine.messages[-1] == {"role": "user", "content": "tell me"}
    assert await asyncio.to_thread(fake.disconnected.wait, 10)
    assert not engine.running
    chat_kit.check(engine, replies=0)


@BOTH
async def test_held_stream_ends_normally_on_release(chat_kit: Any, pair: tuple[str, str]) -> None:
    fake = chat_kit.fake
    fake.hold("slowly")
    sink = chat_kit.sink()
    engine = chat_kit.engine(opened(chat_kit, pair), sink)
    sink.delta_hook = lambda event: fake.release()
    outcome = await asyncio.wait_for(engine.send("take your time"), 20)
    assert outcome.status == "done"
    assert engine.messages[-1]["blocks"] == [{"type": "text", "text": "slowly"}]
    assert engine.messages[-1]["stopReason"] == "end_turn"
    assert not fake.disconnected.is_set()
    chat_kit.check(engine)


async def test_interrupt_while_bash_runs(chat_kit: Any) -> None:
    fake = chat_kit.fake
    calls = [
        ("b1", "bash", {"command": "echo started; sleep 30"}),
        ("r1", "read", {"path": "notes.txt"}),
        ("b2", "bash", {"command": "echo never"}),
    ]
    fake.anthropic(text="Running.", tool_calls=calls)
    sink = chat_kit.sink(approvals=("once",))
    engine = chat_kit.engine(opened(chat_kit, ANTHROPIC), sink)
    loop = asyncio.get_running_loop()
    sink.tool_start_hook = lambda call: loop.call_later(0.5, engine.interrupt)
    outcome = await asyncio.wait_for(engine.send("run"), 20)
    assert outcome.status == "interrupted" and outcome.steps == 1
    [(b1, aborted, e1), r1, b2] = results_of(engine.messages[-1])
    assert b1 == "b1" and e1
    assert str(aborted).startswith("Error: command aborted by user. Partial output:")
    assert r1 == ("r1", INTERRUPTED_TEXT, True)
    assert b2 == ("b2", INTERRUPTED_TEXT, True)
    assert [call["id"] for call in sink.asked] == ["b1"]
    assert len(fake.requests) == 1
    chat_kit.check(engine, replies=2)
