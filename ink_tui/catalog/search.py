"""Search across sessions: every record that matches, sessions ranked, hits chosen, snippets.

Every matching record counts: the index's FTS5 table gives them all, and one pass over them (in
SQL, no text read) counts each session's matches and finds its best one. Nothing is sampled, so
an old session ranks as well as a new one.

- A record's score: how focused it is (BM25's length norm for one occurrence: a short record, a
  session name or a prompt, counts more than a long tool output), times its recency (a record
  from today counts up to twice one from months ago).
- A session's score: its best record's, raised (up to double) by how many of its records match
  for its size (BM25's shape, with the session as the document and each matching record as one
  occurrence).

Hits are chosen round by round: each session's best hit, sessions in the order of their score,
then each one's second best, and so on, until ``limit`` hits are chosen. A small limit thus shows
the best sessions, one hit each; a limit as large as the hits shows every hit. They are shown
grouped by session, a session's hits best first. :class:`SearchResult` also says how many hits
and sessions matched in all, so that a cut is announced, never silent.

Subagent sessions (a project's ``children/``) are searched with their project's sessions; a hit in
one names its parent session (:attr:`SearchHit.parent_file`, found through the index by the
child's header ``parent``) and is shown under :meth:`SearchHit.heading`'s breadcrumb.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from ink_tui.catalog.index.store import CatalogIndex, db_text, unavailable
from ink_tui.catalog.query import Query, QueryError, parse_query
from ink_tui.catalog.roots import Root
from ink_tui.catalog.searchpick import Matched, Where, choose, matches_sql
from ink_tui.catalog.snippets import SNIPPET_WIDTH, Marks, snippet_of
from ink_tui.catalog.textpieces import unpack_text
from ink_tui.humanize import breadcrumb

__all__ = [
    "GONE_PARENT",
    "SNIPPET_WIDTH",
    "SearchHit",
    "SearchResult",
    "search",
    "search_index",
    "snippet_of",
]

UNTITLED: Final = "(untitled)"
GONE_PARENT: Final = "(parent session gone)"  # a subagent session whose parent is not indexed


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One record that matched."""

    session_id: str | None
    file: Path
    entry_id: str
    role: str
    timestamp: str | None
    snippet: str
    marks: Marks  # where the wanted terms are in ``snippet`` (empty: not located)
    title: str
    project: str
    score: float
    session_hits: int = 1  # how many records of this hit's session matched, shown or not
    child: bool = False  # a subagent session's record
    parent_file: Path | None = None  # a child's parent session (None: top-level, or it is gone)
    parent_title: str = ""
    machine: str | None = None  # the mirrored machine it came from (None: this machine)
    cwd: str | None = None  # the session's working directory (its header's), if known
    secrets: int = 0  # how many secrets the session holds (masked in the index, and here)

    @property
    def match_start(self) -> int:
        """Where the first marked term starts in ``snippet`` (0 when none is)."""
        return self.marks[0][0] if self.marks else 0

    @property
    def match_end(self) -> int:
        return self.marks[0][1] if self.marks else 0

    def heading(self) -> str:
        """What names the hit's session: its title; a subagent session's, after its parent's
        (``<parent title> ▸ task ▸ <child title>``). Session text: render it as such."""
        title = self.title or UNTITLED
        if not self.child:
            return title
        parent = GONE_PARENT if self.parent_file is None else self.parent_title or UNTITLED
        return breadcrumb(parent, title)

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` shape of one hit."""
        return {
            "sessionId": self.session_id,
            "file": str(self.file),
            "entryId": self.entry_id,
            "role": self.role,
            "timestamp": self.timestamp,
            "snippet": self.snippet,
            "marks": [list(mark) for mark in self.marks],
            "title": self.title,
            "project": self.project,
            "cwd": self.cwd,
            "parentFile": None if self.parent_file is None else str(self.parent_file),
            "sessionHits": self.session_hits,
            "machine": self.machine,
            "sessionSecrets": self.secrets,
        }


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The hits chosen, and how many there were in all."""

    hits: list[SearchHit]
    total_hits: int  # every matching record of the sessions searched
    total_sessions: int  # the sessions holding them
    cut_sessions: int = 0  # sessions with hits not shown (some of them, or all)

    @property
    def truncated(self) -> bool:
        """Whether some hits are not shown (the limit cut them)."""
        return len(self.hits) < self.total_hits

    @property
    def sessions_shown(self) -> int:
        return len({hit.file for hit in self.hits})

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` shape: the hits, and what was left out."""
        return {
            "hits": [hit.to_json() for hit in self.hits],
            "truncated": self.truncated,
            "totalHits": self.total_hits,
            "totalSessions": self.total_sessions,
            "hiddenHits": self.total_hits - len(self.hits),
            "hiddenSessions": self.total_sessions - self.sessions_shown,
        }


def search(
    index: CatalogIndex,
    query: str | Query,
    *,
    projects: list[str] | None = None,
    limit: int = 50,
    now: float | None = None,
    roots: Sequence[Root] | None = None,
    within: Sequence[Path] | None = None,
    text: Callable[[str], str] | None = None,
) -> SearchResult:
    """The best ``limit`` hits for ``query`` in the project folders ``projects`` (None: all)
    of the sessions dirs ``roots`` (None: every file indexed), and how many there are in all
    (see the module doc). ``within``: the project folders searched, exactly (those of one
    project on every machine, whatever their names), instead of ``projects``. ``text``: what
    each record's text and title go through before the snippet is cut from it (masking secrets:
    a key cut in half by the snippet's edge would no longer look like one).

    A ``project:`` filter in the query searches every project; a ``machine:`` filter keeps the
    roots of the machines it names. Raises :class:`ink_tui.catalog.query.QueryError` for a bad
    query (a machine no root is of, too) and
    :class:`~ink_tui.catalog.index.store.IndexUnavailable` when the database fails.
    """
    parsed = parse_query(query) if isinstance(query, str) else query
    if parsed.machines and roots is not None:
        roots = _named_machines(parsed.machines, roots)
    folders = None
    if within is not None:
        projects = sorted({folder.name for folder in within})  # narrows the FTS expression
        folders = tuple(os.fsencode(os.path.abspath(folder)) + b"/" for folder in within)
    if projects is not None:
        projects = [db_text(name) for name in projects]
    moment = time.time() if now is None else now
    try:
        where = Where(roots, folders)
        matched = matches_sql(
            index.connection, parsed, None if folders else projects, moment, where
        )
        chosen = choose(index.connection, matched, max(0, limit))
        hits = _hits(index, parsed, matched, chosen, text or _as_it_is)
    except sqlite3.Error as exc:
        raise unavailable(index.path, exc) from None
    shown: dict[int, int] = {}
    for file_id, _ in chosen:
        shown[file_id] = shown.get(file_id, 0) + 1
    return SearchResult(
        hits,
        total_hits=sum(session.count for session in matched.sessions),
        total_sessions=len(matched.sessions),
        cut_sessions=sum(shown.get(s.file_id, 0) < s.count for s in matched.sessions),
    )


def _named_machines(names: list[str], roots: Sequence[Root]) -> list[Root]:
    """The roots of the machines ``names`` (casefolded) names; :class:`QueryError` naming the
    first that no root is of, and the machines there are."""
    by_name = {root.machine.casefold(): root for root in roots if root.machine is not None}
    for name in names:
        if name not in by_name:
            there = ", ".join(sorted(root.machine for root in by_name.values() if root.machine))
            known = f"the mirrored machines are {there}" if there else "no machine is mirrored"
            raise QueryError(f"machine:{name}: no such machine ({known}; see ink-tui machines)")
    return [by_name[name] for name in dict.fromkeys(names)]


def search_index(
    index: CatalogIndex,
    query: str | Query,
    *,
    projects: list[str] | None = None,
    limit: int = 50,
    now: float | None = None,
) -> list[SearchHit]:
    """:func:`search`'s hits alone."""
    return search(index, query, projects=projects, limit=limit, now=now).hits


