"""The chat engine's sink for the chat screen: deltas and records go to the screen's parts,
approvals and conflicts become modal questions (what arrived is shown once the chat goes on
after it).

The sink holds no screen: the chat screen hands it what it reports to (:class:`ChatOutlets`),
so the screen imports the sink and never the other way round."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from textual.screen import Screen

from ink_tui.agent.approval import preview_call
from ink_tui.agent.chat import Approval
from ink_tui.agent.persist import Conflict
from ink_tui.agent.providers.assemble import StreamEvent
from ink_tui.ui.modals.chat import ApprovalScreen, ConflictScreen

__all__ = ["ChatOutlets", "ScreenSink"]

_ANSWERS: dict[str, Approval] = {"once": "once", "always": "always", "deny": "deny"}


@dataclass(frozen=True, slots=True)
class ChatOutlets:
    """Where the engine's reports go (each called on the event loop)."""

    stream_delta: Callable[[StreamEvent], None]  # a piece of the reply streaming in
    add_arrived: Callable[[Conflict], None]  # what the conflict's other writer added, on the branch
    recorded: Callable[[Mapping[str, Any]], None]  # a message written to the session
    set_status: Callable[[str], None]
    note: Callable[[str, str], None]  # a line in the log, and its style
    ask: Callable[[Screen[Any]], Awaitable[Any]]  # a modal question, answered
    cwd: str  # where the tools run (for the approval's preview; empty: here)


class ScreenSink:
    """The engine's :class:`~ink_tui.agent.chat.ChatSink`, forwarding to the chat screen."""

    def __init__(self, outlets: ChatOutlets) -> None:
        self.outlets = outlets
        self._conflict: Conflict | None = None  # the last one asked about

    def on_delta(self, event: StreamEvent) -> None:
        self.outlets.stream_delta(event)

    def on_message(self, message: Mapping[str, Any]) -> None:
        self.outlets.recorded(message)

    def on_tool_start(self, call: Mapping[str, Any]) -> None:
        self.outlets.set_status(f"● running {call.get('name')}…   Esc interrupts")

    def on_notice(self, text: str) -> None:
        self.outlets.note(text, "bold yellow")

    def on_branch(self, messages: list[object]) -> None:
        """The chat went on from the new leaf: what arrived on its branch (the entries of the
        conflict just answered; ``messages`` are their messages, and the closure of calls
        left open there, shown once written)."""
        if self._conflict is not None:
            self.outlets.add_arrived(self._conflict)

    async def approve(self, call: Mapping[str, Any]) -> Approval:
        preview = await asyncio.to_thread(
            preview_call,
            str(call.get("name")),
            call.get("arguments"),
            Path(self.outlets.cwd or "."),
        )
        self.outlets.set_status(f"● {call.get('name')} waits for your approval")
        answer = await self.outlets.ask(ApprovalScreen(preview))
        return _ANSWERS.get(str(answer), "interrupt")

    async def resolve_conflict(self, conflict: Conflict) -> Literal["theirs", "ours"]:
        self._conflict = conflict
        answer = await self.outlets.ask(ConflictScreen(conflict))
        return "theirs" if answer == "theirs" else "ours"
