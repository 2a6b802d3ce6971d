"""Everything the session view shows of one branch, and how a followed branch grows.

Pure: built off the event loop by the UI, extended in place (on the event loop) when Ink appends
to the branch.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from ink_tui.session.conversation.branchstats import (
    BranchStats,
    add_to_stats,
    branch_stats,
    count_entries,
    count_turns,
)
from ink_tui.session.conversation.resume import resumed_model, resumed_thinking, thinking_after
from ink_tui.session.conversation.tree import branch, labels, session_name
from ink_tui.session.conversation.view import Turn, TurnBuilder, TurnChanges, update_labels
from ink_tui.session.reading.reader import Entry, Marker, SessionFile
from ink_tui.session.reading.recordtypes import SessionModelMarker
from ink_tui.session.reading.timestamps import timestamp_seconds
from ink_tui.session.rules.usage_totals import FileUsage, UsageTotals

__all__ = [
    "STALE_CALL_SECONDS",
    "LoadedBranch",
    "load_branch",
    "partial_branch",
    "running_calls",
]

STALE_CALL_SECONDS = 3600  # an unanswered call older than this is shown as interrupted
BUILD_CHUNK = 512  # entries whose payloads are held at once while a branch's rows are built


@dataclass(slots=True)
class LoadedBranch:
    """One branch of a session: its entries, turns, stats, labels and header facts."""

    session: SessionFile
    leaf_id: str | None
    entries: list[Entry]
    builder: TurnBuilder
    stats: BranchStats
    labels: dict[str, str]  # target entry id -> label, file-wide
    header: dict[str, str] = field(default_factory=dict)
    earlier: int = 0  # entries of the branch before ``entries`` (a first, partial load)
    from_tail: bool = False  # read from the end of the file, before the whole of it was checked
    work: UsageTotals | None = None  # Ink's /status totals of the whole file (None: not read)

    @property
    def partial(self) -> bool:
        """A first look (the last turns) while the whole branch is still being read."""
        return self.earlier > 0 or self.from_tail

    @property
    def turns(self) -> list[Turn]:
        return self.builder.turns

    def row_labels(self) -> dict[str, str]:
        """Row key -> the label shown on that row."""
        return self.builder.row_labels(self.labels)

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

    def extend(
        self,
        entries: list[Entry],
        models: Sequence[Marker[SessionModelMarker]] = (),
        *,
        arrived: Sequence[Entry] | None = None,
    ) -> list[TurnChanges]:
        """Append entries that continue the branch, and model switches (``session_model``
        markers) that arrived with them; returns what each changed in the turns.

        ``arrived``: every entry of the batch (file order; default ``entries``), for the facts
        taken file-wide (the thinking level). Only what the batch carries is counted: a batch
        never walks the whole session."""
        if entries or models:
            self.session.preload(entries)
            last = self.entries[-1] if self.entries else (entries[0] if entries else None)
            changes = _feed(self.builder, entries, models, last)
            self.entries.extend(entries)
            if entries:
                self.leaf_id = entries[-1].id
            add_to_stats(self.stats, entries, changes)
        else:
            changes = []
        if self.work is not None:  # every entry appended to the file, on any branch
            self.work.add_all(entry.record for entry in (entries if arrived is None else arrived))
        self._update_header(entries, entries if arrived is None else arrived)
        return changes

    def add_labels(self, entries: list[Entry]) -> set[str]:
        """Apply the label entries among new ``entries``; the keys of the rows whose label
        changed."""
        changed = update_labels(self.labels, entries)
        keys = {self.builder.row_for(target) for target in changed}
        return {key for key in keys if key is not None}

    def refresh_facts(self, counted: BranchStats | None = None) -> None:
        """Count stats, labels and header facts over the whole branch and file (``counted``:
        the entries' counts, already made while the rows were built)."""
        if counted is None:
            self.stats = branch_stats(self.entries, self.builder.turns)
        else:
            count_turns(counted, self.builder.turns)
            self.stats = counted
        self.labels = labels(self.session)
        self.header = _header(self.session, self.stats, self.entries)

    def _update_header(self, extension: list[Entry], arrived: Sequence[Entry]) -> None:
        """The header facts once ``extension`` continued the branch and ``arrived`` (the whole
        batch) was appended to the file (its ``session_model`` markers already applied)."""
        header = self.header
        model = resumed_model(self.session)  # the latest marker, or the file's header
        if model is not None:
            header["model"] = model.reference
        elif self.stats.last_model is not None:  # add_to_stats counted the extension
            header["model"] = self.stats.last_model
        header["thinking"] = thinking_after(header["thinking"], arrived)
        if any(entry.type == "session_info" for entry in extension):
            header["name"] = session_name(extension) or ""


def _feed(
    builder: TurnBuilder,
    entries: list[Entry],
    models: Sequence[Marker[SessionModelMarker]],
    last: Entry | None,
) -> list[TurnChanges]:
    """Add entries and the markers among them to ``builder``, in file (line) order."""
    return builder.add_in_file_order(entries, models, last)


def _header(session: SessionFile, stats: BranchStats, entries: list[Entry]) -> dict[str, str]:
    """The header's facts; with no model marker, the model of the branch's last assistant
    message that names one (counted with the stats, so no payload is read again)."""
    model = resumed_model(session)
    used = model.reference if model else stats.last_model
    return {
        "project": session.cwd,
        "model": used or "(no model recorded)",
        "thinking": resumed_thinking(session),
        "name": session_name(entries) or "",
    }


def load_branch(
    session: SessionFile, leaf_id: str | None, *, last: int | None = None, models: bool = False
) -> LoadedBranch:
    """Walk the branch to ``leaf_id`` and build its rows. Raises ``SessionError``.

    With ``last``, only about the last ``last`` entries are built (from a user prompt on, so the
    first turn is whole): what a big session's first screen needs, while the rest loads.
    Without it, Ink's ``/status`` totals of the whole file are counted too (``work``). With
    ``models``, the model switches of the file (``session_model`` markers) are rows too, placed
    among the entries shown in file order (the session view's replay; a preview of the last
    turns, read from the tail, has none).
    """
    entries = branch(session, leaf_id)
    earlier = 0
    if last is not None and len(entries) > last:
        earlier = _turn_start(session, entries, len(entries) - last)
        entries = entries[earlier:]
    first_line = entries[0].line if earlier and entries else 0
    markers = [m for m in session.session_models if m.line > first_line] if models else []
    work: UsageTotals | None = None
    if earlier:  # a first look: the rows of the last turns only
        builder, counted = _build(session, entries, markers, None)
    else:  # the whole branch: the whole file's totals too, counted while the rows are built
        # when the branch runs in file order (each record read once), else in a pass of their own
        with FileUsage(session) as usage:
            walk = usage if _in_file_order(entries) else None
            builder, counted = _build(session, entries, markers, walk)
            work = usage.finish()
    loaded = LoadedBranch(session, leaf_id, entries, builder, BranchStats(), {}, earlier=earlier)
    loaded.refresh_facts(counted)
    loaded.work = work
    return loaded


def _in_file_order(entries: list[Entry]) -> bool:
    """Each entry of ``entries`` comes later in the file than the one before it."""
    return all(before.line < after.line for before, after in pairwise(entries))


def _build(
    session: SessionFile,
    entries: list[Entry],
    markers: Sequence[Marker[SessionModelMarker]],
    usage: FileUsage | None,
) -> tuple[TurnBuilder, BranchStats]:
    """Rows and counts, :data:`BUILD_CHUNK` entries at a time: the payloads of replies and tool
    results are read, made into rows, counted and let go (the rows keep what they show; one
    needed again is read again from the file), so a 100 MB branch never holds all its parsed
    records at once. Prompts stay parsed: the tree's labels are made from them. ``usage``
    (entries in file order only) counts the file's entries up to each chunk's last while its
    records are in memory."""
    builder = TurnBuilder()
    counted = BranchStats()
    pending = sorted(markers, key=lambda marker: marker.line)
    last: Entry | None = None
    for start in range(0, len(entries), BUILD_CHUNK):
        chunk = entries[start : start + BUILD_CHUNK]
        session.preload(chunk)
        following = entries[start + BUILD_CHUNK] if start + BUILD_CHUNK < len(entries) else None
        upto = following.line if following is not None else None
        here = [m for m in pending if upto is None or m.line < upto]
        pending = pending[len(here) :]
        _feed(builder, chunk, here, last)
        count_entries(counted, chunk)
        if usage is not None:
            usage.count_through(chunk[-1])
        last = chunk[-1]
        for entry in chunk:
            if entry.type == "message" and entry.message["role"] != "user":
                entry.release()
    return builder, counted


def partial_branch(session: SessionFile, leaf_id: str | None, entries: list[Entry]) -> LoadedBranch:
    """The last entries of a branch read from the file's end (``session`` knows its header
    only): the first screen of a big session while the whole file is read and checked."""
    session.preload(entries)
    builder = TurnBuilder()
    _feed(builder, entries, [], None)
    loaded = LoadedBranch(session, leaf_id, entries, builder, BranchStats(), {}, from_tail=True)
    loaded.refresh_facts()
    return loaded


def _turn_start(session: SessionFile, entries: list[Entry], index: int) -> int:
    """The index of the first user prompt at or after ``index`` (else ``index``)."""
    window = entries[index : index + 400]
    session.preload(window)
    for offset, entry in enumerate(window):
        if entry.type == "message" and entry.message["role"] == "user":
            return index + offset
    return index


def running_calls(loaded: LoadedBranch, now: float) -> dict[str, float]:
    """Unanswered calls of the last turn, with when they started (hours-old ones excepted)."""
    if not loaded.turns:
        return {}
    running: dict[str, float] = {}
    for item in loaded.turns[-1].items:
        if item.tool is not None and item.tool.result is None:
            started = timestamp_seconds(item.entry.record.get("timestamp"))
            if started is not None and now - started > STALE_CALL_SECONDS:
                continue  # hours old: interrupted long ago, not running
            running[item.key] = started if started is not None else now
    return running
