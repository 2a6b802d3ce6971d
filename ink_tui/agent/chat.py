"""The chat engine: one conversation going on from a :class:`~ink_tui.agent.start.ChatStart`.

A turn is Ink's agent loop: stream the assistant's reply, run its tool calls (asking first for
``bash``, ``edit`` and ``write``), send the results back, until a reply has no tool calls. Every
step is appended through :class:`~ink_tui.session.writing.writer.SessionWriter` as it completes: the
user message once the provider has accepted the request, the assistant message when its stream
completes, the tool results when the tools have run. A partial reply is never written.

The engine is UI-free: it reports through a :class:`ChatSink`, from one asyncio task (IO: threads).
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Mapping
from pathlib import Path
from typing import Any, Literal, Protocol

from ink_tui.agent import replies
from ink_tui.agent.compact import (
    CompactionPlan,
    estimate_tokens,
    nothing_to_compact,
    plan_compaction,  # (two lines: the module stays short)
)
from ink_tui.agent.compaction_step import CompactionError, summarise
from ink_tui.agent.outcome import TurnOutcome
from ink_tui.agent.persist import ChatStore, Conflict
from ink_tui.agent.prompt import system_prompt
from ink_tui.agent.providers import BadArgument, ProviderError, resolve_endpoint, stream_turn
from ink_tui.agent.providers.assemble import StreamEvent
from ink_tui.agent.providers.retry import RetryPolicy
from ink_tui.agent.providers.stream import DEFAULT_TIMEOUT
from ink_tui.agent.start import ChatStart
from ink_tui.agent.tools import TOOLS, needs_approval, run_tool, validate_arguments
from ink_tui.agent.windows import compaction_notice, context_window, should_compact
from ink_tui.humanize import plural
from ink_tui.logs import log_exception
from ink_tui.session.conversation.tree import restored_model, thinking_level
from ink_tui.session.reading.records import THINKING_LEVELS
from ink_tui.session.reading.recordtypes import json_object
from ink_tui.session.rules.modelref import ModelRef

__all__ = [
    "DENIED_TEXT",
    "INTERRUPTED_TEXT",
    "Approval",
    "ChatEngine",
    "ChatSink",
    "CompactionError",
    "NoModel",
]

Message = Mapping[str, Any]  # a message as the chat holds it: written or read (recordtypes)
TOOL_LIST = tuple(TOOLS.values())
Approval = Literal["once", "always", "deny", "interrupt"]

INTERRUPTED_TEXT = "(interrupted before this tool ran)"
"""Ink's fill-in for the calls of a batch that an interrupt stopped before they ran."""

DENIED_TEXT = 'Tool "{tool}" denied by the user at the approval prompt: it was not run.'
"""The ``isError`` result a denied call gets (the model reads it and can ask or adapt)."""


class NoModel(RuntimeError):
    """Neither the session nor the command line names a model."""


class ChatSink(Protocol):
    """How the engine reports to (and asks) the pane."""

    def on_delta(self, event: StreamEvent) -> None: ...
    def on_message(self, message: Message) -> None: ...
    def on_tool_start(self, call: Message) -> None: ...
    def on_notice(self, text: str) -> None: ...
    def on_branch(self, messages: list[object]) -> None: ...  # went on from another's leaf
    async def approve(self, call: Message) -> Approval: ...
    async def resolve_conflict(self, conflict: Conflict) -> Literal["theirs", "ours"]: ...


