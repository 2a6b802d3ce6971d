"""What the listing keeps of one tree entry while it scans a file (the id map's value): the
listing's summary, the index's file scan and a row's problems all read it."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["USAGE_NULL", "USAGE_OK", "USAGE_UNDEFINED", "USAGE_UNKNOWN", "ScanNode"]

# usage states of an assistant message
USAGE_OK, USAGE_UNKNOWN, USAGE_UNDEFINED, USAGE_NULL = range(4)


@dataclass(slots=True)
class ScanNode:
    """What the listing keeps of one tree entry (the id map's value)."""

    kind: str
    parent: str | None
    line: int
    offset: int
    role: str | None = None
    usage: int = USAGE_OK
    name: str | None = None  # session_info
