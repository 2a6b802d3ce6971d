"""The chat pane keeps a bounded number of message widgets: older ones leave the DOM and a line
at the top counts the messages not shown (the session view has them all). Pruning waits while
the user reads further up."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static
from waiting import wait_for

from ink_tui.ui.widgets.chat_entries import written_entries
from ink_tui.ui.widgets.chat_log import ChatLog

SIZE = (100, 30)


def _written(log: ChatLog, text: str) -> None:
    """A user message as the chat writes it."""
    record = {"type": "message", "id": f"id-{text[-12:]}", "parentId": None}
    log.add_written(written_entries([{**record, "message": {"role": "user", "content": text}}]))


def _blocks(log: ChatLog) -> list[Static]:
    return [
        child
        for child in log.children
        if isinstance(child, Static)
        and (child.has_class("chat-message") or child.has_class("chat-note"))
    ]


async def test_a_long_chat_keeps_a_bounded_number_of_messages_mounted(
    chat_kit: Any,
    workdir: Path,
    chat_session: Path,
    llm: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kit = chat_kit
    monkeypatch.setattr(ChatLog, "max_blocks", 6)
    for n in range(4):
        llm.anthropic(text=f"answer number {n}")
    app = kit.app(workdir, chat_session, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await kit.chat_ready(pilot)
        log = screen.query_one(ChatLog)
        assert not log.query_one("#chat-earlier").display  # the 4 messages of the file fit
        for n in range(4):
            await kit.send(pilot, f"question number {n}")
            await wait_for(pilot, lambda n=n: f"answer number {n}" in kit.log(screen), "reply")
            await kit.idle(pilot, screen)
            await wait_for(pilot, lambda: len(_blocks(log)) <= 6, "the pruning")
        shown = kit.log(screen)
        assert "answer number 3" in shown and "question number 3" in shown
        assert "first question" not in shown  # pruned from the DOM
        assert len(_blocks(log)) <= 6
        assert "… 6 earlier messages, not shown here" in kit.static(log, "#chat-earlier")
        assert "session view" in kit.static(log, "#chat-earlier")
    assert len(kit.messages(chat_session)) == 12  # the file keeps everything


async def test_the_context_before_the_pane_opened_is_counted_on_the_same_line(
    chat_kit: Any, workdir: Path, llm: Any
) -> None:
    writer = chat_kit.writer(workdir)
    for n in range(10):
        writer.append_message({"role": "user", "content": f"q{n}"})
        writer.append_message(chat_kit.assistant(f"a{n}"))
    app = chat_kit.app(workdir, writer.path, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await chat_kit.chat_ready(pilot)
        earlier = screen.query_one("#chat-earlier", Static)
        assert earlier.display
        assert chat_kit.static(screen, "#chat-earlier").startswith("… 12 earlier messages")


async def test_pruning_waits_while_the_user_reads_further_up(
    chat_kit: Any,
    workdir: Path,
    chat_session: Path,
    llm: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ChatLog, "max_blocks", 6)
    app = chat_kit.app(workdir, chat_session, chat=True)
    async with app.run_test(size=(100, 14)) as pilot:
        screen = await chat_kit.chat_ready(pilot)
        log = screen.query_one(ChatLog)
        for n in range(2):
            _written(log, "\n".join(["long"] * 10) + f" {n}")
        await wait_for(
            pilot, lambda: log.max_scroll_y > 5 and len(_blocks(log)) == 6, "six long blocks"
        )
        log.scroll_home(animate=False)
        await wait_for(pilot, lambda: log.scroll_y == 0, "the top of the conversation")
        _written(log, "arrives while reading up")
        _written(log, "and another")
        await wait_for(pilot, lambda: len(_blocks(log)) == 8, "both messages mounted")
        assert log.scroll_y == 0  # nothing was pruned, nothing moved
        log.scroll_end(animate=False)
        await wait_for(pilot, lambda: len(_blocks(log)) == 6, "the pruning at the end")
