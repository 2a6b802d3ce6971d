"""Every leaf of a session as one flat list: what the branches screen shows.

For each leaf: where its branch leaves the current branch (the fork point: the last entry they
share, and the turn of the current branch that holds it), the first line of its last prompt, its
time, how much it adds beyond the fork point (entries and bytes), the labels on that part and the
position markers that moved the leaf into it. The current leaf's own part is its chain after the
nearest fork (an entry with two children or more).

It is built in a thread from a snapshot of the entry list (the live tail may append meanwhile),
in one walk up from every leaf with memos held in plain dicts, so each entry is visited once
whatever the number of leaves and few objects are made. It reads the roles of the current
branch's messages (in memory when the session view loaded it) and of the few entries between
each leaf and its last prompt, through :class:`~ink_tui.session.reading.peek.EntryPeek`: the shared
entries are never changed. Lenient like Ink's ``/tree``: a missing parent or a ``parentId`` cycle
ends a path, and nothing raises on a broken file (only :class:`SessionError` when the file
changed on disk under an entry).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Literal

from ink_tui.session.conversation.entrytext import record_summary
from ink_tui.session.conversation.tree import fold_labels
from ink_tui.session.reading.peek import EntryPeek
from ink_tui.session.reading.reader import Entry, Marker, SessionFile
from ink_tui.session.reading.recordtypes import PositionMarker

__all__ = [
    "BranchList",
    "LeafRow",
    "PositionMove",
    "SessionSnapshot",
    "build_branch_list",
]

RootKind = Literal["root", "orphan", "cycle"]


@dataclass(frozen=True, slots=True)
class PositionMove:
    """One ``position`` marker: where ``/fork`` or ``/tree`` moved the leaf."""

    line: int
    leaf_id: str | None
    exists: bool  # the target is an entry of the file (or null)
    effective: bool  # this marker decides the leaf Ink reopens on

    def describe(self) -> str:
        where = f"line {self.line}"
        if self.leaf_id is None:
            text = f"moved to the empty branch (null leaf) ({where})"
        elif self.exists:
            text = f"moved to {self.leaf_id} ({where})"
        else:
            text = f"moved to {self.leaf_id}: no such entry, ignored ({where})"
        return text + ("; the leaf Ink reopens on" if self.effective else "")


PROMPT_SEARCH_LIMIT = 5000
"""Entries walked up from a leaf looking for its last prompt before giving up."""


@dataclass(frozen=True, slots=True)
class SessionSnapshot:
    """The entries, markers and id map of a session as they were when the screen asked.

    Taken on the event loop (copying them is cheap); the build then runs in a thread while the
    live tail may append to the session.
    """

    session: SessionFile
    entries: tuple[Entry, ...]
    positions: tuple[Marker[PositionMarker], ...]
    by_id: dict[str, Entry]  # a later duplicate wins, as in the id map

    @classmethod
    def of(cls, session: SessionFile) -> SessionSnapshot:
        entries, positions = tuple(session.entries), tuple(session.positions)
        return cls(session, entries, positions, dict(session.by_id))


@dataclass(slots=True)
class LeafRow:
    """One leaf and what the list says about it."""

    entry: Entry
    is_current: bool
    fork_id: str | None  # the last entry shared with the current branch (the current leaf:
    # its nearest fork); None: no such entry
    fork_turn: int  # the turn of the current branch holding fork_id (0: before the first prompt)
    root_kind: RootKind  # how the path starts when it shares nothing with the current branch
    own_entries: int  # entries after fork_id, down to the leaf
    own_bytes: int
    prompt: str | None = None  # first line of the last user prompt on the leaf's branch
    timestamp: str = ""
    summary: str = ""  # what the leaf entry itself is (record_summary)
    labels: list[tuple[str, str]] = field(default_factory=list)  # (entry id, label), own part
    moves: list[PositionMove] = field(default_factory=list)  # markers naming its own part

    @property
    def id(self) -> str:
        return self.entry.id


@dataclass(slots=True)
class BranchList:
    """Every leaf (newest first) and what the screen says about the whole session."""

    rows: list[LeafRow]
    current_leaf_id: str | None
    moves: list[PositionMove]  # every position marker, file order
    stray_labels: list[tuple[str, str]]  # labels naming no entry of the file
    current_turns: int  # prompts on the current branch

    @property
    def current_row(self) -> LeafRow | None:
        """The current leaf's row; ``None`` when the leaf Ink reopens on is not a leaf (a
        position marker named an inner entry or a label) or is the empty branch."""
        return next((row for row in self.rows if row.is_current), None)


def _path_up(by_id: dict[str, Entry], leaf_id: str | None) -> list[Entry]:
    """Root first; a missing parent or a cycle ends the walk (never raises)."""
    path: list[Entry] = []
    append, get, limit = path.append, by_id.get, len(by_id)
    entry = get(leaf_id) if leaf_id is not None else None
    while entry is not None and len(path) <= limit:  # (longer: it went round a cycle)
        append(entry)
        parent_id = entry.parent_id
        entry = get(parent_id) if parent_id is not None else None
    if len(path) > limit:
        seen: set[str] = set()
        for index, entry in enumerate(path):
            if entry.id in seen:
                del path[index:]
                break
            seen.add(entry.id)
    path.reverse()
    return path


def _labels(entries: tuple[Entry, ...], peek: EntryPeek) -> dict[str, str]:
    """``targetId -> label`` by Ink's rule (:func:`fold_labels`), reading records via ``peek``."""
    records = (peek.record(entry) for entry in entries if entry.type == "label")
    writes = ((str(r.get("targetId")), str(r.get("label", ""))) for r in records)
    result: dict[str, str] = {}
    fold_labels(result, writes)
    return result


