"""The session view's header: project, model, thinking level, counts and token usage."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static

from ink_tui.humanize import plural
from ink_tui.ui.render import palette
from ink_tui.ui.render.safe import plain

if TYPE_CHECKING:
    from ink_tui.session.branchview import LoadedBranch

__all__ = ["SessionHeader"]


def _count(value: int) -> str:
    if value >= 1_000_000:
        return f"{value / 1_000_000:.1f}M"
    if value >= 10_000:
        return f"{value / 1000:.0f}k"
    return f"{value:,}"


class SessionHeader(Static):
    """Two lines about the shown branch."""

    DEFAULT_CSS = """
    SessionHeader {
        height: 2;
        padding: 0 1;
        background: $panel;
    }
    """

    def show(
        self, loaded: LoadedBranch, *, live: bool = False, last_write: float | None = None
    ) -> None:
        header, stats, session = loaded.header, loaded.stats, loaded.session
        name = header.get("name")
        first = Text.assemble(
            plain(name or session.path.name, "bold"),
            "  ",
            plain(header["project"], palette.current.argument),
            "  ",
            plain(header["model"], palette.current.secondary),
            "  thinking ",
            plain(header["thinking"], palette.current.warning),
        )
        if live:
            first.append("  ● LIVE", style=f"bold {palette.current.ok}")
            if last_write is not None:
                ago = max(0, int(time.time() - last_write))
                stamp = time.strftime("%H:%M:%S", time.localtime(last_write))
                first.append(f" · last write {stamp} ({ago}s ago)", style=palette.current.ok)
        errors = f", {stats.tool_errors} failed" if stats.tool_errors else ""
        missing = f", {stats.unanswered} without result" if stats.unanswered else ""
        compactions = f" · {plural(stats.compactions, 'compaction')}" if stats.compactions else ""
        second = Text.assemble(
            (
                f"{plural(stats.turns, 'turn')} · {plural(stats.messages, 'message')} · "
                f"{plural(stats.tool_calls, 'tool call')}{errors}{missing}{compactions} · ",
                "dim",
            ),
            (
                f"tokens in {_count(stats.input_tokens)} out {_count(stats.output_tokens)} "
                f"cache r {_count(stats.cache_read_tokens)} w {_count(stats.cache_write_tokens)}",
                "dim",
            ),
        )
        self.update(Text("\n").join([first, second]))
