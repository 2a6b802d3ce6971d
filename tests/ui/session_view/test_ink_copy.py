"""Ink's ``/copy`` in the app (spec §7): the copy menu (``y``) offers the last agent message as
Ink's ``/copy`` copies it, in the picker (the file's current branch) and in the session view
(the branch shown), and the chat pane's ``/copy`` copies it with Ink's words, during a turn too.
Nothing is ever sent to the model or written to the file."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from waiting import wait_for, workers_finished

from ink_tui.session.writing.writer import SessionWriter
from ink_tui.ui.modals.keeping import CopyScreen
from ink_tui.ui.screens.picker import PickerScreen
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.session_view.tree import SessionTree

CWD = "/home/ada/code/keep"
SIZE = (120, 40)
COPIED = "Copied last agent message to clipboard"
NONE_YET = "No agent messages to copy yet."


def reply(*blocks: dict[str, Any], stop: str = "end_turn") -> dict[str, Any]:
    return {
        "role": "assistant",
        "blocks": list(blocks),
        "usage": {"inputTokens": 1, "outputTokens": 1},
        "stopReason": stop,
    }


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


CALL = {"type": "toolCall", "id": "c1", "name": "ls", "arguments": {}}
THINKING = {"type": "thinking", "thinking": "hmm"}


def forked_session(base: Path) -> tuple[Path, str]:
    """Two branches: the current one ends in a reply that only calls a tool (passed over by
    ``/copy``); the other, written first, ends in its own answer. Returns the path and the
    other branch's leaf."""
    writer = SessionWriter.new(base / "home-ada-code-keep", CWD)
    writer.append_message({"role": "user", "content": "first"})
    writer.append_message(reply(THINKING, text("  the first "), text("answer\n")))
    fork = writer.leaf_id
    writer.append_message({"role": "user", "content": "elsewhere"})
    writer.append_message(reply(text("the other branch's answer")))
    other = writer.leaf_id
    assert other is not None
    writer.append_position(fork)  # as Ink's /fork writes it
    writer.append_message({"role": "user", "content": "second"})
    writer.append_message(reply(CALL, stop="tool_use"))
    result = {"toolCallId": "c1", "toolName": "ls", "content": "a.txt", "isError": False}
    writer.append_message({"role": "toolResult", "results": [result]})
    stamp = time.time() - 3600
    os.utime(writer.path, (stamp, stamp))
    return writer.path, other


def _notes(app: Any) -> str:
    return " ".join(str(note.message) for note in app._notifications)


async def _menu(pilot: Any) -> CopyScreen:
    await pilot.press("y")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, CopyScreen), "the copy menu")
    screen = pilot.app.screen
    assert isinstance(screen, CopyScreen)
    return screen


async def test_the_pickers_copy_menu_copies_the_last_agent_message_of_the_current_branch(
    tmp_path: Path, make_app: Any
) -> None:
    base = tmp_path / "sessions"
    path, _ = forked_session(base)
    before = path.read_bytes()
    app = make_app(sessions_dir=base, cwd=CWD)
    copied: list[str] = []
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        app.copy_to_clipboard = copied.append
        await wait_for(pilot, workers_finished(app), "the picker's rows")
        assert isinstance(app.screen, PickerScreen)
        menu = await _menu(pilot)
        offered = {key: (what, shown) for key, what, shown in menu.choices}
        assert offered["a"] == ("the last agent message", "as Ink's /copy copies it")
        await pilot.press("a")
        await wait_for(pilot, lambda: copied, "the copy")
        assert copied == ["the first answer"]  # the tool-only reply is passed over
        await wait_for(pilot, lambda: COPIED in _notes(app), "Ink's words")
    assert path.read_bytes() == before


