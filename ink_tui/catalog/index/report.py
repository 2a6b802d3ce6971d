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
    raced: int = 0  # changed files another process indexed meanwhile (as it read them)
    unread: int = 0  # changed files that vanished or could not be read since they were listed
    bytes_read: int = 0
    seconds: float = 0.0
    cancelled: bool = False
    checked_ns: int = 0  # when (``time.time_ns``) the look at the files began
    trusted: bool = False  # no look: a check of the same files began at ``checked_ns``

    def add(self, other: IndexReport) -> None:
        """Count ``other`` (an update of another sessions dir) in this one."""
        for name in (
            "files", "children", "sessions_changed", "unchanged", "added", "appended", "reread",
            "dropped", "busy", "raced", "unread", "bytes_read",
        ):  # fmt: skip
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.seconds += other.seconds
        self.cancelled = self.cancelled or other.cancelled
        self.checked_ns = min(self.checked_ns, other.checked_ns)
        self.trusted = self.trusted and other.trusted

    @property
    def complete(self) -> bool:
        """Whether every change found is in the index as this update read it (a check a
        search may trust: :mod:`.checks`)."""
        return not (self.cancelled or self.busy or self.raced or self.unread)

    @property
    def not_indexed(self) -> int:
        """Changed files this update did not index (another process had them, or they went)."""
        return self.busy + self.raced + self.unread

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
            (self.raced, "left as another process indexed them"),
            (self.unread, "gone or unreadable since listed"),
        ):
            if count:
                parts.append(f"{count} {what}")
        megabytes = self.bytes_read / 1_000_000
        text = f"indexed: {', '.join(parts)}; read {megabytes:,.1f} MB in {self.seconds:.2f} s"
        return text + (" (stopped early)" if self.cancelled else "")
