"""Search across sessions: a query run against the index, ranked, grouped, with snippets.

Candidates: the newest :data:`CANDIDATES` records that match (FTS5 walks its index newest rowid
first, and rowids follow time: files are indexed oldest first and appends come later), so a query
costs the same whether a word is rare or in every record. Ranking, over those candidates: how
often the wanted words occur for the record's length (BM25's shape, computed here on the text),
weighed by recency (a record from today counts up to twice one from months ago). Results are
grouped by session: sessions in the order of their best hit, and within a session its hits by
rank. A snippet is the text around the first place a wanted term occurs, on one line; it is
session text (untrusted): callers render it through the safe door.

Subagent sessions (a project's ``children/``) are searched with their project's sessions; a hit in
one names its parent session (:attr:`SearchHit.parent_file`, found through the index by the
child's header ``parent``) and is shown under :meth:`SearchHit.heading`'s breadcrumb.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from ink_tui.catalog.index.store import CatalogIndex, IndexUnavailable, db_text
from ink_tui.catalog.query import Query, parse_query
from ink_tui.catalog.textpieces import unpack_text
from ink_tui.humanize import breadcrumb
from ink_tui.session.timestamps import timestamp_seconds

__all__ = ["CANDIDATES", "GONE_PARENT", "SNIPPET_WIDTH", "SearchHit", "search_index", "snippet_of"]

SNIPPET_WIDTH: Final = 100
_BEFORE: Final = 30  # characters of context before the match
CANDIDATES: Final = 500  # the newest matching records that are ranked
_RANKED_CHARS: Final = 4_096  # of each candidate's text, read to rank it
_SATURATION: Final = 1.2  # BM25's k1: the tenth occurrence of a word adds little
_LENGTH_WEIGHT: Final = 0.75  # BM25's b: a match in a short record counts more
_TYPICAL_LENGTH: Final = 400.0  # characters
_RECENT_DAYS: Final = 30.0
_SPACES: Final = re.compile(r"\s+")
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
    match_start: int  # the matched text's span in ``snippet`` (start == end: not located)
    match_end: int
    title: str
    project: str
    score: float
    child: bool = False  # a subagent session's record
    parent_file: Path | None = None  # a child's parent session (None: top-level, or it is gone)
    parent_title: str = ""

    def heading(self) -> str:
        """What names the hit's session: its title; a subagent session's, after its parent's
        (``<parent title> ▸ task ▸ <child title>``). Session text: render it as such."""
        title = self.title or UNTITLED
        if not self.child:
            return title
        parent = GONE_PARENT if self.parent_file is None else self.parent_title or UNTITLED
        return breadcrumb(parent, title)

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` shape."""
        return {
            "sessionId": self.session_id,
            "file": str(self.file),
            "entryId": self.entry_id,
            "role": self.role,
            "timestamp": self.timestamp,
            "snippet": self.snippet,
            "title": self.title,
            "project": self.project,
            "parentFile": None if self.parent_file is None else str(self.parent_file),
        }


def _locate(text: str, query: Query) -> tuple[int, int]:
    """The span in ``text`` of the first wanted term as written, else of one of its words
    (case ignored; a match found only through accents or a tokenizer's rules: ``(0, 0)``)."""
    for term in query.wanted:
        for needle in term.needles():
            found = re.search(re.escape(needle), text, re.IGNORECASE) if needle else None
            if found is not None:
                return found.span()
    return 0, 0


def snippet_of(text: str, query: Query, width: int = SNIPPET_WIDTH) -> tuple[str, int, int]:
    """One line of ``text`` around the first wanted term, and the term's span in that line."""
    start, end = _locate(text, query)
    left = max(0, start - _BEFORE)
    right = max(left + width, end)
    before = _SPACES.sub(" ", text[left:start])
    match = _SPACES.sub(" ", text[start:end])
    after = _SPACES.sub(" ", text[end:right])
    head = "…" if left > 0 else ""
    tail = "…" if right < len(text) else ""
    line = f"{head}{before.lstrip() if not head else before}"
    span_start = len(line)
    line += match
    span_end = len(line)
    return f"{line}{after.rstrip()}{tail}", span_start, span_end


def _recency(timestamp: str | None, now: float) -> float:
    moment = timestamp_seconds(timestamp)
    if moment is None:
        return 1.0
    age_days = max(0.0, (now - moment) / 86_400)
    return 1.0 + 1.0 / (1.0 + age_days / _RECENT_DAYS)


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def _match(query: Query, projects: list[str] | None) -> str:
    """The FTS5 expression: the query's, narrowed to project folders and roles (indexed too)."""
    text = f"({query.match()})"
    if projects is not None and not query.projects:
        text += " AND (" + " OR ".join(f"project : {_quoted(name)}" for name in projects) + ")"
    if query.roles:
        text += " AND (" + " OR ".join(f"role : {_quoted(role)}" for role in query.roles) + ")"
    return text