def _moves(snapshot: SessionSnapshot) -> list[PositionMove]:
    last_entry_line = snapshot.entries[-1].line if snapshot.entries else 0
    moves: list[PositionMove] = []
    for index, marker in enumerate(snapshot.positions):
        target = marker.record.get("leafId")
        leaf_id = None if target is None else str(target)
        exists = leaf_id is None or leaf_id in snapshot.by_id
        effective = index == len(snapshot.positions) - 1 and marker.line > last_entry_line
        moves.append(PositionMove(marker.line, leaf_id, exists, effective and exists))
    return moves


class _Meets:
    """Where each entry off the current branch meets it: memos in plain dicts, filled by walks
    up from the leaves (each entry is visited once)."""

    def __init__(
        self,
        by_id: dict[str, Entry],
        on_current: dict[str, int],
        labelled: set[str],
        marked: set[str],
    ) -> None:
        self.by_id, self.on_current = by_id, on_current
        self.labelled_ids, self.marked_ids = labelled, marked
        self.fork: dict[str, str | None] = {}  # the current-branch entry its path meets
        self.kind: dict[str, RootKind] = {}  # how its path starts when it meets none
        self.count: dict[str, int] = {}  # entries from it up to the meeting point (exclusive)
        self.size: dict[str, int] = {}  # their bytes
        self.label_link: dict[str, str] = {}  # nearest labelled entry at or above it
        self.mark_link: dict[str, str] = {}  # nearest entry a position marker names

    def walk(self, leaf: Entry) -> None:
        """Fill the memos from ``leaf`` up to the current branch, a root or a known entry."""
        trail: list[Entry] = []
        seen: set[str] = set()
        by_id, count = self.by_id, self.count
        entry: Entry | None = leaf
        base: str | None = None  # a known entry whose memos the trail continues
        fork: str | None = None
        kind: RootKind = "root"
        while entry is not None:
            if entry.id in self.on_current:
                fork = entry.id
                break
            if entry.id in count:
                base = entry.id
                break
            if entry.id in seen:
                kind = "cycle"
                break
            seen.add(entry.id)
            trail.append(entry)
            parent_id = entry.parent_id
            entry = by_id.get(parent_id) if parent_id is not None else None
            if entry is None and parent_id is not None:
                kind = "orphan"
        steps, size = 0, 0
        label_at = mark_at = None
        if base is not None:
            fork, kind = self.fork[base], self.kind[base]
            steps, size = count[base], self.size[base]
            label_at, mark_at = self.label_link.get(base), self.mark_link.get(base)
        for entry in reversed(trail):
            key = entry.id
            steps += 1
            size += entry.end - entry.offset
            label_at = key if key in self.labelled_ids else label_at
            mark_at = key if key in self.marked_ids else mark_at
            self.fork[key], self.kind[key] = fork, kind
            count[key], self.size[key] = steps, size
            if label_at is not None:
                self.label_link[key] = label_at
            if mark_at is not None:
                self.mark_link[key] = mark_at

    def linked(self, leaf_id: str, links: dict[str, str]) -> Iterator[str]:
        """The linked ids from ``leaf_id`` up to the meeting point (a cycle ends them)."""
        current = links.get(leaf_id)
        while current is not None:
            yield current
            parent_id = self.by_id[current].parent_id
            if parent_id is None or self.count.get(parent_id, 0) >= self.count[current]:
                return
            current = links.get(parent_id)


def _turn_numbers(peek: EntryPeek, path: list[Entry]) -> list[int]:
    """For each entry of the current branch, the number of prompts at or before it."""
    peek.fetch_roles(path)
    numbers: list[int] = []
    append, is_prompt = numbers.append, peek.is_prompt
    count = 0
    for entry in path:  # (the view's records are in memory: read them inline, it is a hot loop)
        if entry.type == "message":
            record = entry._record
            if record is None:
                count += is_prompt(entry)
            else:
                message = record.get("message")
                count += type(message) is dict and message.get("role") == "user"
        append(count)
    return numbers


