"""JSON exactly as Ink reads and writes it.

Reading: Ink uses JavaScript's ``JSON.parse``. orjson agrees with it on almost every line and is
fast; where orjson refuses something ``JSON.parse`` accepts (``1e400``, lone surrogate escapes such
as ``\\ud83d``, invalid UTF-8 that Node decodes to U+FFFD), we fall back to the standard library,
which is told to refuse the ``NaN``/``Infinity`` tokens that ``JSON.parse`` refuses.

Writing: Ink uses ``JSON.stringify``: compact, keys in insertion order, non-ASCII left raw (U+2028
and U+2029 included), control characters escaped, lone surrogates escaped as ``\\udXXX``, numbers
in JavaScript's shortest form (``1`` not ``1.0``, ``1e+21`` not ``1e21``), and non-finite numbers as
``null``.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import orjson

__all__ = ["JsonDecodeError", "decode_line", "encode_json", "js_number"]


class JsonDecodeError(ValueError):
    """A line is not JSON to ``JSON.parse``. ``reason`` is the standard library's wording."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"Expecting value: {name} is not JSON")


def decode_line(raw: bytes) -> Any:
    """Parse a line as ``JSON.parse`` would; :class:`JsonDecodeError` where it would fail."""
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        pass
    # Node decodes the file as UTF-8 with replacement characters before parsing.
    text = raw.decode("utf-8", errors="replace")
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise JsonDecodeError(str(exc)) from None
    except ValueError as exc:  # NaN / Infinity, refused by JSON.parse
        raise JsonDecodeError(str(exc)) from None
    except RecursionError:
        raise JsonDecodeError("nesting too deep") from None


def js_number(value: float) -> str:
    """Format a number as JavaScript's ``Number.prototype.toString`` (inside JSON)."""
    if not math.isfinite(value):
        return "null"  # JSON.stringify(Infinity) === "null"
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    mantissa, _, exp_text = repr(abs(value)).partition("e")
    int_part, _, frac_part = mantissa.partition(".")
    digits = (int_part + frac_part).lstrip("0")
    # value == 0.<digits> * 10**point
    point = len(int_part) + (int(exp_text) if exp_text else 0)
    if int_part == "0":
        stripped = frac_part.lstrip("0")
        point = -(len(frac_part) - len(stripped)) + (int(exp_text) if exp_text else 0)
    digits = digits.rstrip("0") or "0"
    k = len(digits)
    if k <= point <= 21:
        return sign + digits + "0" * (point - k)
    if 0 < point <= 21:
        return sign + digits[:point] + "." + digits[point:]
    if -6 < point <= 0:
        return sign + "0." + "0" * (-point) + digits
    exponent = point - 1
    head = digits[0] + ("." + digits[1:] if k > 1 else "")
    return f"{sign}{head}e{'+' if exponent >= 0 else '-'}{abs(exponent)}"


_SURROGATE = re.compile("[\ud800-\udfff]")
_INT64 = 2**63


def _escape_lone_surrogates(text: str) -> orjson.Fragment:
    encoded = json.dumps(text, ensure_ascii=False)
    encoded = _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", encoded)
    return orjson.Fragment(encoded.encode("utf-8"))


def _prepare(value: Any, *, surrogates: bool) -> Any:
    """Rewrite what orjson would print differently from JSON.stringify."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, float):
        return orjson.Fragment(js_number(value).encode("ascii"))
    if isinstance(value, int):
        if -_INT64 <= value < _INT64:
            return value
        return orjson.Fragment(js_number(float(value)).encode("ascii"))
    if isinstance(value, str):
        if surrogates and not value.isascii() and _SURROGATE.search(value):
            return _escape_lone_surrogates(value)
        return value
    if isinstance(value, dict):
        for key in value:
            if surrogates and isinstance(key, str) and _SURROGATE.search(key):
                raise ValueError("a JSON key holds a lone surrogate; ink-tui does not write those")
        return {key: _prepare(item, surrogates=surrogates) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_prepare(item, surrogates=surrogates) for item in value]
    return value


def _has_special_number(value: Any) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, int) and not isinstance(value, bool):
        return not -_INT64 <= value < _INT64
    if isinstance(value, dict):
        return any(_has_special_number(item) for item in value.values())
    if isinstance(value, list | tuple):
        return any(_has_special_number(item) for item in value)
    return False


def encode_json(value: Any) -> bytes:
    """Encode ``value`` byte for byte as ``JSON.stringify(value)`` (UTF-8, no newline)."""
    prepared = _prepare(value, surrogates=False) if _has_special_number(value) else value
    try:
        return orjson.dumps(prepared)
    except TypeError:
        # orjson refuses strings holding lone surrogates; JS escapes them.
        return orjson.dumps(_prepare(value, surrogates=True))
