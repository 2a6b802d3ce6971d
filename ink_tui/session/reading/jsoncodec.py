"""JSON exactly as Ink reads and writes it.

Reading: Ink uses JavaScript's ``JSON.parse``. orjson agrees with it on almost every line and is
fast; where orjson refuses something ``JSON.parse`` accepts (``1e400``, lone surrogate escapes such
as ``\\ud83d``, invalid UTF-8 that Node decodes to U+FFFD, integers of any length), we fall back to
the standard library, which is told to refuse the ``NaN``/``Infinity`` tokens that ``JSON.parse``
refuses and to read integers past 64 bits as doubles, as orjson does.

Writing: Ink uses ``JSON.stringify``: compact, keys in insertion order, non-ASCII left raw (U+2028
and U+2029 included), control characters escaped, lone surrogates escaped as ``\\udXXX``, numbers
in JavaScript's shortest form (``1`` not ``1.0``, ``1e+21`` not ``1e21``), and non-finite numbers as
``null``.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from typing import Any

import orjson

from ink_tui.session.reading.jsondeep import loads_deep

__all__ = ["INDENT_DEPTH", "JsonDecodeError", "decode_line", "encode_json", "js_number"]


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
        return json.loads(text, parse_constant=_refuse_constant, parse_int=_js_int)
    except json.JSONDecodeError as exc:
        raise JsonDecodeError(str(exc)) from None
    except ValueError as exc:  # NaN / Infinity, refused by JSON.parse
        raise JsonDecodeError(str(exc)) from None
    except RecursionError:  # deeper than a recursive parser goes; JSON.parse is iterative
        pass
    try:
        return loads_deep(text, parse_int=_js_int)
    except json.JSONDecodeError as exc:
        raise JsonDecodeError(str(exc)) from None


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
_ORJSON_DEPTH = 254  # orjson.dumps refuses deeper nesting
INDENT_DEPTH = 2_000  # deeper values are written compact even when indented output is asked for
_END: Any = object()


def _js_int(text: str) -> int | float:
    """An integer literal as orjson reads it: exact from -2**63 to 2**64 - 1, else the nearest
    double (``Infinity`` past the doubles), as ``JSON.parse`` holds it. ``int(text)`` would
    refuse more than 4,300 digits, which ``JSON.parse`` accepts."""
    if len(text) <= 21:  # a sign and 20 digits
        value = int(text)
        if -_INT64 <= value < 2 * _INT64:
            return value
    return float(text)


def _number(value: int | float) -> str:
    """A number as ``JSON.stringify`` writes it."""
    if isinstance(value, int) and -_INT64 <= value < _INT64:
        return str(value)
    try:
        return js_number(float(value))
    except OverflowError:  # an integer past the doubles: Infinity in JS
        return "null"


def _prepare(value: Any) -> Any:
    """Rewrite the numbers orjson would print differently from JSON.stringify."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, float) or (isinstance(value, int) and not -_INT64 <= value < _INT64):
        return orjson.Fragment(_number(value).encode("ascii"))
    if isinstance(value, dict):
        return {key: _prepare(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_prepare(item) for item in value]
    return value


def _scan(value: Any) -> tuple[bool, int]:
    """Whether ``value`` holds a number orjson writes differently from JSON.stringify, and how
    deep it nests. Level by level, without recursion: Ink's files may nest deeper than Python's
    stack allows."""
    special = False
    depth = 0
    level: list[Any] = [value]
    while level:
        below: list[Any] = []
        for item in level:
            if isinstance(item, str):
                continue
            if isinstance(item, dict):
                below.extend(item.values())
            elif isinstance(item, list | tuple):
                below.extend(item)
            elif isinstance(item, float):
                special = True
            elif isinstance(item, int) and not isinstance(item, bool):
                special = special or not -_INT64 <= item < _INT64
        if below or any(isinstance(item, dict | list | tuple) for item in level):
            depth += 1
        level = below
    return special, depth


def _string(text: str) -> str:
    """A string as JSON.stringify writes it: lone surrogates as lowercase ``\\udXXX``."""
    encoded = json.dumps(text, ensure_ascii=False)
    if text.isascii():
        return encoded
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", encoded)


def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return _number(value)
    if isinstance(value, str):
        return _string(value)
    raise TypeError(f"Type is not JSON serializable: {type(value).__name__}")


def _stringify(value: Any, *, indent: bool) -> str:
    """``JSON.stringify(value)`` (``(value, null, 2)`` with ``indent``) without recursion: for
    what orjson refuses and JSON.stringify writes (lone surrogates, keys included; nesting deeper
    than orjson's 255 levels, which ``JSON.parse`` and orjson read up to 1,024)."""
    out: list[str] = []
    frames: list[tuple[Iterator[tuple[str | None, Any]], str]] = []
    empty: list[bool] = []
    current = value
    while True:
        if isinstance(current, dict):
            out.append("{")
            frames.append((iter(current.items()), "}"))
            empty.append(True)
        elif isinstance(current, list | tuple):
            out.append("[")
            frames.append((((None, item) for item in current), "]"))
            empty.append(True)
        else:
            out.append(_scalar(current))
        while frames:
            items, closing = frames[-1]
            step = next(items, _END)
            if step is _END:
                frames.pop()
                if not empty.pop() and indent:
                    out.append("\n" + "  " * len(frames))
                out.append(closing)
                continue
            if empty[-1]:
                empty[-1] = False
            else:
                out.append(",")
            if indent:
                out.append("\n" + "  " * len(frames))
            key, current = step
            if key is not None:
                if not isinstance(key, str):
                    raise TypeError("Dict key must be str")
                out.append(_string(key) + (": " if indent else ":"))
            break
        else:
            return "".join(out)


def encode_json(value: Any, *, indent: bool = False) -> bytes:
    """Encode ``value`` byte for byte as ``JSON.stringify(value)`` (UTF-8, no newline); with
    ``indent``, as ``JSON.stringify(value, null, 2)``, unless it nests deeper than
    :data:`INDENT_DEPTH` levels (then compact: indenting 100,000 levels writes gigabytes, and
    V8's ``JSON.stringify`` overflows its stack long before). The one JSON encoder of ink-tui:
    the writer, ``--json`` output and the tool arguments shown or sent all use it."""
    special, depth = _scan(value)
    if depth > INDENT_DEPTH:
        indent = False  # each level would indent its whole inside again: quadratic output
    if depth <= _ORJSON_DEPTH:
        prepared = _prepare(value) if special else value
        try:
            return orjson.dumps(prepared, option=orjson.OPT_INDENT_2 if indent else None)
        except TypeError:
            pass  # orjson refuses lone surrogates; JSON.stringify escapes them
    return _stringify(value, indent=indent).encode("utf-8")
