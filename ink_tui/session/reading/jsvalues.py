"""Two JavaScript conversions Ink's rules depend on: ``Number(text)`` and ``Date.parse(text)``.

- :func:`string_to_number` is ``Number(text)`` for a string (ECMAScript ``StringToNumber``): the
  text is trimmed of JavaScript's white space and line terminators; an empty text is ``0``; a
  decimal literal (``1e5``, ``.5``, ``1.``, ``+3``), ``Infinity`` with an optional sign, or an
  unsigned ``0x``/``0o``/``0b`` integer is its value; anything else (``1_000``, ``nan``,
  ``inf``, ``-0x10``, ``1e``) is ``NaN``. Ink reads ``INK_CONTEXT_WINDOW`` this way (spec §4.5).
- :func:`date_parse` is ``Date.parse(text)`` for the ECMAScript date-time string format as V8
  reads it (``dateparser-inl.h`` ``ParseES5DateTime``): ``YYYY``, ``YYYY-MM``, ``YYYY-MM-DD`` or a
  six-digit signed year, then optionally ``THH:mm``, ``:ss`` and a fraction of any length (its
  first three digits count), then ``Z`` or ``±HH:mm``; ``T`` and ``Z`` in either case. Days are
  checked against 1-31 only (``2026-02-30`` is March 2nd, as in V8); hour 24 is allowed as
  ``24:00[:00[.000]]``. A date-only form is UTC, a date-time form without an offset local time.
  V8's legacy fallback for other shapes (``2026/10/05``, ``Oct 5 2026``, a space for the ``T``)
  is not followed: those are ``NaN`` here. ``/tree`` orders siblings by it (spec §7).
"""

from __future__ import annotations

import math
import re
import time
from typing import Any, Final

from ink_tui.session.reading.jsoncodec import js_number
from ink_tui.session.reading.lines import JS_WHITESPACE
from ink_tui.session.reading.shapes import MISSING

__all__ = ["date_parse", "js_joined", "js_template", "string_to_number"]

NAN: Final = math.nan
_DECIMAL: Final = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_RADIX: Final = {"x": (16, "0123456789abcdefABCDEF"), "o": (8, "01234567"), "b": (2, "01")}
MAX_TIME_MS: Final = 8.64e15  # a time value beyond this is NaN (TimeClip)
MS_PER_DAY: Final = 86_400_000


def string_to_number(text: str) -> float:
    """``Number(text)`` for a string, exactly (``NaN`` as ``math.nan``)."""
    body = text.strip(JS_WHITESPACE)
    if body == "":
        return 0.0
    if body in ("Infinity", "+Infinity"):
        return math.inf
    if body == "-Infinity":
        return -math.inf
    if len(body) > 2 and body[0] == "0" and body[1].lower() in _RADIX:
        base, digits = _RADIX[body[1].lower()]
        if not all(char in digits for char in body[2:]):
            return NAN
        try:
            return float(int(body[2:], base))
        except OverflowError:  # more than a double holds: JavaScript's Infinity
            return math.inf
    if _DECIMAL.fullmatch(body) is None:
        return NAN
    return float(body)  # correctly rounded, as JavaScript; overflow gives inf, underflow 0


def js_template(value: Any) -> str:
    """``${value}`` in a template literal, for the values JSON holds (``MISSING`` is
    ``undefined``): ``null``, ``true``, ``1`` (not ``1.0``), ``a,b`` for a list, ``[object
    Object]``."""
    if isinstance(value, str):
        return value
    if value is MISSING:
        return "undefined"
    if value is None or isinstance(value, bool):
        return "null" if value is None else str(value).lower()
    if isinstance(value, int | float):
        return js_number(float(value))
    if isinstance(value, list):
        return ",".join(js_joined(item) for item in value)
    return "[object Object]"


def js_joined(value: Any) -> str:
    """A value as ``Array.prototype.join`` shows it: ``null`` and ``undefined`` as nothing."""
    return "" if value is None or value is MISSING else js_template(value)


# -- Date.parse ---------------------------------------------------------------------------------

