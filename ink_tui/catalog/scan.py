"""(being written) Listing and resolving sessions."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


class ResolveError(Exception):
    """SESSION matched no session, or several."""


@dataclass(slots=True)
class SessionSummary:
    path: Path


def list_sessions(
    base_dir: Path, cwd: str | None, *, include_hidden: bool = True
) -> list[SessionSummary]:
    raise NotImplementedError


def resolve_session(base_dir: Path, cwd: str, wanted: str) -> Path:
    raise NotImplementedError
