"""Pilot tests of the chat pane from the keyboard: paging through the conversation while the
composer keeps the focus, ctrl+t hiding or showing thinking in what is shown, F1 for the keys,
the chat commands in the command palette."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import Input
from waiting import wait_for

from ink_tui.ui.widgets.chat_log import ChatLog
from ink_tui.ui.widgets.composer import Composer

SIZE = (100, 24)


async def test_page_keys_scroll_the_conversation_and_sending_follows_the_bottom_again(
    chat_kit: Any, workdir: Path, llm: Any
) -> None:
    writer = chat_kit.writer(workdir)
    for turn in range(4):
        writer.append_message({"role": "user", "content": f"question {turn}"})
        writer.append_message(chat_kit.assistant("\n\n".join(f"line {n}" for n in range(8))))
    llm.anthropic(text="the newest reply")
    app = chat_kit.app(workdir, writer.path, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await chat_kit.chat_ready(pilot)
        log = screen.query_one(ChatLog)
        await wait_for(
            pilot,
            lambda: log.max_scroll_y > 0 and log.is_vertical_scroll_end,
            "a log taller than the pane, scrolled to its end",
        )

        await pilot.press("pageup")
        assert log.scroll_y < log.max_scroll_y
        assert screen.query_one("#chat-input", Composer).has_focus
        await pilot.press("ctrl+home")
        assert log.scroll_y == 0
        await pilot.press("pagedown")
        assert 0 < log.scroll_y < log.max_scroll_y

        await pilot.press("pageup")
        await chat_kit.send(pilot, "one more")  # sending goes back to the bottom
        await wait_for(
            pilot, lambda: "the newest reply" in chat_kit.log(screen), "the newest reply in the log"
        )
        await chat_kit.idle(pilot, screen)
        await wait_for(pilot, lambda: log.is_vertical_scroll_end, "the log at its end")


async def test_ctrl_t_hides_and_shows_thinking_in_messages_already_shown(
    chat_kit: Any, workdir: Path, llm: Any
) -> None:
    writer = chat_kit.writer(workdir)
    writer.append_message({"role": "user", "content": "why"})
    thought = {"type": "thinking", "thinking": "weighing the options", "signature": "sig"}
    writer.append_message(chat_kit.assistant(blocks=[thought, {"type": "text", "text": "because"}]))
    app = chat_kit.app(workdir, writer.path, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await chat_kit.chat_ready(pilot)
        assert "weighing the options" in chat_kit.log(screen)
        await pilot.press("ctrl+t")
        assert "weighing the options" not in chat_kit.log(screen)
        assert "because" in chat_kit.log(screen)
        assert "thinking hidden" in chat_kit.static(screen, "#chat-status")
        await pilot.press("ctrl+t")
        assert "weighing the options" in chat_kit.log(screen)


async def test_ctrl_t_over_a_retained_tail_holding_odd_values_changes_only_thinking(
    chat_kit: Any, workdir: Path, llm: Any
) -> None:
    """A compaction's retained tail may hold anything (a number, a string): the pane shows it
    as it is, and ctrl+t redraws only the messages with thinking (it used to read ``blocks``
    of every value shown, and a number has none)."""
    writer = chat_kit.writer(workdir)
    writer.append_message({"role": "user", "content": "why"})
    thought = {"type": "thinking", "thinking": "weighing the options", "signature": "sig"}
    writer.append_entry(
        "compaction",
        {"summary": "earlier work", "retainedTail": [7, "text", None], "tokensBefore": 10},
    )
    writer.append_message(chat_kit.assistant(blocks=[thought, {"type": "text", "text": "because"}]))
    app = chat_kit.app(workdir, writer.path, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await chat_kit.chat_ready(pilot)
        assert "weighing the options" in chat_kit.log(screen)
        await pilot.press("ctrl+t")
        assert "weighing the options" not in chat_kit.log(screen)
        assert "because" in chat_kit.log(screen) and "7" in chat_kit.log(screen)


async def test_f1_opens_the_keys_from_the_composer_where_question_mark_is_typed(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any
) -> None:
    from ink_tui.ui.screens.help import HelpScreen

    app = chat_kit.app(workdir, chat_session, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await chat_kit.chat_ready(pilot)
        await pilot.press("question_mark")
        assert screen.query_one("#chat-input", Composer).value == "?"
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        assert "Page up" in chat_kit.text(app.screen, "#help-keys")
        assert "ctrl+q quits" in chat_kit.text(app.screen, "#help-palette")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen, "the chat again")


async def test_the_command_palette_offers_the_chat_commands(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any
) -> None:
    from textual.command import CommandList, CommandPalette

    from ink_tui.ui.modals.chat import ModelScreen

    app = chat_kit.app(workdir, chat_session, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        await chat_kit.chat_ready(pilot)
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette), "palette")
        await pilot.press(*"Model")
        found = app.screen.query_one(CommandList)
        await wait_for(
            pilot,
            lambda: found.option_count and "Model" in str(found.get_option_at_index(0).prompt),
            "the Model command first",
        )
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ModelScreen), "the models")


async def test_a_blank_model_is_refused_in_the_picker_and_after_slash_model(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any
) -> None:
    from ink_tui.ui.modals.chat import ModelScreen

    before = chat_session.read_bytes()
    app = chat_kit.app(workdir, chat_session, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await chat_kit.chat_ready(pilot)
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.screen, ModelScreen), "the models")
        field = app.screen.query_one(Input)
        field.value = "\u3000"
        await pilot.press("enter")
        assert isinstance(app.screen, ModelScreen)
        assert "provider/modelId" in chat_kit.static(app.screen, "#model-hint")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen, "the chat again")
        # no key types U+FEFF; Ink trims a command's argument as JavaScript does, so this is
        # /model alone: the picker again
        screen.query_one("#chat-input", Composer).value = "/model \ufeff"
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ModelScreen), "the models again")
        await pilot.press("escape")
        await chat_kit.idle(pilot, screen)
    assert chat_session.read_bytes() == before


async def test_a_pasted_multi_line_message_is_sent_whole(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any
) -> None:
    from textual import events

    llm.anthropic(text="got it")
    app = chat_kit.app(workdir, chat_session, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await chat_kit.chat_ready(pilot)
        composer = screen.query_one("#chat-input", Composer)
        app.post_message(events.Paste("Traceback:\n  line 1\n  line 2"))  # as a terminal does
        await wait_for(
            pilot, lambda: composer.value == "Traceback:\n  line 1\n  line 2", "the pasted text"
        )
        await pilot.press("ctrl+j", *"why?")
        assert composer.value == "Traceback:\n  line 1\n  line 2\nwhy?"
        await pilot.press("enter")
        await wait_for(pilot, lambda: "got it" in chat_kit.log(screen), "the reply")
        await chat_kit.idle(pilot, screen)
        assert composer.value == ""
    user = [m for m in chat_kit.messages(chat_session) if m["message"]["role"] == "user"][-1]
    assert user["message"]["content"] == "Traceback:\n  line 1\n  line 2\nwhy?"


async def test_the_composer_stops_blinking_under_a_question_and_blinks_again_after(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any
) -> None:
    """A blinking cursor under a modal would repaint the chat screen twice a second for
    nothing (and make what is on screen depend on when it is looked at)."""
    from ink_tui.ui.modals.chat import ModelScreen

    app = chat_kit.app(workdir, chat_session, chat=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await chat_kit.chat_ready(pilot)
        composer = screen.query_one("#chat-input", Composer)
        assert composer.cursor_blink
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.screen, ModelScreen), "the models")
        assert not composer.cursor_blink
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen, "the chat again")
        assert composer.cursor_blink
