"""The whole entry tree of a session, collapsed to its forks (what the branches screen shows).

Only roots, fork points (entries with two or more children) and leaves become nodes; the
single-child entries between two nodes are folded into the lower node's ``chain``. Like Ink's
``/tree`` this is lenient: an entry whose parent is missing becomes an extra root, and a
``parentId`` cycle (unreachable from any root) is broken at its first entry in file order, which
becomes an extra root too. Nothing here raises on a broken file.

Label entries are not nodes: their texts are attached to the entries they name. A label that
content entries hang under (possible after a position marker named the label) stays in the walk
as an ordinary chain member, so those entries are not lost.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from ink_tui.session.reader import Entry, SessionFile
from ink_tui.session.tree import children_map, labels, leaves
from ink_tui.session.view import content_text

__all__ = [
    "ForkNode",
    "ForkTree",
    "PositionMove",
    "build_fork_tree",
    "entry_summary",
    "first_line",
    "short_time",
]

RootKind = Literal["root", "orphan", "cycle"]
SUMMARY_WIDTH = 80


def first_line(text: str, width: int = SUMMARY_WIDTH) -> str:
    """The first non-blank line of ``text``, stripped and cut to ``width`` characters."""
    for line in text.split("\n"):
        line = line.strip()
        if line:
            return line if len(line) <= width else line[: width - 1] + "…"
    return ""


def short_time(timestamp: Any) -> str:
    """``2026-10-05T12:34:56.789Z`` as ``2026-10-05 12:34`` (anything else cut as is)."""
    text = str(timestamp)
    if len(text) >= 16 and text[10] == "T":
        return f"{text[:10]} {text[11:16]}"
    return text[:16]


def _message_summary(message: Any) -> str:
    if not isinstance(message, dict):
        return "message"
    role = message.get("role")
    if role == "user":
        content = message.get("content")
        text = first_line(content_text(content))
        if text:
            return text
        has_image = isinstance(content, list) and any(
            isinstance(block, dict) and block.get("type") == "image" for block in content
        )
        return "(image)" if has_image else "(empty prompt)"
    if role == "assistant":
        blocks = message.get("blocks")
        blocks = blocks if isinstance(blocks, list) else []
        text = first_line(content_text(blocks))
        if text:
            return text
        calls = [
            str(block.get("name", "?"))
            for block in blocks
            if isinstance(block, dict) and block.get("type") == "toolCall"
        ]
        if calls:
            return first_line("calls " + ", ".join(calls))
        return "(thinking)" if blocks else "(empty reply)"
    if role == "toolResult":
        results = message.get("results")
        results = results if isinstance(results, list) else []
        names = [str(r.get("toolName", "?")) for r in results if isinstance(r, dict)]
        failed = any(isinstance(r, dict) and r.get("isError") is True for r in results)
        text = "result of " + (", ".join(names) or "nothing")
        return first_line(text + (" (error)" if failed else ""))
    return first_line(f"{role} message")


def entry_summary(entry: Entry) -> str:
    """One line saying what an entry is: the prompt's or reply's first line, else its type."""
    record = entry.record
    kind = entry.type
    if kind == "message":
        return _message_summary(record.get("message"))
    if kind == "compaction":
        return first_line(f"compaction ({record.get('tokensBefore', '?')} tokens before)")
    if kind == "branchSummary":
        return first_line("branch summary: " + str(record.get("summary", "")))
    if kind == "thinkingLevelChange":
        return first_line(f"thinking level: {record.get('thinkingLevel')}")
    if kind == "session_info":
        name = str(record.get("name", "")).strip()
        return first_line(f"name: {name}" if name else "name cleared")
    if kind == "label":
        return first_line(f"label {record.get('label')!s} on {record.get('targetId')!s}")
    return kind


def _is_prompt(entry: Entry) -> bool:
    message = entry.record.get("message")
    return entry.type == "message" and isinstance(message, dict) and message.get("role") == "user"


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


@dataclass(slots=True)
class ForkNode:
    """A root, fork point or leaf, standing for the chain of entries that ends with it."""

    entry: Entry
    chain: list[Entry]  # from just below the parent node down to ``entry`` (inclusive)
    root_kind: RootKind | None = None  # set on top-level nodes
    is_leaf: bool = False  # in ``tree.leaves``: choosable
    children: list[ForkNode] = field(default_factory=list)
    labels: list[tuple[str, str]] = field(default_factory=list)  # (entry id, label) in the chain
    moves: list[PositionMove] = field(default_factory=list)  # markers naming a chain entry

    @property
    def id(self) -> str:
        return self.entry.id

    @property
    def count(self) -> int:
        """How many entries the node stands for."""
        return len(self.chain)

    @property
    def summary(self) -> str:
        return entry_summary(self.entry)

    @property
    def time(self) -> str:
        return short_time(self.entry.record.get("timestamp"))

    @property
    def prompt(self) -> str | None:
        """The first line of the first user prompt in the chain, if it holds one."""
        for entry in self.chain:
            if _is_prompt(entry):
                return entry_summary(entry)
        return None

    def walk(self) -> Iterator[ForkNode]:
        """This node and everything under it, depth first (no recursion)."""
        stack: list[ForkNode] = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))


@dataclass(slots=True)
class ForkTree:
    """The collapsed tree plus what the screen lists beside it."""

    roots: list[ForkNode]
    leaf_ids: list[str]  # every leaf, file order
    current_leaf_id: str | None
    moves: list[PositionMove]  # every position marker, file order
    node_of: dict[str, ForkNode]  # entry id -> the node whose chain holds it
    stray_labels: list[tuple[str, str]]  # labels naming no entry of the tree

    def nodes(self) -> Iterator[ForkNode]:
        for root in self.roots:
            yield from root.walk()

    def leaf_nodes(self) -> list[ForkNode]:
        return [node for node in self.nodes() if node.is_leaf]

    def path_to(self, entry_id: str) -> list[ForkNode]:
        """The nodes from a root down to the node holding ``entry_id`` (empty if absent)."""
        target = self.node_of.get(entry_id)
        if target is None:
            return []
        for root in self.roots:
            trail: list[tuple[ForkNode, int]] = [(root, 0)]
            while trail:
                node, index = trail[-1]
                if node is target:
                    return [step[0] for step in trail]
                if index < len(node.children):
                    trail[-1] = (node, index + 1)
                    trail.append((node.children[index], 0))
                else:
                    trail.pop()
        return []


def _position_moves(session: SessionFile) -> list[PositionMove]:
    last_entry_line = session.entries[-1].line if session.entries else 0
    moves: list[PositionMove] = []
    for index, marker in enumerate(session.positions):
        target = marker.record.get("leafId")
        leaf_id = None if target is None else str(target)
        exists = leaf_id is None or leaf_id in session.by_id
        effective = index == len(session.positions) - 1 and marker.line > last_entry_line and exists
        moves.append(PositionMove(marker.line, leaf_id, exists, effective))
    return moves


def _tree_entries(session: SessionFile) -> list[Entry]:
    """Content entries, plus the labels content entries hang under; id-map winners only."""
    winners = [e for e in session.entries if session.by_id.get(e.id) is e]
    live_labels: set[str] = set()
    for entry in winners:
        if entry.type == "label":
            continue
        parent = session.by_id.get(entry.parent_id) if entry.parent_id is not None else None
        while parent is not None and parent.type == "label" and parent.id not in live_labels:
            live_labels.add(parent.id)
            parent = session.by_id.get(parent.parent_id) if parent.parent_id is not None else None
    return [e for e in winners if e.type != "label" or e.id in live_labels]


def build_fork_tree(session: SessionFile, current_leaf_id: str | None = None) -> ForkTree:
    """Collapse the session's entry tree to its roots, forks and leaves (never raises)."""
    members = _tree_entries(session)
    session.preload(members)  # summaries read payloads: one pass over the file, not one open each
    member_ids = {entry.id for entry in members}
    kids: dict[str, list[Entry]] = {}
    for parent_id, children in children_map(session).items():
        if parent_id is not None and parent_id in member_ids:
            kids[parent_id] = [child for child in children if child.id in member_ids]
    leaf_ids = [entry.id for entry in leaves(session)]
    leaf_set = set(leaf_ids)

    starts: list[tuple[Entry, RootKind]] = []
    for entry in members:
        if entry.parent_id is None:
            starts.append((entry, "root"))
        elif entry.parent_id not in member_ids:
            starts.append((entry, "orphan"))

    visited: set[str] = set()
    node_of: dict[str, ForkNode] = {}
    roots: list[ForkNode] = []

    def grow(start: Entry, kind: RootKind) -> None:
        visited.add(start.id)
        root = ForkNode(start, [start], kind, start.id in leaf_set)
        node_of[start.id] = root
        roots.append(root)
        # Each task: the node to attach to and the first entry of a new chain below it.
        tasks: list[tuple[ForkNode, Entry]] = [
            (root, child) for child in reversed(_unvisited(kids, start.id, visited))
        ]
        while tasks:
            parent_node, entry = tasks.pop()
            if entry.id in visited:
                continue
            chain: list[Entry] = []
            while True:
                visited.add(entry.id)
                chain.append(entry)
                below = _unvisited(kids, entry.id, visited)
                if len(below) != 1 or entry.id in leaf_set:
                    break
                entry = below[0]
            node = ForkNode(entry, chain, None, entry.id in leaf_set)
            for member in chain:
                node_of[member.id] = node
            parent_node.children.append(node)
            tasks.extend((node, child) for child in reversed(below))

    for entry, kind in starts:
        if entry.id not in visited:
            grow(entry, kind)
    for entry in members:  # whatever is left hangs on a parentId cycle
        if entry.id not in visited:
            grow(entry, "cycle")

    stray: list[tuple[str, str]] = []
    for target, text in labels(session).items():
        node = node_of.get(target)
        if node is None:
            stray.append((target, text))
        else:
            node.labels.append((target, text))
    moves = _position_moves(session)
    for move in moves:
        if move.leaf_id is not None and move.leaf_id in node_of:
            node_of[move.leaf_id].moves.append(move)
    return ForkTree(roots, leaf_ids, current_leaf_id, moves, node_of, stray)


def _unvisited(kids: dict[str, list[Entry]], entry_id: str, visited: set[str]) -> list[Entry]:
    return [child for child in kids.get(entry_id, ()) if child.id not in visited]
