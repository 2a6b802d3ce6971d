"""Where a chat starts: the session as read, the leaf new entries go under, the context Ink
would rebuild there, the model and thinking level a resume restores, and what must be repaired
before the first write.

:func:`load_chat` reads the file (blocking: run it in a worker); nothing here writes.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ink_tui.agent.providers.errors import BadArgument
from ink_tui.catalog.scan import iter_summaries
from ink_tui.humanize import plural
from ink_tui.paths import project_dir
from ink_tui.session.conversation.context import build_context
from ink_tui.session.conversation.pairing import ToolCall, pair_tool_calls
from ink_tui.session.conversation.resume import DEFAULT_THINKING, resumed_thinking
from ink_tui.session.conversation.tree import restored_model
from ink_tui.session.reading.reader import Entry, SessionFile, open_session
from ink_tui.session.reading.records import THINKING_LEVELS
from ink_tui.session.reading.recordtypes import json_object
from ink_tui.session.reading.shapes import unsendable
from ink_tui.session.rules.fillins import OUTPUT_LIMIT_STOP
from ink_tui.session.rules.leases import lease_note
from ink_tui.session.rules.modelref import ModelRef
from ink_tui.session.writing.repair import (
    TornRepair,
    cut_complete_final_line,
    launch_refusal,
    plan_torn_repair,
)
from ink_tui.session.writing.writer import mirror_refusal

__all__ = [
    "DEFAULT_THINKING",
    "ChatRequest",
    "ChatStart",
    "continue_point",
    "load_chat",
    "new_chat",
    "start_chat",
]

Message = Mapping[str, Any]  # a message as the chat holds it: written or read (recordtypes)


@dataclass(slots=True)
class ChatStart:
    """Everything the chat engine needs to go on from one point of one session."""

    path: Path | None  # None: a new session, created on its first record
    cwd: str
    session: SessionFile | None
    leaf_id: str | None  # new entries go under this entry
    messages: list[object]  # the context: a retained tail may hold anything
    compaction_boundary: int = 0
    model: ModelRef | None = None
    model_override: bool = False  # --model differs from the restored one: persist it
    thinking: str = DEFAULT_THINKING
    thinking_override: bool = False  # --thinking was given
    fork: bool = False  # leaf_id is an earlier entry: a position marker goes first
    dangling: list[ToolCall] = field(default_factory=list)
    torn: TornRepair | None = None
    read_only: str | None = None  # why ink-tui must not write to this file
    cwd_missing: bool = False  # the session's cwd is not a folder here

    def _cut(self, call: ToolCall) -> bool:
        """Whether ``call`` belongs to a reply cut at the output token limit (never run)."""
        message = self.messages[call.message_index]
        return json_object(message) and message.get("stopReason") == OUTPUT_LIMIT_STOP

    @property
    def warning(self) -> str | None:
        """What the pane says before the first message, plainly."""
        notes: list[str] = []
        cut = [call for call in self.dangling if self._cut(call)]
        unknown = [call for call in self.dangling if call not in cut]
        if unknown:
            names = ", ".join(f"{call.name} ({call.id})" for call in unknown)
            it, they = ("it", "it is") if len(unknown) == 1 else ("them", "they are")
            notes.append(
                f"{plural(len(unknown), 'tool call')} of the last turn never got a result: "
                f"{names}. {they.split()[0].capitalize()} may have partly run. When you send, "
                f"{they} closed with Ink's unknown-outcome result; check the real state (files, "
                f"processes) before retrying {it}."
            )
        if cut:
            names = ", ".join(f"{call.name} ({call.id})" for call in cut)
            notes.append(
                f"The last reply hit the output token limit, so Ink never ran its "
                f"{plural(len(cut), 'tool call')} ({names}). When you send, they are closed "
                "with Ink's output-limit result, which asks the model to re-issue them."
            )
        if self.cwd_missing:
            notes.append(
                f"The session's folder {self.cwd} does not exist on this machine: tools that "
                "touch files will fail."
            )
        if self.torn is not None:
            notes.append(
                f"The file ends in a torn line; it will be repaired first ({self.torn.note})."
            )
        return " ".join(notes) or None


def continue_point(branch_entries: Sequence[Entry], entry_id: str) -> str:
    """Where "continue from here" on ``entry_id`` puts new entries.

    Past the tool results that answer the entry's calls, so that a fork after a tool call does
    not cut it from its result; otherwise the entry itself.
    """
    ids = [entry.id for entry in branch_entries]
    if entry_id not in ids:
        return entry_id
    index = ids.index(entry_id)
    while index + 1 < len(branch_entries):
        following = branch_entries[index + 1]
        message = following.message if following.type == "message" else None
        if message is None or message["role"] != "toolResult":
            break
        index += 1
    return branch_entries[index].id


def _resolve_model(
    session: SessionFile | None, wanted: ModelRef | None
) -> tuple[ModelRef | None, bool]:
    restored = restored_model(session)[0] if session is not None else None
    if wanted is None:
        return restored, False
    return wanted, wanted != restored


def _resolve_thinking(session: SessionFile | None, wanted: str | None) -> str:
    if wanted is not None:
        if wanted not in THINKING_LEVELS:
            raise BadArgument(
                f"unknown thinking level {wanted!r} (one of {', '.join(THINKING_LEVELS)})"
            )
        return wanted
    return resumed_thinking(session)


def load_chat(
    path: Path,
    *,
    leaf_id: str | None = None,
    model: ModelRef | None = None,
    thinking: str | None = None,
) -> ChatStart:
    """Read ``path`` and prepare a chat from ``leaf_id`` (default: the file's leaf).

    Raises ``SessionError`` when the file cannot be opened or the branch is broken.
    """
    session = open_session(path, warn=None)
    leaf = session.leaf_id if leaf_id is None else leaf_id
    context = build_context(session, leaf)
    chosen, override = _resolve_model(session, model)
    start = ChatStart(
        path=path,
        cwd=str(session.header.get("cwd") or ""),
        session=session,
        leaf_id=leaf,
        messages=list(context.messages),
        compaction_boundary=context.compaction_boundary,
        model=chosen,
        model_override=override,
        thinking=_resolve_thinking(session, thinking),
        thinking_override=thinking is not None,
        fork=leaf != session.leaf_id,
    )
    start.cwd_missing = not Path(start.cwd).is_dir()
    pairing = pair_tool_calls(context.messages)
    refusal = launch_refusal(session.header) or pairing.problem or unsendable(context.messages)
    if refusal is not None:
        start.read_only = refusal
    else:
        start.dangling = list(pairing.dangling)
    torn = plan_torn_repair(session)
    start.torn = torn
    cut = cut_complete_final_line(session, torn)
    if cut is not None:
        start.read_only = start.read_only or (
            f"the last line is a complete record that fails Ink's checks ({cut}; from a newer "
            "Ink?): continuing would cut it, so nothing is written; "
            f"`ink-tui repair --force {path}` cuts it knowingly, keeping a copy beside it"
        )
    start.read_only = (
        start.read_only or mirror_refusal(path) or lease_note(path) or _not_writable(path)
    )
    return start


def latest_model(sessions_dir: Path, cwd: str) -> ModelRef | None:
    """The model of the newest session of ``cwd``'s project (``--continue``'s pick), if any."""
    for summary in iter_summaries(sessions_dir, cwd, include_hidden=False):
        if summary.model is not None:
            return summary.model
    return None


def _not_writable(path: Path) -> str | None:
    """Why nothing can be appended to ``path`` (or created in it, for a folder), from its
    permissions; ``None`` when it can. Checked before any model request is made."""
    existing = path
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent  # a new session's folder may not exist yet
    if os.access(existing, os.W_OK):
        return None
    what = "folder" if existing.is_dir() else "file"
    return f"the {what} {existing} is read-only: nothing can be written to it"


def new_chat(
    cwd: str,
    *,
    model: ModelRef | None = None,
    thinking: str | None = None,
    sessions_dir: Path | None = None,
) -> ChatStart:
    """A new session in ``cwd``'s project: nothing is on disk until the first record.

    Without ``model``, the model of the project's newest session (under ``sessions_dir``), the
    one the user was working with; the file names it in its header, as Ink stages a model.
    """
    if model is None and sessions_dir is not None:
        model = latest_model(sessions_dir, cwd)
    start = ChatStart(
        path=None,
        cwd=cwd,
        session=None,
        leaf_id=None,
        messages=[],
        model=model,
        model_override=False,
        thinking=_resolve_thinking(None, thinking),
        cwd_missing=not Path(cwd).is_dir(),
    )
    if sessions_dir is not None:
        start.read_only = _not_writable(project_dir(sessions_dir, cwd))
    return start


@dataclass(frozen=True, slots=True)
class ChatRequest:
    """Where a chat starts: a session (from its leaf or ``leaf_id``) or a new one in ``cwd``;
    ``model`` and ``thinking`` as asked (``--model``, ``--thinking``), else restored."""

    path: Path | None
    cwd: str = ""
    leaf_id: str | None = None
    model: ModelRef | None = None
    thinking: str | None = None


def start_chat(request: ChatRequest, *, sessions_dir: Path | None = None) -> ChatStart:
    """:func:`load_chat` for a session, :func:`new_chat` for a new one (in ``sessions_dir``)."""
    if request.path is None:
        return new_chat(
            request.cwd, model=request.model, thinking=request.thinking, sessions_dir=sessions_dir
        )
    return load_chat(
        request.path, leaf_id=request.leaf_id, model=request.model, thinking=request.thinking
    )
