"""Search's two passes over the index: every match counted per session, then the hits chosen.

:func:`matches_sql`: one pass in SQL over every record the FTS5 expression matches (no text is
read: a record's score comes from its length and time, see :mod:`ink_tui.catalog.search`), grouped
by session file: how many match, the best one and its score. The sessions are then narrowed by
what the FTS expression cannot state exactly (the project folders, ``project:`` and ``model:``)
and ranked. :func:`choose` deals the ``limit`` out round by round and reads, only for the sessions
that get more than their best hit, their matches again with their scores.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from ink_tui.catalog.query import Query
from ink_tui.catalog.roots import Root, machine_of

__all__ = ["Matched", "SessionMatches", "Where", "choose", "matches_sql", "quotas"]

_SATURATION: Final = 1.2  # BM25's k1: the tenth matching record adds little
_LENGTH_WEIGHT: Final = 0.75  # BM25's b: a short record, or a short session, counts more
_TYPICAL_LENGTH: Final = 400.0  # characters of a record
_RECENT_DAYS: Final = 30.0
_UNIX_EPOCH_JULIAN: Final = 2_440_587.5
_RECORD_SCORE: Final = (
    "(1.0 / (1.0 - :b + :b * t.length / :typical)) * "
    "(1.0 + coalesce(1.0 / (1.0 + max(0.0, :now - t.day) / :recent), 0.0))"
)
_MATCHES: Final = (
    "FROM texts_fts JOIN texts t ON t.rowid = texts_fts.rowid WHERE texts_fts MATCH :match"
)


@dataclass(slots=True)
class SessionMatches:
    """One session file's matching records: how many, the best one and its score."""

    file_id: int
    count: int
    best: float  # the best record's score
    best_rowid: int
    raw_path: bytes = b""  # as the index keeps it (a Path is made only for the sessions shown)
    project: str = ""
    child: bool = False
    parent: str | None = None
    texts: int = 0  # records with text in the session
    score: float = 0.0
    machine: str | None = None  # the mirrored machine it came from (None: this machine)

    @property
    def path(self) -> Path:
        return Path(os.fsdecode(self.raw_path))


@dataclass(slots=True)
class Matched:
    """The sessions that hold matches, best first, and how to read their matches again."""

    sessions: list[SessionMatches]
    sql: str  # the FROM … WHERE of the matches (parameters in ``values``)
    values: dict[str, Any]
    scores: dict[int, float] = field(default_factory=dict)  # chosen rowid -> its score


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


def _file_rows(
    connection: sqlite3.Connection, ids: list[int], *, details: bool
) -> list[tuple[Any, ...]]:
    """The files' rows; their cwd and model only with ``details`` (a ``project:`` or ``model:``
    filter: reading them out of each row's JSON costs more than the rest)."""
    extra = (
        "json_extract(row, '$.cwd'), "
        "json_extract(row, '$.model[0]') || '/' || json_extract(row, '$.model[1]')"
        if details
        else "NULL, NULL"
    )
    return connection.execute(
        f"SELECT id, path, project, child, parent, texts, {extra} "
        "FROM files WHERE id IN (SELECT value FROM json_each(?))",
        (json.dumps(ids),),
    ).fetchall()


def _wanted(query: Query, projects: list[str] | None, where: Where, row: tuple[Any, ...]) -> bool:
    """Whether a session file passes the filters the FTS expression cannot state exactly."""
    path = bytes(row[1])
    if where.roots is not None and not any(root.holds(path) for root in where.roots):
        return False
    project, cwd, model = str(row[2] or ""), str(row[6] or ""), row[7]
    if query.projects:
        folded = (project.casefold(), cwd.casefold())
        if not any(name in part for name in query.projects for part in folded):
            return False
    elif (projects is not None and project not in projects) or (
        where.folders is not None and not path.startswith(where.folders)
    ):
        return False
    return all(model is not None and name in str(model).casefold() for name in query.models)


def _session_score(session: SessionMatches, typical_texts: float) -> float:
    """The best record's score, raised up to double by how many records match for the size."""
    count = session.count
    norm = 1 - _LENGTH_WEIGHT + _LENGTH_WEIGHT * max(session.texts, count) / typical_texts
    share = count * (_SATURATION + 1) / (count + _SATURATION * norm) / (_SATURATION + 1)
    return session.best * (1.0 + share)