_Parent = tuple[Path, str]  # a parent session's file and title


def _parents(index: CatalogIndex, wanted: set[tuple[str, str]]) -> dict[str, _Parent]:
    """The parent sessions of children, by header id: ``wanted`` holds (parent id, the child's
    project). The parent is looked for in the child's project first (Ink writes a child beside
    its parent), a top-level session before a child (a child's own children sit beside it)."""
    found: dict[str, _Parent] = {}
    for parent_id, project in wanted:
        row = index.connection.execute(
            "SELECT path, json_extract(row, '$.title') FROM files WHERE session_id = ? "
            "ORDER BY project = ? DESC, child, mtime_ns DESC LIMIT 1",
            (parent_id, project),
        ).fetchone()
        if row is not None:
            found[parent_id] = (Path(os.fsdecode(row[0])), str(row[1] or ""))
    return found


def _as_it_is(text: str) -> str:
    return text


def _hits(
    index: CatalogIndex,
    query: Query,
    matched: Matched,
    chosen: list[tuple[int, int]],
    text: Callable[[str], str],
) -> list[SearchHit]:
    """The chosen records (``(file id, rowid)``, in the order shown) as hits, with snippets."""
    if not chosen:
        return []
    rowids = json.dumps([rowid for _, rowid in chosen])
    records = {
        rowid: rest
        for rowid, *rest in index.connection.execute(
            "SELECT t.rowid, b.body, t.role, t.timestamp, e.id FROM texts t "
            "JOIN bodies b ON b.rowid = t.rowid "
            "JOIN entries e ON e.file_id = t.file_id AND e.seq = t.seq "
            "WHERE t.rowid IN (SELECT value FROM json_each(?))",
            (rowids,),
        )
    }
    files = json.dumps(sorted({file_id for file_id, _ in chosen}))
    rows = {
        file_id: json.loads(stored)
        for file_id, stored in index.connection.execute(
            "SELECT id, row FROM files WHERE id IN (SELECT value FROM json_each(?))", (files,)
        )
    }
    sessions = {session.file_id: session for session in matched.sessions}
    wanted = {
        (session.parent, session.project)
        for file_id, _ in chosen
        if (session := sessions[file_id]).child and session.parent
    }
    parents = _parents(index, wanted)
    paths = {file_id: sessions[file_id].path for file_id in {file for file, _ in chosen}}
    hits: list[SearchHit] = []
    for file_id, rowid in chosen:
        if rowid not in records:
            continue  # gone between the two reads (another process re-indexed the file)
        packed, role, timestamp, entry_id = records[rowid]
        session = sessions[file_id]
        summary = rows.get(file_id, {})
        parent = parents.get(session.parent or "") if session.child else None
        snippet, marks = snippet_of(text(unpack_text(packed)), query)
        hits.append(
            SearchHit(
                session_id=summary.get("id"),
                file=paths[file_id],
                entry_id=str(entry_id),
                role=str(role),
                timestamp=timestamp,
                snippet=snippet,
                marks=marks,
                title=text(str(summary.get("title") or "")),
                project=session.project,
                score=matched.scores.get(rowid, session.best),
                session_hits=session.count,
                child=session.child,
                parent_file=None if parent is None else parent[0],
                parent_title="" if parent is None else parent[1],
                machine=session.machine,
                cwd=summary.get("cwd"),
                secrets=sum((summary.get("secrets") or {}).values()),
            )
        )
    return hits
