"""Which sessions a screen lists or searches: this project's, every project's, or every
machine's (this one's and each mirror's, see :mod:`ink_tui.catalog.roots`). Tab moves to the
next scope on the picker and the search screen alike; "every machine" is a stop only when some
machine is mirrored here.
"""

from __future__ import annotations

from typing import Final, Literal

__all__ = ["SCOPES", "Scope", "next_scope", "scope_cwd", "scope_label"]

Scope = Literal["project", "all", "machines"]
SCOPES: Final[tuple[Scope, ...]] = ("project", "all", "machines")
_LABELS: Final = {"all": "All projects", "machines": "All machines"}
_TAB: Final = {"project": "this project", "all": "all projects", "machines": "all machines"}


def next_scope(scope: Scope, *, mirrors: bool) -> Scope:
    """The scope Tab moves to (``mirrors``: whether any machine is mirrored here)."""
    following = SCOPES[(SCOPES.index(scope) + 1) % len(SCOPES)]
    if following == "machines" and not mirrors:
        return "project"
    return following


def scope_cwd(scope: Scope, cwd: str) -> str | None:
    """The project whose folder is read (``None``: every project of each sessions dir)."""
    return cwd if scope == "project" else None


def scope_label(scope: Scope, project_folder: str) -> str:
    """``This project · <folder>``, ``All projects`` or ``All machines``."""
    return _LABELS.get(scope, f"This project · {project_folder}")


def tab_hint(scope: Scope, *, mirrors: bool) -> str:
    """What Tab does from ``scope``: ``Tab: all projects``."""
    return f"Tab: {_TAB[next_scope(scope, mirrors=mirrors)]}"
