"""Everything the session view shows of one branch, and how a followed branch grows.

Pure: built off the event loop by the UI, extended in place when Ink appends to the branch.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ink_tui.session.reader import Entry, SessionFile
from ink_tui.session.tree import branch, labels, restored_model, session_name, thinking_level
from ink_tui.session.view import (
    BranchStats,
    Turn,
    TurnBuilder,
    TurnChanges,
    add_to_stats,
    branch_stats,
)

__all__ = ["LoadedBranch", "last_model_used", "load_branch"]


@dataclass(slots=True)
class LoadedBranch:
    """One branch of a session: its entries, turns, stats, labels and header facts."""

    session: SessionFile
    leaf_id: str | None
    entries: list[Entry]
    builder: TurnBuilder
    stats: BranchStats
    labels: dict[str, str]
    header: dict[str, str] = field(default_factory=dict)
    earlier: int = 0  # entries of the branch before ``entries`` (a first, partial load)

    @property
    def turns(self) -> list[Turn]:
        return self.builder.turns

    def extension_to(self, leaf_id: str | None) -> list[Entry] | None:
        """The entries that lead from this branch's leaf to ``leaf_id``, root first.

        ``None`` when ``leaf_id`` is not below the current leaf (the leaf moved to another
        branch, as Ink's ``/fork`` and ``/tree`` do).
        """
        if leaf_id == self.leaf_id:
            return []
        path: list[Entry] = []
        current = self.session.by_id.get(leaf_id) if leaf_id is not None else None
        seen: set[str] = set()
        while current is not None and current.id not in seen:
            seen.add(current.id)
            path.append(current)
            if current.parent_id == self.leaf_id:
                path.reverse()
                return path
            if current.parent_id is None:
                return None
            current = self.session.by_id.get(current.parent_id)
        return None

    def extend(self, entries: list[Entry]) -> list[TurnChanges]:
        """Append entries that continue the branch; returns what each changed in the turns."""
        self.session.preload(entries)
        changes = [self.builder.add(entry) for entry in entries]
        self.entries.extend(entries)
        if entries:
            self.leaf_id = entries[-1].id
        add_to_stats(self.stats, entries, self.builder.turns)
        self.header = _header(self.session, self.entries)
        return changes

    def refresh_facts(self) -> None:
        """Recount stats, labels and header facts (after entries arrived)."""
        self.stats = branch_stats(self.entries, self.builder.turns)
        self.labels = labels(self.session)
        self.header = _header(self.session, self.entries)


def _header(session: SessionFile, entries: list[Entry]) -> dict[str, str]:
    model, _ = restored_model(session)
    return {
        "project": session.cwd,
        "model": model.reference if model else last_model_used(entries) or "(no model recorded)",
        "thinking": thinking_level(session) or "default",
        "name": session_name(entries) or "",
    }


def load_branch(
    session: SessionFile, leaf_id: str | None, *, last: int | None = None
) -> LoadedBranch:
    """Walk the branch to ``leaf_id`` and build its rows. Raises ``SessionError``.

    With ``last``, only about the last ``last`` entries are built (from a user prompt on, so the
    first turn is whole): what a big session's first screen needs, while the rest loads.
    """
    entries = branch(session, leaf_id)
    earlier = 0
    if last is not None and len(entries) > last:
        earlier = _turn_start(session, entries, len(entries) - last)
        entries = entries[earlier:]
    session.preload(entries)
    builder = TurnBuilder()
    for entry in entries:
        builder.add(entry)
    loaded = LoadedBranch(session, leaf_id, entries, builder, BranchStats(), {}, earlier=earlier)
    loaded.refresh_facts()
    return loaded


def _turn_start(session: SessionFile, entries: list[Entry], index: int) -> int:
    """The index of the first user prompt at or after ``index`` (else ``index``)."""
    window = entries[index : index + 400]
    session.preload(window)
    for offset, entry in enumerate(window):
        if entry.type == "message" and entry.record["message"].get("role") == "user":
            return index + offset
    return index


def last_model_used(entries: list[Entry]) -> str | None:
    """The model of the branch's last assistant message (for sessions that record no other)."""
    for entry in reversed(entries):
        message = entry.record.get("message") if entry.type == "message" else None
        if isinstance(message, dict) and message.get("role") == "assistant":
            reference = message.get("modelReference") or message.get("model")
            if isinstance(reference, str) and reference:
                return reference
    return None
