"""Pruning orphaned children as Ink's ``/sessions prune`` does, into the trash.

Which children are orphans, and which a live lease exempts, is Ink's rule
(:func:`ink_tui.manage.children.orphan_children`). Ink deletes them with their lease folders;
ink-tui moves them to the trash instead (one entry per prune), so a prune can be undone.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ink_tui.manage import trash
from ink_tui.manage.children import Orphan, lease_dir, orphan_children

__all__ = ["PrunePlan", "plan_prune", "prune"]


@dataclass(frozen=True, slots=True)
class PrunePlan:
    """The orphans of a sessions folder: those to move, and those a live lease keeps."""

    base: Path
    removable: list[Orphan]
    exempt: list[Orphan]


def plan_prune(base: Path) -> PrunePlan:
    orphans = orphan_children(base)
    return PrunePlan(
        base,
        [orphan for orphan in orphans if not orphan.leased],
        [orphan for orphan in orphans if orphan.leased],
    )


def prune(plan: PrunePlan) -> tuple[trash.TrashEntry | None, PrunePlan]:
    """Move the plan's removable orphans (still orphaned and unleased now) to the trash, each
    with its lease folder. Returns the trash entry (``None``: nothing to move) and the plan as it
    was carried out."""
    now = plan_prune(plan.base)
    wanted = {orphan.path for orphan in plan.removable}
    chosen = [orphan for orphan in now.removable if orphan.path in wanted]
    done = PrunePlan(plan.base, chosen, now.exempt)
    if not chosen:
        return None, done
    paths = [orphan.path for orphan in chosen]
    paths += [lease_dir(path) for path in paths if lease_dir(path).exists()]
    count = len(chosen)
    title = f"{count} orphaned child session{'s' if count != 1 else ''}"
    return trash.put(paths, "prune", title=title), done
