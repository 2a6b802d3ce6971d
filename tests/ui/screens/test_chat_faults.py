"""Provider faults as the chat pane shows them: one note saying what happened and what was
written, the message back in the composer when nothing was, and a session that goes on; Esc
during a rate-limit wait; quitting while an approved command runs (its process group dies).

The faults themselves, on both wires, are tested on the engine (tests/unit/agent/test_faults.py
and tests/unit/agent/providers/test_retry.py); here each kind of ending is shown through the real
pane.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest
from waiting import wait_for
from wire import WIRE_IDS, WIRES, Wire

from ink_tui.agent import chat as chat_module
from ink_tui.agent import children
from ink_tui.agent.persist import closing_message
from ink_tui.agent.providers.retry import RetryPolicy
from ink_tui.agent.start import load_chat
from ink_tui.session import ModelRef, build_context, open_session, pair_tool_calls
from ink_tui.session.conversation.pairing import is_unknown_outcome
from ink_tui.ui.modals.chat import ApprovalScreen
from ink_tui.ui.widgets.composer import Composer

SIZE = (120, 40)
BOTH = pytest.mark.parametrize("wire", WIRES, ids=WIRE_IDS)


async def turn_until(kit: Any, pilot: Any, screen: Any, text: str, shows: str) -> str:
    """Send ``text`` and wait for the note containing ``shows``; that note."""
    await kit.send(pilot, text)

    def said() -> str | None:
        return next((note for note in kit.said(screen) if shows in note), None)

    note: str = await wait_for(pilot, said, f"a note with {shows!r}")
    return note


async def turn(kit: Any, pilot: Any, screen: Any, text: str, ends: str) -> str:
    """Send ``text`` and wait for the note containing ``ends`` and the turn's end; that note."""
    note = await turn_until(kit, pilot, screen, text, ends)
    await kit.idle(pilot, screen)
    return note


def continuable(path: Path) -> list[dict[str, Any]]:
    context = build_context(open_session(path)).messages
    pairing = pair_tool_calls(context)
    assert pairing.problem is None and pairing.dangling == []
    return context


@BOTH
async def test_a_stream_cut_in_a_tool_call_is_one_note_and_the_chat_goes_on(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any, wire: Wire
) -> None:
    kit, path = chat_kit, chat_session
    cut = wire.opening() + wire.call(0, "call_1", "bash", '{"command": "rm -', closed=False)
    llm.raw(wire.name, cut)
    wire.reply(llm, text="Starting over.")
    app = kit.app(workdir, path, chat=True, model=ModelRef(wire.provider, wire.model_id))
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        note = await turn(kit, pilot, screen, "clean up", "in the session")
        assert note == (
            f"{wire.provider} stream ended without {wire.end_event} (cut off "
            f"{'in the middle of' if wire.anthropic else 'in'} a tool call) — your message is "
            "in the session; nothing of the failed reply was"
        )
        assert screen.query_one("#chat-input", Composer).value == ""  # it was sent
        assert not any("not sent" in n for n in kit.said(screen))
        assert continuable(path)[-1] == {"role": "user", "content": "clean up"}
        await kit.send(pilot, "again")
        await wait_for(pilot, lambda: "Starting over." in kit.log(screen), "the next reply")
        await kit.idle(pilot, screen)
    assert continuable(path)[-1]["blocks"] == [{"type": "text", "text": "Starting over."}]


@BOTH
async def test_a_long_rate_limit_is_one_note_and_the_message_comes_back(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any, wire: Wire
) -> None:
    kit, path = chat_kit, chat_session
    before = path.read_bytes()
    llm.error(429, wire.error_body("slow down"), retry=None, headers={"retry-after": "600"})
    app = kit.app(workdir, path, chat=True, model=ModelRef(wire.provider, wire.model_id))
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        note = await turn(kit, pilot, screen, "hello", "HTTP 429")
        assert note == (
            f"{wire.provider} HTTP 429 (rate limited, retry after 600 s): slow down — nothing "
            "was written; the message is back in the composer"
        )
        assert screen.query_one("#chat-input", Composer).value == "hello"
        assert len(llm.requests) == 1
    assert path.read_bytes() == before


