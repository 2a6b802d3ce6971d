"""The playback bar under the session view: where playback is, its speed, and the record playing.

The first line says the state (playing or paused, the speed, the record, the time played of the
whole, whether idle gaps are skipped) and the keys; under it, the record playing: a reply as
much of it as has streamed in (its last lines), or what its gap is spent on (a tool running, the
user away) with the time it has taken so far. Session text goes through :func:`plain`.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from ink_tui.session.analysis.playback import PlayRecord
from ink_tui.session.analysis.playclock import Frame, Playback
from ink_tui.ui.render.safe import plain

__all__ = ["SHOWN_LINES", "PlaybackBar", "clock_text"]

SHOWN_LINES = 6  # lines of the record playing shown under the state line
KEYS_HINT = "Space pause · . step · +/- speed · i idle gaps · p/Esc stop"


def clock_text(seconds: float) -> str:
    """``m:ss`` (``h:mm:ss`` from an hour)."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _last_lines(text: str, count: int) -> str:
    lines = text.split("\n")
    return "\n".join(lines[-count:])


class PlaybackBar(Static):
    """The playback state line and the record playing."""

    DEFAULT_CSS = """
    PlaybackBar {
        height: auto;
        max-height: 8;
        padding: 0 1;
        border-top: tall $primary;
        background: $panel;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.state_line = ""  # the first line, as shown (for tests and the palette)

    def show(self, playback: Playback, frame: Frame) -> None:
        """Draw ``frame`` of ``playback``."""
        records = playback.plan.records
        mark = "⏸ paused" if playback.paused else ("■ finished" if frame.finished else "▶")
        number = playback.plan.first + min(frame.index + 1, len(records))
        idle = "skip idle" if playback.skip_idle else "real gaps"
        self.state_line = (
            f"{mark} {playback.speed:g}x · record {number}/{playback.plan.branch_length} · "
            f"{clock_text(frame.position)} / {clock_text(frame.total)} · {idle}"
        )
        text = Text(self.state_line, style="bold")
        text.append(f"   {KEYS_HINT}", style="dim")
        if playback.plan.note:
            text.append("\n")
            text.append_text(plain(playback.plan.note, style="italic"))
        if not frame.finished:
            text.append("\n")
            text.append_text(self._playing(records[frame.index], frame))
        self.update(text)

    def _playing(self, record: PlayRecord, frame: Frame) -> Text:
        head = plain(f"[{record.time_of_day}] {record.head}", style="bold")
        if record.stream:
            shown = frame.shown_text(record)
            return head + Text("\n") + plain(_last_lines(shown, SHOWN_LINES - 1) + "▌")
        gap = record.gap
        waited = f"{clock_text(frame.fraction * gap)} of {clock_text(gap)}"
        return head + plain(f" · {record.waiting}… {waited}", style="italic")
