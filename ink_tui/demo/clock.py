"""The demo's fake clock: the writer's timestamps, moved forward by hand."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

__all__ = ["FakeClock"]


class FakeClock:
    """A clock the builder moves forward by hand."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, rng: random.Random, low: float, high: float) -> None:
        self.now += timedelta(milliseconds=rng.randint(int(low * 1000), int(high * 1000)))