async def test_the_session_views_copy_menu_takes_the_branch_shown(
    tmp_path: Path, make_app: Any
) -> None:
    base = tmp_path / "sessions"
    path, other = forked_session(base)
    app = make_app(sessions_dir=base, cwd=CWD, open_path=path)
    copied: list[str] = []
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        app.copy_to_clipboard = copied.append
        await wait_for(pilot, lambda: isinstance(app.screen, SessionScreen), "the session")
        view = app.screen
        tree = view.query_one(SessionTree)
        await wait_for(pilot, lambda: tree.at_last_row, "the rows")
        await _menu(pilot)
        await pilot.press("a")
        await wait_for(pilot, lambda: copied, "the copy")
        assert copied == ["the first answer"]
        app.push_screen(SessionScreen(path, other))  # the other branch, as b + Enter shows it
        await wait_for(
            pilot,
            lambda: app.screen is not view and getattr(app.screen, "loaded", None) is not None,
            "the other branch",
        )
        await _menu(pilot)
        await pilot.press("a")
        await wait_for(pilot, lambda: len(copied) == 2, "the second copy")
        assert copied[-1] == "the other branch's answer"


async def test_a_session_without_an_agent_message_says_inks_words(
    tmp_path: Path, make_app: Any
) -> None:
    base = tmp_path / "sessions"
    writer = SessionWriter.new(base / "home-ada-code-keep", CWD)
    writer.append_message({"role": "user", "content": "only a question"})
    writer.append_message(reply(CALL, stop="tool_use"))
    app = make_app(sessions_dir=base, cwd=CWD)
    copied: list[str] = []
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        app.copy_to_clipboard = copied.append
        await wait_for(pilot, workers_finished(app), "the picker's rows")
        await _menu(pilot)
        await pilot.press("a")
        await wait_for(pilot, lambda: NONE_YET in _notes(app), "Ink's words")
        assert copied == []


# -- the chat pane's /copy ---------------------------------------------------------------------


async def test_slash_copy_in_the_chat_pane_copies_the_last_answer_and_sends_nothing(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any
) -> None:
    kit = chat_kit
    before = chat_session.read_bytes()
    app = kit.app(workdir, chat_session, chat=True)
    copied: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        app.copy_to_clipboard = copied.append
        screen = await kit.chat_ready(pilot)
        await kit.send(pilot, "/copy")
        await wait_for(pilot, lambda: copied, "the copy")
        assert copied == ["second answer"]
        await wait_for(pilot, lambda: COPIED in kit.said(screen), "Ink's words")
        assert llm.requests == [] and not screen.busy
    assert chat_session.read_bytes() == before


async def test_slash_copy_runs_during_a_turn_and_then_takes_the_new_answer(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any
) -> None:
    kit = chat_kit
    llm.hold("a reply still streaming")
    app = kit.app(workdir, chat_session, chat=True)
    copied: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        app.copy_to_clipboard = copied.append
        screen = await kit.chat_ready(pilot)
        await kit.send(pilot, "third question")
        await wait_for(pilot, llm.held.is_set, "the held stream")
        await kit.send(pilot, "/copy")
        await wait_for(pilot, lambda: copied, "the copy during the turn")
        assert copied == ["second answer"]  # what is streaming is not in the context yet
        assert screen.queued == [] and screen.busy
        llm.release()
        await kit.idle(pilot, screen)
        await kit.send(pilot, "/copy")
        await wait_for(pilot, lambda: len(copied) == 2, "the second copy")
        assert copied[-1] == "a reply still streaming"


async def test_slash_copy_in_a_new_chat_says_there_is_nothing_yet(
    chat_kit: Any, workdir: Path, llm: Any
) -> None:
    kit = chat_kit
    app = kit.app(workdir, None, chat=True)
    copied: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        app.copy_to_clipboard = copied.append
        screen = await kit.chat_ready(pilot)
        await kit.send(pilot, "/copy")
        await wait_for(pilot, lambda: NONE_YET in kit.said(screen), "Ink's words")
        assert copied == [] and llm.requests == []
