"""``JSON.parse`` for lines nested deeper than a recursive parser can go.

V8's ``JSON.parse`` is iterative: Ink reads a record nested 100,000 levels deep. orjson stops at
1,024 levels and the standard library's parser recurses until Python's recursion limit, so
:func:`ink_tui.session.reading.jsoncodec.decode_line` falls back to this parser for such lines. It
keeps its containers on an explicit stack and agrees with the standard library everywhere else:
strings through its own ``scanstring`` (lone surrogates kept, raw control characters refused),
integers and floats through the same hooks.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, Final, cast

__all__ = ["loads_deep"]

# One token after optional whitespace: a structural character, a string's opening quote, a
# number (its fraction and exponent captured: either makes it a float), or a literal.
_TOKEN: Final = re.compile(
    r'[ \t\n\r]*([{}\[\],:"]|-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?|true|false|null)?'
)
_LITERALS: Final[dict[str, bool | None]] = {"true": True, "false": False, "null": None}
# The standard library's string scanner (C when available): escapes, lone surrogates, and raw
# control characters refused, exactly as json.loads reads strings. Not in the type stubs.
_scanstring: Final = cast(
    Callable[[str, int, bool], tuple[str, int]],
    json.decoder.scanstring,  # type: ignore[attr-defined]
)

Container = dict[str, Any] | list[Any]


def _error(what: str, text: str, pos: int) -> json.JSONDecodeError:
    return json.JSONDecodeError(what, text, pos)


def _key(text: str, pos: int) -> tuple[str, int]:
    """A member's name and its colon from ``pos``; returns the name and where its value starts."""
    match = _TOKEN.match(text, pos)
    assert match is not None  # every part of the pattern is optional
    if match.group(1) != '"':
        raise _error("Expecting property name enclosed in double quotes", text, match.end())
    key, pos = _scanstring(text, match.end(), True)
    match = _TOKEN.match(text, pos)
    assert match is not None
    if match.group(1) != ":":
        raise _error("Expecting ':' delimiter", text, match.end())
    return key, match.end()


def loads_deep(text: str, *, parse_int: Callable[[str], Any] = int) -> Any:
    """Parse ``text`` as ``json.loads`` would, at any depth. Raises ``json.JSONDecodeError``.

    Two stacks stand for the recursion: the open containers, and for each the key its next
    value goes to (``None`` for a list)."""
    token = _TOKEN.match
    containers: list[Container] = []
    keys: list[str | None] = []
    pos = 0
    while True:
        match = token(text, pos)
        assert match is not None
        found, pos = match.group(1), match.end()
        value: Any
        if found is None:
            raise _error("Expecting value", text, pos)
        if found == "{" or found == "[":
            ahead = token(text, pos)
            assert ahead is not None
            if ahead.group(1) == ("}" if found == "{" else "]"):
                value, pos = ({} if found == "{" else []), ahead.end()
            else:
                if found == "{":
                    key, pos = _key(text, pos)
                    containers.append({})
                    keys.append(key)
                else:
                    containers.append([])
                    keys.append(None)
                continue
        elif found == '"':
            value, pos = _scanstring(text, pos, True)
        elif found in _LITERALS:
            value = _LITERALS[found]
        elif found[0] in "-0123456789":
            value = float(found) if match.group(2) or match.group(3) else parse_int(found)
        else:
            raise _error("Expecting value", text, match.start(1))
        while True:  # put the value in its container; close the containers that end here
            if not containers:
                end = token(text, pos)
                assert end is not None
                if end.group(1) is not None or end.end() != len(text):
                    raise _error("Extra data", text, end.start(1) if end.group(1) else pos)
                return value
            holder, slot = containers[-1], keys[-1]
            if isinstance(holder, list):
                holder.append(value)
            else:
                holder[cast(str, slot)] = value
            match = token(text, pos)
            assert match is not None
            found, pos = match.group(1), match.end()
            if found == ",":
                if slot is not None:
                    keys[-1], pos = _key(text, pos)
                break
            if found != ("]" if slot is None else "}"):
                raise _error("Expecting ',' delimiter", text, pos)
            containers.pop()
            keys.pop()
            value = holder
