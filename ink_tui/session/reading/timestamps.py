"""A record's ``timestamp`` read as a time: the one parser ink-tui uses for them.

Ink writes ``new Date().toISOString()`` (``2026-10-05T12:34:56.789Z``, UTC). Hand-made and
older files hold other forms, and some hold dates that cannot be: ``2026-02-30``, month 13,
``9999-99-99``, year 0. Every figure made from timestamps (turn times, the session's span,
playback, days and weeks of the stats, ages) reads them here, so one impossible date is one
unknown time, never an error.

Accepted: ``YYYY-MM-DD``, optionally followed by ``T`` (or a space) and ``HH:MM``, ``:SS`` and
a fraction of any length, then ``Z``, ``±HH:MM`` or ``±HHMM``; ``24:00:00`` is the next
midnight, as JavaScript reads it. A time without an offset is taken as UTC (Ink always writes
UTC; JavaScript would read it as local time, which no two machines agree on), and a date alone
is UTC midnight (as JavaScript reads it). Everything else gives ``None``: a calendar date that
does not exist (February 30, April 31, month 13, day 0), year 0 and years past 9999 (which
Python's dates cannot hold), hours past 24, minutes or seconds past 59, offsets past 23:59.

JavaScript's ``Date.parse`` is not followed everywhere: V8 reads ``2026-02-30`` as March 2
and accepts year 0; here they are unknown times (nothing Ink writes holds them).
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from typing import Final

__all__ = ["parse_timestamp", "timestamp_seconds", "utc_day", "utc_timestamp"]

_ISO: Final = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})"
    r"(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?"
    r"(Z|z|[+-]\d{2}:?\d{2})?",
    re.ASCII,
)
_LONGEST: Final = 64  # no timestamp is longer: a longer string is not parsed at all


def parse_timestamp(value: object) -> datetime | None:
    """``value`` as an aware UTC time; ``None`` when it is not a time that can be."""
    if not isinstance(value, str) or len(value) > _LONGEST:
        return None
    found = _ISO.fullmatch(value.strip())
    if found is None:
        return None
    year, month, day, hour, minute, second, fraction, offset = found.groups()
    try:
        moment = datetime(int(year), int(month), int(day), tzinfo=UTC)
    except ValueError:
        return None  # February 30, month 13, day 0, year 0
    if hour is None:
        return moment if offset is None else None  # a date with an offset is no form
    hours, minutes, seconds = int(hour), int(minute), int(second or 0)
    micros = int((fraction or "0")[:6].ljust(6, "0"))
    if minutes > 59 or seconds > 59 or hours > 24:
        return None
    if hours == 24 and (minutes or seconds or micros):
        return None  # 24:00:00 is the only time of hour 24
    try:
        moment += timedelta(hours=hours, minutes=minutes, seconds=seconds, microseconds=micros)
        if offset is not None and offset not in ("Z", "z"):
            sign = -1 if offset[0] == "-" else 1
            digits = offset[1:].replace(":", "")
            off_hours, off_minutes = int(digits[:2]), int(digits[2:])
            if off_hours > 23 or off_minutes > 59:
                return None
            moment -= sign * timedelta(hours=off_hours, minutes=off_minutes)
    except OverflowError:
        return None  # past 9999-12-31 or before year 1 once in UTC
    return moment


def timestamp_seconds(value: object) -> float | None:
    """``value`` as seconds since the epoch; ``None`` when it is not a time that can be."""
    moment = parse_timestamp(value)
    return None if moment is None else moment.timestamp()


def utc_day(value: object) -> date | None:
    """The UTC date of ``value``; ``None`` when it is not a time that can be."""
    moment = parse_timestamp(value)
    return None if moment is None else moment.date()


def utc_timestamp(now: datetime | None = None) -> str:
    """``new Date().toISOString()``, the form Ink writes: UTC, exactly three fractional digits,
    ``Z`` (the time now when ``now`` is None)."""
    moment = (now or datetime.now(UTC)).astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