_TOKENS: Final = re.compile(r"[0-9]+|[A-Za-z]+|.", re.DOTALL)


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (``MakeDay``: months roll over)."""
    year += (month - 1) // 12
    month = (month - 1) % 12 + 1
    year -= month <= 2
    era = year // 400
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146_097 + doe - 719_468 + day - 1


class _Scanner:
    def __init__(self, text: str) -> None:
        self.tokens = _TOKENS.findall(text)
        self.at = 0

    def peek(self) -> str:
        return self.tokens[self.at] if self.at < len(self.tokens) else ""

    def next(self) -> str:
        token = self.peek()
        self.at += 1
        return token

    def number(self, length: int | None = None) -> int | None:
        """The next token if it is a number (of exactly ``length`` digits), taken; else None."""
        token = self.peek()
        if not token.isascii() or not token.isdigit():
            return None
        if length is not None and len(token) != length:
            return None
        self.at += 1
        return int(token)

    def symbol(self, char: str) -> bool:
        if self.peek() == char:
            self.at += 1
            return True
        return False


def _date_part(scan: _Scanner) -> tuple[int, int, int] | None:
    sign = scan.peek()
    if sign in ("+", "-"):
        scan.next()
        year = scan.number(6)
        if year is None or (sign == "-" and year == 0):
            return None
        year = -year if sign == "-" else year
    else:
        found = scan.number(4)
        if found is None:
            return None
        year = found
    month = day = 1
    if scan.symbol("-"):
        found = scan.number(2)
        if found is None or not 1 <= found <= 12:
            return None
        month = found
        if scan.symbol("-"):
            found = scan.number(2)
            if found is None or not 1 <= found <= 31:
                return None
            day = found
    return year, month, day


def _time_part(scan: _Scanner) -> int | None:
    """``HH:mm[:ss[.fff…]]`` after the ``T``, as milliseconds of the day; None: invalid."""
    hour = scan.number(2)
    if hour is None or hour > 24 or not scan.symbol(":"):
        return None
    minute = scan.number(2)
    if minute is None or minute > 59 or (hour == 24 and minute > 0):
        return None
    second = milli = 0
    if scan.symbol(":"):
        found = scan.number(2)
        if found is None or found > 59 or (hour == 24 and found > 0):
            return None
        second = found
        if scan.symbol("."):
            digits = scan.peek()
            if scan.number() is None or (hour == 24 and int(digits) > 0):
                return None
            milli = int((digits + "00")[:3])
    return ((hour * 60 + minute) * 60 + second) * 1000 + milli


def _offset_part(scan: _Scanner) -> int | bool | None:
    """The zone: minutes east of UTC, ``None`` when absent, ``False`` when invalid."""
    if scan.peek().lower() == "z":
        scan.next()
        return 0
    sign = scan.peek()
    if sign not in ("+", "-"):
        return None
    scan.next()
    hours = scan.number(2)
    if hours is None or hours > 23 or not scan.symbol(":"):
        return False
    minutes = scan.number(2)
    if minutes is None or minutes > 59:
        return False
    total = hours * 60 + minutes
    return -total if sign == "-" else total


def _local_offset_minutes(utc_ms: float) -> float:
    """The local zone's offset at a UTC instant (V8 asks the same of the system's zone data)."""
    try:
        local = time.localtime(utc_ms / 1000)
    except (OverflowError, OSError, ValueError):
        local = time.localtime()
    return local.tm_gmtoff / 60


def date_parse(text: str) -> float:
    """``Date.parse(text)`` for the ECMAScript date-time format (milliseconds; ``NaN`` else)."""
    scan = _Scanner(text)
    date = _date_part(scan)
    if date is None:
        return NAN
    millis: int | None = None
    offset: int | bool | None = None
    if scan.peek().lower() == "t":
        scan.next()
        millis = _time_part(scan)
        if millis is None:
            return NAN
        offset = _offset_part(scan)
        if offset is False:
            return NAN
    if scan.at != len(scan.tokens):
        return NAN  # V8 would try its legacy parser here: not followed (see above)
    value = float(_days_from_civil(*date) * MS_PER_DAY + (millis or 0))
    if millis is None:
        offset = 0  # a date-only form is UTC
    if offset is None:
        value -= _local_offset_minutes(value) * 60_000
    else:
        value -= int(offset) * 60_000
    return value if abs(value) <= MAX_TIME_MS else NAN
