"""ChatEngine's writes against ``fake_llm``: resume repair, forks, another writer appending
(before a turn and mid-turn), new sessions, model changes and ``/compact``. Every scenario ends
with ``chat_kit.check`` (clean open, context = sent + received, all calls paired)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ink_tui.agent.chat import CompactionError
from ink_tui.agent.compact import SUMMARIZATION_SYSTEM_PROMPT, SUMMARY_MAX_TOKENS
from ink_tui.agent.start import load_chat, new_chat
from ink_tui.session.conversation.context import build_context
from ink_tui.session.conversation.pairing import UNKNOWN_OUTCOME_TEXT
from ink_tui.session.conversation.tree import restored_model
from ink_tui.session.reading.reader import open_session
from ink_tui.session.reading.records import COMPACTION_SUMMARY_PREFIX
from ink_tui.session.writing.writer import SessionWriter

ANTHROPIC = ("anthropic", "claude-sonnet-4-5")
OPENAI = ("openai", "gpt-4.1")
USER = {"role": "user", "content": "earlier"}


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_bytes().splitlines() if line.strip()]


def tool_call_message(call_id: str = "c1") -> dict[str, Any]:
    return {
        "role": "assistant",
        "blocks": [
            {"type": "text", "text": "Running it."},
            {"type": "toolCall", "id": call_id, "name": "bash", "arguments": {"command": "make"}},
        ],
        "usage": {"inputTokens": 5, "outputTokens": 2},
        "stopReason": "tool_use",
    }


def other_writer(path: Path) -> SessionWriter:
    """Ink in another terminal: its own writer on the file as it is now."""
    return SessionWriter.for_session(open_session(path, warn=None))


# --- resume repair ----------------------------------------------------------------------------


@pytest.mark.parametrize("tail", ["truncated", "terminated"])
async def test_resume_repairs_then_closes_dangling_calls(chat_kit: Any, tail: str) -> None:
    path, (_, call_id) = chat_kit.session(USER, tool_call_message())
    intact = path.read_bytes()
    if tail == "truncated":
        path.write_bytes(intact + b'{"type":"message","id":"torn')
    else:
        path.write_bytes(intact[:-1])  # the last record lost its newline
    start = load_chat(path)
    assert [call.id for call in start.dangling] == ["c1"]
    assert start.torn is not None and start.torn.action == tail
    assert start.warning is not None and "bash (c1)" in start.warning
    chat_kit.fake.anthropic(text="Let me re-check first.")
    engine = chat_kit.engine(start, chat_kit.sink())
    await engine.send("go on")
    data = path.read_bytes()
    assert data.startswith(intact)
    closure, user, reply = records(path)[3:]
    assert closure["parentId"] == call_id
    assert closure["message"] == {
        "role": "toolResult",
        "results": [
            {
                "toolCallId": "c1",
                "toolName": "bash",
                "content": UNKNOWN_OUTCOME_TEXT,
                "isError": True,
            }
        ],
    }
    assert user["parentId"] == closure["id"] and user["message"]["content"] == "go on"
    assert reply["parentId"] == user["id"]
    sent = chat_kit.fake.last.body["messages"]
    assert sent[2]["content"][0]["content"] == UNKNOWN_OUTCOME_TEXT
    assert sent[3] == {"role": "user", "content": "go on"}
    chat_kit.check(engine)


async def test_the_store_hands_over_each_record_it_wrote_once_in_file_order(
    chat_kit: Any,
) -> None:
    """What the chat pane shows of its own writes: the fork's marker, the closure of the call
    left open, the message, the reply, as the file holds them."""
    path, ids = chat_kit.session(USER, tool_call_message(), chat_kit.assistant("later"))
    start = load_chat(path, leaf_id=ids[1])  # a fork after the open call
    chat_kit.fake.anthropic(text="Done.")
    engine = chat_kit.engine(start, chat_kit.sink())
    assert engine.store.take_written() == []
    await engine.send("go on")
    written = engine.store.take_written()
    assert [record["type"] for record in written] == ["position", "message", "message", "message"]
    assert written == records(path)[4:]
    assert engine.store.take_written() == []


# --- forks ------------------------------------------------------------------------------------


async def test_fork_from_an_earlier_entry(chat_kit: Any) -> None:
    messages = [USER, chat_kit.assistant("one"), {"role": "user", "content": "later"}]
    path, ids = chat_kit.session(*messages, chat_kit.assistant("two"))
    start = load_chat(path, leaf_id=ids[1])
    assert start.fork and start.messages == messages[:2]
    chat_kit.fake.anthropic(text="A different road.")
    engine = chat_kit.engine(start, chat_kit.sink())
    await engine.send("instead")
    position, user, reply = records(path)[5:]
    assert position == {"type": "position", "leafId": ids[1]}
    assert user["parentId"] == ids[1] and reply["parentId"] == user["id"]
    session = chat_kit.check(engine)
    assert session.leaf_id == reply["id"]
    fork_context = build_context(session, ids[1]).messages
    assert build_context(session).messages == [
        *fork_context,
        {"role": "user", "content": "instead"},
        reply["message"],
    ]


# --- another writer ---------------------------------------------------------------------------


@pytest.mark.parametrize("written", [False, True], ids=["before-first-write", "after-a-turn"])
@pytest.mark.parametrize("answer", ["theirs", "ours"])
async def test_conflict_before_a_turn(chat_kit: Any, answer: str, written: bool) -> None:
    path, _ = chat_kit.session(USER, chat_kit.assistant("one"))
    sink = chat_kit.sink(conflict=answer)
    engine = chat_kit.engine(load_chat(path), sink)
    if written:
        chat_kit.fake.anthropic(text="First.")
        await engine.send("first")
    ours = list(engine.messages)
    our_leaf = engine.store.leaf_id
    ink = other_writer(path)  # Ink in another terminal goes on from the file's leaf
    theirs = [{"role": "user", "content": "from ink"}, chat_kit.assistant("ink's reply")]
    their_ids = [ink.append_message(message)["id"] for message in theirs]
    chat_kit.fake.anthropic(text="Mine.")
    await engine.send("mine")
    [conflict] = sink.conflicts
    assert [entry.id for entry in conflict.arrived] == their_ids
    assert conflict.our_leaf == our_leaf and conflict.their_leaf == their_ids[1]
    user = records(path)[-2]
    sent = chat_kit.fake.last.body["messages"]
    mine = {"role": "user", "content": "mine"}
    if answer == "theirs":
        assert user["parentId"] == their_ids[1]
        assert sent == chat_kit.wire(engine.model, [*ours, *theirs, mine])
        assert any("new leaf" in notice for notice in sink.notices)
    else:
        assert user["parentId"] == our_leaf  # a fork beside their branch
        assert sent == chat_kit.wire(engine.model, [*ours, mine])
    chat_kit.check(engine)


async def test_conflict_mid_turn_goes_on_from_its_own_point(chat_kit: Any) -> None:
    path, _ = chat_kit.session(USER, chat_kit.assistant("one"))
    fake = chat_kit.fake
    fake.anthropic(tool_calls=[("b1", "bash", {"command": "echo hi"})])
    fake.anthropic(text="It printed hi.")
    sink = chat_kit.sink(approvals=("once",))
    engine = chat_kit.engine(load_chat(path), sink)
    arrived: list[str] = []

    def ink_appends(call: dict[str, Any]) -> None:
        message = {"role": "user", "content": "typed in the other terminal"}
        arrived.append(other_writer(path).append_message(message)["id"])

    sink.approve_hook = ink_appends
    outcome = await engine.send("run it")
    assert outcome.status == "done" and outcome.steps == 2
    lines = records(path)
    call, theirs, results, reply = lines[-4:]
    assert theirs["id"] == arrived[0] and theirs["parentId"] == call["id"]
    assert results["parentId"] == call["id"] and results["message"]["role"] == "toolResult"
    assert reply["parentId"] == results["id"]
    assert len(sink.notices) == 1 and "another process appended 1 record" in sink.notices[0]
    assert sink.conflicts == []  # mid-turn: no question, the turn keeps its own point
    chat_kit.check(engine)


# --- new sessions and models ------------------------------------------------------------------


async def test_new_session_is_created_on_the_first_send(chat_kit: Any) -> None:
    model = chat_kit.model(ANTHROPIC)
    start = new_chat(str(chat_kit.work), model=model)
    engine = chat_kit.engine(start, chat_kit.sink())
    assert engine.store.path is None and list(chat_kit.project.iterdir()) == []
    chat_kit.fake.anthropic(text="Welcome.")
    await engine.send("hello")
    [path] = list(chat_kit.project.iterdir())
    header, user, reply = records(path)
    assert list(header) == ["type", "version", "id", "timestamp", "cwd", "model"]
    assert header["cwd"] == str(chat_kit.work)
    assert header["model"] == {"provider": "anthropic", "modelId": "claude-sonnet-4-5"}
    assert user["parentId"] is None and user["message"] == {"role": "user", "content": "hello"}
    assert reply["parentId"] == user["id"] and reply["message"]["blocks"][0]["text"] == "Welcome."
    chat_kit.check(engine)


async def test_set_model_writes_an_explicit_marker(chat_kit: Any) -> None:
    path, _ = chat_kit.session(USER, chat_kit.assistant("one"))
    engine = chat_kit.engine(load_chat(path), chat_kit.sink())
    await engine.set_model(chat_kit.model(OPENAI))
    assert records(path)[-1] == {
        "type": "session_model",
        "provider": "openai",
        "modelId": "gpt-4.1",
        "explicit": True,
    }
    assert restored_model(open_session(path, warn=None))[0] == chat_kit.model(OPENAI)
    chat_kit.fake.chat(text="Now from gpt.")
    await engine.send("who are you")
    assert chat_kit.fake.last.path == "/v1/chat/completions"
    assert engine.messages[-1]["modelReference"] == "openai/gpt-4.1"
    chat_kit.check(engine)


@pytest.mark.parametrize("same", [False, True], ids=["override", "same-model"])
async def test_model_override_is_persisted_before_the_first_message(
    chat_kit: Any, same: bool
) -> None:
    path, ids = chat_kit.session(USER, chat_kit.assistant("one"))
    wanted = chat_kit.model(ANTHROPIC if same else OPENAI)
    start = load_chat(path, model=wanted)
    assert start.model_override is not same
    if same:
        chat_kit.fake.anthropic(text="Same model.")
    else:
        chat_kit.fake.chat(text="Other model.")
    engine = chat_kit.engine(start, chat_kit.sink())
    await engine.send("hi")
    new = records(path)[3:]
    if same:
        assert [r["type"] for r in new] == ["message", "message"]
    else:
        marker, user, _ = new
        assert marker == {
            "type": "session_model",
            "provider": "openai",
            "modelId": "gpt-4.1",
            "explicit": True,
        }
        assert user["parentId"] == ids[1]
        assert restored_model(open_session(path, warn=None))[0] == wanted
    chat_kit.check(engine)


# --- /compact ---------------------------------------------------------------------------------


def long_session(kit: Any) -> tuple[Path, list[dict[str, Any]]]:
    """Two long exchanges: the first is summarised, the second kept (20k tokens ≈ 80k chars).

    The last reply reported no usage at all (zeros): Ink anchors the estimate on the one before.
    """
    call = {"type": "toolCall", "id": "c1", "name": "bash", "arguments": {"command": "ls -la"}}
    unreported = {**kit.assistant("second answer"), "usage": {"inputTokens": 0, "outputTokens": 0}}
    messages = [
        {"role": "user", "content": "A" * 100_000},
        {**tool_call_message(), "blocks": [{"type": "text", "text": ""}, call]},
        {
            "role": "toolResult",
            "results": [{"toolCallId": "c1", "toolName": "bash", "content": "x", "isError": False}],
        },
        kit.assistant("first answer"),
        {"role": "user", "content": "B" * 100_000},
        {**unreported, "usageMissing": True},
    ]
    path, _ = kit.session(*messages)
    return path, messages


async def test_compact_appends_a_compaction_entry(chat_kit: Any) -> None:
    path, messages = long_session(chat_kit)
    fake = chat_kit.fake
    fake.anthropic(text="## Goal\nRead two long notes.", usage=(900, 80))
    engine = chat_kit.engine(load_chat(path, thinking="off"), chat_kit.sink())
    note = await engine.compact()
    assert note.startswith("compacted: ~") and "(2 msgs kept verbatim)" in note
    body = fake.last.body
    assert body["system"] == SUMMARIZATION_SYSTEM_PROMPT
    assert body["max_tokens"] == SUMMARY_MAX_TOKENS and "tools" not in body
    [request] = body["messages"]
    assert request["content"].startswith("[user]\n" + "A" * 4000 + "\n…[truncated 96000 chars]")
    assert (  # Ink's serializeForSummary: JSON.stringify'd arguments, no empty text blocks
        '\n\n[assistant calls bash]\n{"command":"ls -la"}\n\n[tool result bash]\nx\n\n'
        "[assistant]\nfirst answer\n\n---\n\n"
    ) in request["content"]
    entry = records(path)[-1]
    assert list(entry) == [
        "type",
        "id",
        "parentId",
        "timestamp",
        "summary",
        "retainedTail",
        "tokensBefore",
        "usage",
        "model",
        "modelReference",
    ]
    assert entry["type"] == "compaction" and entry["summary"] == "## Goal\nRead two long notes."
    assert entry["retainedTail"] == messages[4:]
    # the last reply that reported usage (5 + 2), then chars/4 of the messages after it
    assert entry["tokensBefore"] == 7 + 25_000 + 4
    # the summariser's usage as reported: cache keys the reply left out are left out (spec §2)
    assert entry["usage"] == {"inputTokens": 900, "outputTokens": 80}
    assert (entry["model"], entry["modelReference"]) == (
        "claude-sonnet-4-5",
        "anthropic/claude-sonnet-4-5",
    )
    summary = f"{COMPACTION_SUMMARY_PREFIX}\n\n## Goal\nRead two long notes."
    assert engine.messages == [{"role": "user", "content": summary}, *messages[4:]]
    assert engine.compaction_boundary == 3
    # the last request was the summariser's: none of the context, only its one message
    chat_kit.check(engine, replies=len(engine.messages), unsent=[request])
    fake.anthropic(text="Continuing.")
    await engine.send("next")
    assert fake.last.body["messages"][0] == {"role": "user", "content": summary}
    chat_kit.check(engine)


async def test_compact_cut_short_writes_nothing(chat_kit: Any) -> None:
    path, _ = long_session(chat_kit)
    before = path.read_bytes()
    chat_kit.fake.anthropic(text="## Goal\nRead tw", stop="max_tokens")
    engine = chat_kit.engine(load_chat(path), chat_kit.sink())
    messages = list(engine.messages)
    with pytest.raises(CompactionError, match="token cap"):
        await engine.compact()
    assert path.read_bytes() == before
    assert engine.messages == messages and engine.compaction_boundary == 0


# --- the disk fills up during a turn ----------------------------------------------------------


async def test_disk_full_mid_reply_is_said_plainly_and_the_chat_goes_on(
    chat_kit: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reply's record is cut off where the disk filled (7,477 bytes, no newline): the
    writer cuts it again, the pane says the disk is full (never "another process wrote"), and
    the next turn continues the file cleanly."""
    import errno
    import os

    from ink_tui.agent.failures import failure_line
    from ink_tui.session.writing import writer as writer_module

    path, _ = chat_kit.session(USER, chat_kit.assistant("one"))
    real_write = os.write
    long_reply = "The plan, step by step — " * 600

    filled: list[int] = []

    def full_disk(fd: int, data: Any) -> int:
        if filled:  # the disk is full now
            raise OSError(errno.ENOSPC, "No space left on device")
        if long_reply[:50].encode() in bytes(data):
            filled.append(real_write(fd, bytes(data[:7477])))  # a short write: what fitted
            return filled[0]
        return real_write(fd, data)

    monkeypatch.setattr(writer_module.os, "write", full_disk)
    engine = chat_kit.engine(load_chat(path), sink := chat_kit.sink())
    chat_kit.fake.anthropic(text=long_reply)
    with pytest.raises(OSError) as caught:
        await engine.send("make a plan")
    monkeypatch.undo()
    assert failure_line(caught.value, "a turn") == (
        f"{path}: the disk is full: the record was not written; nothing else changed"
    )
    session = open_session(path, warn=None)
    assert session.ends_with_newline and session.dropped_final_line is None
    assert records(path)[-1]["message"] == {"role": "user", "content": "make a plan"}
    chat_kit.fake.anthropic(text="Shorter, then.")
    await engine.send("try again")
    assert sink.conflicts == [] and sink.notices == []  # nobody else is blamed
    assert [r["message"]["content"] for r in records(path)[-3:-1]] == ["make a plan", "try again"]
    chat_kit.check(engine)
