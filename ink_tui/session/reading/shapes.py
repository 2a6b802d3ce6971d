"""Values Ink's ``open()`` does not check, read as Ink's JavaScript reads them.

``open()`` checks a few fields of each record (spec §3); the rest is whatever JSON the file
holds: an assistant message's ``blocks`` may be ``5``, a compaction's ``retainedTail`` may be
missing, a result may be ``null``. Ink's own code then iterates them (``for … of``, spread) and
reads their fields, and JavaScript decides what happens: a string iterates by character, a
number, boolean, object, ``null`` or a missing value throws ``TypeError``, and reading a field of
``null`` throws too.

The view and the command line show such oddities (:func:`describe`, :func:`not_a_list`); the
context and the continuation scan follow JavaScript (:func:`js_items`, the error texts here),
so ink-tui refuses to continue exactly the sessions Ink itself cannot continue.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from ink_tui.session.reading.jsoncodec import encode_json

__all__ = [
    "MISSING",
    "context_oddity",
    "describe",
    "iteration_error",
    "js_items",
    "js_key",
    "list_items",
    "message_oddity",
    "not_a_list",
    "not_an_object",
    "null_read",
    "oddity_refusal",
    "spread_error",
    "unsendable",
]


class _Missing:
    """A key absent from its record (JavaScript's ``undefined``)."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Final = _Missing()
_SHOWN_CHARS: Final = 24


def list_items(value: Any) -> list[Any]:
    """``value`` when it is a list, else no items (what the view and the text outputs read)."""
    return value if isinstance(value, list) else []


def js_items(value: Any) -> list[Any] | None:
    """What ``for (const x of value)`` or ``...value`` visits: a list's items, a string's
    characters; ``None`` when JavaScript throws (a number, boolean, object, null, missing)."""
    if isinstance(value, list):
        return value
    if isinstance(value, str):
        return list(value)
    return None


def describe(value: Any) -> str:
    """A short, visible account of a JSON value: ``5``, ``null``, ``"ab…"`` (a string),
    ``an object``, ``a list``, ``missing``."""
    if value is MISSING:
        return "missing"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        shown = value if len(value) <= _SHOWN_CHARS else value[: _SHOWN_CHARS - 1] + "…"
        return f"a string {encode_json(shown).decode('utf-8')}"
    return encode_json(value).decode("utf-8")


def not_a_list(what: str, value: Any) -> str | None:
    """``"blocks is 5, not a list"`` when ``value`` is not a list, else ``None``."""
    if isinstance(value, list):
        return None
    if value is MISSING:
        return f"no {what}"
    return f"{what} is {describe(value)}, not a list"


def not_an_object(what: str, value: Any) -> str | None:
    """``"block 2 is null, not an object"`` when ``value`` is not an object, else ``None``."""
    return None if isinstance(value, dict) else f"{what} is {describe(value)}, not an object"


def iteration_error(expression: str, value: Any) -> str:
    """V8's ``TypeError`` text for ``for (const x of expression)`` over ``value`` (Node 20)."""
    del value  # any non-iterable gives the same text
    return f"{expression} is not iterable"


def spread_error(expression: str, value: Any) -> str:
    """V8's ``TypeError`` text for a call's ``...expression`` over ``value`` (Node 20)."""
    if value is MISSING or value is None:
        which = "undefined" if value is MISSING else "null"
        return f"{expression} is not iterable (cannot read property {which})"
    return "Spread syntax requires ...iterable[Symbol.iterator] to be a function"


def null_read(field: str) -> str:
    """V8's ``TypeError`` text for reading ``field`` of ``null``."""
    return f"Cannot read properties of null (reading '{field}')"


def js_key(value: Any) -> str:
    """A key that equals another exactly when JavaScript's ``Set`` would find the two values
    equal: a string is itself; ``5`` and ``"5"`` differ; two objects never equal (each gets a
    key of its own by identity)."""
    if isinstance(value, str):
        return value
    if value is MISSING:
        return "\x00undefined"
    if isinstance(value, dict | list):
        return f"\x00object@{id(value)}"
    return "\x00" + encode_json(value).decode("utf-8")


_LISTED: Final = {"assistant": ("blocks", "block"), "toolResult": ("results", "result")}


def context_oddity(messages: Iterable[object]) -> str | None:
    """The first shape in a built context that cannot be sent as a conversation (a message that
    is not an object, ``blocks`` or ``results`` that is not a list of objects), said in words;
    ``None`` when every message has the shape Ink writes."""
    for index, message in enumerate(messages):
        odd = message_oddity(index, message)
        if odd is not None:
            return odd
    return None


def message_oddity(index: int, message: object) -> str | None:
    """:func:`context_oddity` of the context's message ``index`` alone."""
    if not isinstance(message, dict):
        return f"message {index}: {not_an_object('it', message)}"
    role = message.get("role", MISSING)
    if not isinstance(role, str):
        shown = "missing" if role is MISSING else describe(role)
        return f"message {index}: its role is {shown}, not a string"
    listed = _LISTED.get(role)
    if listed is None:
        return None
    field, one = listed
    value = message.get(field, MISSING)
    odd = not_a_list(field, value)
    if odd is not None:
        return f"message {index}: {odd}"
    for number, item in enumerate(value):
        odd = not_an_object(f"{one} {number}", item)
        if odd is not None:
            return f"message {index}: {odd}"
    return None


def unsendable(messages: Iterable[object]) -> str | None:
    """Why a context cannot be continued because of its shapes (:func:`context_oddity`), as a
    refusal; ``None`` when it can. Ink's scan passes such a context, but no model request can
    carry it as the file holds it: ink-tui does not guess, and continues nothing."""
    return oddity_refusal(context_oddity(messages))


def oddity_refusal(odd: str | None) -> str | None:
    """:func:`unsendable`'s refusal for an oddity :func:`context_oddity` found (or ``None``)."""
    if odd is None:
        return None
    return (
        f"the context holds a shape no model request can carry ({odd}) — the transcript is not "
        "continuable as it is (start a new task instead)"
    )
