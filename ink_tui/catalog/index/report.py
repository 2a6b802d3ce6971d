"""What one update of the index did (:func:`ink_tui.catalog.index.update.update_index`)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["IndexReport"]


@dataclass(slots=True)
class IndexReport:
    """What one update did."""

    files: int = 0
    children: int = 0  # of ``files``: subagent sessions (in a project's children/)
    sessions_changed: int = 0  # top-level session files new, changed or gone: what a listing
    # shows changed (a subagent session's changes never do)
    unchanged: int = 0
    added: int = 0
    appended: int = 0
    reread: int = 0
    dropped: int = 0
    busy: int = 0
    bytes_read: int = 0
    seconds: float = 0.0
    cancelled: bool = False
    checked_ns: int = 0  # when (``time.time_ns``) the look at the files began
    trusted: bool = False  # no look: a check of the same files began at ``checked_ns``

    def sentence(self) -> str:
        """One line for the command line and the picker."""
        if self.trusted:
            return "indexed: every session file was checked moments ago; not looked at again"
        parts = [f"{self.files} session files"]
        if self.children:
            parts[0] += f" ({self.children} of them subagent sessions)"
        for count, what in (
            (self.added, "new"),
            (self.appended, "appended to"),
            (self.reread, "read again"),
            (self.unchanged, "unchanged"),
            (self.dropped, "gone (dropped)"),
            (self.busy, "skipped (another process was indexing them)"),
        ):
            if count:
                parts.append(f"{count} {what}")
        megabytes = self.bytes_read / 1_000_000
        text = f"indexed: {', '.join(parts)}; read {megabytes:,.1f} MB in {self.seconds:.2f} s"
        return text + (" (stopped early)" if self.cancelled else "")
