"""Ages, sizes, counts and plurals as people read them, for the screens and the command line."""

from __future__ import annotations

__all__ = [
    "BREADCRUMB_PARENT",
    "COUNT_WIDTH",
    "breadcrumb",
    "compact_count",
    "human_size",
    "plural",
    "relative_age",
]

COUNT_WIDTH = 5
"""The widest :func:`compact_count` text (``"49.9k"``, ``"-9999"``)."""
BREADCRUMB_PARENT = 30
"""Characters of a parent session's title in a subagent's breadcrumb."""


def breadcrumb(parent: str, child: str) -> str:
    """``parent ▸ task ▸ child``: a subagent session named after the session that ran it, the
    parent's title cut to :data:`BREADCRUMB_PARENT` characters (the child's is what matters)."""
    if len(parent) > BREADCRUMB_PARENT:
        parent = parent[: BREADCRUMB_PARENT - 1] + "…"
    return f"{parent} ▸ task ▸ {child}"


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """``"1 leaf"``, ``"2 leaves"``, ``"0 compactions"``: the count and the word that fits it."""
    word = singular if count == 1 else (plural_form or singular + "s")
    return f"{count:,} {word}"


def compact_count(count: int) -> str:
    """A count in at most :data:`COUNT_WIDTH` characters, never cut: ``"9998"``, ``"49.9k"``,
    ``"408k"``, ``"1.2M"``. Below 10,000 it is exact."""
    if -10_000 < count < 10_000:
        return str(count)
    sign = "-" if count < 0 else ""
    value = abs(count)
    for unit, size in (("k", 1_000), ("M", 1_000_000), ("G", 1_000_000_000)):
        scaled = value / size
        for text in (f"{scaled:.1f}", f"{scaled:.0f}"):
            if len(sign + text) + 1 <= COUNT_WIDTH and float(text) < 1000:
                return f"{sign}{text}{unit}"
    return f"{sign}{value / 1e12:.0f}T"


def relative_age(mtime: float, now: float) -> str:
    """``"12s ago"``, ``"3m ago"``, ``"5h ago"``, ``"2d ago"``, ``"3w ago"``, ``"4mo ago"``…"""
    seconds = max(0.0, now - mtime)
    for limit, unit, size in (
        (60, "s", 1),
        (3600, "m", 60),
        (86400, "h", 3600),
        (7 * 86400, "d", 86400),
        (35 * 86400, "w", 7 * 86400),
        (365 * 86400, "mo", 30 * 86400),
    ):
        if seconds < limit:
            return f"{int(seconds // size)}{unit} ago"
    return f"{int(seconds // (365 * 86400))}y ago"


def human_size(size: int) -> str:
    """``"812 B"``, ``"4.2 KB"``, ``"1.3 MB"`` (binary units)."""
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{int(value)} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} GB"  # pragma: no cover - the loop always returns