class ChatEngine:
    """Goes on with one session. Call :meth:`send` from one task; :meth:`interrupt` any time."""

    def __init__(
        self,
        start: ChatStart,
        *,
        sink: ChatSink,
        project_dir: Path,
        env: Mapping[str, str] | None = None,
        store: ChatStore | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        retry: RetryPolicy | None = None,
    ) -> None:
        self.start = start
        self.timeout = timeout  # the longest wait for a byte of a reply, in seconds
        self.retry = retry or RetryPolicy()
        self.sink = sink
        self.env = env
        self.model: ModelRef | None = start.model
        self.thinking = start.thinking
        self.store = store or ChatStore(start, project_dir)
        # the dangling calls' closure is sent now and written with the first record
        self.messages: list[object] = [*start.messages, *self.store.prefix]
        self.compaction_boundary = start.compaction_boundary
        self.allowed: set[str] = set()  # tools allowed for the rest of the session
        self._stop = asyncio.Event()
        self._stop.set()  # no turn is running
        self._unsent: Message | None = None  # the user message until the provider accepts it
        self.user_written = False  # the last send's user message is in the file (or going in)
        self.replies_written = 0  # the last send's replies in the file (each with its results)
        self._ids_said = False  # the pane was told once that call ids get replaced
        self._thinking_chosen = start.thinking_override  # --thinking or /think: ours wins
        self._window_noted = False  # Ink's note on an invalid INK_CONTEXT_WINDOW was shown

    @property
    def cwd(self) -> Path:
        return Path(self.start.cwd or ".")

    @property
    def running(self) -> bool:
        return not self._stop.is_set()

    def interrupt(self) -> None:
        """Stop the turn: a reply being streamed is dropped, running tools are cancelled."""
        self._stop.set()

    # -- settings ----------------------------------------------------------------------------

    async def set_model(self, model: ModelRef) -> None:
        """``/model``: a ``session_model`` marker, or a new file's header model (Ink's staging)."""
        if not await self.store.stage_model(model):
            await self.store.run(lambda writer: writer.append_session_model(model, explicit=True))
        self.model = model

    async def set_thinking(self, level: str) -> bool:
        """``/think``: a ``thinkingLevelChange`` entry when the level actually changes."""
        if level not in THINKING_LEVELS:
            raise BadArgument(f"thinking levels: {', '.join(THINKING_LEVELS)} — e.g. /think medium")
        if level == self.thinking:
            return False
        self.store.pending_thinking = None  # the startup level, superseded before it was written
        await self.store.run(
            lambda writer: writer.append_entry("thinkingLevelChange", {"thinkingLevel": level})
        )
        self.thinking = level
        self._thinking_chosen = True
        return True

    def require_model(self) -> ModelRef:
        if self.model is None:
            raise NoModel(
                "this session names no model: choose one (ctrl+o, or start with "
                "--model provider/modelId)"
            )
        return self.model

    # -- /compact ----------------------------------------------------------------------------

    async def compact(self) -> str:
        """Summarise the older context and append a ``compaction`` entry; returns Ink's note.

        Raises ``CompactionError`` (nothing written) when the summary is empty, cut short by the
        token cap, or interrupted; provider errors as :meth:`send` does.
        """
        self.store.check_writable()
        resolve_endpoint(self.require_model(), self.env)
        self._stop = asyncio.Event()  # from here on, interrupt() stops the compaction
        try:
            await self._check_fresh()  # the plan is made from the branch the entry will go on
            model = self.require_model()  # theirs, if we went on from their leaf
            resolve_endpoint(model, self.env)
            plan = plan_compaction(self.messages, self.compaction_boundary)
            if plan is None:
                return f"nothing to compact yet: {nothing_to_compact(self.messages)}"
            return await self._compact_with(plan, model)
        finally:
            self._stop.set()

    async def _compact_with(self, plan: CompactionPlan, model: ModelRef) -> str:
        done = await summarise(
            plan,
            model,
            store=self.store,
            race=self._race,
            thinking=self.thinking,
            env=self.env,
            timeout=self.timeout,
            retry=self.retry,
            on_retry=self.sink.on_notice,
        )
        self.messages, self.compaction_boundary = done.messages, done.compaction_boundary
        return done.note

    async def _auto_compact(self, model: ModelRef) -> None:
        """Before a turn, compact as Ink does when the estimate is over its trigger.

        A summary that fails (cut, empty, or the provider's error) is a note: the message is
        still sent, as with Ink.
        """
        window = await asyncio.to_thread(context_window, model, self.env)  # may read a file
        if window.note is not None and not self._window_noted:  # Ink says it once, too
            self._window_noted = True
            self.sink.on_notice(window.note)
        estimate = estimate_tokens(self.messages, self.compaction_boundary)
        plan = plan_compaction(self.messages, self.compaction_boundary)
        if not should_compact(estimate, window) or plan is None:
            return
        self.sink.on_notice(compaction_notice(estimate, window))
        try:
            self.sink.on_notice(await self._compact_with(plan, model))
        except (CompactionError, ProviderError) as error:
            if not self._stop.is_set():
                said = str(error) if isinstance(error, CompactionError) else f"compaction: {error}"
                self.sink.on_notice(f"{said}; sending without compacting")

    # -- a turn ------------------------------------------------------------------------------

    async def send(self, content: str | list[Message]) -> TurnOutcome:
        """Send a user message and run the turn to its end.

        When another process appended meanwhile, the sink is asked first where to go on from.
        Raises ``PermissionError`` (a read-only start), ``MissingApiKey``/``UnsupportedProvider``/
        ``NoModel`` before anything is written, ``ProviderError``/``IncompleteStream`` when a reply
        fails (what completed stays written).
        """
        self.user_written = False
        self.replies_written = 0
        self.store.check_writable()
        resolve_endpoint(self.require_model(), self.env)  # a missing key fails before any write
        self._stop = asyncio.Event()  # from here on, interrupt() stops this turn
        outcome = TurnOutcome("done")
        try:
            await self._check_fresh()
            model = self.require_model()  # theirs, if we went on from their leaf
            resolve_endpoint(model, self.env)
            system = await asyncio.to_thread(system_prompt, self.cwd, TOOL_LIST)
            await self._auto_compact(model)
            if self._stop.is_set():
                outcome.status = "interrupted"
                return outcome
            user: Message = {"role": "user", "content": content}
            self.messages.append(user)
            self._unsent = user
            while True:
                reply = await self._stream(model, system)
                if reply is None:
                    outcome.status = "interrupted"
                    return outcome
                sent, reply = reply, await self.store.unique_calls(reply, self.messages)
                renamed = None if self._ids_said else replies.renamed_ids_notice(sent, reply)
                if renamed is not None:
                    self.sink.on_notice(renamed)
                    self._ids_said = True
                await self._record(reply)
                outcome.usage.add(reply)
                outcome.steps += 1
                calls = [b for b in reply.get("blocks", ()) if b.get("type") == "toolCall"]
                if not calls:
                    empty = replies.empty_reply_notice(reply)
                    if empty is not None:
                        self.sink.on_notice(empty)
                    self.replies_written += 1
                    return outcome
                if replies.cut_at_output_limit(reply):  # Ink never runs its calls (spec §6)
                    self.sink.on_notice(replies.output_limit_notice(len(calls)))
                    results = replies.output_limit_results(calls)
                else:
                    results = await self._run_calls(calls)
                await self._record({"role": "toolResult", "results": results})
                self.replies_written += 1
                if self._stop.is_set():
                    outcome.status = "interrupted"
                    return outcome
        finally:
            if self._unsent is not None:  # the request never got through: nothing was written
                # by identity: an earlier message may hold the same text
                self.messages = [m for m in self.messages if m is not self._unsent]
                self._unsent = None
            self._stop.set()

    async def _check_fresh(self) -> None:
        """Before a turn: if someone appended since we read, ask where to go on from."""
        conflict = await self.store.changed()
        if conflict is None:
            return
        choice = await self.sink.resolve_conflict(conflict)
        context = await self.store.adopt(conflict, theirs=choice == "theirs")
        if context is None:
            return
        # their branch as a resume would restore it: context, floor, thinking level, model
        # (a --thinking, /think or --model of ours still wins, as at start)
        self.messages = context.messages
        self.compaction_boundary = context.compaction_boundary
        if not self._thinking_chosen:
            self.thinking = thinking_level(conflict.session) or self.thinking
        if not self.store.model_pending:
            self.model = restored_model(conflict.session)[0] or self.model
        self.sink.on_branch([*conflict.arrived_messages, *self.store.prefix])
        arrived = plural(len(conflict.arrived), "new record")
        self.sink.on_notice(f"went on from the new leaf ({arrived})")

    async def _record(self, message: Message) -> None:
        notice = await self.store.append_message(message)
        if notice:
            self.sink.on_notice(notice)
        self.messages.append(message)
        self.sink.on_message(message)

    async def _opened(self) -> None:
        """The provider accepted the request: now the user message is written."""
        user = self._unsent
        if user is None:
            return
        try:
            notice = await self.store.append_message(user)
        except asyncio.CancelledError:
            self._unsent = None  # interrupted: the write goes on in its thread, and lands
            self.user_written = True
            raise
        self._unsent = None  # (until written, a failure takes it out of the context)
        self.user_written = True
        if notice:
            self.sink.on_notice(notice)
        self.sink.on_message(user)

    async def _stream(self, model: ModelRef, system: str) -> Message | None:
        """One reply, or ``None`` when interrupted (nothing of it is written)."""

        return await self._race(
            stream_turn(
                model,
                system,
                [message for message in self.messages if json_object(message)],  # all, if sendable
                TOOL_LIST,
                on_event=self.sink.on_delta,
                on_open=self._opened,
                env=self.env,
                thinking=self.thinking,
                timeout=self.timeout,
                retry=self.retry,
                on_retry=self.sink.on_notice,
            )
        )

    async def _race(self, reply: Coroutine[Any, Any, Message]) -> Message | None:
        """Await ``reply`` unless an interrupt comes first (then ``None``)."""
        task = asyncio.ensure_future(reply)
        stop = asyncio.ensure_future(self._stop.wait())
        try:
            await asyncio.wait({task, stop}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stop.cancel()
        if not task.done():
            task.cancel()
            try:
                await task
            except (asyncio.CancelledError, ProviderError):
                pass  # what an interrupted request ends with
            except Exception as error:  # a bug: logged; the interrupt goes on
                log_exception(error, "an interrupted request")
            return None
        return task.result()

    async def _run_calls(self, calls: list[Message]) -> list[Message]:
        """Run a reply's calls in order; an interrupt closes the rest as Ink does."""
        results: list[Message] = []
        for call in calls:
            name, call_id = str(call.get("name")), str(call.get("id"))
            if self._stop.is_set():
                results.append(_result(call_id, name, INTERRUPTED_TEXT, True))
                continue
            unreadable = replies.unreadable_arguments(name, call.get("arguments"))
            if unreadable is not None:  # recorded as {}: never run on a guess
                self.sink.on_notice(unreadable[0])
            problem = (
                unreadable[1] if unreadable else validate_arguments(name, call.get("arguments"))
            )
            if problem is not None:  # Ink checks before its approval gate: nothing to approve
                results.append(_result(call_id, name, problem, True))
                continue
            if needs_approval(name) and name not in self.allowed:
                answer = await self.sink.approve(call)
                if answer == "always":
                    self.allowed.add(name)
                elif answer == "deny":
                    results.append(_result(call_id, name, DENIED_TEXT.format(tool=name), True))
                    continue
                elif answer == "interrupt":
                    self._stop.set()
                    results.append(_result(call_id, name, INTERRUPTED_TEXT, True))
                    continue
            self.sink.on_tool_start(call)
            outcome = await run_tool(name, call.get("arguments"), cwd=self.cwd, signal=self._stop)
            results.append(_result(call_id, name, outcome.result_content(), outcome.is_error))
        return results


def _result(call_id: str, name: str, content: object, is_error: bool) -> Message:
    return {"toolCallId": call_id, "toolName": name, "content": content, "isError": is_error}
