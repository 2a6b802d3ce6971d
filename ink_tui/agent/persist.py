"""The chat's only door to the session file: repair first, then append, never blindly.

Before the first record (Ink's resume rules, spec §6 and §9): re-read the file, repair a torn
final line, write a ``position`` marker when going on from an earlier entry, close the dangling
calls of the last turn with Ink's unknown-outcome result (the calls of a reply cut at the
output token limit with Ink's output-limit result: Ink never runs them), persist a ``--model``
that differs from the restored one, and a ``--thinking`` (or ``INK_THINKING``) level that differs
from the restored one as a ``thinkingLevelChange`` (so that the next resume restores the level
used). Every record written is kept until the pane takes it (:meth:`ChatStore.take_written`):
the pane shows what the file got, as the session view would.
Every append checks that the file is still the size we last saw; when another process (Ink in
another terminal) appended meanwhile, the chat is told what arrived and chooses where to go on
from. All methods that touch the file run it in a thread.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from ink_tui.agent.call_ids import file_call_ids, messages_call_ids, unique_call_ids
from ink_tui.agent.start import DEFAULT_THINKING, ChatStart
from ink_tui.humanize import plural
from ink_tui.session.conversation.context import Context, build_context
from ink_tui.session.conversation.pairing import pair_tool_calls
from ink_tui.session.conversation.tree import thinking_level
from ink_tui.session.reading.reader import Entry, SessionFile, open_session
from ink_tui.session.reading.recordtypes import JsonObject, ReadMessage
from ink_tui.session.reading.shapes import list_items
from ink_tui.session.rules.fillins import UNKNOWN_OUTCOME_TEXT, resume_closure
from ink_tui.session.rules.modelref import ModelRef, model_selection
from ink_tui.session.writing.repair import apply_torn_repair, plan_torn_repair
from ink_tui.session.writing.writer import ConcurrentWriteError, SessionWriter

__all__ = ["ChatStore", "Conflict", "closing_message"]

Message = Mapping[str, Any]  # a message as the chat holds it: written or read (recordtypes)
T = TypeVar("T")

TORN_WAIT_SECONDS = 2.0  # another writer's half-written line gets this long to finish


@dataclass(frozen=True, slots=True)
class Conflict:
    """Someone appended to the file since the chat read it."""

    session: SessionFile  # the file as re-read
    arrived: list[Entry]  # the entries we had not seen, in file order
    our_leaf: str | None

    @property
    def their_leaf(self) -> str | None:
        return self.session.leaf_id

    @property
    def arrived_messages(self) -> list[ReadMessage]:
        """The messages among what arrived, in file order."""
        return [e.message for e in self.arrived if e.type == "message"]


def closing_message(messages: Sequence[object]) -> JsonObject | None:
    """The ``toolResult`` closing a context's dangling calls (Ink's child-resume repair): the
    unknown-outcome text, or for the calls of a reply cut at the output token limit, which Ink
    never runs, Ink's output-limit text."""
    if not pair_tool_calls(messages).dangling:
        return None
    return resume_closure(messages, UNKNOWN_OUTCOME_TEXT)


def _thinking_to_persist(start: ChatStart) -> str | None:
    """The startup level (``--thinking``, ``INK_THINKING``) when it differs from the one a
    resume restores (the file's last ``thinkingLevelChange``, else Ink's default)."""
    if start.session is None:  # a new session: only a startup level sets anything else
        return start.thinking if start.thinking != DEFAULT_THINKING else None
    if not start.thinking_override:
        return None
    restored = thinking_level(start.session) or DEFAULT_THINKING
    return start.thinking if start.thinking != restored else None


