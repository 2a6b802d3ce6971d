"""Pilot tests of the chat pane against the local fake model server (``fake_llm``): a turn and
its records, interrupting, queueing, forking, a concurrent writer, failures before any write, a
new session, hostile model text. Approvals, ``/model`` and ``/compact``: ``test_chat_tools.py``.

Helpers (``chat_kit``) and the ``llm``/``workdir``/``chat_session`` fixtures are in conftest.
"""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest
from viewtext import without_time
from waiting import wait_for, workers_finished

from ink_tui.agent import chat as chat_module
from ink_tui.agent.providers.convert import anthropic_request
from ink_tui.agent.providers.retry import RetryPolicy
from ink_tui.paths import project_dir
from ink_tui.session import build_context, open_session, pair_tool_calls
from ink_tui.session.writing.writer import SessionWriter
from ink_tui.ui.modals.chat import ConflictScreen, ForkScreen
from ink_tui.ui.screens.chat import ChatScreen
from ink_tui.ui.screens.picker import PickerScreen
from ink_tui.ui.session_view.tree import SessionTree
from ink_tui.ui.widgets.composer import Composer

SIZE = (120, 40)


# -- 1. a turn, from the session view and back ----------------------------------------------


async def test_c_at_the_leaf_chats_and_the_file_holds_the_turn(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any
) -> None:
    kit, path = chat_kit, chat_session
    old_leaf = open_session(path).leaf_id
    llm.anthropic(text="The **answer** is 42.")
    app = kit.app(workdir, path)
    async with app.run_test(size=SIZE) as pilot:
        await kit.session_ready(pilot)
        await pilot.press("c")
        screen = await kit.chat_ready(pilot)
        assert not screen.engine.start.fork
        assert "second answer" in kit.log(screen)
        await kit.send(pilot, "what is it")
        await wait_for(pilot, lambda: "answer is 42" in kit.log(screen), "the reply")
        await kit.idle(pilot, screen)
        assert "claude-sonnet-4-5" in kit.static(screen, "#chat-header")
        assert "ready" in kit.static(screen, "#chat-status")
        shown = kit.lines(screen)

        user, reply = kit.messages(path)[-2:]
        assert f"▌ You  {user['id']}\n  what is it" in shown  # as the replay shows a prompt
        assert user["message"] == {"role": "user", "content": "what is it"}
        assert user["parentId"] == old_leaf
        assert reply["parentId"] == user["id"]
        assert reply["message"]["blocks"] == [{"type": "text", "text": "The **answer** is 42."}]
        context = build_context(open_session(path)).messages
        assert anthropic_request("", context[:-1], ())["messages"] == llm.last.body["messages"]
        assert context[-1] == reply["message"]
        assert len(llm.requests) == 1

        await pilot.press("escape")  # idle: back to the session view, which shows the turn
        view = await kit.session_ready(pilot)
        tree = view.query_one(SessionTree)
        await wait_for(
            pilot,
            lambda: without_time(tree.top_rows[-1].text).endswith("what is it"),
            "the new turn in the session view",
        )


# -- 3. interrupting a stream ---------------------------------------------------------------


