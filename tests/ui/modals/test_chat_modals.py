"""The chat pane's questions keep their keys on screen at 80x24 and 40x12: the body (a long
command, a big diff, what another writer appended) scrolls between a title and a key line that
stay put."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.containers import VerticalScroll
from textual.widget import Widget
from waiting import wait_for

from ink_tui.agent.persist import Conflict
from ink_tui.session import open_session
from ink_tui.ui.modals.chat import ApprovalScreen, ConflictScreen, ForkScreen, ModelScreen

SIZES = pytest.mark.parametrize("size", [(80, 24), (40, 12)], ids=["80x24", "40x12"])
LONG_COMMAND = "\n".join(f"echo step {n}" for n in range(120))


def _shown_whole(screen: Any, widget: Widget) -> None:
    """``widget`` is inside the terminal and nothing covers any of its rows."""
    region = widget.region
    assert region.height >= 1 and region.width >= 1
    assert screen.region.contains_region(region), (region, screen.region)
    for y in range(region.y, region.bottom):
        top, _ = screen.get_widget_at(region.x, y)
        assert top is widget or widget in top.ancestors_with_self, (y, top)


def _scrolls(body: VerticalScroll) -> None:
    """The body is cut to the room left and scrolls to its end."""
    assert body.max_scroll_y > 0
    body.scroll_end(animate=False)


@SIZES
async def test_the_approval_keeps_its_keys_on_screen_and_scrolls_the_command(
    chat_kit: Any, workdir: Path, chat_session: Path, llm: Any, size: tuple[int, int]
) -> None:
    kit = chat_kit
    llm.anthropic(tool_calls=[("call_1", "bash", {"command": LONG_COMMAND})])
    llm.anthropic(text="Not run, then.")
    app = kit.app(workdir, chat_session, chat=True)
    async with app.run_test(size=size) as pilot:
        screen = await kit.chat_ready(pilot)
        await kit.send(pilot, "run it")
        await wait_for(pilot, lambda: isinstance(app.screen, ApprovalScreen), "the approval")
        modal = app.screen
        keys = modal.query_one("#approval-keys")
        await wait_for(pilot, lambda: keys.region.height > 0, "the key line laid out")
        _shown_whole(modal, keys)
        _shown_whole(modal, modal.query_one(".chat-modal-title"))
        assert "allow once" in kit.static(modal, "#approval-keys")
        body = modal.query_one("#approval-body", VerticalScroll)
        assert body.region.bottom <= keys.region.y
        _scrolls(body)
        await wait_for(pilot, lambda: body.scroll_y == body.max_scroll_y, "the command's end")
        _shown_whole(modal, keys)
        await pilot.press("n")
        await wait_for(pilot, lambda: "Not run, then." in kit.log(screen), "the reply")
        await kit.idle(pilot, screen)
    assert kit.messages(chat_session)[-2]["message"]["results"][0]["isError"] is True


def _conflict(kit: Any, workdir: Path) -> Conflict:
    writer = kit.writer(workdir)
    for n in range(30):
        writer.append_message({"role": "user", "content": f"typed elsewhere {n}"})
        writer.append_message(kit.assistant(f"answered elsewhere {n}"))
    session = open_session(writer.path, warn=None)
    return Conflict(session, list(session.entries), None)


@SIZES
@pytest.mark.parametrize("kind", ["conflict", "model", "fork"])
async def test_the_other_questions_keep_their_keys_on_screen(
    chat_kit: Any, workdir: Path, size: tuple[int, int], kind: str
) -> None:
    kit = chat_kit
    modals = {
        "conflict": lambda: (ConflictScreen(_conflict(kit, workdir)), "#conflict-keys"),
        "model": lambda: (ModelScreen(kit.model), "#model-keys"),
        "fork": lambda: (ForkScreen("entry 0123abcd: " + "a long prompt " * 30), "#fork-keys"),
    }
    modal, keys_id = modals[kind]()
    app = kit.app(workdir)
    async with app.run_test(size=size) as pilot:
        app.push_screen(modal)
        await wait_for(pilot, lambda: app.screen is modal, f"the {kind} question")
        keys = modal.query_one(keys_id)
        await wait_for(pilot, lambda: keys.region.height > 0, "the key line laid out")
        _shown_whole(modal, keys)
        if kind == "conflict":
            _scrolls(modal.query_one("#conflict-body", VerticalScroll))
        if kind == "model":
            _shown_whole(modal, modal.query_one("#model-input"))
