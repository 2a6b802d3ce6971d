"""JavaScript's number formatting, as Ink prints figures: ``formatTokens`` (``format.ts`` of
0.2.0), ``Number.prototype.toFixed`` and ``Math.round``. They round exact halves up (``toFixed``:
the exact binary value, a tie away from zero; ``Math.round``: toward +∞), where Python's
``round`` and ``format`` round half to even: ``1250`` tokens are ``1.3k`` to Ink.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

from ink_tui.session.reading.jsoncodec import js_number

__all__ = ["format_tokens", "js_round", "js_string", "js_to_fixed"]

Number = int | float


def js_round(value: float) -> int:
    """``Math.round``: the nearest integer, an exact half toward +∞ (Python's ``round`` goes
    to even)."""
    floor = math.floor(value)
    return floor + 1 if value - floor >= 0.5 else floor


def js_to_fixed(value: float, digits: int) -> str:
    """``Number.prototype.toFixed``: the exact binary value rounded to ``digits`` decimals, an
    exact half away from zero (Python's ``format`` goes to even)."""
    if not math.isfinite(value) or abs(value) >= 1e21:
        return js_string(value)
    exact = Decimal(abs(value)).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    return f"{'-' if value < 0 else ''}{exact:.{digits}f}"


def js_string(value: Number) -> str:
    """``String(n)``: ``NaN``, ``Infinity`` and ``-Infinity`` spelt out, every other number as
    ``Number.prototype.toString`` writes it (:func:`~ink_tui.session.reading.jsoncodec.js_number`:
    ``1e-7``, ``0.000001``, ``1e+21``)."""
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return js_number(value)


def format_tokens(n: Number) -> str:
    """Ink's ``formatTokens``: ``999``, ``1.0k``, ``12k``, ``1.1M``, ``12M`` (JavaScript's
    rounding: ``1250`` is ``1.3k``, ``999500`` is ``1000k``)."""
    if n < 1000:
        return js_string(n)
    if n < 10_000:
        return f"{js_to_fixed(n / 1000, 1)}k"
    if n < 1_000_000:
        return f"{js_round(n / 1000)}k"
    if n < 10_000_000:
        return f"{js_to_fixed(n / 1_000_000, 1)}M"
    return f"{js_round(n / 1_000_000)}M"