@dataclass(frozen=True, slots=True)
class Where:
    """Which session files a search keeps, beyond the project names: those of ``roots`` (None:
    every file indexed), and of the project folders whose paths (as keys, ``/`` at the end)
    ``folders`` holds (None: every project)."""

    roots: Sequence[Root] | None = None
    folders: tuple[bytes, ...] | None = None


def matches_sql(
    connection: sqlite3.Connection,
    query: Query,
    projects: list[str] | None,
    now: float,
    where: Where = Where(),
) -> Matched:
    """Every session holding a match for ``query`` in ``projects`` (None: all) and ``where``
    says, ranked.

    Raises ``sqlite3.Error``."""
    values: dict[str, Any] = {
        "match": _match(query, projects),
        "b": _LENGTH_WEIGHT,
        "typical": _TYPICAL_LENGTH,
        "recent": _RECENT_DAYS,
        "now": now / 86_400 + _UNIX_EPOCH_JULIAN,
    }
    sql = _MATCHES
    if query.after:
        sql += " AND t.timestamp >= :after"
        values["after"] = query.after
    if query.before:
        sql += " AND t.timestamp < :before"
        values["before"] = query.before
    groups = connection.execute(
        f"SELECT t.file_id, count(*), max({_RECORD_SCORE}), t.rowid {sql} GROUP BY t.file_id",
        values,
    ).fetchall()  # the rowid is the best record's: SQLite takes it from the row of the max()
    found = {group[0]: SessionMatches(*group) for group in groups}
    sessions: list[SessionMatches] = []
    details = bool(query.projects or query.models)
    for row in _file_rows(connection, list(found), details=details) if found else []:
        if not _wanted(query, projects, where, row):
            continue
        session = found[row[0]]
        session.raw_path = bytes(row[1])
        if where.roots is not None:
            session.machine = machine_of(session.raw_path, where.roots)
        session.project, session.child, session.parent = str(row[2] or ""), bool(row[3]), row[4]
        session.texts = int(row[5] or 0)
        sessions.append(session)
    if sessions:
        typical = connection.execute("SELECT avg(texts) FROM files").fetchone()[0] or 1.0
        for session in sessions:
            session.score = _session_score(session, max(1.0, float(typical)))
    sessions.sort(key=lambda session: (-session.score, session.raw_path))
    return Matched(sessions, sql, values)


def quotas(counts: list[int], limit: int) -> list[int]:
    """How many hits each session gets when ``limit`` hits are dealt round by round, sessions
    in the order given: every session's first, then every second, …"""
    if limit >= sum(counts):
        return list(counts)
    if limit <= len(counts):  # the first round is enough (every session has a hit)
        return [1] * limit + [0] * (len(counts) - limit)
    low, high = 1, max(counts)  # the round in which the limit runs out
    while low < high:
        middle = (low + high) // 2
        if sum(min(count, middle) for count in counts) >= limit:
            high = middle
        else:
            low = middle + 1
    dealt = [min(count, low - 1) for count in counts]
    left = limit - sum(dealt)
    for number, count in enumerate(counts):
        if left == 0:
            break
        if count >= low:
            dealt[number] += 1
            left -= 1
    return dealt


def choose(connection: sqlite3.Connection, matched: Matched, limit: int) -> list[tuple[int, int]]:
    """The hits to show, as ``(file id, rowid)``: sessions in rank order, each one's best first.

    Fills ``matched.scores``. Raises ``sqlite3.Error``."""
    sessions = matched.sessions
    dealt = quotas([session.count for session in sessions], limit) if sessions else []
    more = [session.file_id for session, count in zip(sessions, dealt, strict=True) if count > 1]
    ranked: dict[int, list[tuple[float, int]]] = {}
    if more:
        rows = connection.execute(
            f"SELECT t.file_id, t.rowid, {_RECORD_SCORE} {matched.sql} "
            "AND t.file_id IN (SELECT value FROM json_each(:files))",
            {**matched.values, "files": json.dumps(more)},
        )
        for file_id, rowid, score in rows:
            ranked.setdefault(file_id, []).append((score, rowid))
    chosen: list[tuple[int, int]] = []
    for session, count in zip(sessions, dealt, strict=True):
        if count == 0:
            break  # dealt in rank order: no later session gets any either
        picks = ranked.get(session.file_id)
        if picks is None:
            picks = [(session.best, session.best_rowid)]
        else:
            picks.sort(key=lambda pick: (-pick[0], -pick[1]))
        for score, rowid in picks[:count]:
            matched.scores[rowid] = score
            chosen.append((session.file_id, rowid))
    return chosen
