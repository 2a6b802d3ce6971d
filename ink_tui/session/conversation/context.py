"""``buildContext``: the messages Ink would send for a branch, with summary framing."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ink_tui.session.conversation.tree import branch
from ink_tui.session.reading.errors import EngineError
from ink_tui.session.reading.reader import Entry, SessionFile
from ink_tui.session.reading.records import BRANCH_SUMMARY_PREFIX, COMPACTION_SUMMARY_PREFIX
from ink_tui.session.reading.recordtypes import UserMessage
from ink_tui.session.reading.shapes import MISSING, js_items, spread_error

__all__ = ["Context", "build_context", "context_for_branch", "frame_summary", "unframe_summary"]


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


def context_for_branch(entries: list[Entry], leaf_id: str | None) -> Context:
    """Build the context from an already walked branch (root first).

    Raises :class:`EngineError` where Ink's ``buildContext`` throws: a compaction whose
    ``retainedTail`` is not iterable (missing, null, a number, an object)."""
    start = 0
    context = Context(leaf_id)
    for index in range(len(entries) - 1, -1, -1):
        if entries[index].type == "compaction":
            compaction = entries[index]
            tail = compaction.record.get("retainedTail", MISSING)
            retained = js_items(tail)  # Ink spreads it: a string gives its characters
            if retained is None:  # Ink's buildContext throws: it cannot resume the session
                raise EngineError(
                    spread_error("compaction.retainedTail", tail),
                    path=compaction.path,
                    line=compaction.line,
                )
            context.compaction = compaction
            context.compacted = True
            context.compaction_boundary = 1 + len(retained)
            context.messages.append(
                frame_summary(COMPACTION_SUMMARY_PREFIX, str(compaction.record["summary"]))
            )
            context.messages.extend(retained)
            start = index + 1
            break
    for entry in entries[start:]:
        if entry.type == "message":
            context.messages.append(entry.message)
        elif entry.type == "branchSummary":
            context.messages.append(
                frame_summary(BRANCH_SUMMARY_PREFIX, str(entry.record["summary"]))
            )
    return context


def build_context(session: SessionFile, leaf_id: str | None = None) -> Context:
    """``buildContext()`` for the session's leaf, or for ``leaf_id``. Raises ``SessionError``."""
    target = session.leaf_id if leaf_id is None else leaf_id
    entries = branch(session, target)
    session.preload(entries[last_compaction_index(entries) :])
    return context_for_branch(entries, target)


def last_compaction_index(entries: list[Entry]) -> int:
    """Index of the last ``compaction`` entry of a branch (0 when there is none)."""
    for index in range(len(entries) - 1, -1, -1):
        if entries[index].type == "compaction":
            return index
    return 0