async def test_escape_during_a_rate_limit_wait_gives_the_message_back(
    chat_kit: Any,
    workdir: Path,
    chat_session: Path,
    llm: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kit, path = chat_kit, chat_session
    before = path.read_bytes()
    waits: list[float] = []

    async def endless(seconds: float) -> None:  # the wait only Esc ends
        waits.append(seconds)
        await asyncio.Event().wait()

    monkeypatch.setattr(chat_module, "RetryPolicy", lambda: RetryPolicy(sleep=endless))
    llm.error(429, WIRES[0].error_body("slow down"), retry=None, headers={"retry-after": "20"})
    app = kit.app(workdir, path, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        note = await turn_until(kit, pilot, screen, "hello", "retrying in 20 s")
        assert note == (
            "anthropic HTTP 429 (rate limited, retry after 20 s): slow down — retrying in 20 s "
            "(retry 1 of 2; Esc stops)"
        )
        await pilot.press("escape")
        await wait_for(pilot, lambda: not screen.busy, "the turn to stop")
        assert kit.said(screen)[-1] == (
            "interrupted: nothing was written; the message is back in the composer"
        )
        assert screen.query_one("#chat-input", Composer).value == "hello"
    assert waits == [20.0] and len(llm.requests) == 1
    assert path.read_bytes() == before


async def test_unreadable_arguments_and_an_empty_reply_are_said(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any
) -> None:
    kit, path = chat_kit, chat_session
    wire = WIRES[0]
    bad = wire.opening() + wire.call(0, "call_1", "ls", '{"path": "a" "b"}')
    llm.raw(wire.name, bad + wire.ending("tool_use"))
    llm.raw(wire.name, wire.opening() + wire.ending("end_turn"))  # then an empty reply
    app = kit.app(workdir, path, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        await turn(kit, pilot, screen, "list", "empty reply")
        said = kit.said(screen)
        assert (
            "the model's ls call sent arguments that are not valid JSON: it was not run, and "
            "the model is told so (an error result)"
        ) in said
        assert (
            "the model sent an empty reply (stop reason end_turn): it is written as Ink writes "
            "one; send again to go on"
        ) in said
    *_, call, result, empty = continuable(path)
    assert call["blocks"][0]["arguments"] == {} and result["results"][0]["isError"] is True
    assert empty["blocks"] == []


# --- the app quits while an approved command runs ------------------------------------------------


async def test_quitting_while_an_approved_command_runs_kills_it_and_the_call_is_closed_later(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any
) -> None:
    """The turn's worker is cancelled with the app: the command's whole group is killed. Its
    result was never recorded; the next chat closes the call with Ink's unknown-outcome text."""
    kit, path = chat_kit, chat_session
    command = "sleep 60 & sleep 60; touch late.txt"
    llm.anthropic(tool_calls=[("call_1", "bash", {"command": command})])
    app = kit.app(workdir, path, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        await kit.send(pilot, "wait a minute")
        await wait_for(pilot, lambda: isinstance(app.screen, ApprovalScreen), "the approval")
        await pilot.press("y")
        pgid: int = await wait_for(pilot, lambda: next(iter(children.running()), None), "the run")
        assert "running bash" in kit.static(screen, "#chat-status")
        await pilot.press("ctrl+q")
    await wait_for(None, lambda: not group_alive(pgid), f"group {pgid} to end", timeout=30)
    assert not (workdir / "late.txt").exists() and children.running() == {}
    *_, call = kit.messages(path)
    assert call["message"]["blocks"][0]["id"] == "call_1"  # the call, and no result
    closing = closing_message(load_chat(path).messages)  # what the next chat writes first
    assert closing is not None and is_unknown_outcome(closing["results"][0])


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True
