"""The picker's secrets: the filter "only sessions holding secrets" (``$``), the count in the
row (the ``secrets`` column) and the note under a row that holds some.

The index counts a session's secrets as it reads it (``SessionSummary.secrets``, by kind: what
``ink-tui secrets`` finds); a row read without the index (it is unavailable) has no count, and
is not kept by the filter. Every secret is masked wherever the app shows session text.
"""

from __future__ import annotations

from typing import Final

from rich.text import Text

from ink_tui.catalog import SessionSummary
from ink_tui.humanize import counts_sentence, plural
from ink_tui.ui.keymap import key_of
from ink_tui.ui.render.safe import plain
from ink_tui.ui.widgets.row_filter import RowFilter

__all__ = ["FILTER", "FILTER_NAME", "empty_text", "holds_secrets", "row_note"]

FILTER_NAME: Final = "only sessions holding secrets"


def holds_secrets(summary: SessionSummary) -> bool:
    """The filter's test: the index found a secret in the session."""
    return bool(summary.secret_count)


def empty_text(query: str) -> Text:
    """What the picker says when the filter leaves no row."""
    matching = f" matching “{query}”" if query else ""
    return plain(
        f"No session{matching} holds a secret ink-tui knows (keys, tokens, passwords, private "
        f"keys: see `ink-tui secrets --all`).\n\n{key_of('secrets_only')} shows every session "
        "again."
    )


FILTER: Final = RowFilter(FILTER_NAME, key_of("secrets_only"), holds_secrets, empty_text)


def row_note(summary: SessionSummary | None) -> Text | None:
    """The note under the highlighted row when it holds secrets: how many, of what kind, and
    the keys that list and scrub them; ``None`` otherwise."""
    if summary is None or not summary.secrets:
        return None
    count = plural(sum(summary.secrets.values()), "secret")
    return plain(
        f"Holds {count} ({counts_sentence(summary.secrets)}), masked wherever ink-tui shows "
        f"them: {key_of('secrets')} lists them, {key_of('scrub')} scrubs them from the file "
        f"({key_of('undo')} undoes)"
    )
