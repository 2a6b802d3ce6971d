"""One of the picker's filters of rows (``!``: sessions with problems, ``$``: sessions holding
secrets): which rows it keeps, and what the picker says while it is on."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.text import Text

from ink_tui.catalog import SessionSummary

__all__ = ["RowFilter"]


@dataclass(frozen=True, slots=True)
class RowFilter:
    """A filter the picker toggles with ``key``."""

    name: str  # "only sessions with problems"
    key: str  # as typed: "!"
    keep: Callable[[SessionSummary], bool]
    empty: Callable[[str], Text]  # what the picker says when it keeps no row (the query typed)

    def status_part(self, shown: int) -> str:
        """What the status line adds while the filter is on."""
        return f"  ·  {self.name}: {shown}  ({self.key} shows all)"
