"""Many sessions: listing, titles, resolving a SESSION argument. Pure: no Textual.

The names below are imported from their modules when first used (PEP 562), as in
:mod:`ink_tui.session`: a command that only needs the index (``ink-tui search``) never pays for
the listing's scan, and importing one module of the package does not import them all.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ink_tui.catalog.row import SessionSummary
    from ink_tui.catalog.scan import (
        ResolveError,
        Resumed,
        iter_summaries,
        list_sessions,
        newest_session,
        resolve_resume,
        resolve_session,
    )
    from ink_tui.catalog.summary import summarize_file

_HOMES = {
    "row": ("SessionSummary",),
    "scan": (
        "ResolveError",
        "Resumed",
        "iter_summaries",
        "list_sessions",
        "newest_session",
        "resolve_resume",
        "resolve_session",
    ),
    "summary": ("summarize_file",),
}
_MODULE_OF = {name: module for module, names in _HOMES.items() for name in names}

__all__ = [
    "ResolveError",
    "Resumed",
    "SessionSummary",
    "iter_summaries",
    "list_sessions",
    "newest_session",
    "resolve_resume",
    "resolve_session",
    "summarize_file",
]


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # found once, then an ordinary attribute
    return value
