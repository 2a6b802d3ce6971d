"""The chat engine at its edges: another writer after ours, a race inside the first write, a
tool that throws, a connection that breaks mid-body, empty replies, calls without ids, model
ids Ink would refuse, records a newer Ink wrote, a subagent session Ink is resuming.

Every scenario ends with ``chat_kit.check``: the file opens cleanly, its context is the engine's,
and every call has its result.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from waiting import wait_for

from ink_tui.agent.persist import ChatStore
from ink_tui.agent.providers import IncompleteStream, ProviderError, parse_model_ref
from ink_tui.agent.start import load_chat
from ink_tui.session import build_context, open_session
from ink_tui.session.rules.modelref import ModelRef
from ink_tui.session.writing.writer import SessionWriter

BOTH = pytest.mark.parametrize("pair", [("anthropic", "claude-sonnet-4-5"), ("openai", "gpt-4.1")])


def queue(fake: Any, pair: tuple[str, str], **reply: Any) -> None:
    (fake.anthropic if pair[0] == "anthropic" else fake.chat)(**reply)


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def ink_writer(path: Path) -> SessionWriter:
    """Ink, in another terminal, appending to the same file."""
    return SessionWriter.for_session(open_session(path, warn=None))


RUNNING_CALL = {
    "role": "assistant",
    "blocks": [{"type": "toolCall", "id": "t9", "name": "bash", "arguments": {"command": "make"}}],
    "usage": {"inputTokens": 1, "outputTokens": 1},
    "stopReason": "tool_use",
}


# --- another writer -----------------------------------------------------------------------------


async def test_going_on_from_their_leaf_closes_the_call_they_left_running(chat_kit: Any) -> None:
    path, _ = chat_kit.session({"role": "user", "content": "hi"}, chat_kit.assistant("one"))
    engine = chat_kit.engine(load_chat(path), chat_kit.sink(conflict="theirs"))
    chat_kit.fake.anthropic(text="First.")
    await engine.send("first")  # our writer exists from here on
    ink = ink_writer(path)
    ink.append_message({"role": "user", "content": "from ink"})
    ink.append_message(RUNNING_CALL)  # Ink is still running this tool
    chat_kit.fake.anthropic(text="Mine.")
    await engine.send("mine")
    closure, user = (r["message"] for r in records(path)[-3:-1])
    assert closure["role"] == "toolResult" and closure["results"][0]["toolCallId"] == "t9"
    assert closure["results"][0]["isError"] is True
    assert user == {"role": "user", "content": "mine"}
    assert load_chat(path).read_only is None
    chat_kit.check(engine)


async def test_going_on_from_their_leaf_takes_their_thinking_level_and_model(
    chat_kit: Any,
) -> None:
    path, _ = chat_kit.session({"role": "user", "content": "hi"}, chat_kit.assistant("one"))
    engine = chat_kit.engine(load_chat(path), chat_kit.sink(conflict="theirs"))
    ink = ink_writer(path)
    ink.append_entry("thinkingLevelChange", {"thinkingLevel": "high"})
    ink.append_session_model(ModelRef("openai", "gpt-4.1"))
    chat_kit.fake.chat(text="From the other model.")
    await engine.send("go on")
    assert (engine.thinking, engine.model) == ("high", ModelRef("openai", "gpt-4.1"))
    assert chat_kit.fake.last.path.endswith("/chat/completions")
    chat_kit.check(engine)


async def test_compact_after_a_conflict_summarises_the_branch_it_writes_on(
    chat_kit: Any,
) -> None:
    long = [
        {"role": "user", "content": "A" * 100_000},
        chat_kit.assistant("first"),
        {"role": "user", "content": "B" * 100_000},
        chat_kit.assistant("second"),
    ]
    path, _ = chat_kit.session(*long)
    engine = chat_kit.engine(load_chat(path, thinking="off"), chat_kit.sink(conflict="theirs"))
    ink = ink_writer(path)
    ink.append_message({"role": "user", "content": "THEIR question"})
    ink.append_message(chat_kit.assistant("THEIR answer"))
    chat_kit.fake.anthropic(text="## Goal\nsummary")
    await engine.compact()
    level, entry = records(path)[-2:]  # thinking="off" is persisted with the first write
    assert level["type"] == "thinkingLevelChange" and level["parentId"] == ink.leaf_id
    assert entry["type"] == "compaction" and entry["parentId"] == level["id"]
    retained = json.dumps(entry["retainedTail"])
    summarised = json.dumps(chat_kit.fake.last.body["messages"])
    assert "THEIR" in retained + summarised  # their turn is kept or summarised, never lost
    context = build_context(open_session(path)).messages
    assert any("THEIR" in json.dumps(message) for message in context)
    chat_kit.fake.requests.clear()  # the last request was the summary's, not a turn's
    chat_kit.check(engine)


async def test_a_write_raced_inside_the_first_write_keeps_the_closure_on_our_branch(
    chat_kit: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, ids = chat_kit.session({"role": "user", "content": "hi"}, RUNNING_CALL)
    pending = ChatStore._write_pending

    def racing(self: ChatStore, writer: SessionWriter) -> None:
        pending(self, writer)  # the closure is written...
        if not getattr(self, "raced", False):
            self.raced = True  # type: ignore[attr-defined]
            ink_writer(path).append_entry("label", {"targetId": ids[0], "label": "x"})

    monkeypatch.setattr(ChatStore, "_write_pending", racing)
    chat_kit.fake.anthropic(text="ok")
    sink = chat_kit.sink()
    engine = chat_kit.engine(load_chat(path), sink)
    await engine.send("go on")
    roles = [r["message"]["role"] for r in records(path) if r["type"] == "message"]
    assert roles == ["user", "assistant", "toolResult", "user", "assistant"]
    assert any("own point" in notice for notice in sink.notices)
    chat_kit.check(engine)


# --- tools and streams ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        ("r1", "read", {"path": "a\u0000b"}),
        ("r2", "bash", {"command": "echo a\u0000b"}),
        ("r3", "write", {"path": "x\u0000y", "content": "z"}),
    ],
)
async def test_a_tool_that_throws_gives_an_error_result(chat_kit: Any, call: Any) -> None:
    path, _ = chat_kit.session({"role": "user", "content": "hi"}, chat_kit.assistant("one"))
    chat_kit.fake.anthropic(tool_calls=[call])
    chat_kit.fake.anthropic(text="That failed.")
    engine = chat_kit.engine(load_chat(path), chat_kit.sink(approvals=("once",)))
    outcome = await engine.send("do it")
    assert outcome.status == "done"
    result = engine.messages[-2]["results"][0]
    assert result["toolCallId"] == call[0] and result["isError"] is True
    assert "null" in result["content"]
    chat_kit.check(engine)


@BOTH
async def test_a_connection_broken_mid_body_is_an_incomplete_stream(
    chat_kit: Any, pair: tuple[str, str]
) -> None:
    path, _ = chat_kit.session(
        {"role": "user", "content": "hi"}, chat_kit.assistant("one", pair), pair=pair
    )
    queue(chat_kit.fake, pair, text="a reply that breaks off")
    chat_kit.fake.break_off()
    engine = chat_kit.engine(load_chat(path), chat_kit.sink())
    with pytest.raises(IncompleteStream, match="broke off"):
        await engine.send("hi again")
    assert engine.messages[-1] == {"role": "user", "content": "hi again"}
    chat_kit.check(engine, replies=0)


async def test_an_empty_anthropic_reply_is_recorded_and_never_replayed_empty(
    chat_kit: Any,
) -> None:
    path, _ = chat_kit.session({"role": "user", "content": "hi"}, chat_kit.assistant("one"))
    chat_kit.fake.anthropic(text="")
    chat_kit.fake.anthropic(text="second")
    engine = chat_kit.engine(load_chat(path), chat_kit.sink())
    await engine.send("a")
    assert records(path)[-1]["message"]["blocks"] == []
    await engine.send("b")
    sent = chat_kit.fake.last.body["messages"]
    assert all(message["content"] for message in sent)
    assert [m["role"] for m in sent[-3:]] == ["assistant", "user", "user"]


async def test_calls_streamed_without_ids_get_ids_that_never_repeat(chat_kit: Any) -> None:
    pair = ("openai", "gpt-4.1")
    path, _ = chat_kit.session({"role": "user", "content": "hi"}, pair=pair)
    for _ in range(2):
        chat_kit.fake.chat(tool_calls=[("", "ls", {})])
        chat_kit.fake.chat(text="Listed.")
    engine = chat_kit.engine(load_chat(path), chat_kit.sink())
    await engine.send("list")
    await engine.send("again")
    calls = [
        block["id"]
        for message in engine.messages
        if message["role"] == "assistant"
        for block in message["blocks"]
        if block["type"] == "toolCall"
    ]
    assert len(calls) == 2 and len(set(calls)) == 2 and all(calls)
    chat_kit.check(engine)


# --- what Ink would refuse, what must not be lost -----------------------------------------------


@pytest.mark.parametrize("reference", [" ", "\ufeff", "\u3000 "])
def test_a_blank_model_is_refused_before_anything_is_written(reference: str) -> None:
    with pytest.raises(ValueError, match="provider/modelId"):
        parse_model_ref(reference)


async def test_the_writer_refuses_a_model_ink_would_refuse(chat_kit: Any) -> None:
    path, _ = chat_kit.session({"role": "user", "content": "hi"}, chat_kit.assistant("one"))
    before = path.read_bytes()
    engine = chat_kit.engine(load_chat(path), chat_kit.sink())
    with pytest.raises(ValueError, match="not a model Ink accepts"):
        await engine.set_model(ModelRef("openai", "\ufeff"))
    assert path.read_bytes() == before


async def test_a_complete_final_record_of_an_unknown_type_is_never_cut(chat_kit: Any) -> None:
    path, ids = chat_kit.session({"role": "user", "content": "hi"}, chat_kit.assistant("one"))
    future = {"type": "futureRecord", "id": "f00d", "parentId": ids[1], "timestamp": "t", "x": 1}
    with path.open("ab") as file:
        file.write(json.dumps(future, separators=(",", ":")).encode() + b"\n")
    before = path.read_bytes()
    start = load_chat(path)
    assert start.read_only is not None and '"futureRecord"' in start.read_only
    engine = chat_kit.engine(start, chat_kit.sink())
    with pytest.raises(PermissionError, match="nothing was written"):
        await engine.send("next")
    assert path.read_bytes() == before and chat_kit.fake.requests == []


def test_a_complete_final_record_failing_inks_checks_is_never_cut(chat_kit: Any) -> None:
    path, _ = chat_kit.session({"role": "user", "content": "hi"}, chat_kit.assistant("one"))
    with path.open("ab") as file:
        file.write(b'{"type":"message","id":"q1","parentId":null}\n')  # no timestamp
    read_only = load_chat(path).read_only
    assert read_only is not None and "fails Ink's checks" in read_only
    assert "`ink-tui repair --force " in read_only and "keeping a copy" in read_only


def test_a_torn_final_line_is_still_repaired(chat_kit: Any) -> None:
    path, _ = chat_kit.session({"role": "user", "content": "hi"}, chat_kit.assistant("one"))
    with path.open("ab") as file:
        file.write(b'{"type":"message","id":"ab')
    start = load_chat(path)
    assert start.read_only is None and start.torn is not None


def test_a_subagent_session_ink_is_resuming_is_read_only(chat_kit: Any) -> None:
    path, _ = chat_kit.session({"role": "user", "content": "hi"}, chat_kit.assistant("one"))
    leases = path.with_name(path.name + ".lease")
    leases.mkdir()
    stale = leases / "lease-111-abcd1234-1"
    stale.write_text("")
    old = time.time() - 120
    os.utime(stale, (old, old))
    assert load_chat(path).read_only is None  # a lease not refreshed for 2 minutes is gone
    (leases / "lease-4242-deadbeef-2").write_text("")
    read_only = load_chat(path).read_only
    assert read_only is not None and "4242" in read_only


async def test_an_interrupt_while_the_user_message_is_written_leaves_one_consistent_file(
    chat_kit: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio
    import threading

    path, _ = chat_kit.session({"role": "user", "content": "hi"}, chat_kit.assistant("one"))
    writing, gate = threading.Event(), threading.Event()
    append = SessionWriter.append_message

    def slow_first(self: SessionWriter, message: dict[str, Any], **kw: Any) -> Any:
        if message.get("content") == "first":
            writing.set()
            assert gate.wait(10)
        return append(self, message, **kw)

    monkeypatch.setattr(SessionWriter, "append_message", slow_first)
    chat_kit.fake.anthropic(text="never read")
    chat_kit.fake.anthropic(text="Second reply.")
    sink = chat_kit.sink()
    engine = chat_kit.engine(load_chat(path), sink)
    first = asyncio.ensure_future(engine.send("first"))
    await wait_for(None, writing.is_set, "the first message's write to start")
    engine.interrupt()  # the provider accepted "first"; its write is under way in a thread
    assert (await first).status == "interrupted"
    second = asyncio.ensure_future(engine.send("second"))
    await asyncio.sleep(0)  # let the second send start (any order of what follows gives one file)
    gate.set()
    assert (await second).status == "done"
    users = [m["content"] for m in engine.messages if m["role"] == "user"]
    assert users == ["hi", "first", "second"]
    assert sink.conflicts == []  # our own write is never taken for another writer's
    chat_kit.check(engine)


async def test_an_error_event_inside_a_chat_stream_is_an_incomplete_stream(
    chat_kit: Any,
) -> None:
    pair = ("openai", "gpt-4.1")
    path, _ = chat_kit.session({"role": "user", "content": "hi"}, pair=pair)
    hello = chat_kit.fake.chat_chunk({"role": "assistant", "content": "Hel"})
    chat_kit.fake.raw("chat", [hello, {"error": {"message": "upstream overloaded"}}])
    engine = chat_kit.engine(load_chat(path), chat_kit.sink())
    with pytest.raises(IncompleteStream, match="upstream overloaded"):
        await engine.send("hello")
    chat_kit.check(engine, replies=0)


async def test_escape_while_the_file_is_rechecked_stops_the_turn(
    chat_kit: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio

    path, _ = chat_kit.session({"role": "user", "content": "hi"}, chat_kit.assistant("one"))
    engine = chat_kit.engine(load_chat(path), chat_kit.sink())
    checking, reread = asyncio.Event(), asyncio.Event()
    changed = engine.store.changed

    async def slow_changed() -> Any:
        checking.set()
        await reread.wait()  # re-reading a big file: done only after the Escape
        return await changed()

    monkeypatch.setattr(engine.store, "changed", slow_changed)
    turn = asyncio.ensure_future(engine.send("never sent"))
    await checking.wait()
    engine.interrupt()
    reread.set()
    assert (await turn).status == "interrupted"
    assert chat_kit.fake.requests == [] and not engine.running
    assert engine.messages[-1]["role"] == "assistant"


async def test_going_on_from_their_leaf_keeps_a_thinking_level_given_at_start(
    chat_kit: Any,
) -> None:
    path, _ = chat_kit.session({"role": "user", "content": "hi"}, chat_kit.assistant("one"))
    sink = chat_kit.sink(conflict="theirs")
    engine = chat_kit.engine(load_chat(path, thinking="low"), sink)
    ink = ink_writer(path)
    ink.append_entry("thinkingLevelChange", {"thinkingLevel": "high"})
    ink.append_message({"role": "user", "content": "from ink"})
    ink.append_message(RUNNING_CALL)
    chat_kit.fake.anthropic(text="ok")
    await engine.send("go on")
    assert engine.thinking == "low"
    shown = sink.branched[0]  # what arrived, then the closure of the call left running
    assert [m["role"] for m in shown] == ["user", "assistant", "toolResult"]
    chat_kit.check(engine)


async def test_a_user_message_whose_write_fails_leaves_the_context(
    chat_kit: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, _ = chat_kit.session({"role": "user", "content": "hi"}, chat_kit.assistant("one"))
    append = SessionWriter.append_message

    def failing(self: SessionWriter, message: dict[str, Any], **kw: Any) -> Any:
        if message.get("content") == "lost":
            raise OSError(28, "No space left on device")
        return append(self, message, **kw)

    monkeypatch.setattr(SessionWriter, "append_message", failing)
    chat_kit.fake.anthropic(text="never recorded")
    chat_kit.fake.anthropic(text="fine")
    engine = chat_kit.engine(load_chat(path), chat_kit.sink())
    with pytest.raises(OSError, match="No space"):
        await engine.send("lost")
    assert [m.get("content") for m in engine.messages if m["role"] == "user"] == ["hi"]
    await engine.send("next")
    chat_kit.check(engine)


async def test_the_engine_says_whether_the_user_message_was_written(chat_kit: Any) -> None:
    """The pane gives a message back when it was not written, even if an earlier message had
    the same text."""
    path, _ = chat_kit.session({"role": "user", "content": "again"}, chat_kit.assistant("one"))
    chat_kit.fake.anthropic(text="fine")
    chat_kit.fake.error(500)
    engine = chat_kit.engine(load_chat(path), chat_kit.sink())
    await engine.send("again")
    assert engine.user_written
    with pytest.raises(ProviderError):
        await engine.send("again")
    assert not engine.user_written
    chat_kit.check(engine, replies=0, unsent=[{"role": "user", "content": "again"}])


def test_a_new_session_takes_the_model_of_the_projects_newest_session(chat_kit: Any) -> None:
    from ink_tui.agent.start import new_chat
    from ink_tui.paths import project_dir

    sessions, cwd = chat_kit.work.parent / "sessions", str(chat_kit.work)
    earlier = SessionWriter.new(
        project_dir(sessions, cwd), cwd, model=ModelRef("deepseek", "deepseek-chat")
    )
    earlier.append_message({"role": "user", "content": "hi"})
    assert new_chat(cwd, sessions_dir=sessions).model == ModelRef("deepseek", "deepseek-chat")
    chosen = ModelRef("openai", "gpt-4.1")
    assert new_chat(cwd, model=chosen, sessions_dir=sessions).model == chosen
    assert new_chat(cwd, sessions_dir=sessions / "elsewhere").model is None
