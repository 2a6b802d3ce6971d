"""``buildContext``: the messages Ink would send for a branch, with summary framing."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ink_tui.session.conversation.tree import branch
from ink_tui.session.reading.errors import EngineError
from ink_tui.session.reading.reader import Entry, SessionFile
from ink_tui.session.reading.records import BRANCH_SUMMARY_PREFIX, COMPACTION_SUMMARY_PREFIX
from ink_tui.session.reading.recordtypes import UserMessage
from ink_tui.session.reading.shapes import MISSING, js_items, spread_error

__all__ = [
    "Context",
    "ContextPlan",
    "build_context",
    "context_for_branch",
    "frame_summary",
    "plan_context",
    "stream_context",
    "unframe_summary",
]


@dataclass(slots=True)
class Context:
    """What a resume sends to the model, and where the compaction floor is."""

    leaf_id: str | None
    messages: list[object] = field(default_factory=list)  # retainedTail items may be anything
    compacted: bool = False
    compaction_boundary: int = 0
    compaction: Entry | None = None  # the compaction entry in force, if any

    def to_json(self) -> dict[str, Any]:
        """The shape of the fixtures' ``.expected.json``."""
        return {
            "ok": True,
            "leafId": self.leaf_id,
            "compacted": self.compacted,
            "compactionBoundary": self.compaction_boundary,
            "messages": self.messages,
        }


def frame_summary(prefix: str, summary: str) -> UserMessage:
    """``summaryToMessage``: a user message holding the framing text and the raw summary."""
    return {"role": "user", "content": f"{prefix}\n\n{summary}"}


def unframe_summary(message: Mapping[str, object]) -> tuple[str, str] | None:
    """``("compaction" | "branch", raw summary)`` when ``message`` is a framed summary."""
    content = message.get("content")
    if message.get("role") != "user" or not isinstance(content, str):
        return None
    for kind, prefix in (
        ("compaction", COMPACTION_SUMMARY_PREFIX),
        ("branch", BRANCH_SUMMARY_PREFIX),
    ):
        if content.startswith(prefix + "\n\n"):
            return kind, content[len(prefix) + 2 :]
    return None


@dataclass(slots=True)
class ContextPlan:
    """A branch's context before its messages are read: its framing (the compaction in force,
    the boundary) and, after the floor, the entries whose records are its messages. The messages
    stream from the file (:meth:`messages`), so a million-message context is never in memory.
    """

    session: SessionFile | None  # where dropped payloads are read again (None: all in memory)
    leaf_id: str | None
    branch: list[Entry] = field(default_factory=list)  # root first, to the leaf
    head: list[object] = field(default_factory=list)  # the framed summary, the retained tail
    entries: list[Entry] = field(default_factory=list)  # message / branchSummary, floor onward
    compacted: bool = False
    compaction_boundary: int = 0
    compaction: Entry | None = None

    def __len__(self) -> int:
        return len(self.head) + len(self.entries)

    def messages(self) -> Iterator[object]:
        """The context's messages in order, each read from the file when it is reached (not
        kept). Raises :class:`SessionError` when the file changed under an entry."""
        yield from self.head
        entries = self.entries
        records = (
            self.session.records(entries)
            if self.session is not None
            else (entry.record for entry in entries)
        )
        for entry, record in zip(entries, records, strict=True):
            if entry.type == "message":
                yield record["message"]
            else:
                yield frame_summary(BRANCH_SUMMARY_PREFIX, str(record["summary"]))

    def build(self) -> Context:
        """The whole context in memory."""
        return Context(
            self.leaf_id,
            list(self.messages()),
            self.compacted,
            self.compaction_boundary,
            self.compaction,
        )


def plan_context(
    entries: list[Entry], leaf_id: str | None, session: SessionFile | None = None
) -> ContextPlan:
    """Plan the context of an already walked branch (root first): Ink's ``buildContext`` rules.

    Raises :class:`EngineError` where Ink's ``buildContext`` throws: a compaction whose
    ``retainedTail`` is not iterable (missing, null, a number, an object)."""
    plan = ContextPlan(session, leaf_id, entries)
    start = last_compaction_index(entries)
    if entries[start:] and entries[start].type == "compaction":
        compaction = entries[start]
        tail = compaction.record.get("retainedTail", MISSING)
        retained = js_items(tail)  # Ink spreads it: a string gives its characters
        if retained is None:  # Ink's buildContext throws: it cannot resume the session
            raise EngineError(
                spread_error("compaction.retainedTail", tail),
                path=compaction.path,
                line=compaction.line,
            )
        plan.compaction = compaction
        plan.compacted = True
        plan.compaction_boundary = 1 + len(retained)
        plan.head.append(
            frame_summary(COMPACTION_SUMMARY_PREFIX, str(compaction.record["summary"]))
        )
        plan.head.extend(retained)
        start += 1
    plan.entries = [e for e in entries[start:] if e.type in ("message", "branchSummary")]
    return plan


def context_for_branch(entries: list[Entry], leaf_id: str | None) -> Context:
    """Build the context from an already walked branch (root first), every record read.

    Raises :class:`EngineError` as :func:`plan_context` does."""
    return plan_context(entries, leaf_id).build()


def stream_context(session: SessionFile, leaf_id: str | None = None) -> ContextPlan:
    """:func:`build_context`, its messages left in the file to stream. Raises ``SessionError``."""
    target = session.leaf_id if leaf_id is None else leaf_id
    return plan_context(branch(session, target), target, session)


def build_context(session: SessionFile, leaf_id: str | None = None) -> Context:
    """``buildContext()`` for the session's leaf, or for ``leaf_id``. Raises ``SessionError``."""
    return stream_context(session, leaf_id).build()


def last_compaction_index(entries: list[Entry]) -> int:
    """Index of the last ``compaction`` entry of a branch (0 when there is none)."""
    for index in range(len(entries) - 1, -1, -1):
        if entries[index].type == "compaction":
            return index
    return 0
