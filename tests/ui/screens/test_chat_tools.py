"""Pilot tests of the chat pane's tool calls and commands against ``fake_llm``: the approval
modal (``y``/``a``/``n``/Esc, the command and the edit diff it shows), tools that run without
asking, ``/model`` and ctrl+o, ``/compact`` and ctrl+l.

Helpers (``chat_kit``) and the ``llm``/``workdir``/``chat_session`` fixtures are in conftest.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest
from waiting import wait_for

import ink_tui.agent.chat as chat_engine
from ink_tui.agent.chat import DENIED_TEXT, INTERRUPTED_TEXT
from ink_tui.agent.compact import SUMMARIZATION_SYSTEM_PROMPT, message_tokens, plan_compaction
from ink_tui.session import build_context, open_session, pair_tool_calls
from ink_tui.ui.modals.chat import ApprovalScreen, ModelScreen

SIZE = (120, 40)


def _results(kit: Any, path: Path) -> list[dict[str, Any]]:
    """Every tool result in the file, in order."""
    found: list[dict[str, Any]] = []
    for record in kit.messages(path):
        found += record["message"].get("results") or []
    return found


async def _asked(kit: Any, pilot: Any) -> str:
    """Wait for the approval modal; returns what it shows."""
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, ApprovalScreen), "the approval")
    return str(kit.text(pilot.app.screen))


async def _never_asked(kit: Any, pilot: Any, screen: Any) -> None:
    """Until the turn ends; fails as soon as an approval is asked."""

    def done() -> bool:
        assert not isinstance(pilot.app.screen, ApprovalScreen), "an approval was asked"
        return not screen.busy

    await wait_for(pilot, done, "the turn to end without asking")


# -- 2. approvals -------------------------------------------------------------------------


async def test_y_runs_the_bash_call_once(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any
) -> None:
    kit, path = chat_kit, chat_session
    llm.anthropic(text="Let me check.", tool_calls=[("call_1", "bash", {"command": "echo hi"})])
    llm.anthropic(text="It printed hi.")
    app = kit.app(workdir, path, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        await kit.send(pilot, "say hi")
        shown = await _asked(kit, pilot)
        assert "Run bash" in shown and f"in {workdir}" in shown and "echo hi" in shown
        assert "waits for your approval" in kit.static(screen, "#chat-status")
        await pilot.press("y")
        await wait_for(pilot, lambda: "It printed hi." in kit.log(screen), "the last reply")
        await kit.idle(pilot, screen)
        assert "● bash  echo hi  ✓ ok\n  $ echo hi\n  stdout:\n  hi\n" in kit.lines(screen)
    [result] = _results(kit, path)
    assert result["toolCallId"] == "call_1" and result["isError"] is False
    assert result["content"].splitlines() == ["stdout:", "hi"]
    [sent] = llm.last.body["messages"][-1]["content"]
    assert sent["type"] == "tool_result" and sent["tool_use_id"] == "call_1"
    assert sent["content"] == result["content"] and sent["is_error"] is False
    assert pair_tool_calls(build_context(open_session(path)).messages).problem is None


async def test_a_allows_bash_for_the_rest_of_the_session(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any
) -> None:
    kit, path = chat_kit, chat_session
    llm.anthropic(tool_calls=[("call_1", "bash", {"command": "echo one > one.txt"})])
    llm.anthropic(tool_calls=[("call_2", "bash", {"command": "echo two > two.txt"})])
    llm.anthropic(text="Both ran.")
    app = kit.app(workdir, path, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        await kit.send(pilot, "write two files")
        assert "echo one" in await _asked(kit, pilot)
        await pilot.press("a")
        await _never_asked(kit, pilot, screen)
        assert "Both ran." in kit.log(screen)
    assert (workdir / "one.txt").read_text() == "one\n"
    assert (workdir / "two.txt").read_text() == "two\n"
    assert [r["isError"] for r in _results(kit, path)] == [False, False]
    assert len(llm.requests) == 3


async def test_n_denies_and_the_model_reads_why(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any
) -> None:
    kit, path = chat_kit, chat_session
    llm.anthropic(tool_calls=[("call_1", "bash", {"command": "touch denied.txt"})])
    llm.anthropic(text="Understood, I will not.")
    app = kit.app(workdir, path, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        await kit.send(pilot, "make a file")
        assert "touch denied.txt" in await _asked(kit, pilot)
        await pilot.press("n")
        await wait_for(pilot, lambda: "I will not" in kit.log(screen), "the last reply")
        await kit.idle(pilot, screen)
        assert "● bash  touch denied.txt  ✗ error" in kit.lines(screen)
        assert DENIED_TEXT.format(tool="bash") in kit.lines(screen)  # its result, under it
    denied = DENIED_TEXT.format(tool="bash")
    assert not (workdir / "denied.txt").exists()
    [result] = _results(kit, path)
    assert result == {
        "toolCallId": "call_1",
        "toolName": "bash",
        "content": denied,
        "isError": True,
    }
    [sent] = llm.last.body["messages"][-1]["content"]
    assert sent["content"] == denied and sent["is_error"] is True


async def test_escape_in_the_approval_interrupts_the_turn(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any
) -> None:
    kit, path = chat_kit, chat_session
    calls = [
        ("call_1", "bash", {"command": "touch first.txt"}),
        ("call_2", "bash", {"command": "touch second.txt"}),
    ]
    llm.anthropic(text="Two commands.", tool_calls=calls)
    app = kit.app(workdir, path, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        await kit.send(pilot, "touch both")
        assert "touch first.txt" in await _asked(kit, pilot)
        await pilot.press("escape")
        await wait_for(pilot, lambda: "interrupted" in kit.log(screen), "the interrupted note")
        await kit.idle(pilot, screen)
        assert "ready" in kit.static(screen, "#chat-status")
    assert not (workdir / "first.txt").exists() and not (workdir / "second.txt").exists()
    results = _results(kit, path)
    assert [(r["toolCallId"], r["content"], r["isError"]) for r in results] == [
        ("call_1", INTERRUPTED_TEXT, True),
        ("call_2", INTERRUPTED_TEXT, True),
    ]
    assert len(llm.requests) == 1  # the results were not sent on
    context = build_context(open_session(path)).messages
    assert pair_tool_calls(context).problem is None and not pair_tool_calls(context).dangling


async def test_read_runs_without_asking(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any
) -> None:
    kit, path = chat_kit, chat_session
    llm.anthropic(tool_calls=[("call_1", "read", {"path": "notes.txt"})])
    llm.anthropic(text="It says alpha and beta.")
    app = kit.app(workdir, path, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        await kit.send(pilot, "read the notes")
        await _never_asked(kit, pilot, screen)
        assert "alpha and beta" in kit.log(screen)
        assert "● read  notes.txt  ✓ ok\n  " in kit.lines(screen)  # the file's lines under it
    [result] = _results(kit, path)
    assert result["isError"] is False and "alpha\nbeta" in result["content"]


async def test_the_approval_shows_the_edit_diff(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any
) -> None:
    kit, path = chat_kit, chat_session
    source = workdir / "calc.py"
    source.write_text("def total(xs):\n    return 5\n")
    edit = {"path": "calc.py", "edits": [{"oldText": "return 5", "newText": "return sum(xs)"}]}
    llm.anthropic(tool_calls=[("call_1", "edit", edit)])
    llm.anthropic(text="Fixed.")
    app = kit.app(workdir, path, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        await kit.send(pilot, "fix total")
        lines = [line.rstrip() for line in (await _asked(kit, pilot)).splitlines()]
        assert "Run edit  calc.py?" in lines
        assert "-    return 5" in lines and "+    return sum(xs)" in lines
        assert " def total(xs):" in lines
        assert source.read_text() == "def total(xs):\n    return 5\n"  # not yet
        await pilot.press("y")
        await wait_for(pilot, lambda: "Fixed." in kit.log(screen), "the last reply")
        await kit.idle(pilot, screen)
    assert source.read_text() == "def total(xs):\n    return sum(xs)\n"
    [result] = _results(kit, path)
    assert result["isError"] is False


# -- 9. switching the model ----------------------------------------------------------------


async def test_slash_model_switches_records_and_uses_the_new_provider(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any
) -> None:
    kit, path = chat_kit, chat_session
    llm.chat(text="Hello from gpt.")
    app = kit.app(workdir, path, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        await kit.send(pilot, "/model openai/gpt-4o")
        await wait_for(pilot, lambda: "Model: openai/gpt-4o" in kit.log(screen), "the switch")
        await kit.idle(pilot, screen)
        assert "openai/gpt-4o" in kit.static(screen, "#chat-header")
        assert kit.records(path)[-1] == {
            "type": "session_model",
            "provider": "openai",
            "modelId": "gpt-4o",
            "explicit": True,
        }
        await kit.send(pilot, "who are you")
        await wait_for(pilot, lambda: "Hello from gpt." in kit.log(screen), "the reply")
        await kit.idle(pilot, screen)
    assert llm.last.path == "/v1/chat/completions"
    assert llm.last.body["model"] == "gpt-4o"
    assert llm.last.body["messages"][-1] == {"role": "user", "content": "who are you"}
    reply = kit.messages(path)[-1]["message"]
    assert reply["modelReference"] == "openai/gpt-4o"
    assert reply["blocks"][-1] == {"type": "text", "text": "Hello from gpt."}


async def test_ctrl_o_picks_a_model_and_escape_cancels(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any
) -> None:
    from textual.widgets import Input

    kit, path = chat_kit, chat_session
    before = path.read_bytes()
    app = kit.app(workdir, path, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.screen, ModelScreen), "the model picker")
        field = app.screen.query_one("#model-input", Input)
        assert field.value == "anthropic/claude-sonnet-4-5"
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen, "the chat again")
        assert path.read_bytes() == before
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.screen, ModelScreen), "the model picker")
        app.screen.query_one("#model-input", Input).value = ""
        await pilot.press(*"deepseek/deepseek-chat", "enter")
        await wait_for(pilot, lambda: "deepseek/deepseek-chat" in kit.log(screen), "the note")
        await kit.idle(pilot, screen)
        assert "deepseek/deepseek-chat" in kit.static(screen, "#chat-header")
    assert kit.records(path)[-1] == {
        "type": "session_model",
        "provider": "deepseek",
        "modelId": "deepseek-chat",
        "explicit": True,
    }
    assert llm.requests == []


async def test_ctrl_o_offers_the_models_the_providers_list_and_typing_narrows_them(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any
) -> None:
    from textual.widgets import Input, OptionList

    kit, path = chat_kit, chat_session
    llm.list_models(anthropic=["claude-opus-4-6", "claude-sonnet-4-5"], chat=["gpt-4o"])
    app = kit.app(workdir, path, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.screen, ModelScreen), "the picker")
        modal = app.screen
        listed = modal.query_one("#model-list", OptionList)
        await wait_for(pilot, lambda: listed.option_count > 0, "the listed models")
        shown = [str(listed.get_option_at_index(i).id) for i in range(listed.option_count)]
        assert "anthropic/claude-opus-4-6" in shown and "openai/gpt-4o" in shown
        assert "deepseek/gpt-4o" in shown  # every provider with a key was asked
        assert "listed by anthropic, openai, deepseek" in kit.text(modal)
        modal.query_one("#model-input", Input).value = "opus"
        await wait_for(pilot, lambda: listed.option_count == 1, "the models narrowed")
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: app.screen is screen, "the chat again")
        await wait_for(pilot, lambda: "anthropic/claude-opus-4-6" in kit.log(screen), "note")
        await kit.idle(pilot, screen)
        asked = len(llm.model_requests)
        await pilot.press("ctrl+o")  # the lists are kept for the run: nobody is asked again
        await wait_for(pilot, lambda: isinstance(app.screen, ModelScreen), "the picker")
        listed = app.screen.query_one("#model-list", OptionList)
        await wait_for(pilot, lambda: listed.option_count > 0, "the listed models")
        assert len(llm.model_requests) == asked == 3
        await pilot.press("escape")
    assert kit.records(path)[-1] == {
        "type": "session_model",
        "provider": "anthropic",
        "modelId": "claude-opus-4-6",
        "explicit": True,
    }
    assert llm.requests == []


async def test_ctrl_o_without_a_listing_says_so_and_typing_still_works(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any
) -> None:
    from textual.widgets import Input, OptionList

    kit, path = chat_kit, chat_session
    app = kit.app(workdir, path, chat=True)  # the server lists nothing (404)
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.screen, ModelScreen), "the picker")
        modal = app.screen
        await wait_for(pilot, lambda: "no provider listed" in kit.text(modal), "the fallback note")
        assert not modal.query_one("#model-list", OptionList).display
        modal.query_one("#model-input", Input).value = "openai/gpt-5"
        await pilot.press("enter")
        await wait_for(pilot, lambda: "Model: openai/gpt-5" in kit.log(screen), "the switch")
        await kit.idle(pilot, screen)
    assert kit.records(path)[-1]["modelId"] == "gpt-5"


# -- 10. /compact ------------------------------------------------------------------------------


async def test_slash_compact_writes_a_compaction_and_shows_the_summary(
    chat_kit: Any,
    workdir: Path,
    chat_session: Path,
    llm: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kit, path = chat_kit, chat_session
    context = build_context(open_session(path)).messages
    last_turn = context[-2:]
    keep = sum(message_tokens(message) for message in last_turn)  # keep only the last turn
    monkeypatch.setattr(
        chat_engine, "plan_compaction", functools.partial(plan_compaction, keep_recent=keep)
    )
    llm.anthropic(text="## Goal\nAnswer two questions (the summary).")
    llm.anthropic(text="Still here.")
    app = kit.app(workdir, path, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        await kit.send(pilot, "/compact")
        await wait_for(pilot, lambda: "compacted: ~" in kit.log(screen), "the compaction")
        await kit.idle(pilot, screen)
        shown = kit.log(screen)
        assert "⟳ compaction · 15 tokens before · kept 2 messages as the retained tail" in shown
        assert "Answer two questions (the summary)." in shown
        summarizer = llm.last.body
        assert summarizer["system"] == SUMMARIZATION_SYSTEM_PROMPT
        assert "first question" in str(summarizer["messages"])
        await kit.send(pilot, "still there?")
        await wait_for(pilot, lambda: "Still here." in kit.log(screen), "the reply")
        await kit.idle(pilot, screen)
    compaction = next(r for r in kit.records(path) if r["type"] == "compaction")
    assert compaction["summary"] == "## Goal\nAnswer two questions (the summary)."
    assert compaction["retainedTail"] == last_turn
    rebuilt = build_context(open_session(path)).messages
    assert "Answer two questions" in str(rebuilt[0]["content"])
    assert rebuilt[1:3] == last_turn
    sent = llm.last.body["messages"]
    assert "Answer two questions" in str(sent[0]["content"])
    assert "first question" not in str(sent)
    assert sent[-1] == {"role": "user", "content": "still there?"}


async def test_compact_on_a_tiny_session_says_why_nothing_is_compacted(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any
) -> None:
    kit, path = chat_kit, chat_session
    before = path.read_bytes()
    app = kit.app(workdir, path, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        await pilot.press("ctrl+l")
        await wait_for(pilot, lambda: "nothing to compact yet" in kit.log(screen), "note")
        await kit.idle(pilot, screen)
        notes = " ".join(line.strip() for line in kit.notes(screen))  # a note may wrap
        assert (
            "nothing to compact yet: the context is about 15 tokens and Ink keeps the newest "
            "20k verbatim: nothing older to summarise"
        ) in notes
    assert path.read_bytes() == before
    assert llm.requests == []


# -- hostile calls and commands typed during a turn ----------------------------------------


async def test_a_hostile_tool_name_and_command_are_shown_literally(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any
) -> None:
    kit, path = chat_kit, chat_session
    name = "x[/b][bold red]y\x1b]0;pwned\x07"
    calls = [
        ("call_1", name, {"path": "a"}),  # an unknown tool: an error result, nothing to approve
        ("call_2", "bash", {"command": "echo \x1b[2J [i]z[/i]"}),
    ]
    llm.anthropic(tool_calls=calls)
    llm.anthropic(text="Sorry.")
    app = kit.app(workdir, path, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        await kit.send(pilot, "go")
        shown = await _asked(kit, pilot)
        assert app.screen.preview.tool == "bash"
        assert "\x1b" not in shown and "echo ␛[2J [i]z[/i]" in shown
        await pilot.press("n")
        await wait_for(pilot, lambda: "Sorry." in kit.log(screen), "the last reply")
        await kit.idle(pilot, screen)
        log = kit.log(screen)
        assert "\x1b" not in log and "\x07" not in log
        assert "● x[/b][bold red]y␛]0;pwned␇  a  ✗ error" in kit.lines(screen)
    first, second = _results(kit, path)
    assert first["toolName"] == name and first["isError"] is True
    assert second["content"] == DENIED_TEXT.format(tool="bash")


async def test_a_command_typed_during_a_turn_runs_as_a_command(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any
) -> None:
    kit, path = chat_kit, chat_session
    llm.hold("busy answering")
    app = kit.app(workdir, path, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        await kit.send(pilot, "one")
        await wait_for(pilot, llm.held.is_set, "the held stream")
        await kit.send(pilot, "/model openai/gpt-4o")
        await wait_for(pilot, lambda: bool(screen.queued), "the queue")
        llm.release()
        await wait_for(pilot, lambda: "Model: openai/gpt-4o" in kit.log(screen), "the switch")
        await kit.idle(pilot, screen)
    assert len(llm.requests) == 1
    assert kit.records(path)[-1]["type"] == "session_model"
    assert all("/model" not in str(m["message"].get("content")) for m in kit.messages(path))


async def test_a_message_typed_during_compaction_is_sent_after_it(
    chat_kit: Any,
    workdir: Path,
    chat_session: Path,
    llm: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kit, path = chat_kit, chat_session
    monkeypatch.setattr(
        chat_engine, "plan_compaction", functools.partial(plan_compaction, keep_recent=1)
    )
    llm.hold("the held summary")
    llm.anthropic(text="after the compaction")
    app = kit.app(workdir, path, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        await kit.send(pilot, "/compact")
        await wait_for(pilot, llm.held.is_set, "the held summary")
        await kit.send(pilot, "next message")
        await wait_for(pilot, lambda: bool(screen.queued), "the queue")
        llm.release()
        await wait_for(pilot, lambda: "after the compaction" in kit.log(screen), "the reply")
        await kit.idle(pilot, screen)
    kinds = [record["type"] for record in kit.records(path)[-3:]]
    assert kinds == ["compaction", "message", "message"]
    assert kit.messages(path)[-2]["message"]["content"] == "next message"


async def test_escape_while_a_tool_runs_stops_it_and_records_its_result(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any
) -> None:
    kit, path = chat_kit, chat_session
    llm.anthropic(tool_calls=[("call_1", "bash", {"command": "sleep 60; touch late.txt"})])
    app = kit.app(workdir, path, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        await kit.send(pilot, "wait a minute")
        await _asked(kit, pilot)
        await pilot.press("y")
        status = "#chat-status"
        await wait_for(pilot, lambda: "running bash" in kit.static(screen, status), "the run")
        await pilot.press("escape")
        await wait_for(pilot, lambda: "interrupted" in kit.log(screen), "the interrupted note")
        await kit.idle(pilot, screen)
    assert not (workdir / "late.txt").exists()
    [result] = _results(kit, path)
    assert result["toolCallId"] == "call_1" and result["isError"] is True
    assert len(llm.requests) == 1
    assert pair_tool_calls(build_context(open_session(path)).messages).problem is None
