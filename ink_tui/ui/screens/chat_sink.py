"""The chat engine's sink for the chat screen: deltas and records go to the screen, approvals
and conflicts become modal questions (what arrived is shown once the chat goes on after it)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ink_tui.agent.approval import preview_call
from ink_tui.agent.chat import Approval
from ink_tui.agent.persist import Conflict
from ink_tui.agent.providers.assemble import StreamEvent
from ink_tui.ui.screens.chat_modals import ApprovalScreen, ConflictScreen
from ink_tui.ui.widgets.chat_entries import arrived_on_branch

if TYPE_CHECKING:
    from ink_tui.ui.screens.chat import ChatScreen

__all__ = ["ScreenSink"]

_ANSWERS: dict[str, Approval] = {"once": "once", "always": "always", "deny": "deny"}


class ScreenSink:
    """The engine's :class:`~ink_tui.agent.chat.ChatSink`, forwarding to the screen."""

    def __init__(self, screen: ChatScreen) -> None:
        self.screen = screen
        self.log = screen.log_view  # looked up once: deltas come many times a second
        self._conflict: Conflict | None = None  # the last one asked about

    def on_delta(self, event: StreamEvent) -> None:
        self.log.stream_delta(event)

    def on_message(self, message: Mapping[str, Any]) -> None:
        self.screen.recorded(message)

    def on_tool_start(self, call: Mapping[str, Any]) -> None:
        self.screen.set_status(f"● running {call.get('name')}…   Esc interrupts")

    def on_notice(self, text: str) -> None:
        self.screen.note(text, "bold yellow")

    def on_branch(self, messages: list[object]) -> None:
        """The chat went on from the new leaf: what arrived on its branch (the entries of the
        conflict just answered; ``messages`` are their messages, and the closure of calls
        left open there, shown once written)."""
        conflict = self._conflict
        if conflict is not None:
            arrived = conflict.arrived
            self.log.add_arrived(arrived_on_branch(conflict.session, arrived, conflict.their_leaf))

    async def approve(self, call: Mapping[str, Any]) -> Approval:
        engine = self.screen.engine
        cwd = engine.cwd if engine is not None else Path(".")
        preview = await asyncio.to_thread(
            preview_call, str(call.get("name")), call.get("arguments"), cwd
        )
        self.screen.set_status(f"● {call.get('name')} waits for your approval")
        answer = await self.screen.app.push_screen_wait(ApprovalScreen(preview))
        return _ANSWERS.get(str(answer), "interrupt")

    async def resolve_conflict(self, conflict: Conflict) -> Literal["theirs", "ours"]:
        self._conflict = conflict
        answer = await self.screen.app.push_screen_wait(ConflictScreen(conflict))
        return "theirs" if answer == "theirs" else "ours"
