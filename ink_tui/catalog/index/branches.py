"""Which branch to show so that an entry found by search is on it, from the index alone."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from ink_tui.catalog.index.store import CatalogIndex, path_key, unavailable

__all__ = ["leaf_showing"]


def leaf_showing(index: CatalogIndex, path: Path, entry_id: str) -> str | None:
    """The leaf whose branch holds ``entry_id``: ``None`` when the current branch holds it
    (or the entry is not a branch node: a label); else the latest-written leaf below it."""
    try:
        found = index.connection.execute(
            "SELECT id, row FROM files WHERE path = ?", (path_key(path),)
        ).fetchone()
        if found is None:
            return None
        file_id, stored = found
        rows = index.connection.execute(
            "SELECT seq, id, parent_id, type FROM entries WHERE file_id = ? ORDER BY seq",
            (file_id,),
        ).fetchall()
    except sqlite3.Error as error:
        raise unavailable(index.path, error) from None
    nodes = {entry: (parent, kind, seq) for seq, entry, parent, kind in rows}
    target = nodes.get(entry_id)
    if target is None or target[1] == "label":
        return None
    current = json.loads(stored).get("leaf_id")
    seen: set[str] = set()
    while current is not None and current not in seen:
        if current == entry_id:
            return None
        seen.add(current)
        node = nodes.get(current)
        current = None if node is None else node[0]
    children: dict[str, list[str]] = {}
    for entry, (parent, kind, _) in nodes.items():
        if kind != "label" and parent is not None:
            children.setdefault(parent, []).append(entry)
    best, best_seq = entry_id, target[2]
    stack, visited = [entry_id], {entry_id}
    while stack:
        entry = stack.pop()
        below = [child for child in children.get(entry, ()) if child not in visited]
        if not below and nodes[entry][2] > best_seq:
            best, best_seq = entry, nodes[entry][2]
        visited.update(below)
        stack.extend(below)
    return best
