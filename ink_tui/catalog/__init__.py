"""Many sessions: listing, titles, resolving a SESSION argument. Pure: no Textual."""

from ink_tui.catalog.row import SessionSummary
from ink_tui.catalog.scan import (
    ResolveError,
    iter_summaries,
    list_sessions,
    newest_session,
    resolve_session,
)
from ink_tui.catalog.summary import summarize_file

__all__ = [
    "ResolveError",
    "SessionSummary",
    "iter_summaries",
    "list_sessions",
    "newest_session",
    "resolve_session",
    "summarize_file",
]
