"""Deleting a session: it moves to the trash with its children and their lease folders.

Only a session file inside the sessions folder moves (:mod:`ink_tui.manage.roots`: a regular
``*.jsonl`` file whose first line is a session header, inside a root once symbolic links are
resolved); its children and their lease folders pass the same check, or nothing moves.

A session being written is never deleted: something other than ink-tui wrote it (or a child) in
the last :data:`~ink_tui.session.writing.ownwrites.IN_USE_SECONDS` (ink-tui's own rename or label
does not count: :func:`ink_tui.session.writing.ownwrites.last_foreign_write`), or a live lease
holds a child (Ink's rule, :func:`ink_tui.manage.children.lease_is_live`). The plan says why, and
nothing moves.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ink_tui.humanize import plural
from ink_tui.manage import trash
from ink_tui.manage.children import children_of, lease_dir, lease_is_live
from ink_tui.manage.roots import not_a_lease_folder, not_a_session_file
from ink_tui.safetext import one_line
from ink_tui.session.reading.firstline import first_line_header
from ink_tui.session.writing.ownwrites import IN_USE_SECONDS, last_foreign_write

__all__ = ["DeletePlan", "delete", "plan_delete"]


@dataclass(frozen=True, slots=True)
class DeletePlan:
    """What deleting one session moves, or why it cannot."""

    session: Path
    session_id: str
    title: str
    roots: tuple[Path, ...]
    children: list[Path] = field(default_factory=list)
    leases: list[Path] = field(default_factory=list)
    refusal: str | None = None

    @property
    def paths(self) -> list[Path]:
        return [self.session, *self.children, *self.leases]

    def describe(self) -> str:
        """``the session "title" (id) and its 2 child sessions``, on one line."""
        named = (
            f'"{one_line(self.title)}" ({self.session_id[:8]})'
            if self.title
            else one_line(self.session.name)
        )
        count = len(self.children)
        more = f" and its {plural(count, 'child session')}" if count else ""
        return f"the session {named}{more}"


def _age(path: Path, now: float) -> float | None:
    try:
        return now - last_foreign_write(path)
    except OSError:
        return None


def plan_delete(
    session: Path, *, roots: Sequence[Path], title: str = "", now: float | None = None
) -> DeletePlan:
    """What deleting ``session`` would move, or why it must not (``refusal``). Only files
    inside ``roots`` (:func:`ink_tui.manage.roots.deletable_roots`) are ever moved."""
    now = time.time() if now is None else now
    plan = DeletePlan(session, "", title, tuple(roots))
    problem = not_a_session_file(session, plan.roots)
    if problem is not None:
        return _refused(plan, problem)
    header = first_line_header(session) or {}
    session_id = str(header.get("id", ""))
    children = children_of(session, session_id)
    leases = [lease_dir(child) for child in children if lease_dir(child).exists()]
    plan = DeletePlan(session, session_id, title, plan.roots, children, leases)
    for child in children:
        problem = not_a_session_file(child, plan.roots, it=f"its child {one_line(child.name)}")
        if problem is not None:
            return _refused(plan, problem)
    for lease in leases:
        problem = not_a_lease_folder(lease, plan.roots)
        if problem is not None:
            return _refused(plan, problem)
    for path in (session, *children):
        age = _age(path, now)
        if age is not None and age < IN_USE_SECONDS:
            whose = "it" if path == session else f"its child {one_line(path.name)}"
            return _refused(
                plan,
                f"{whose} was written {max(0, int(age))} s ago: Ink may be running it "
                f"(sessions written in the last {int(IN_USE_SECONDS)} s are not deleted)",
            )
    for child in children:
        if lease_is_live(child, now):
            name = one_line(child.name)
            return _refused(plan, f"a live lease holds its child {name}: a subagent runs")
    return plan


def _refused(plan: DeletePlan, reason: str) -> DeletePlan:
    return DeletePlan(
        plan.session, plan.session_id, plan.title, plan.roots, plan.children, plan.leases, reason
    )


def delete(plan: DeletePlan) -> trash.TrashEntry:
    """Move what ``plan`` names to the trash (checked again just before: a session may have
    come alive since the plan was made). Raises :class:`~ink_tui.manage.trash.TrashError`."""
    again = plan_delete(plan.session, roots=plan.roots, title=plan.title)
    if again.refusal is not None:
        raise trash.TrashError(f"not deleted: {again.refusal}")
    return trash.put(again.paths, "delete", session_id=again.session_id, title=again.title)
