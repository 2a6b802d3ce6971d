"""What the chat pane shows, as the session's entries (the rows come from them as the session
view's do, through :class:`~ink_tui.session.conversation.view.TurnBuilder`).

When the pane opens: the last :data:`HISTORY_MESSAGES` messages of the branch it goes on from,
with the entries and model switches among them (:func:`chat_history`, read in a worker). Then
the records the chat writes, as it writes them (:func:`written_entries`: its messages and
compactions; what its commands set, a model or a thinking level, its notes say), and what
another writer appended on the branch it chose to go on from (:func:`arrived_on_branch`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, cast

from ink_tui.session.conversation.tree import branch, labels
from ink_tui.session.reading.reader import Entry, Marker, SessionFile
from ink_tui.session.reading.recordtypes import EntryRecord

__all__ = [
    "HISTORY_MESSAGES",
    "ChatHistory",
    "arrived_on_branch",
    "chat_history",
    "written_entries",
]

HISTORY_MESSAGES: Final = 8
"""Messages of the branch shown when the pane opens (the session view has them all)."""
SHOWN_WRITTEN: Final = frozenset({"message", "compaction"})
"""The records of its own that the pane shows as rows."""


@dataclass(slots=True)
class ChatHistory:
    """The end of the branch the chat goes on from."""

    entries: list[Entry] = field(default_factory=list)  # root first, payloads read
    markers: list[Marker] = field(default_factory=list)  # model switches among them
    earlier: int = 0  # messages of the branch before these
    labels: dict[str, str] = field(default_factory=dict)  # target entry id -> label


def _role(entry: Entry) -> str | None:
    return entry.message["role"] if entry.type == "message" else None


def chat_history(
    session: SessionFile | None, leaf_id: str | None, messages: int = HISTORY_MESSAGES
) -> ChatHistory:
    """The branch to ``leaf_id`` from its last ``messages`` messages on (from the reply whose
    calls the first of them answers, so that no result is shown without its call). Reads the
    payloads shown: call it in a worker. Raises ``SessionError`` (the file changed on disk)."""
    if session is None:
        return ChatHistory()
    entries = branch(session, leaf_id, use_leaf=False)
    starts = [index for index, entry in enumerate(entries) if entry.type == "message"]
    first = max(0, len(starts) - messages)
    if not starts:
        return ChatHistory(labels=labels(session))
    session.preload(entries[starts[first] :])
    while first > 0 and _role(entries[starts[first]]) == "toolResult":
        first -= 1
        session.preload(entries[starts[first] : starts[first + 1]])
    shown = entries[starts[first] :] if first else entries
    session.preload(shown)  # (the entries before the first message, when all are shown)
    after = shown[0].line if first else 0
    markers = [marker for marker in session.session_models if marker.line > after]
    return ChatHistory(shown, markers, first, labels(session))


def written_entries(records: Sequence[Mapping[str, object]]) -> list[Entry]:
    """The records the chat wrote that it shows (its messages, a compaction), as entries."""
    return [
        Entry(cast(EntryRecord, dict(record)), 0, 0, 0)  # the writer's own, of types Ink reads
        for record in records
        if record.get("type") in SHOWN_WRITTEN
    ]


def arrived_on_branch(
    session: SessionFile, arrived: Sequence[Entry], leaf_id: str | None
) -> list[Entry]:
    """What another writer appended (``arrived``, file order) that lies on the branch to
    ``leaf_id`` (where the chat now goes on from), payloads read."""
    on_branch = {entry.id for entry in branch(session, leaf_id, use_leaf=False)}
    shown = [entry for entry in arrived if entry.id in on_branch]
    session.preload(shown)
    return shown
