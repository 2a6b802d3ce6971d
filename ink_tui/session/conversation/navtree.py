"""Ink's ``/tree`` navigator as data: the whole session tree and its five filters (spec §7).

- :func:`ink_tree` is ``getTree`` (``store.ts@b1deda4d``): every entry but labels is a node; it
  is a root when its ``parentId`` is null, equals its own id, or names no entry (roots keep file
  order); children are ordered by ``Date.parse(timestamp)`` with V8's stable sort (an unparsable
  timestamp compares equal to every other). A node's label is the file-wide last one.
- :func:`passes_filter` is ``passesFilter`` (``tree-selector.ts@2263c689``): ``default`` hides
  ``thinkingLevelChange``, ``session_info`` and assistant messages without a text block unless
  they stopped at ``max_tokens`` or ``stop_sequence``; ``no-tools`` also hides tool results;
  ``user-only`` shows user messages only; ``labeled-only`` labeled entries only; ``all``
  everything. The current leaf passes every filter.
- :func:`tree_rows` is ``buildTreeRows``: the rows ``/tree`` lists, with their connector prefix
  (a single-child chain stays flat, the branch holding the current leaf first), and
  :func:`row_line` one row as ``/tree`` draws it: ``• `` on the current branch, ``[label] ``
  before the text, ``  ◂`` after the current leaf.

Where Ink's JavaScript would loop forever (duplicate ids tying a node under its own
descendant), each node is visited once on a path. Nothing here reads beyond the session given.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from functools import cmp_to_key
from typing import Any, Final, Literal

from ink_tui.session.conversation.tree import labels
from ink_tui.session.reading.jsvalues import date_parse, js_joined, js_template
from ink_tui.session.reading.lines import JS_WHITESPACE
from ink_tui.session.reading.reader import Entry, SessionFile
from ink_tui.session.reading.shapes import MISSING, list_items
from ink_tui.session.rules.content import content_text

__all__ = [
    "FILTERS",
    "TreeFilter",
    "TreeNode",
    "TreeRow",
    "describe_entry",
    "ink_tree",
    "passes_filter",
    "row_line",
    "tree_rows",
]

TreeFilter = Literal["default", "no-tools", "user-only", "labeled-only", "all"]
FILTERS: Final[tuple[TreeFilter, ...]] = ("default", "no-tools", "user-only", "labeled-only", "all")
ABNORMAL_STOPS: Final = ("max_tokens", "stop_sequence")
MIN_GALLOP_SORT: Final = 64  # below this many, V8's TimSort is one binary-insertion run


@dataclass(eq=False, slots=True)
class TreeNode:
    """One entry of the tree, its children (ordered) and its label."""

    entry: Entry
    children: list[TreeNode] = field(default_factory=list)
    label: str | None = None


@dataclass(frozen=True, slots=True)
class TreeRow:
    entry_id: str
    prefix: str  # the connector/gutter columns: "│  └─ "
    on_active_path: bool  # on the branch from a root to the current leaf
    is_current_leaf: bool
    label: str | None
    text: str  # the one-line description: "user: …", "assistant: …", "⎿ bash"…
    folded: bool


# -- the tree ------------------------------------------------------------------------------------


def _compare(a: TreeNode, b: TreeNode) -> float:
    """``Date.parse(a.timestamp) - Date.parse(b.timestamp)``, ``NaN`` as 0 (V8's sort does)."""
    difference = _time(a) - _time(b)
    return 0.0 if math.isnan(difference) else difference


def _time(node: TreeNode) -> float:
    stamp = node.entry.peek_timestamp()
    return date_parse(stamp) if isinstance(stamp, str) else math.nan


def v8_sort(nodes: list[TreeNode]) -> list[TreeNode]:
    """``nodes.sort(compare)`` as V8 does it. Below 64 items V8's TimSort is one run: the
    leading ascending (or strictly descending, then reversed) run, extended by binary insertion;
    with an inconsistent comparison (an unparsable timestamp) the order is V8's. Longer lists use
    CPython's TimSort, the algorithm V8's is ported from."""
    work = list(nodes)
    size = len(work)
    if size < 2:
        return work
    if size >= MIN_GALLOP_SORT:
        return sorted(work, key=cmp_to_key(_order))
    run = 2
    descending = _compare(work[1], work[0]) < 0
    while run < size:
        order = _compare(work[run], work[run - 1])
        if (order >= 0) if descending else (order < 0):
            break
        run += 1
    if descending:
        work[:run] = reversed(work[:run])
    for start in range(run, size):
        pivot, left, right = work[start], 0, start
        while left < right:
            middle = left + ((right - left) >> 1)
            if _compare(pivot, work[middle]) < 0:
                right = middle
            else:
                left = middle + 1
        work[left + 1 : start + 1] = work[left:start]
        work[left] = pivot
    return work


def _order(a: TreeNode, b: TreeNode) -> int:
    value = _compare(a, b)
    return (value > 0) - (value < 0)


def ink_tree(session: SessionFile) -> list[TreeNode]:
    """``getTree``: the roots, each with its children ordered by timestamp."""
    pinned = labels(session)
    nodes: dict[str, TreeNode] = {}
    for entry in session.entries:
        if entry.type != "label":  # a duplicate id: the later entry's node, as in Ink's map
            nodes[entry.id] = TreeNode(entry, label=pinned.get(entry.id))
    roots: list[TreeNode] = []
    for entry in session.entries:
        if entry.type == "label":
            continue
        node = nodes[entry.id]
        parent_id = entry.parent_id
        parent = nodes.get(parent_id) if parent_id is not None else None
        if parent_id is None or parent_id == entry.id or parent is None:
            roots.append(node)
        else:
            parent.children.append(node)
    seen: set[int] = set()
    stack = list(roots)
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        node.children = v8_sort(node.children)
        stack.extend(node.children)
    return roots


# -- filters and text --------------------------------------------------------------------------


def _message(entry: Entry) -> dict[str, Any]:
    message = entry.record.get("message") if entry.type == "message" else None
    return message if isinstance(message, dict) else {}


def _text_blocks(message: dict[str, Any]) -> list[Any]:
    return [
        block
        for block in list_items(message.get("blocks"))
        if isinstance(block, dict) and block.get("type") == "text"
    ]


def passes_filter(entry: Entry, mode: TreeFilter, is_current_leaf: bool, label: str | None) -> bool:
    """``passesFilter``: whether ``/tree`` shows ``entry`` under ``mode``."""
    if is_current_leaf:
        return True
    if mode == "labeled-only":
        return label is not None
    if mode == "all":
        return True
    if entry.type in ("thinkingLevelChange", "session_info"):
        return False
    role = _message(entry).get("role")
    if role == "assistant":
        message = _message(entry)
        if not _text_blocks(message) and message.get("stopReason") not in ABNORMAL_STOPS:
            return False
    if mode == "no-tools" and role == "toolResult":
        return False
    if mode == "user-only":
        return role == "user"
    return True


def _normalize(text: str) -> str:
    return text.replace("\n", " ").replace("\t", " ").strip(JS_WHITESPACE)


def describe_entry(entry: Entry) -> str:
    """``describeEntryForTree``: the row's text (``user: …``, ``⎿ bash, read``…)."""
    record = entry.record
    kind = entry.type
    if kind == "message":
        message = _message(entry)
        role = message.get("role")
        if role == "user":
            text = content_text(message.get("content"), show_non_string_text=True)
            return f"user: {_normalize(text)}"
        if role == "assistant":
            text = " ".join(
                js_joined(block.get("text", MISSING)) for block in _text_blocks(message)
            )
            if _normalize(text):
                return f"assistant: {_normalize(text)}"
            calls = [
                block
                for block in list_items(message.get("blocks"))
                if isinstance(block, dict) and block.get("type") == "toolCall"
            ]
            name = calls[0].get("name", MISSING) if calls else None
            return f"assistant: [{js_template(name)}]" if calls else "assistant: …"
        results = [r for r in list_items(message.get("results")) if isinstance(r, dict)]
        names = dict.fromkeys(js_joined(result.get("toolName", MISSING)) for result in results)
        return "⎿ " + ", ".join(names)
    if kind == "branchSummary":
        return f"branch summary: {_normalize(str(record.get('summary', '')))}"
    if kind == "compaction":
        return f"summary (compaction): {_normalize(str(record.get('summary', '')))}"
    if kind == "thinkingLevelChange":
        return f"thinking: {record.get('thinkingLevel', '')}"
    if kind == "session_info":
        name = str(record.get("name", ""))
        return "title: (cleared)" if name.strip(JS_WHITESPACE) == "" else f"title: {name}"
    return f"label: {record.get('label', '')}"


# -- rows ------------------------------------------------------------------------------------------


def _active_path(roots: list[TreeNode], leaf_id: str | None) -> set[str]:
    """The ids from a root to the current leaf: the first path a depth-first walk finds."""
    if leaf_id is None:
        return set()
    path: list[TreeNode] = []
    on_path: set[int] = set()
    stack: list[TreeNode | None] = list(reversed(roots))  # None: leave the last node entered
    while stack:
        node = stack.pop()
        if node is None:
            on_path.discard(id(path.pop()))
            continue
        if id(node) in on_path:
            continue  # under itself (duplicate ids): Ink would never return
        path.append(node)
        on_path.add(id(node))
        if node.entry.id == leaf_id:
            return {entered.entry.id for entered in path}
        stack.append(None)
        stack.extend(reversed(node.children))
    return set()


@dataclass(frozen=True, slots=True)
class _Gutter:
    position: int
    show: bool


@dataclass(frozen=True, slots=True)
class _Visit:
    node: TreeNode
    indent: int
    just_branched: bool
    show_connector: bool
    is_last: bool
    gutters: tuple[_Gutter, ...]


def _prefix(visit: _Visit, folded: bool) -> str:
    """The connector and gutter columns, three per level, as ``buildTreeRows`` draws them."""
    indent = visit.indent
    if indent == 0 and folded and not visit.show_connector:
        return "⊞ "
    gutters: dict[int, bool] = {}
    for gutter in visit.gutters:
        gutters.setdefault(gutter.position, gutter.show)  # the first one at a level counts
    columns: list[str] = []
    for level in range(indent):
        show = gutters.get(level)
        if show is not None:
            columns.append(("│" if show else " ") + "  ")
        elif visit.show_connector and level == indent - 1:
            columns.append(("└" if visit.is_last else "├") + ("⊞" if folded else "─") + " ")
        else:
            columns.append("   ")
    return "".join(columns)


def _visits(roots: list[TreeNode], active: set[str]) -> list[_Visit]:
    ordered = [r for r in roots if r.entry.id in active] + [
        r for r in roots if r.entry.id not in active
    ]
    if len(ordered) == 1:
        return [_Visit(ordered[0], 0, False, False, False, ())]
    last = len(ordered) - 1  # several roots: one level down, with connectors (a virtual root)
    return [_Visit(r, 1, True, True, i == last, ()) for i, r in enumerate(ordered)]


def _walk(
    roots: list[TreeNode], active: set[str], folded: Collection[str]
) -> Iterator[tuple[_Visit, bool]]:
    """Every node in ``/tree``'s order with how it is drawn, and whether it is folded."""
    on_path: set[int] = set()
    stack: list[_Visit | TreeNode] = list(reversed(_visits(roots, active)))  # a node: leave it
    while stack:
        visit = stack.pop()
        if isinstance(visit, TreeNode):
            on_path.discard(id(visit))
            continue
        node = visit.node
        is_folded = node.entry.id in folded and bool(node.children)
        yield visit, is_folded
        if is_folded or id(node) in on_path:
            continue  # folded, or under itself (duplicate ids): Ink would never return
        on_path.add(id(node))
        stack.append(node)
        children = node.children
        branched = len(children) > 1
        ordered = [c for c in children if c.entry.id in active] + [
            c for c in children if c.entry.id not in active
        ]
        if branched:
            indent = visit.indent + 1
        elif visit.just_branched and visit.indent > 0:
            indent = visit.indent + 1  # one generation after a branch groups visually
        else:
            indent = visit.indent
        gutters = visit.gutters
        if visit.show_connector:
            gutters = (*gutters, _Gutter(visit.indent - 1, not visit.is_last))
        last = len(ordered) - 1
        stack.extend(
            _Visit(child, indent, branched, branched, i == last, gutters)
            for i, child in reversed(list(enumerate(ordered)))
        )


def tree_rows(
    roots: list[TreeNode],
    leaf_id: str | None,
    mode: TreeFilter = "default",
    *,
    folded: Collection[str] = (),
    query: str = "",
) -> list[TreeRow]:
    """``buildTreeRows``: the rows ``/tree`` lists under ``mode`` (folded subtrees hidden; a
    ``query`` keeps rows whose text or label holds it, case-insensitively, and the leaf)."""
    active = _active_path(roots, leaf_id)
    rows: list[TreeRow] = []
    for visit, is_folded in _walk(roots, active, folded):
        node = visit.node
        entry_id = node.entry.id
        is_leaf = entry_id == leaf_id
        if passes_filter(node.entry, mode, is_leaf, node.label):
            rows.append(
                TreeRow(
                    entry_id,
                    _prefix(visit, is_folded),
                    entry_id in active,
                    is_leaf,
                    node.label,
                    describe_entry(node.entry),
                    is_folded,
                )
            )
    if query:
        wanted = query.lower()
        return [
            row
            for row in rows
            if row.is_current_leaf
            or wanted in row.text.lower()
            or wanted in (row.label or "").lower()
        ]
    return rows


def row_line(row: TreeRow) -> str:
    """One row as ``/tree`` draws it (without its selection gutter and colours)."""
    marker = "• " if row.on_active_path else ""
    label = f"[{row.label}] " if row.label is not None else ""
    leaf = "  ◂" if row.is_current_leaf else ""
    return f"{row.prefix}{marker}{label}{row.text}{leaf}"
