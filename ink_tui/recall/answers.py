"""What the recall tools answer, as plain data (JSON-ready dicts), with no MCP in sight.

- :func:`search_answer`: the records that match a query (the language of ``ink-tui search``),
  each with where it is (session, file, entry id, machine) and a snippet; with no hit, never an
  empty success: ``{"found": false, "searched": {...}}`` says what was searched (the scope, how
  many sessions, the query as understood).
- :func:`list_answer`: the newest sessions of a scope, with title, time, size, model, machine.
- ``read_answer``, ``context_answer``, ``changes_answer``: one session's turns, rebuilt context
  and file changes (:mod:`.reading`, :mod:`.contextread`, :mod:`.changeread`).

Session text (titles, snippets) goes through the export's secret masking unless ``redact`` is
off, then has its control characters made visible. Every answer is within its
``budget_tokens`` (:mod:`.budget`): hits and rows past it are left out and counted. The index is
kept up to date in the background (:mod:`.keeper`); an answer given while it is still being
updated says so.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from ink_tui.catalog.index.fallback import SearchIndex
from ink_tui.catalog.index.store import IndexUnavailable
from ink_tui.catalog.index.update import SESSIONS_ONLY
from ink_tui.catalog.query import Query, QueryError, parse_query
from ink_tui.catalog.roots import Root, mirror_roots, roots_sql
from ink_tui.catalog.search import search
from ink_tui.export.redact import Redactor
from ink_tui.recall.budget import BudgetTooSmall, clamped, fitted, item_tokens, leading
from ink_tui.recall.keeper import Freshness, IndexKeeper
from ink_tui.recall.reading import ReadError, shown_text
from ink_tui.safetext import visible

__all__ = ["SCOPES", "Recall", "RecallError", "RecallScope"]

RecallScope = Literal["project", "all", "machines"]
SCOPES: Final[tuple[RecallScope, ...]] = ("project", "all", "machines")
MAX_LIMIT: Final = 200


class RecallError(Exception):
    """A call that cannot be answered (a bad query, an unknown scope): one line, for the
    agent to correct its call."""


def understood(query: Query) -> dict[str, Any]:
    """The query as it was understood: its words and phrases, what is left out, the filters."""
    found: dict[str, Any] = {
        "terms": [term.text for term in query.terms if not term.negated],
        "excluded": [term.text for term in query.terms if term.negated],
    }
    filters = {
        "project": query.projects,
        "model": query.models,
        "machine": query.machines,
        "role": query.roles,
    }
    found.update({name: values for name, values in filters.items() if values})
    found.update({name: value for name in ("after", "before") if (value := getattr(query, name))})
    return found


@dataclass
class Recall:
    """The archive as the tools see it: this machine's sessions dir, the project the agent
    works in, whether text is masked, and the index searched (kept between calls)."""

    base: Path
    cwd: str
    redact: bool = True
    index_path: Path | None = None  # None: the user's index

    def __post_init__(self) -> None:
        self.index = SearchIndex(self.index_path)
        self.keeper = IndexKeeper(self.index, self.base, mirror_roots)

    def close(self) -> None:
        self.keeper.stop()
        self.index.close()

    @property
    def _masking(self) -> Redactor | None:
        """A masker for one answer (none kept between answers: the secrets it meets are not
        held for the server's life)."""
        return Redactor(secrets=True) if self.redact else None

    def _text(self, text: str) -> str:
        """Session text as an answer holds it: masked, controls made visible."""
        return shown_text(text, self._masking)

    def _scope(self, scope: str, query: Query | None = None) -> tuple[list[Root], str | None]:
        """The roots and the project of ``scope`` (``machine:`` reaches every machine)."""
        if scope not in SCOPES:
            raise RecallError(f"scope is one of {', '.join(SCOPES)}, not {scope!r}")
        machines = scope == "machines" or bool(query is not None and query.machines)
        roots = [Root(self.base), *(mirror_roots() if machines else ())]
        everywhere = scope != "project" or machines or bool(query is not None and query.projects)
        return roots, None if everywhere else self.cwd

    def _fresh(self) -> Freshness:
        """The index brought up to date, or as far as it got in the time a call waits."""
        return self.keeper.fresh()

    def _sessions(self, roots: list[Root], cwd: str | None) -> int:
        """How many sessions the scope holds, as the index knows them."""
        where, values = roots_sql(roots)
        query = f"SELECT count(*) FROM files WHERE {SESSIONS_ONLY} AND {where}"
        parameters: list[Any] = list(values)
        if cwd is not None:
            names = [folder.name for root in roots for folder in root.project_folders(cwd)]
            query += f" AND project IN ({','.join('?' * len(names))})"
            parameters += names
        try:
            with self.index.open() as index:
                return int(index.connection.execute(query, parameters).fetchone()[0])
        except (IndexUnavailable, sqlite3.Error):
            return 0

    def search_answer(
        self, text: str, scope: str = "project", limit: int = 10, budget_tokens: int = 4000
    ) -> dict[str, Any]:
        """The hits for ``text`` in ``scope`` (see the module's text)."""
        try:
            query = parse_query(text)
        except QueryError as error:
            raise RecallError(f"query: {error}") from None
        roots, cwd = self._scope(scope, query)
        freshness = self._fresh()
        within = None if cwd is None else [f for root in roots for f in root.project_folders(cwd)]
        limit = max(1, min(limit, MAX_LIMIT))
        try:
            with self.index.open() as index:
                result = search(
                    index,
                    query,
                    limit=limit,
                    now=time.time(),
                    roots=roots,
                    within=within,
                    text=self._text,  # masked before the snippet is cut
                )
        except QueryError as error:
            raise RecallError(f"query: {error}") from None
        except IndexUnavailable as error:
            raise RecallError(str(error)) from None
        found = result.hits  # the index holds no secret: no prefix search (``Lq4Z*``) finds one
        if not found:
            sessions = self._sessions(roots, cwd)

            def nothing(room: int) -> dict[str, Any]:
                said = understood(query)
                for name in ("terms", "excluded"):  # the query echoed as far as it fits
                    values = [value[:80] for value in said.get(name, [])]
                    if values:
                        said[name] = values[: leading(values, item_tokens, (room - 150) // 2)]
                searched: dict[str, Any] = {
                    "scope": scope,
                    "sessions": sessions,
                    "machines": [root.label for root in roots],
                    "query": said,
                }
                if cwd is not None:
                    searched["project"] = cwd
                return _with_index({"found": False, "searched": searched}, freshness)

            return _fitted(nothing, budget_tokens)
        hits = [self._hit(hit) for hit in found]

        def answer(room: int) -> dict[str, Any]:
            shown = leading(hits, item_tokens, room)
            return _with_index(
                {
                    "found": True,
                    "hits": hits[:shown],
                    "totalHits": result.total_hits,
                    "totalSessions": result.total_sessions,
                    "truncated": result.truncated or shown < len(hits),
                    "omittedHits": len(hits) - shown,
                },
                freshness,
            )

        return _fitted(answer, budget_tokens)

    def _hit(self, hit: Any) -> dict[str, Any]:
        return {
            "sessionId": visible(hit.session_id),
            "file": visible(str(hit.file)),
            "entryId": visible(hit.entry_id),
            "machine": hit.machine,
            "project": visible(hit.cwd or hit.project),  # the folder's name when no cwd
            "timestamp": visible(hit.timestamp),
            "role": hit.role,
            "title": self._text(hit.heading()),  # a parent's title is masked here
            "snippet": hit.snippet,  # masked and made visible by the search (``text``)
            "sessionSecrets": hit.secrets,  # masked in every answer; ``ink-tui scrub`` removes
        }

    def list_answer(
        self,
        scope: str = "project",
        limit: int = 20,
        query: str | None = None,
        budget_tokens: int = 4000,
    ) -> dict[str, Any]:
        """The newest sessions of ``scope`` (titles or ids holding ``query``, when given)."""
        from ink_tui.catalog.index.listing import indexed_rows

        roots, cwd = self._scope(scope)
        freshness = self._fresh()
        rows = indexed_rows(self.base, cwd, self.index.path, mirrors=roots[1:]).rows_or_notice()
        if isinstance(rows, str):
            raise RecallError(rows)
        if query:
            wanted = query.casefold()
            rows = [row for row in rows if wanted in f"{row.title} {row.id}".casefold()]
        limit = max(1, min(limit, MAX_LIMIT))
        sessions = [
            {
                "sessionId": _shown(row.id),
                "file": visible(str(row.path)),
                "title": self._text(row.title or ""),
                "lastActivity": row.last_activity or row.created,
                "size": row.size,
                "messages": row.message_count,
                "model": None if row.model is None else visible(row.model.reference),
                "machine": row.machine,
                "project": _shown(row.cwd),
                "secrets": row.secrets or {},  # by kind: masked in every answer
            }
            for row in rows[:limit]
        ]

        def answer(room: int) -> dict[str, Any]:
            shown = leading(sessions, item_tokens, room)
            found = {"sessions": sessions[:shown], "total": len(rows), "scope": scope}
            if shown < len(sessions):
                found["omitted"] = len(sessions) - shown
            return _with_index(found, freshness)

        return _fitted(answer, budget_tokens)

    def read_answer(
        self,
        session: str,
        turns: str | None = None,
        entry_id: str | None = None,
        budget_tokens: int = 4000,
    ) -> dict[str, Any]:
        """A session's turns as text, cut to ``budget_tokens`` (:mod:`.reading`)."""
        from ink_tui.recall.reading import read_answer

        try:
            return read_answer(
                self.base,
                self.cwd,
                session,
                turns=turns,
                entry_id=entry_id,
                budget_tokens=budget_tokens,
                redactor=self._masking,
            )
        except ReadError as error:
            raise RecallError(str(error)) from None

    def context_answer(
        self, session: str, at_entry: str | None = None, budget_tokens: int = 4000
    ) -> dict[str, Any]:
        """What the model saw at ``at_entry`` (the leaf by default) (:mod:`.contextread`)."""
        from ink_tui.recall.contextread import context_answer

        try:
            return context_answer(
                self.base,
                self.cwd,
                session,
                at_entry=at_entry,
                budget_tokens=budget_tokens,
                redactor=self._masking,
            )
        except ReadError as error:
            raise RecallError(str(error)) from None

    def changes_answer(self, session: str, budget_tokens: int = 4000) -> dict[str, Any]:
        """The files the session's branch changed (:mod:`.changeread`)."""
        from ink_tui.recall.changeread import changes_answer

        try:
            return changes_answer(
                self.base, self.cwd, session, budget_tokens=budget_tokens, redactor=self._masking
            )
        except ReadError as error:
            raise RecallError(str(error)) from None


def _shown(text: str | None) -> str | None:
    return None if text is None else visible(text)


def _with_index(answer: dict[str, Any], freshness: Freshness) -> dict[str, Any]:
    """``answer``, saying how up to date the index was when it is not current."""
    said = freshness.to_json()
    if said is not None:
        answer["index"] = said
    return answer


def _fitted(build: Any, budget_tokens: int) -> dict[str, Any]:
    try:
        return fitted(build, clamped(budget_tokens))
    except BudgetTooSmall as error:
        raise RecallError(str(error)) from None
