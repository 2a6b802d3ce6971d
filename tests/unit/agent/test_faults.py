"""Provider faults inside a reply, on both wires (Anthropic Messages and Chat Completions,
through the real SDKs against ``fake_llm``): a stream cut in the middle of a tool call, an error
event in the stream, tool arguments that are not a JSON object, reused and missing call ids, an
empty reply. HTTP errors, rate limits, retries and timeouts: ``providers/test_retry.py``.

Every scenario ends with the pane's one line (``turn_failure_line``) or notice, the engine's
invariants (``chat_kit.check``) and Ink's own checks on the file (``chat_kit.ink_continues``):
no partial assistant record, every call paired, and the chat goes on.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from wire import WIRE_IDS, WIRES, Wire

from ink_tui.agent.failures import turn_failure_line
from ink_tui.agent.providers import IncompleteStream
from ink_tui.agent.start import load_chat

BOTH = pytest.mark.parametrize("wire", WIRES, ids=WIRE_IDS)


def session(chat_kit: Any, wire: Wire) -> Path:
    pair = (wire.provider, wire.model_id)
    path, _ = chat_kit.session(
        {"role": "user", "content": "hi"}, chat_kit.assistant("one", pair), pair=pair
    )
    return path


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def messages(path: Path) -> list[dict[str, Any]]:
    return [r["message"] for r in records(path) if r["type"] == "message"]


def calls(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for b in message["blocks"] if b["type"] == "toolCall"]


async def goes_on(chat_kit: Any, wire: Wire, engine: Any) -> None:
    """The chat goes on after the fault: a plain reply is written and sent on a whole context."""
    wire.reply(chat_kit.fake, text="Back again.")
    assert (await engine.send("go on")).status == "done"
    assert messages(engine.store.path)[-1]["blocks"] == [{"type": "text", "text": "Back again."}]
    chat_kit.check(engine)
    chat_kit.ink_continues(engine.store.path)


# --- a stream cut in the middle of a tool call ---------------------------------------------------


@BOTH
@pytest.mark.parametrize("how", ["ends", "breaks"])
async def test_a_stream_cut_in_a_tool_call_writes_the_message_and_no_partial_reply(
    chat_kit: Any, wire: Wire, how: str
) -> None:
    path = session(chat_kit, wire)
    frames = wire.opening() + wire.text(0, "Let me look.")
    frames += wire.call(1 if wire.anthropic else 0, "call_a", "ls", '{"pa', closed=False)
    if how == "ends":  # the body ends there, cleanly
        chat_kit.fake.raw(wire.name, frames)
    else:  # the connection breaks: the frame after the cut is promised and never comes
        chat_kit.fake.raw(wire.name, [*frames, *wire.ending("tool_use")[:1]])
        chat_kit.fake.break_off()
    sink = chat_kit.sink()
    engine = chat_kit.engine(load_chat(path), sink)
    with pytest.raises(IncompleteStream) as info:
        await engine.send("list it")
    said = str(info.value)
    assert said.startswith(wire.provider)
    if how == "ends":
        assert f"without {wire.end_event}" in said and "tool call" in said
    else:
        assert "broke off" in said
    assert sink.started == [] and sink.asked == []  # a call cut short never runs
    assert messages(path)[-1] == {"role": "user", "content": "list it"}
    assert b"Let me look." not in path.read_bytes()
    line = turn_failure_line(info.value, user_written=engine.user_written, replies=0)
    assert line == f"{said} — your message is in the session; nothing of the failed reply was"
    assert "\n" not in line
    chat_kit.check(engine, replies=0)
    chat_kit.ink_continues(path)
    await goes_on(chat_kit, wire, engine)


@BOTH
async def test_a_cut_after_a_completed_step_keeps_the_step_and_says_so(
    chat_kit: Any, wire: Wire
) -> None:
    path = session(chat_kit, wire)
    (chat_kit.work / "a.txt").write_text("a\n")
    wire.reply(chat_kit.fake, tool_calls=[("call_1", "ls", {})])
    index = 0
    frames = wire.opening() + wire.call(index, "call_2", "read", '{"path": "a.t', closed=False)
    chat_kit.fake.raw(wire.name, frames)
    engine = chat_kit.engine(load_chat(path), chat_kit.sink())
    with pytest.raises(IncompleteStream) as info:
        await engine.send("look")
    roles = [m["role"] for m in messages(path)]
    assert roles[-3:] == ["user", "assistant", "toolResult"]
    assert messages(path)[-1]["results"][0]["content"].split() == ["a.txt"]
    assert engine.replies_written == 1
    line = turn_failure_line(info.value, user_written=True, replies=engine.replies_written)
    assert line.endswith(
        "— your message and 1 reply (with tool results) are in the session; "
        "nothing of the failed reply was"
    )
    chat_kit.check(engine, replies=0)
    chat_kit.ink_continues(path)
    await goes_on(chat_kit, wire, engine)


# --- an error event inside the stream -----------------------------------------------------------


@BOTH
async def test_an_error_event_in_the_stream_is_said_as_such_and_nothing_partial_is_written(
    chat_kit: Any, wire: Wire
) -> None:
    path = session(chat_kit, wire)
    frames = wire.opening() + wire.text(0, "Hel")
    frames += wire.call(1 if wire.anthropic else 0, "call_a", "ls", '{"pa', closed=False)
    chat_kit.fake.raw(wire.name, [*frames, *wire.error_event("Overloaded right now")])
    engine = chat_kit.engine(load_chat(path), chat_kit.sink())
    with pytest.raises(IncompleteStream) as info:
        await engine.send("hello")
    said = str(info.value)
    assert said.startswith(f"{wire.provider} stream error: Overloaded right now")
    assert "HTTP" not in said  # the stream's status was 200: this is not an HTTP error
    assert b"Hel" not in path.read_bytes().split(b"\n", 3)[-1]
    assert messages(path)[-1] == {"role": "user", "content": "hello"}
    chat_kit.check(engine, replies=0)
    chat_kit.ink_continues(path)
    await goes_on(chat_kit, wire, engine)


# --- tool arguments that are not a JSON object --------------------------------------------------


@BOTH
@pytest.mark.parametrize(
    ("fragments", "reason"),
    [
        (('{"path": "sub"', ' "x": 1}'), "not valid JSON"),
        (('["sub"', "]"), "a JSON list, not an object"),
    ],
    ids=["malformed", "array"],
)
async def test_arguments_that_are_not_an_object_are_recorded_empty_and_never_run(
    chat_kit: Any, wire: Wire, fragments: tuple[str, ...], reason: str
) -> None:
    path = session(chat_kit, wire)
    frames = wire.opening() + wire.call(0, "call_bad", "ls", *fragments) + wire.ending("tool_use")
    chat_kit.fake.raw(wire.name, frames)
    wire.reply(chat_kit.fake, text="Sorry, fixed.")
    sink = chat_kit.sink()
    engine = chat_kit.engine(load_chat(path), sink)
    assert (await engine.send("list sub")).status == "done"
    *_, call, results, answer = messages(path)
    assert calls(call) == [{"type": "toolCall", "id": "call_bad", "name": "ls", "arguments": {}}]
    (result,) = results["results"]
    sent = "".join(fragments)
    assert result == {
        "toolCallId": "call_bad",
        "toolName": "ls",
        "content": result["content"],
        "isError": True,
    }
    assert result["content"].startswith(f"Error: invalid arguments for ls — {reason}")
    assert result["content"].endswith(f": {sent}. Fix the arguments and retry.")
    assert sink.started == []  # ls with {} would list the cwd: never run on a guess
    notices = [n for n in sink.notices if "ls call" in n]
    assert notices == [
        f"the model's ls call sent arguments that are {reason}: it was not run, and the "
        "model is told so (an error result)"
    ]
    assert answer["blocks"] == [{"type": "text", "text": "Sorry, fixed."}]
    chat_kit.check(engine)
    chat_kit.ink_continues(path)


# --- reused and missing call ids ----------------------------------------------------------------


@BOTH
async def test_reused_call_ids_within_a_reply_and_across_turns_are_made_unique(
    chat_kit: Any, wire: Wire
) -> None:
    path = session(chat_kit, wire)
    twice = wire.opening() + wire.call(0, "call_1", "ls", "{}") + wire.call(1, "call_1", "ls", "{}")
    chat_kit.fake.raw(wire.name, twice + wire.ending("tool_use"))
    wire.reply(chat_kit.fake, text="Listed.")
    chat_kit.fake.raw(
        wire.name, wire.opening() + wire.call(0, "call_1", "ls", "{}") + wire.ending("tool_use")
    )
    wire.reply(chat_kit.fake, text="Again.")
    sink = chat_kit.sink()
    engine = chat_kit.engine(load_chat(path), sink)
    await engine.send("list twice")
    await engine.send("and again")
    ids = [c["id"] for m in messages(path) if m["role"] == "assistant" for c in calls(m)]
    assert ids[0] == "call_1" and len(ids) == 3 and len(set(ids)) == 3
    assert sink.notices == [  # once per chat: some servers send call_1 at every turn
        f"the tool-call id call_1 was already used: written as {ids[1]}, as Ink needs each id "
        "once (said once per chat)"
    ]
    results = [
        r["toolCallId"] for m in messages(path) if m["role"] == "toolResult" for r in m["results"]
    ]
    assert results == ids
    chat_kit.check(engine)
    chat_kit.ink_continues(path)


@BOTH
@pytest.mark.parametrize("call_id", [None, ""], ids=["no-id", "empty-id"])
async def test_calls_without_an_id_get_fresh_ones(
    chat_kit: Any, wire: Wire, call_id: str | None
) -> None:
    path = session(chat_kit, wire)
    both = wire.call(0, call_id, "ls", "{}") + wire.call(1, call_id, "ls", "{}")
    chat_kit.fake.raw(wire.name, wire.opening() + both + wire.ending("tool_use"))
    wire.reply(chat_kit.fake, text="Listed.")
    sink = chat_kit.sink()
    engine = chat_kit.engine(load_chat(path), sink)
    assert (await engine.send("list")).status == "done"
    ids = [c["id"] for m in messages(path) if m["role"] == "assistant" for c in calls(m)]
    assert len(ids) == 2 and all(ids) and len(set(ids)) == 2
    assert sink.notices == [
        f"a tool call came without an id (and 1 more): written as {ids[0]}, as Ink needs each "
        "id once (said once per chat)"
    ]
    chat_kit.check(engine)
    chat_kit.ink_continues(path)


# --- an empty reply -----------------------------------------------------------------------------


@BOTH
async def test_an_empty_reply_is_written_as_ink_writes_it_and_said(
    chat_kit: Any, wire: Wire
) -> None:
    path = session(chat_kit, wire)
    chat_kit.fake.raw(wire.name, wire.opening() + wire.ending("end_turn"))
    sink = chat_kit.sink()
    engine = chat_kit.engine(load_chat(path), sink)
    assert (await engine.send("say nothing")).status == "done"
    reply = messages(path)[-1]
    assert reply["blocks"] == ([] if wire.anthropic else [{"type": "text", "text": "(empty)"}])
    assert reply["stopReason"] == "end_turn"
    assert sink.notices == [
        "the model sent an empty reply (stop reason end_turn): it is written as Ink writes "
        "one; send again to go on"
    ]
    chat_kit.check(engine)
    chat_kit.ink_continues(path)
    await goes_on(chat_kit, wire, engine)
    sent = chat_kit.fake.last.body["messages"]
    assert all(message.get("content") for message in sent)  # never an empty message sent


@BOTH
async def test_an_empty_body_is_an_incomplete_stream(chat_kit: Any, wire: Wire) -> None:
    path = session(chat_kit, wire)
    chat_kit.fake.raw(wire.name, [])
    engine = chat_kit.engine(load_chat(path), chat_kit.sink())
    with pytest.raises(IncompleteStream, match=f"without {wire.end_event}$"):
        await engine.send("anyone?")
    assert messages(path)[-1] == {"role": "user", "content": "anyone?"}
    chat_kit.check(engine, replies=0)
    chat_kit.ink_continues(path)
    await goes_on(chat_kit, wire, engine)