async def test_escape_while_streaming_interrupts_and_writes_no_partial_reply(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any
) -> None:
    kit, path = chat_kit, chat_session
    llm.hold("half-finished thought")
    app = kit.app(workdir, path, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        await kit.send(pilot, "think hard")
        await wait_for(pilot, lambda: "half-finished thought" in kit.log(screen), "the partial")
        assert screen.busy
        await pilot.press("escape")
        await wait_for(pilot, lambda: "interrupted" in kit.log(screen), "the interrupted note")
        await kit.idle(pilot, screen)
        assert "half-finished thought" not in kit.log(screen)
        assert isinstance(app.screen, ChatScreen)  # Esc interrupted; it did not go back
        await wait_for(pilot, llm.disconnected.is_set, "the stream to be closed")
    assert b"half-finished thought" not in path.read_bytes()
    opened = open_session(path)  # the file opens: the user message was accepted and kept
    last = kit.messages(path)[-1]
    assert last["message"] == {"role": "user", "content": "think hard"}
    assert opened.leaf_id == last["id"]  # no assistant message after it
    context = build_context(opened).messages
    assert context[-1] == {"role": "user", "content": "think hard"}
    assert pair_tool_calls(context).problem is None


# -- 4. a message queued during a turn ------------------------------------------------------


async def test_a_message_typed_during_a_turn_is_queued_and_sent_after_it(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any
) -> None:
    kit, path = chat_kit, chat_session
    llm.hold("first reply")
    app = kit.app(workdir, path, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        await kit.send(pilot, "one")
        await wait_for(pilot, llm.held.is_set, "the held stream")
        await kit.send(pilot, "two")
        queued = screen.query_one("#chat-queued")
        await wait_for(pilot, lambda: queued.display, "the queue")
        assert "queued: two" in kit.static(screen, "#chat-queued")
        assert len(llm.requests) == 1
        llm.anthropic(text="second reply")
        llm.release()
        await wait_for(pilot, lambda: "second reply" in kit.log(screen), "the second reply")
        await kit.idle(pilot, screen)
        assert not queued.display
    chain = kit.messages(path)[-4:]
    assert [m["message"]["role"] for m in chain] == ["user", "assistant", "user", "assistant"]
    assert [m["message"].get("content") for m in chain[::2]] == ["one", "two"]
    assert chain[1]["message"]["blocks"][0]["text"] == "first reply"
    assert chain[3]["message"]["blocks"][0]["text"] == "second reply"
    assert [m["parentId"] for m in chain[1:]] == [m["id"] for m in chain[:-1]]
    assert len(llm.requests) == 2
    assert llm.requests[1].body["messages"][-1] == {"role": "user", "content": "two"}


async def test_a_queued_message_discarded_with_escape_is_never_sent(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any
) -> None:
    kit, path = chat_kit, chat_session
    llm.hold("only reply")
    app = kit.app(workdir, path, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        await kit.send(pilot, "one")
        await wait_for(pilot, llm.held.is_set, "the held stream")
        await kit.send(pilot, "never sent")
        await wait_for(pilot, lambda: bool(screen.queued), "the queue")
        await pilot.press("escape")  # discards the queue; the turn goes on
        await wait_for(pilot, lambda: not screen.queued, "the discard")
        assert "queued message discarded" in kit.static(screen, "#chat-status")
        assert screen.busy
        llm.release()
        await wait_for(pilot, lambda: "only reply" in kit.log(screen), "the reply")
        await kit.idle(pilot, screen)
    assert len(llm.requests) == 1
    assert b"never sent" not in path.read_bytes()
    assert all("never sent" not in json.dumps(request.body) for request in llm.requests)


# -- 5. continue from an earlier turn ------------------------------------------------------


@pytest.fixture
def tool_session(chat_kit: Any, workdir: Path) -> Path:
    """Turn 1 ends with a bash call and its result; turn 2 is plain text."""
    writer = chat_kit.writer(workdir)
    writer.append_message({"role": "user", "content": "list the files"})
    call = {"type": "toolCall", "id": "call_1", "name": "bash", "arguments": {"command": "ls"}}
    writer.append_message(chat_kit.assistant(blocks=[call], stopReason="tool_use"))
    result = {"toolCallId": "call_1", "toolName": "bash", "content": "notes.txt", "isError": False}
    writer.append_message({"role": "toolResult", "results": [result]})
    writer.append_message({"role": "user", "content": "now something else"})
    writer.append_message(chat_kit.assistant("something else done"))
    return Path(writer.path)


@pytest.mark.parametrize("key", ["enter", "l"])
async def test_c_on_an_earlier_turn_asks_fork_or_leaf(
    chat_kit: Any, workdir: Path, tool_session: Path, llm: Any, key: str
) -> None:
    kit, path = chat_kit, tool_session
    before = open_session(path)
    turn_end = kit.messages(path)[2]["id"]  # the end of turn 1: past its tool call's result
    llm.anthropic(text="from here on")
    app = kit.app(workdir, path)
    async with app.run_test(size=SIZE) as pilot:
        await kit.session_ready(pilot)
        await pilot.press("g")  # the first turn's row
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, ForkScreen), "the fork question")
        shown = kit.text(app.screen)
        assert "after turn 1 · list the files" in shown  # as the replay names the turn
        assert turn_end[:8] not in shown  # never an entry id the replay does not show
        await pilot.press(key)
        screen = await kit.chat_ready(pilot)
        assert screen.engine.start.fork is (key == "enter")
        shown = kit.log(screen)
        assert ("new branch" in shown) is (key == "enter")
        assert ("something else done" in shown) is (key == "l")
        await kit.send(pilot, "branch off")
        await wait_for(pilot, lambda: "from here on" in kit.log(screen), "the reply")
        await kit.idle(pilot, screen)
    new = kit.records(path)[1 + len(before.entries) :]  # after the header and the old entries
    sent = [message["role"] for message in llm.last.body["messages"]]
    if key == "enter":
        assert new[0] == {"type": "position", "leafId": turn_end}
        assert new[1]["message"]["content"] == "branch off"
        assert new[1]["parentId"] == turn_end
        assert sent == ["user", "assistant", "user", "user"]  # turn 1, its result, ours
    else:
        assert new[0]["message"]["content"] == "branch off"
        assert new[0]["parentId"] == before.leaf_id
        assert all(record["type"] != "position" for record in new)
        assert len(sent) == 6


async def test_c_within_a_turn_says_the_turn_its_prompt_and_what_it_goes_on_after(
    chat_kit: Any, workdir: Path, llm: Any
) -> None:
    kit = chat_kit
    writer = kit.writer(workdir)
    writer.append_message({"role": "user", "content": "tidy the notes"})
    call = {"type": "toolCall", "id": "call_1", "name": "bash", "arguments": {"command": "ls"}}
    look = {"type": "text", "text": "Let me look first."}
    writer.append_message(kit.assistant(blocks=[look, call], stopReason="tool_use"))
    result = {"toolCallId": "call_1", "toolName": "bash", "content": "notes.txt", "isError": False}
    writer.append_message({"role": "toolResult", "results": [result]})
    writer.append_message(kit.assistant("Tidied."))
    writer.append_message({"role": "user", "content": "thanks"})
    writer.append_message(kit.assistant("welcome"))
    app = kit.app(workdir, writer.path)
    async with app.run_test(size=SIZE) as pilot:
        await kit.session_ready(pilot)
        await pilot.press("g", "l", "j")  # turn 1, opened: its first row
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, ForkScreen), "the fork question")
        shown = kit.text(app.screen)
        assert "within turn 1 · tidy the notes" in shown
        assert "after: Let me look first." in shown


