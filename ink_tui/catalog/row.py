"""A listing row: one session file as Ink's ``/sessions`` sees it, plus what ink-tui shows."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from ink_tui.session.rules.modelref import ModelRef

__all__ = ["EMPTY_REASON", "SessionSummary", "iso_mtime", "row_from_index", "row_to_index"]

EMPTY_REASON: Final = "no message entries and no explicit model selection"


@dataclass(slots=True)
class SessionSummary:
    """One session file as a listing row, with Ink's verdict on whether ``/sessions`` shows it."""

    path: Path
    file_name: str
    project_folder: str  # the cwd-folder name (the file's parent folder)
    mtime: float
    size: int
    id: str | None = None  # header id; None when the header is unreadable
    cwd: str | None = None
    created: str | None = None  # header timestamp
    title: str = ""
    message_count: int = 0  # message entries on the current branch (all roles)
    turn_count: int = 0  # assistant messages on the current branch
    model: ModelRef | None = None  # last session_model in file order, else header.model
    explicit_model: bool = False  # any session_model with explicit:true
    name: str | None = None  # session_info name on the current branch
    leaf_id: str | None = None
    leaf_count: int = 0  # branches
    is_child: bool = False  # header names a parent (subagent session)
    parent_session: str | None = None  # the header's ``parent`` id (a subagent's parent's)
    listed_by_ink: bool = False
    hidden_reason: str | None = None
    last_activity: str | None = None  # the last entry's timestamp (known from the index)
    tokens_in: int | None = None  # on the current branch: input + cache (known from the index)
    tokens_out: int | None = None
    problem: str | None = None  # a torn tail, dangling calls (see ink_tui.catalog.problems)
    machine: str | None = None  # the mirrored machine it came from (None: this machine)
    local_project: str | None = None  # this machine's folder for its project (a path map's)
    # The secrets it holds, by kind (masked in the index; None: not counted, read without it)
    secrets: dict[str, int] | None = None

    @property
    def secret_count(self) -> int | None:
        """How many secrets it holds (None: not counted)."""
        return None if self.secrets is None else sum(self.secrets.values())

    @property
    def has_problem(self) -> bool:
        """``ink-tui check`` would flag it, as far as the listing sees: Ink cannot open it or
        hides it for a reason other than being empty, or its tail is torn, or calls dangle."""
        return self.problem is not None or not self.ink_read_ok

    @property
    def ink_read_ok(self) -> bool:
        """Ink's ``open()`` and ``stats()`` succeeded (listed, or hidden only as empty)."""
        return self.hidden_reason is None or self.hidden_reason == EMPTY_REASON

    def to_json(self) -> dict[str, Any]:
        """The fixtures' listing row: ``file, mtime, listed[, id, title, counts][, skip]``."""
        row: dict[str, Any] = {
            "file": self.file_name,
            "mtime": iso_mtime(self.mtime),
            "listed": self.listed_by_ink,
        }
        if self.ink_read_ok:
            row["id"] = self.id
            row["title"] = self.title
            row["messageCount"] = self.message_count
            row["turnCount"] = self.turn_count
        if self.hidden_reason is not None:
            row["skip"] = self.hidden_reason
        return row

    def to_dict(self) -> dict[str, Any]:
        """Everything known about the row (for ``ink-tui list --json``)."""
        return {
            "file": self.file_name,
            "path": str(self.path),
            "project": self.project_folder,
            "mtime": iso_mtime(self.mtime),
            "size": self.size,
            "listed": self.listed_by_ink,
            "skip": self.hidden_reason,
            "id": self.id,
            "cwd": self.cwd,
            "created": self.created,
            "title": self.title,
            "name": self.name,
            "messageCount": self.message_count,
            "turnCount": self.turn_count,
            "model": None if self.model is None else self.model.reference,
            "explicitModel": self.explicit_model,
            "leafId": self.leaf_id,
            "leafCount": self.leaf_count,
            "isChild": self.is_child,
            "lastActivity": self.last_activity,
            "tokensIn": self.tokens_in,
            "tokensOut": self.tokens_out,
            "problem": self.problem,
            "machine": self.machine,
            "localProject": self.local_project,
            "secrets": self.secrets,
        }


_PLAIN_FIELDS: Final = (
    "file_name",
    "project_folder",
    "mtime",
    "size",
    "id",
    "cwd",
    "created",
    "title",
    "message_count",
    "turn_count",
    "explicit_model",
    "name",
    "leaf_id",
    "leaf_count",
    "is_child",
    "parent_session",
    "listed_by_ink",
    "hidden_reason",
    "last_activity",
    "tokens_in",
    "tokens_out",
    "problem",
    "secrets",
)


def row_to_index(summary: SessionSummary) -> dict[str, Any]:
    """The row as the catalog index stores it (every field; see :func:`row_from_index`)."""
    stored = {name: getattr(summary, name) for name in _PLAIN_FIELDS}
    stored["path"] = str(summary.path)
    model = summary.model
    stored["model"] = None if model is None else [model.provider, model.model_id]
    return stored


def row_from_index(stored: dict[str, Any]) -> SessionSummary:
    """A row read back from the index (raises ``KeyError``/``TypeError`` on a foreign shape)."""
    model = stored["model"]
    summary = SessionSummary(
        path=Path(stored["path"]),
        model=None if model is None else ModelRef(str(model[0]), str(model[1])),
        **{name: stored[name] for name in _PLAIN_FIELDS},
    )
    return summary


def iso_mtime(mtime: float) -> str:
    """A file mtime as the fixtures write it: ISO 8601 UTC, microseconds, ``+00:00``."""
    return datetime.fromtimestamp(mtime, UTC).isoformat(timespec="microseconds")
