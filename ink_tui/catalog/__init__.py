"""Many sessions: listing, titles, resolving a SESSION argument. Pure: no Textual."""

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