# -- 6. another writer appended meanwhile ---------------------------------------------------


@pytest.mark.parametrize("answer", ["n", "o"])
async def test_a_concurrent_append_asks_where_to_go_on(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any, answer: str
) -> None:
    kit, path = chat_kit, chat_session
    our_leaf = open_session(path).leaf_id
    llm.anthropic(text="noted")
    app = kit.app(workdir, path, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        other = SessionWriter.for_session(open_session(path))  # Ink in another terminal
        other.append_message({"role": "user", "content": "typed in the other terminal"})
        other.append_message(kit.assistant("answered over there"))
        their_leaf = other.leaf_id
        await kit.send(pilot, "mine")
        await wait_for(pilot, lambda: isinstance(app.screen, ConflictScreen), "the conflict")
        shown = kit.text(app.screen)
        assert "2 new records" in shown
        assert "user: typed in the other terminal" in shown
        assert "assistant: answered over there" in shown
        await pilot.press(answer)
        await wait_for(pilot, lambda: "noted" in kit.log(screen), "the reply")
        await kit.idle(pilot, screen)
        log = kit.log(screen)
        if answer == "n":  # their messages are shown where they are in the file: before ours
            assert "went on from the new leaf" in log
            lines = kit.lines(screen)  # their messages, then ours (the prompt under its header)
            assert (
                lines.index("answered over there")
                < lines.index("\n  mine\n")
                < lines.index("noted")
            )
        else:
            assert "answered over there" not in log
    user = next(m for m in kit.messages(path) if m["message"].get("content") == "mine")
    sent = [m["content"] for m in llm.last.body["messages"] if m["role"] == "user"]
    if answer == "n":
        assert user["parentId"] == their_leaf
        assert sent[-2:] == ["typed in the other terminal", "mine"]
    else:
        assert user["parentId"] == our_leaf
        assert "typed in the other terminal" not in sent
    assert open_session(path).leaf_id == kit.messages(path)[-1]["id"]


# -- 7. nothing is written when the request cannot go out ------------------------------------


async def test_a_missing_key_is_a_note_and_the_text_comes_back(
    chat_kit: Any,
    workdir: Path,
    chat_session: Path,
    llm: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kit, path = chat_kit, chat_session
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    before = path.read_bytes()
    app = kit.app(workdir, path, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        await kit.send(pilot, "hello there")
        await wait_for(pilot, lambda: "ANTHROPIC_API_KEY" in kit.log(screen), "the key note")
        await kit.idle(pilot, screen)
        assert screen.query_one("#chat-input", Composer).value == "hello there"
        (note,) = [note for note in kit.said(screen) if "ANTHROPIC_API_KEY" in note]
        assert note.endswith("— nothing was written; the message is back in the composer")
        assert not any("not sent" in note for note in kit.said(screen))  # one line says it all
        assert isinstance(app.screen, ChatScreen)
    assert path.read_bytes() == before
    assert llm.requests == []


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


async def test_an_unreachable_server_is_a_one_line_note_and_nothing_is_written(
    chat_kit: Any,
    workdir: Path,
    chat_session: Path,
    llm: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kit, path = chat_kit, chat_session
    url = f"http://127.0.0.1:{_closed_port()}"
    monkeypatch.setenv("ANTHROPIC_BASE_URL", url)
    waits: list[float] = []

    async def no_sleep(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr(chat_module, "RetryPolicy", lambda: RetryPolicy(sleep=no_sleep))
    before = path.read_bytes()
    app = kit.app(workdir, path, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        await kit.send(pilot, "anyone there")
        gave_back = lambda: any("back in the composer" in n for n in kit.said(screen))  # noqa: E731
        await wait_for(pilot, gave_back, "the error")
        await kit.idle(pilot, screen)
        assert waits == [0.5, 1.0]  # tried again twice, each wait said in the pane
        notes = [note for note in kit.said(screen) if note.startswith("anthropic")]
        assert [note.split(" — ")[0] for note in notes] == 3 * [
            f"anthropic: cannot reach {url} (connection refused)"
        ]
        assert notes[0].endswith("retrying in 0.5 s (retry 1 of 2; Esc stops)")
        assert notes[1].endswith("retrying in 1 s (retry 2 of 2; Esc stops)")
        assert notes[2].endswith("nothing was written; the message is back in the composer")
        assert screen.query_one("#chat-input", Composer).value == "anyone there"
    assert path.read_bytes() == before


# -- 8. a new session from the picker ----------------------------------------------------


async def test_c_in_the_picker_starts_a_session_written_with_its_first_message(
    chat_kit: Any, workdir: Path, llm: Any
) -> None:
    kit = chat_kit
    folder = project_dir(kit.sessions, str(workdir))
    llm.anthropic(text="hello, new friend")
    app = kit.app(workdir, model=kit.model)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, PickerScreen), "the picker")
        await wait_for(pilot, workers_finished(app), "the picker's rows")
        await pilot.press("c")  # the chat pane's key, as in the session view
        screen = await kit.chat_ready(pilot)
        assert "a new session in" in kit.log(screen)
        assert "new session" in kit.static(screen, "#chat-header")
        assert not folder.exists() or not any(folder.iterdir())
        await kit.send(pilot, "start something")
        await wait_for(pilot, lambda: "new friend" in kit.log(screen), "the reply")
        await kit.idle(pilot, screen)
        assert "new session" not in kit.static(screen, "#chat-header")
    files = list(folder.iterdir())
    assert len(files) == 1 and files[0].suffix == ".jsonl"
    lines = kit.records(files[0])
    assert lines[0]["type"] == "session" and lines[0]["cwd"] == str(workdir)
    assert [line["message"]["role"] for line in lines[1:]] == ["user", "assistant"]
    assert lines[1]["message"]["content"] == "start something"
    assert lines[1]["parentId"] is None and lines[2]["parentId"] == lines[1]["id"]


async def test_slash_model_in_a_new_session_writes_nothing_until_the_first_message(
    chat_kit: Any, workdir: Path, llm: Any
) -> None:
    """Ink's lazy creation: the model chosen before the file exists goes in its header, written
    with the first message; no file holds only a header and a model switch."""
    kit = chat_kit
    folder = project_dir(kit.sessions, str(workdir))
    llm.chat(text="hello from gpt")
    app = kit.app(workdir, model=kit.model)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, PickerScreen), "the picker")
        await wait_for(pilot, workers_finished(app), "the picker's rows")
        await pilot.press("c")  # a new session in the chat pane
        screen = await kit.chat_ready(pilot)
        await kit.send(pilot, "/model openai/gpt-4o")
        await wait_for(pilot, lambda: "Model: openai/gpt-4o" in kit.log(screen), "the switch")
        await kit.idle(pilot, screen)
        assert not folder.exists() or not any(folder.iterdir())
        assert "openai/gpt-4o" in kit.static(screen, "#chat-header")
        await kit.send(pilot, "start something")
        await wait_for(pilot, lambda: "hello from gpt" in kit.log(screen), "the reply")
        await kit.idle(pilot, screen)
    [path] = list(folder.iterdir())
    lines = kit.records(path)
    assert lines[0]["model"] == {"provider": "openai", "modelId": "gpt-4o"}
    assert [line["type"] for line in lines[1:]] == ["message", "message"]
    assert llm.last.path == "/v1/chat/completions" and llm.last.body["model"] == "gpt-4o"
    session = open_session(path)
    assert session.leaf_id == lines[2]["id"]


# -- 11. hostile model text ------------------------------------------------------------------

HOSTILE = "look \x1b]0;pwned\x07 and \x1b[2J and [bold]x[/] done"


async def test_hostile_model_text_is_shown_literally(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any
) -> None:
    kit, path = chat_kit, chat_session
    llm.hold(HOSTILE)
    llm.anthropic(text=HOSTILE)
    app = kit.app(workdir, path, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        await kit.send(pilot, "be nasty")
        await wait_for(pilot, lambda: "pwned" in kit.log(screen), "the streamed hostile text")
        streaming = kit.text(screen, "#chat-stream Static")
        llm.release()
        await kit.idle(pilot, screen)
        await kit.send(pilot, "again")
        await wait_for(pilot, lambda: kit.log(screen).count("pwned") == 2, "the second reply")
        await kit.idle(pilot, screen)
        shown = kit.log(screen)
    for text in (streaming, shown):
        assert "\x1b" not in text and "\x07" not in text
        assert "␛]0;pwned␇" in text and "␛[2J" in text
        assert "[bold]x[/]" in text
    assert kit.messages(path)[-1]["message"]["blocks"] == [{"type": "text", "text": HOSTILE}]