def _last_prompts(
    peek: EntryPeek, by_id: dict[str, Entry], leaves: list[Entry], cancelled: Callable[[], bool]
) -> dict[str, Entry | None]:
    """Each leaf's nearest prompt at or above it, every leaf one step further up per round
    (one pass over the file per round)."""
    memo: dict[str, Entry | None] = {}
    found: dict[str, Entry | None] = {}
    walkers = [(leaf.id, leaf, [leaf.id], {leaf.id}) for leaf in leaves]
    while walkers and not cancelled():
        peek.fetch_roles(entry for _, entry, _, _ in walkers if entry.id not in memo)
        moving = []
        for leaf_id, entry, trail, seen in walkers:
            if entry.id in memo:
                result = memo[entry.id]
            elif peek.is_prompt(entry):
                result = entry
            else:
                parent = by_id.get(entry.parent_id) if entry.parent_id is not None else None
                if (
                    parent is not None
                    and parent.id not in seen
                    and len(trail) < PROMPT_SEARCH_LIMIT
                ):
                    trail.append(parent.id)
                    seen.add(parent.id)
                    moving.append((leaf_id, parent, trail, seen))
                    continue
                result = None
            for step in trail:
                memo[step] = result
            found[leaf_id] = result
        walkers = moving
    return found


def build_branch_list(
    snapshot: SessionSnapshot,
    current_leaf_id: str | None,
    *,
    cancelled: Callable[[], bool] = lambda: False,
) -> BranchList | None:
    """Every leaf of the snapshot, newest first (``None`` when ``cancelled`` said so)."""
    by_id = snapshot.by_id
    content = [e for e in snapshot.entries if e.type != "label" and by_id[e.id] is e]
    children = Counter(entry.parent_id for entry in content)
    leaves = [entry for entry in content if entry.id not in children]
    peek = EntryPeek(snapshot.session)
    labels = _labels(snapshot.entries, peek)
    moves = _moves(snapshot)
    marked: dict[str, list[PositionMove]] = {}
    for move in moves:
        if move.leaf_id is not None and move.leaf_id in by_id:
            marked.setdefault(move.leaf_id, []).append(move)

    current_path = _path_up(by_id, current_leaf_id)
    on_current = {entry.id: index for index, entry in enumerate(current_path)}
    turns = _turn_numbers(peek, current_path)
    meets = _Meets(by_id, on_current, set(labels), set(marked))
    for leaf in leaves:
        if leaf.id not in on_current:
            meets.walk(leaf)
    if cancelled():
        return None
    prompts = _last_prompts(peek, by_id, leaves, cancelled)
    if cancelled():
        return None
    peek.fetch([*leaves, *(prompt for prompt in prompts.values() if prompt is not None)])

    rows: list[LeafRow] = []
    prompt_lines: dict[int, str] = {}  # many leaves can share one prompt (a fork star)
    for leaf in reversed(leaves):  # newest first: a leaf is the last entry of its branch
        if leaf.id in on_current:
            row, own = _current_row(leaf, current_path, turns, children)
            targets = [entry.id for entry in own]
        else:
            fork = meets.fork[leaf.id]
            fork_turn = turns[on_current[fork]] if fork is not None else 0
            kind, count, size = meets.kind[leaf.id], meets.count[leaf.id], meets.size[leaf.id]
            row = LeafRow(leaf, False, fork, fork_turn, kind, count, size)
            targets = [
                *meets.linked(leaf.id, meets.label_link),
                *meets.linked(leaf.id, meets.mark_link),
            ]
        row.labels = [
            (target, labels[target]) for target in dict.fromkeys(targets) if target in labels
        ]
        row.moves = [move for target in dict.fromkeys(targets) for move in marked.get(target, ())]
        row.moves.sort(key=lambda move: move.line)
        record = peek.record(leaf)
        row.timestamp = str(record.get("timestamp", ""))
        row.summary = record_summary(leaf.type, record)
        prompt = prompts.get(leaf.id)
        if prompt is not None and id(prompt) not in prompt_lines:
            prompt_lines[id(prompt)] = record_summary(prompt.type, peek.record(prompt))
        row.prompt = prompt_lines[id(prompt)] if prompt is not None else None
        rows.append(row)
    return BranchList(
        rows=rows,
        current_leaf_id=current_leaf_id,
        moves=moves,
        stray_labels=[(target, text) for target, text in labels.items() if target not in by_id],
        current_turns=turns[-1] if turns else 0,
    )


def _current_row(
    leaf: Entry, path: list[Entry], turns: list[int], children: Counter[str | None]
) -> tuple[LeafRow, list[Entry]]:
    """The current leaf's row and its own part: its chain after the nearest fork."""
    start = len(path) - 1
    while start > 0 and children[path[start - 1].id] < 2:
        start -= 1
    own = path[start:]
    fork = path[start - 1] if start > 0 else None
    size = sum(entry.end - entry.offset for entry in own)
    fork_turn = turns[start - 1] if fork is not None else 0
    row = LeafRow(leaf, True, fork.id if fork else None, fork_turn, "root", len(own), size)
    return row, own
