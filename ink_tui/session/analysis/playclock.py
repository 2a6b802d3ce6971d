"""Playing a :class:`~ink_tui.session.analysis.playback.Plan` against a clock.

:class:`Playback` holds the position (plan seconds at 1x) and moves it by the clock's time times
the speed. It never sleeps and never schedules: the caller asks :meth:`Playback.frame` what to
show now, and :meth:`Playback.next_wake` how long to wait (in clock seconds) before something
shown changes; the command line sleeps that long, the app sets a timer. Tests hand it a fake
clock and move the time themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ink_tui.session.analysis.playback import Plan, PlayRecord, revealed_length

__all__ = ["SPEEDS", "STREAM_TICK", "Frame", "Playback"]

SPEEDS: tuple[float, ...] = (1, 2, 5, 10, 20, 50)  # the steps of + and -; any speed within
STREAM_TICK = 0.05  # clock seconds between two looks while a text streams in
NEAR = 1e-6  # plan seconds: a record this close to its end is over (float sums are inexact)


@dataclass(frozen=True, slots=True)
class Frame:
    """What playback shows at one moment."""

    index: int  # the record playing (its gap running); ``len(records)`` once finished
    fraction: float  # how far into that record's time, 0..1
    position: float  # plan seconds from the start (at 1x)
    total: float  # the plan's length in seconds (at 1x)
    finished: bool

    def shown_text(self, record: PlayRecord) -> str:
        """The part of ``record`` (the one playing) that shows: a streamed text grows, any
        other record shows once its time is up (that is, never while it plays)."""
        if not record.stream:
            return ""
        return record.body[: revealed_length(record.body, self.fraction)]


class Playback:
    """The position in a plan, moved by a clock; paused, stepped, sped up."""

    def __init__(
        self,
        plan: Plan,
        clock: Callable[[], float],
        *,
        speed: float = 1,
        skip_idle: bool = True,
        start: int = 0,
    ) -> None:
        self.plan = plan
        self.clock = clock
        self.speed = min(max(speed, SPEEDS[0]), SPEEDS[-1])
        self.skip_idle = skip_idle
        self.paused = False
        starts = plan.starts(skip_idle)
        self._anchor_position = starts[max(0, min(start, len(plan.records)))]
        self._anchor_time = clock()

    # -- where playback is -----------------------------------------------------------------

    @property
    def position(self) -> float:
        """Plan seconds played (at 1x), up to the end."""
        position = self._anchor_position
        if not self.paused:
            position += (self.clock() - self._anchor_time) * self.speed
        return min(position, self.plan.total(self.skip_idle))

    def frame(self) -> Frame:
        """What shows now."""
        position = self.position
        starts = self.plan.starts(self.skip_idle)
        total = starts[-1]
        index = self._index_at(position)
        if index >= len(self.plan.records):
            return Frame(len(self.plan.records), 1.0, total, total, True)
        length = starts[index + 1] - starts[index]
        fraction = (position - starts[index]) / length if length > 0 else 1.0
        return Frame(index, min(max(fraction, 0.0), 1.0), position, total, False)

    def _index_at(self, position: float) -> int:
        """The first record whose time is not over at ``position`` (a record of no length is
        over as soon as it starts)."""
        starts = self.plan.starts(self.skip_idle)
        low, high = 0, len(self.plan.records)
        while low < high:  # the first index whose end is past ``position``
            middle = (low + high) // 2
            if starts[middle + 1] <= position + NEAR:
                low = middle + 1
            else:
                high = middle
        return low

    def next_wake(self) -> float | None:
        """Clock seconds until what shows changes (``None``: nothing will, paused or over)."""
        if self.paused:
            return None
        frame = self.frame()
        if frame.finished:
            return None
        record = self.plan.records[frame.index]
        end = self.plan.starts(self.skip_idle)[frame.index + 1]
        until_end = (end - frame.position) / self.speed
        wake = min(STREAM_TICK, until_end) if record.stream else until_end
        return max(wake, NEAR)

    # -- what the keys do ---------------------------------------------------------------------

    def _anchor(self, position: float) -> None:
        self._anchor_position = position
        self._anchor_time = self.clock()

    def pause(self) -> None:
        if not self.paused:
            self._anchor(self.position)
            self.paused = True

    def resume(self) -> None:
        if self.paused:
            self._anchor_time = self.clock()
            self.paused = False

    def toggle_pause(self) -> bool:
        """Pause or resume; returns whether it is paused now."""
        self.resume() if self.paused else self.pause()
        return self.paused

    def step(self) -> None:
        """One record on: the one playing is shown whole, and playback pauses before the next."""
        self.pause()
        frame = self.frame()
        if not frame.finished:
            self._anchor(self.plan.starts(self.skip_idle)[frame.index + 1])

    def change_speed(self, delta: int) -> float:
        """The next speed of :data:`SPEEDS` up (``delta`` > 0) or down; returns it."""
        if delta > 0:
            speed = next((s for s in SPEEDS if s > self.speed), SPEEDS[-1])
        else:
            speed = next((s for s in reversed(SPEEDS) if s < self.speed), SPEEDS[0])
        self._anchor(self.position)
        self.speed = speed
        return speed

    def toggle_skip_idle(self) -> bool:
        """Skip idle gaps or not, staying at the same point of the same record."""
        frame = self.frame()
        self.skip_idle = not self.skip_idle
        starts = self.plan.starts(self.skip_idle)
        if frame.finished:
            self._anchor(starts[-1])
        else:
            length = starts[frame.index + 1] - starts[frame.index]
            self._anchor(starts[frame.index] + frame.fraction * length)
        return self.skip_idle