def _where(query: Query, projects: list[str] | None) -> tuple[str, list[Any]]:
    """SQL conditions the FTS expression cannot state exactly (checked on each candidate)."""
    clauses: list[str] = []
    values: list[Any] = []
    if query.projects:
        alternatives = []
        for name in query.projects:
            alternatives.append(
                "(instr(lower(f.project), ?) OR instr(lower(json_extract(f.row, '$.cwd')), ?))"
            )
            values += [name, name]
        clauses.append("(" + " OR ".join(alternatives) + ")")
    elif projects is not None:
        clauses.append(f"f.project IN ({','.join('?' * len(projects))})")
        values += projects
    for model in query.models:
        clauses.append(
            "instr(lower(json_extract(f.row, '$.model[0]') || '/' || "
            "json_extract(f.row, '$.model[1]')), ?)"
        )
        values.append(model)
    if query.after:
        clauses.append("t.timestamp >= ?")
        values.append(query.after)
    if query.before:
        clauses.append("t.timestamp < ?")
        values.append(query.before)
    return "".join(f" AND {clause}" for clause in clauses), values


def _needles(query: Query) -> list[list[str]]:
    """Per wanted term: the term as written, then its words, case-folded."""
    return [[needle.casefold() for needle in term.needles() if needle] for term in query.wanted]


def _relevance(text: str, needles: list[list[str]]) -> float:
    """BM25's shape over the wanted terms' occurrences (higher is better)."""
    folded = text.casefold()
    norm = 1 - _LENGTH_WEIGHT + _LENGTH_WEIGHT * len(text) / _TYPICAL_LENGTH
    score = 0.0
    for term in needles:
        count = folded.count(term[0]) or max((folded.count(word) for word in term[1:]), default=0)
        score += count * (_SATURATION + 1) / (count + _SATURATION * norm) if count else 0.1
    return score


def search_index(
    index: CatalogIndex,
    query: str | Query,
    *,
    projects: list[str] | None = None,
    limit: int = 50,
    now: float | None = None,
) -> list[SearchHit]:
    """The best ``limit`` hits for ``query`` in the project folders ``projects`` (None: all).

    A ``project:`` filter in the query searches every project. Raises
    :class:`ink_tui.catalog.query.QueryError` for a bad query and :class:`IndexUnavailable` when
    the database fails.
    """
    parsed = parse_query(query) if isinstance(query, str) else query
    if projects is not None:
        projects = [db_text(name) for name in projects]
    where, values = _where(parsed, projects)
    sql = (
        "SELECT t.body, t.role, t.timestamp, e.id, f.path, f.row, f.project, f.child, f.parent "
        "FROM texts_fts JOIN texts t ON t.rowid = texts_fts.rowid "
        "JOIN files f ON f.id = t.file_id "
        "JOIN entries e ON e.file_id = t.file_id AND e.seq = t.seq "
        f"WHERE texts_fts MATCH ?{where} ORDER BY texts_fts.rowid DESC LIMIT ?"
    )
    try:
        rows = index.connection.execute(
            sql, [_match(parsed, projects), *values, CANDIDATES]
        ).fetchall()
    except sqlite3.Error as exc:
        raise IndexUnavailable(f"search failed in index {index.path}: {exc}") from None
    moment = time.time() if now is None else now
    needles = _needles(parsed)
    scored = []
    for packed, role, timestamp, entry_id, path, *where in rows:
        score = _relevance(unpack_text(packed, _RANKED_CHARS), needles)
        scored.append(
            (score * _recency(timestamp, moment), packed, role, timestamp, entry_id, path, *where)
        )
    best: dict[str, float] = {}
    for item in scored:
        best[item[5]] = max(best.get(item[5], 0.0), item[0])
    scored.sort(key=lambda item: (-best[item[5]], -item[0], item[5]))
    chosen = scored[:limit]
    try:
        parents = _parents(index, {(item[9], item[7]) for item in chosen if item[8] and item[9]})
    except sqlite3.Error as exc:
        raise IndexUnavailable(f"search failed in index {index.path}: {exc}") from None
    return [_hit(parsed, parents, *item) for item in chosen]


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


def _hit(
    query: Query,
    parents: dict[str, _Parent],
    score: float,
    packed: bytes,
    role: str,
    timestamp: str | None,
    entry_id: str,
    path: str,
    stored: str,
    project: str,
    child: int,
    parent_id: str | None,
) -> SearchHit:
    snippet, start, end = snippet_of(unpack_text(packed), query)
    summary = json.loads(stored)
    parent = parents.get(parent_id) if child and parent_id else None
    return SearchHit(
        session_id=summary.get("id"),
        file=Path(os.fsdecode(path)),
        entry_id=str(entry_id),
        role=str(role),
        timestamp=timestamp,
        snippet=snippet,
        match_start=start,
        match_end=end,
        title=str(summary.get("title") or ""),
        project=str(project or ""),
        score=score,
        child=bool(child),
        parent_file=None if parent is None else parent[0],
        parent_title="" if parent is None else parent[1],
    )
