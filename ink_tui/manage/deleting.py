"""Deleting a session: it moves to the trash with its children and their lease folders.

A session being written is never deleted: one Ink (or anything) wrote in the last
:data:`LIVE_SECONDS`, or a child of which a live lease holds (Ink's rule,
:func:`ink_tui.manage.children.lease_is_live`). The plan says why, and nothing moves.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from ink_tui.manage import trash
from ink_tui.manage.children import children_of, first_line_header, lease_dir, lease_is_live

__all__ = ["LIVE_SECONDS", "DeletePlan", "delete", "plan_delete"]

LIVE_SECONDS: Final = 60.0
"""A session (or child) written this recently may be in use: it is not deleted."""


@dataclass(frozen=True, slots=True)
class DeletePlan:
    """What deleting one session moves, or why it cannot."""

    session: Path
    session_id: str
    title: str
    children: list[Path] = field(default_factory=list)
    leases: list[Path] = field(default_factory=list)
    refusal: str | None = None

    @property
    def paths(self) -> list[Path]:
        return [self.session, *self.children, *self.leases]

    def describe(self) -> str:
        """``the session "title" (id) and its 2 child sessions``."""
        named = f'"{self.title}" ({self.session_id[:8]})' if self.title else self.session.name
        count = len(self.children)
        more = f" and its {count} child session{'s' if count != 1 else ''}" if count else ""
        return f"the session {named}{more}"


def _age(path: Path, now: float) -> float | None:
    try:
        return now - path.stat().st_mtime
    except OSError:
        return None


def plan_delete(session: Path, *, title: str = "", now: float | None = None) -> DeletePlan:
    """What deleting ``session`` would move, or why it must not (``refusal``)."""
    now = time.time() if now is None else now
    header = first_line_header(session)
    own = header.get("id") if header is not None else None
    session_id = own if isinstance(own, str) else ""
    children = children_of(session, session_id) if session_id else []
    leases = [lease_dir(child) for child in children if lease_dir(child).exists()]
    plan = DeletePlan(session, session_id, title, children, leases)
    if not session.exists():
        return _refused(plan, f"{session} does not exist")
    for path in (session, *children):
        age = _age(path, now)
        if age is not None and age < LIVE_SECONDS:
            whose = "it" if path == session else f"its child {path.name}"
            return _refused(
                plan,
                f"{whose} was written {max(0, int(age))} s ago: Ink may be running it "
                f"(sessions written in the last {int(LIVE_SECONDS)} s are not deleted)",
            )
    for child in children:
        if lease_is_live(child, now):
            return _refused(plan, f"a live lease holds its child {child.name}: a subagent runs")
    return plan


def _refused(plan: DeletePlan, reason: str) -> DeletePlan:
    return DeletePlan(plan.session, plan.session_id, plan.title, plan.children, plan.leases, reason)


def delete(plan: DeletePlan) -> trash.TrashEntry:
    """Move what ``plan`` names to the trash (checked again just before: a session may have
    come alive since the plan was made). Raises :class:`~ink_tui.manage.trash.TrashError`."""
    again = plan_delete(plan.session, title=plan.title)
    if again.refusal is not None:
        raise trash.TrashError(f"not deleted: {again.refusal}")
    return trash.put(again.paths, "delete", session_id=again.session_id, title=again.title)
