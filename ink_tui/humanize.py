"""Ages and sizes as people read them, for the picker and ``ink-tui list``."""

from __future__ import annotations

__all__ = ["human_size", "relative_age"]


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