class ChatStore:
    """Appends a chat's records to one session file (created on the first one if new)."""

    def __init__(
        self,
        start: ChatStart,
        project_dir: Path,
        *,
        clock: Callable[[], datetime] | None = None,
        random_hex: Callable[[], str] | None = None,
    ) -> None:
        self.start = start
        self.project_dir = project_dir
        self.session = start.session
        self.leaf_id = start.leaf_id
        self._fork = start.fork
        self._persist_model = start.model_override
        self.pending_thinking = _thinking_to_persist(start)  # /think drops it (writes its own)
        self._clock = clock
        self._random_hex = random_hex
        self._writer: SessionWriter | None = None
        self._lock = threading.Lock()
        self.prefix: list[JsonObject] = []  # the dangling calls' closure, until it is written
        self._call_ids: set[str] | None = None  # every call id of the file (read when needed)
        self._written: deque[Mapping[str, object]] = (
            deque()
        )  # records written, until the pane takes them
        closing = closing_message(start.messages) if start.session is not None else None
        if closing is not None:
            self.prefix.append(closing)

    @property
    def model_pending(self) -> bool:
        """A ``--model`` override that is not written yet."""
        return self._persist_model

    @property
    def path(self) -> Path | None:
        if self._writer is not None:
            return self._writer.path
        return self.start.path

    def take_written(self) -> list[Mapping[str, object]]:
        """The records written since the last call (entries and markers, file order)."""
        taken: list[Mapping[str, object]] = []
        while self._written:
            taken.append(self._written.popleft())
        return taken

    # -- public, async -----------------------------------------------------------------------

    async def run(self, write: Callable[[SessionWriter], T]) -> T:
        """Prepare if needed, then ``write(writer)`` in a thread."""
        return await self._in_thread(self._run, write)

    async def stage_model(self, model: ModelRef) -> bool:
        """``/model`` before a new session's file exists: staged for its header, nothing written
        (Ink's lazy creation). False when the file exists: append a marker instead."""
        return await self._in_thread(self._stage_model, model)

    def _stage_model(self, model: ModelRef) -> bool:
        if self.session is not None:
            return False
        writer = self._writer or self._open()  # a new session: only allocated, as Ink's create()
        if writer.exists:
            return False
        writer.header["model"] = model_selection(model)  # written with the first record (Ink)
        return True

    async def append_message(self, message: Message) -> str | None:
        """Append one message; returns a notice when the write had to go around someone else."""
        try:
            await self.run(lambda writer: writer.append_message(message))
        except ConcurrentWriteError:
            conflict = await self.changed()
            if conflict is None:
                raise
            await self._in_thread(self._keep_ours, conflict)
            await self.run(lambda writer: writer.append_message(message))
            return (
                f"another process appended {plural(len(conflict.arrived), 'record')} meanwhile; "
                "this turn goes on from its own point, as a new branch"
            )
        return None

    async def unique_calls(self, message: Message, context: Sequence[object]) -> Message:
        """``message`` with the call ids the session already holds (any entry of the file, on
        any branch, or ``context``) replaced by fresh ones: Ink refuses a call id declared twice,
        and some servers send ``call_1`` at every turn."""
        if not any(
            isinstance(b, dict) and b.get("type") == "toolCall"
            for b in list_items(message.get("blocks"))
        ):
            return message
        return await self._in_thread(self._unique_calls, message, context)

    async def changed(self) -> Conflict | None:
        """What arrived since we last read or wrote, or ``None`` when the file is as we left it."""
        return await self._in_thread(self._changed)

    async def adopt(self, conflict: Conflict, *, theirs: bool) -> Context | None:
        """Go on from the new leaf (returns its context, with the closure of calls left open
        there) or from ours (returns ``None``)."""
        if theirs:
            return await self._in_thread(self._go_theirs, conflict)
        await self._in_thread(self._keep_ours, conflict)
        return None

    # -- the file, in threads ----------------------------------------------------------------

    async def _in_thread(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in a worker thread, one at a time: a write left running by a
        cancelled task (an interrupt) finishes before the next one starts."""

        def locked() -> T:
            with self._lock:
                return function(*args)

        return await asyncio.to_thread(locked)

    def _unique_calls(self, message: Message, context: Sequence[object]) -> Message:
        if self._call_ids is None:
            path = self.path
            self._call_ids = file_call_ids(path) if path is not None and path.exists() else set()
        taken = self._call_ids | messages_call_ids(context)
        unique = unique_call_ids(message, taken)
        self._call_ids |= messages_call_ids([unique])
        return unique

    def _known_size(self) -> int:
        if self._writer is not None and self._writer.exists:
            return self._writer.size
        return self.session.size if self.session is not None else 0

    def _changed(self) -> Conflict | None:
        path = self.path
        if path is None or not path.exists() or path.stat().st_size == self._known_size():
            return None
        fresh = self._reread(path)
        seen = self.session.by_id if self.session is not None else {}
        writer = self._writer
        arrived = [
            entry
            for entry in fresh.entries
            if entry.id not in seen and not (writer is not None and writer.knows(entry.id))
        ]
        fresh.preload(arrived)  # read here, in the thread, not where the pane shows them
        return Conflict(fresh, arrived, self.leaf_id)

    @staticmethod
    def _reread(path: Path) -> SessionFile:
        """Re-read, giving a writer caught mid-line a moment to finish it."""
        deadline = time.monotonic() + TORN_WAIT_SECONDS
        while True:
            fresh = open_session(path, warn=None)
            if fresh.ends_with_newline or time.monotonic() > deadline:
                return fresh
            time.sleep(0.05)

    def _keep_ours(self, conflict: Conflict) -> None:
        self.session = conflict.session
        self._call_ids = None  # what arrived may hold calls: read the file again when needed
        self._reattach(conflict.session)

    def _go_theirs(self, conflict: Conflict) -> Context:
        """Their leaf becomes ours; calls they left open are closed before our next record."""
        self.session = conflict.session
        self._call_ids = None
        self.leaf_id = conflict.their_leaf
        self._fork = False
        context = build_context(conflict.session, self.leaf_id)
        self.prefix = []
        closing = closing_message(context.messages)
        if closing is not None:
            self.prefix.append(closing)
            context = replace(context, messages=[*context.messages, closing])
        self._reattach(conflict.session)
        return context

    def _reattach(self, session: SessionFile) -> None:
        if self._writer is None:
            return  # the first write prepares from the re-read file
        self._writer = self._writer_for(session)

    def _writer_for(self, session: SessionFile) -> SessionWriter:
        if not session.ends_with_newline or session.dropped_final_line is not None:
            raise ConcurrentWriteError(
                f"{session.path}: the file ends in a half-written line; another process may "
                "still be writing it — nothing was written"
            )
        writer = SessionWriter.for_session(session, clock=self._clock, random_hex=self._random_hex)
        writer.leaf_id = self.leaf_id
        writer.on_write = self._written.extend  # (in the writing thread: a deque is safe)
        return writer

    def _run(self, write: Callable[[SessionWriter], T]) -> T:
        writer = self._writer or self._open()
        try:
            self._write_pending(writer)
            return write(writer)
        finally:  # what was written stays our point, even when a later append failed
            self.leaf_id = writer.leaf_id

    def _write_pending(self, writer: SessionWriter) -> None:
        """What goes before the chat's own records, each step forgotten once written: the
        position marker of a fork, the closure of dangling calls, a ``--model`` override."""
        if self._fork:
            writer.append_position(self.leaf_id)
            self._fork = False
        while self.prefix:
            writer.append_message(self.prefix[0])
            self.prefix.pop(0)
        if self._persist_model and self.start.model is not None:
            writer.append_session_model(self.start.model, explicit=True)
            self._persist_model = False
        if self.pending_thinking is not None:
            writer.append_entry("thinkingLevelChange", {"thinkingLevel": self.pending_thinking})
            self.pending_thinking = None

    def check_writable(self) -> None:
        """Raises ``PermissionError`` for a file ink-tui must not write to (read-only start)."""
        start = self.start
        if start.read_only is not None:
            raise PermissionError(
                f"{start.path}: not continuable, nothing was written: {start.read_only}"
            )

    def _open(self) -> SessionWriter:
        """The first write: the file re-read and repaired (or a new one staged)."""
        start = self.start
        self.check_writable()
        if self.session is None:
            writer = SessionWriter.new(
                self.project_dir,
                start.cwd,
                model=start.model,
                clock=self._clock,
                random_hex=self._random_hex,
            )
            writer.on_write = self._written.extend
            self._persist_model = False  # a new file's header names the model (Ink's staging)
        else:
            session = open_session(self.session.path, warn=None)
            if session.size != self.session.size:
                raise ConcurrentWriteError(f"{session.path}: the file changed since it was read")
            torn = plan_torn_repair(session)
            if torn is not None:
                apply_torn_repair(session, torn)
                session = open_session(session.path, warn=None)
            self.session = session
            writer = self._writer_for(session)
        self._writer = writer
        return writer
