"""Pilot tests of the chat pane in every state (loading, read-only, failed, running): keys never
reach the app (``q`` quit, ``?`` help) while the user types, and a pane that cannot send says so
in the composer's place. Commands: unknown ones, ``/model`` with a bare id, ``--thinking``.

Helpers (``chat_kit``) and the ``llm``/``workdir``/``chat_session`` fixtures are in conftest.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from waiting import wait_for

import ink_tui.ui.screens.chat as chat_screen
from ink_tui.ui.screens.chat import ChatScreen
from ink_tui.ui.screens.help import HelpScreen
from ink_tui.ui.widgets.chat_log import ChatLog
from ink_tui.ui.widgets.composer import Composer

SIZE = (100, 30)


def _still_here(app: Any, screen: Any) -> None:
    """Nothing quit the app, opened the help or left the pane."""
    assert app.is_running and app.return_code is None
    assert app.screen is screen and not isinstance(app.screen, HelpScreen)


@pytest.fixture
def duplicate_call_session(chat_kit: Any, workdir: Path) -> Path:
    """A session Ink refuses to continue: the call id ``c1`` is declared twice."""
    writer = chat_kit.writer(workdir)
    for turn in range(2):
        writer.append_message({"role": "user", "content": f"turn {turn}"})
        call = {"type": "toolCall", "id": "c1", "name": "ls", "arguments": {}}
        writer.append_message(chat_kit.assistant(blocks=[call], stopReason="tool_use"))
        result = {"toolCallId": "c1", "toolName": "ls", "content": "x", "isError": False}
        writer.append_message({"role": "toolResult", "results": [result]})
    return Path(writer.path)


async def test_a_read_only_pane_says_why_where_the_composer_was_and_q_never_quits(
    chat_kit: Any, workdir: Path, duplicate_call_session: Path, llm: Any
) -> None:
    kit = chat_kit
    before = duplicate_call_session.read_bytes()
    app = kit.app(workdir, duplicate_call_session, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        await wait_for(pilot, lambda: screen.cannot_send is not None, "the read-only notice")
        composer = screen.query_one("#chat-input", Composer)
        cannot = screen.query_one("#chat-cannot")
        assert not composer.display and cannot.display
        notice = kit.static(screen, "#chat-cannot")
        assert notice.startswith("read-only: tool call c1 is declared more than once")
        assert "Esc goes back" in notice and "ctrl+q quits" in notice
        await pilot.press(*"quit?")  # what a user types first, thinking the box is live
        _still_here(app, screen)
        status = kit.static(screen, "#chat-status")
        assert status.startswith("nothing can be sent from here") and "ctrl+q quits" in status
    assert duplicate_call_session.read_bytes() == before
    assert llm.requests == []


async def test_a_pane_that_cannot_read_its_session_says_so_and_q_never_quits(
    chat_kit: Any, workdir: Path, llm: Any
) -> None:
    kit = chat_kit
    broken = workdir / "broken.jsonl"
    broken.write_text('{"type":"nonsense"}\n')
    app = kit.app(workdir, broken, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ChatScreen), "the chat pane")
        screen = app.screen
        await wait_for(pilot, lambda: screen.cannot_send is not None, "the failure")
        reason = screen.cannot_send
        assert reason.startswith(f"cannot chat here: {broken}:1: ")
        assert reason.endswith("missing or unsupported session header")
        shown = kit.static(screen, "#chat-cannot")  # wrapped where the path's length puts it
        assert "header" in shown and "missing or" in " ".join(shown.split())
        assert not screen.query_one("#chat-input", Composer).display
        await pilot.press(*"question?")
        _still_here(app, screen)


async def test_keys_typed_while_the_session_loads_go_into_the_composer(
    chat_kit: Any,
    workdir: Path,
    chat_session: Path,
    llm: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kit = chat_kit
    gate = threading.Event()
    start_chat = chat_screen.start_chat

    def slow_load(*args: Any, **kwargs: Any) -> Any:
        gate.wait(10)
        return start_chat(*args, **kwargs)

    monkeypatch.setattr(chat_screen, "start_chat", slow_load)
    llm.anthropic(text="hello back")
    app = kit.app(workdir, chat_session, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ChatScreen), "the chat pane")
        screen = app.screen
        composer = screen.query_one("#chat-input", Composer)
        await wait_for(pilot, lambda: composer.has_focus, "the composer's focus")
        await pilot.press(*"quick? question", "enter")  # Enter before the session is read
        _still_here(app, screen)
        assert screen.engine is None and composer.value == "quick? question"
        assert "still reading the session" in kit.static(screen, "#chat-status")
        gate.set()
        await kit.chat_ready(pilot)
        await pilot.press("enter")
        await wait_for(pilot, lambda: "hello back" in kit.log(screen), "the reply")
        await kit.idle(pilot, screen)
    assert kit.messages(chat_session)[-2]["message"]["content"] == "quick? question"


async def test_q_with_the_focus_on_the_conversation_during_a_turn_is_typed_not_quit(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any
) -> None:
    kit = chat_kit
    llm.hold("thinking about it")
    app = kit.app(workdir, chat_session, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        await kit.send(pilot, "go")
        await wait_for(pilot, llm.held.is_set, "the held stream")
        log = screen.query_one(ChatLog)
        log.focus()  # a click on the conversation does this
        await wait_for(pilot, lambda: log.has_focus, "the focus on the conversation")
        await pilot.press("q", "question_mark")
        _still_here(app, screen)
        composer = screen.query_one("#chat-input", Composer)
        assert composer.has_focus and composer.value == "q?"
        llm.release()
        await kit.idle(pilot, screen)


async def test_an_unknown_command_is_listed_never_sent_and_a_leading_space_sends_it(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any
) -> None:
    kit = chat_kit
    llm.anthropic(text="I see, the folder is missing.")
    app = kit.app(workdir, chat_session, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        composer = screen.query_one("#chat-input", Composer)
        await kit.send(pilot, "/usr/bin is missing")
        await kit.idle(pilot, screen)
        notes = " ".join(line.strip() for line in kit.notes(screen))
        assert 'unknown command "/usr/bin", nothing was sent' in notes
        assert "/compact" in notes and "/model [provider/modelId]" in notes
        assert "/think LEVEL" in notes and "begin it with a space" in notes
        assert llm.requests == []
        assert composer.value == "/usr/bin is missing"  # back, to be fixed
        composer.value = ""
        await kit.send(pilot, " /usr/bin is missing")
        await wait_for(pilot, lambda: "folder is missing" in kit.log(screen), "the reply")
        await kit.idle(pilot, screen)
    assert llm.last.body["messages"][-1]["content"] == " /usr/bin is missing"


async def test_slash_model_with_a_bare_id_says_how_ink_reads_it(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any
) -> None:
    kit = chat_kit
    app = kit.app(workdir, chat_session, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        await kit.send(pilot, "/model gpt-4.1")
        await kit.idle(pilot, screen)
        notes = " ".join(line.strip() for line in kit.notes(screen))
        assert "Model: anthropic/gpt-4.1" in notes
        assert (
            "gpt-4.1 has no provider prefix: Ink reads a bare id as an Anthropic model "
            "(anthropic/gpt-4.1); for another provider name it, e.g. openai/gpt-4.1"
        ) in notes
        assert "gpt-4.1" in kit.static(screen, "#chat-header")
    switch = [r for r in kit.records(chat_session) if r["type"] == "session_model"][-1]
    assert (switch["provider"], switch["modelId"]) == ("anthropic", "gpt-4.1")


async def test_thinking_given_at_launch_is_persisted_with_the_first_message(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any
) -> None:
    kit = chat_kit
    llm.anthropic(text="thought it through")
    app = kit.app(workdir, chat_session, chat=True, thinking="high")
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        assert "thinking high" in kit.static(screen, "#chat-header")
        await kit.send(pilot, "think")
        await wait_for(pilot, lambda: "thought it through" in kit.log(screen), "the reply")
        await kit.idle(pilot, screen)
    records = kit.records(chat_session)
    levels = [r for r in records if r["type"] == "thinkingLevelChange"]
    assert [r["thinkingLevel"] for r in levels] == ["high"]
    user = next(r for r in records if r.get("message", {}).get("content") == "think")
    assert user["parentId"] == levels[0]["id"]


async def test_the_pane_imports_its_model_sdk_in_a_thread_when_it_opens(
    chat_kit: Any,
    workdir: Path,
    chat_session: Path,
    llm: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[tuple[str | None, threading.Thread]] = []
    monkeypatch.setattr(
        chat_screen, "preload_for", lambda p: calls.append((p, threading.current_thread()))
    )
    app = chat_kit.app(workdir, chat_session, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        await chat_kit.chat_ready(pilot)
        await wait_for(pilot, lambda: bool(calls), "the SDK preload")
        loop_thread = threading.current_thread()
    assert [provider for provider, _ in calls] == ["anthropic"]
    assert all(thread is not loop_thread for _, thread in calls)


async def test_a_bug_in_a_turn_is_logged_and_shown_as_one_line(
    chat_kit: Any,
    workdir: Path,
    chat_session: Path,
    llm: Any,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    import ink_tui.agent.chat as engine_module
    import ink_tui.logs as logs

    logs_dir = tmp_path / "logs"
    monkeypatch.setattr(logs, "log_dir", lambda: logs_dir)

    def broken_prompt(*args: Any) -> str:
        raise KeyError("no such section")

    monkeypatch.setattr(engine_module, "system_prompt", broken_prompt)
    app = chat_kit.app(workdir, chat_session, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await chat_kit.chat_ready(pilot)
        await chat_kit.send(pilot, "hello")
        await chat_kit.idle(pilot, screen)
        notes = " ".join(line.strip() for line in chat_kit.notes(screen))
        log_file = logs_dir / logs.LOG_FILE_NAME
        assert "internal error in the chat turn: KeyError: 'no such section'" in notes
        assert f"(traceback in {log_file})" in notes
        assert screen.query_one("#chat-input", Composer).value == "hello"  # nothing was sent
        _still_here(app, screen)
    assert "in broken_prompt" in log_file.read_text()
    assert llm.requests == []
