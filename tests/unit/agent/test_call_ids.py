"""A provider that reuses tool-call ids (``call_1`` at every turn) must never make the chat write
a session Ink refuses to continue (``tool call … is declared more than once``): a call id the
session already holds is replaced by a fresh one before the assistant message is written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ink_tui.agent.call_ids import file_call_ids, record_call_ids, unique_call_ids
from ink_tui.agent.start import load_chat
from ink_tui.session import build_context, open_session, pair_tool_calls

OPENAI = ("openai", "gpt-4.1")


def _calls(message: dict[str, Any]) -> list[str]:
    return [b["id"] for b in message.get("blocks") or () if b.get("type") == "toolCall"]


def _result_ids(message: dict[str, Any]) -> list[str]:
    return [r["toolCallId"] for r in message["results"]]


def _continuable(path: Path) -> list[dict[str, Any]]:
    context = build_context(open_session(path, warn=None)).messages
    pairing = pair_tool_calls(context)
    assert pairing.problem is None and pairing.duplicate_calls == []
    assert pairing.dangling == []
    return context


async def test_the_same_call_id_two_turns_running_is_renamed_and_the_file_stays_continuable(
    chat_kit: Any,
) -> None:
    fake = chat_kit.fake
    (chat_kit.work / "notes.txt").write_text("alpha\n")
    path, _ = chat_kit.session(
        {"role": "user", "content": "earlier"}, chat_kit.assistant("ok", OPENAI), pair=OPENAI
    )
    for turn in range(2):  # the server says call_1 both times
        fake.chat(tool_calls=[("call_1", "read", {"path": "notes.txt"})])
        fake.chat(text=f"read it ({turn})")
    engine = chat_kit.engine(load_chat(path), chat_kit.sink())
    await engine.send("read notes")
    await engine.send("read them again")

    first, second = engine.messages[3], engine.messages[7]
    assert _calls(first) == ["call_1"]
    [renamed] = _calls(second)
    assert renamed != "call_1" and renamed.startswith("call_1_")
    assert _result_ids(engine.messages[8]) == [renamed]  # the result pairs with the new id
    chat_kit.check(engine, replies=1)
    context = _continuable(path)
    assert context == engine.messages
    # the next request carried the renamed call and its result
    sent_calls = [
        call["id"]
        for message in fake.last.body["messages"]
        for call in message.get("tool_calls") or ()
    ]
    assert sent_calls == ["call_1", renamed]

    # reopened, the session continues; the server's call_1 is renamed again, uniquely
    fake.chat(tool_calls=[("call_1", "read", {"path": "notes.txt"})])
    fake.chat(text="third time")
    again = chat_kit.engine(load_chat(path), chat_kit.sink())
    assert again.start.read_only is None
    await again.send("once more")
    third = _calls(again.messages[-3])[0]
    assert third not in ("call_1", renamed)
    chat_kit.check(again)
    _continuable(path)


async def test_a_call_id_repeated_inside_one_reply_is_renamed_too(chat_kit: Any) -> None:
    fake = chat_kit.fake
    (chat_kit.work / "notes.txt").write_text("alpha\n")
    path, _ = chat_kit.session({"role": "user", "content": "hi"}, chat_kit.assistant("ok", OPENAI))
    fake.chat(
        tool_calls=[
            ("call_1", "read", {"path": "notes.txt"}),
            ("call_1", "ls", {}),
        ]
    )
    fake.chat(text="both done")
    engine = chat_kit.engine(load_chat(path, model=chat_kit.model(OPENAI)), chat_kit.sink())
    await engine.send("go")
    first, second = _calls(engine.messages[-3])
    assert first == "call_1" and second.startswith("call_1_")
    assert _result_ids(engine.messages[-2]) == [first, second]
    chat_kit.check(engine)
    _continuable(path)


async def test_an_id_used_on_another_branch_only_is_renamed(chat_kit: Any, sf: Any) -> None:
    """The file holds ``call_1`` on a branch the chat does not continue: still taken."""
    fake = chat_kit.fake
    (chat_kit.work / "notes.txt").write_text("alpha\n")
    writer_path, ids = chat_kit.session(
        {"role": "user", "content": "first"},
        chat_kit.assistant("first answer", OPENAI),
        {"role": "user", "content": "list"},
        {
            "role": "assistant",
            "blocks": [{"type": "toolCall", "id": "call_1", "name": "ls", "arguments": {}}],
            "usage": {"inputTokens": 1, "outputTokens": 1},
            "stopReason": "tool_use",
        },
        {
            "role": "toolResult",
            "results": [
                {"toolCallId": "call_1", "toolName": "ls", "content": "x", "isError": False}
            ],
        },
        pair=OPENAI,
    )
    fake.chat(tool_calls=[("call_1", "read", {"path": "notes.txt"})])
    fake.chat(text="done")
    start = load_chat(writer_path, leaf_id=ids[1])  # fork after the first answer
    assert "call_1" not in {c for m in start.messages for c in record_call_ids(m)}
    engine = chat_kit.engine(start, chat_kit.sink())
    await engine.send("read instead")
    [renamed] = _calls(engine.messages[-3])
    assert renamed.startswith("call_1_")
    assert "call_1" in file_call_ids(writer_path) and renamed in file_call_ids(writer_path)
    chat_kit.check(engine)


def test_unique_call_ids_keeps_order_and_key_places() -> None:
    message = {
        "role": "assistant",
        "blocks": [
            {"type": "text", "text": "x"},
            {"type": "toolCall", "id": "a", "name": "ls", "arguments": {}},
            {"type": "toolCall", "id": "", "name": "ls", "arguments": {}},
            {"type": "toolCall", "id": "b", "name": "ls", "arguments": {}},
        ],
    }
    taken = {"a", "call_0001"}
    tokens = iter(["0001", "0001", "0002"])  # call_0001 is taken: a second token is drawn
    out = unique_call_ids(message, taken, token=lambda _n: next(tokens))
    assert [b.get("id") for b in out["blocks"]] == [None, "a_0001", "call_0002", "b"]
    assert list(out["blocks"][1]) == ["type", "id", "name", "arguments"]
    assert taken == {"a", "call_0001", "a_0001", "call_0002", "b"}
    assert message["blocks"][1]["id"] == "a"  # the original is left alone
    same = {"role": "assistant", "blocks": [{"type": "toolCall", "id": "z"}]}
    assert unique_call_ids(same, set()) is same


def test_file_call_ids_reads_calls_results_and_retained_tails(sf: Any) -> None:
    path = sf.write(
        sf.user("u1", None),
        sf.assistant("a1", "u1", calls=(("c1", "bash"),)),
        sf.results("r1", "a1", ("c1", "bash")),
        sf.entry(
            "compaction",
            "k1",
            "r1",
            summary="s",
            retainedTail=[
                {"role": "assistant", "blocks": [{"type": "toolCall", "id": "c0", "name": "ls"}]}
            ],
        ),
        b'{"type":"message","id":"torn","toolCall',
        newline=False,
    )
    assert file_call_ids(path) == {"c0", "c1"}
