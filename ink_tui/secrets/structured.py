"""Secrets in JSON values (a record, a tool call's arguments), each with where it is.

A value is walked as a tree: every string is read as text (:func:`~.detect.find_secrets`), and
a string under a secret-named key is a secret in itself (``{"auth": {"password": "…"}}``,
``{"headers": {"X-Api-Key": "…"}}``), whatever it looks like, unless it is a placeholder (see
:mod:`.keyed`). An image's base64 ``data`` is never read. Each finding names its field as a
path: ``message.blocks[0].arguments.headers.X-Api-Key``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any, Final

from ink_tui.secrets.detect import find_secrets
from ink_tui.secrets.found import Secret, redaction
from ink_tui.secrets.gate import may_hold_secret
from ink_tui.secrets.keyed import keyed_kind, keyed_value

__all__ = ["Finding", "find_in_value", "mask_value", "secrets_in"]


CONTEXT_BEFORE: Final = 24  # characters of context before a finding's mask (kept in sight)
CONTEXT_AFTER: Final = 40  # and after it


@dataclass(frozen=True, slots=True)
class Finding:
    """A secret in a JSON value: the field path and the secret (its span in that string)."""

    field: str
    secret: Secret
    text: str = dataclass_field(default="", repr=False, compare=False)  # the string it is in
    key: str | int = dataclass_field(default="", repr=False, compare=False)  # that string's key

    def context(self, before: int = CONTEXT_BEFORE, after: int = CONTEXT_AFTER) -> str:
        """The string around the secret, every secret in it masked, cut to ``before``
        characters before this one's mask and ``after`` after it (``…`` where cut): what a
        person may be shown (the mask near the start, so a narrow line still shows it)."""
        masked: list[str] = []
        at = length = 0
        position = 0
        for secret in _found(self.text, self.key):
            masked.append(self.text[position : secret.start])
            mask = redaction(secret)
            if secret.start == self.secret.start:
                at, length = sum(map(len, masked)), len(mask)
            masked.append(mask)
            position = secret.end
        masked.append(self.text[position:])
        whole = "".join(masked)
        start, end = max(0, at - before), min(len(whole), at + length + after)
        return ("…" if start else "") + whole[start:end] + ("…" if end < len(whole) else "")


def _child(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def _keyed(key: str | int, text: str) -> Secret | None:
    """The whole string ``text`` as a secret, when its key says it is one."""
    if not isinstance(key, str):
        return None
    if not keyed_value(key, text, quoted=True):
        return None
    value = text.strip()
    start = text.index(value)
    return Secret(keyed_kind(key), start, start + len(value), value)


def _strings(value: Any, path: str, key: str | int) -> Iterator[tuple[str, str | int, str]]:
    """Every string in ``value`` with its path and the key it sits under (an image's data
    left out), in order. Walked with a stack of its own: a session may nest a value 100,000
    deep, past Python's recursion limit."""
    stack: list[tuple[Any, str, str | int]] = [(value, path, key)]
    while stack:
        value, path, key = stack.pop()
        if isinstance(value, str):
            yield path, key, value
        elif isinstance(value, list):
            stack.extend(
                (item, _child(path, n), key) for n, item in reversed(list(enumerate(value)))
            )
        elif isinstance(value, dict):
            image = value.get("type") == "image"
            stack.extend(
                (item, _child(path, name), name)
                for name, item in reversed(value.items())
                if not (image and name == "data")
            )


def _found(text: str, key: str | int) -> list[Secret]:
    # The cheap look first: most strings hold no clue of a secret, and the gate says so in a
    # few microseconds where the detector takes tens (it never hides one: tested).
    found = find_secrets(text) if may_hold_secret(text.encode("utf-8", "surrogatepass")) else []
    if found:
        return found
    whole = _keyed(key, text)
    return [] if whole is None else [whole]


def secrets_in(text: str, key: str | int = "") -> list[Secret]:
    """The secrets of one string that sits under ``key`` (the whole string, when the key makes
    it one and nothing in it is found otherwise)."""
    return _found(text, key)


def find_in_value(value: Any, path: str = "") -> list[Finding]:
    """Every secret in the JSON ``value``, with its field path (see the module's text)."""
    return [
        Finding(where, secret, text, key)
        for where, key, text in _strings(value, path, "")
        for secret in _found(text, key)
    ]


def _masked_string(text: str, key: str | int, replace: Callable[[Secret], str]) -> tuple[str, int]:
    found = _found(text, key)
    if not found:
        return text, 0
    parts: list[str] = []
    position = 0
    for secret in found:
        parts += [text[position : secret.start], replace(secret)]
        position = secret.end
    parts.append(text[position:])
    return "".join(parts), len(found)


def mask_value(
    value: Any, replace: Callable[[Secret], str] = redaction, key: str | int = ""
) -> tuple[Any, int]:
    """``value`` with every secret in its strings replaced (a copy; keys in their order, an
    image's data as it is), and how many were. Walked with a stack of its own, as
    :func:`_strings`."""
    root: list[Any] = [None]
    total = 0
    stack: list[tuple[Any, Any, int | str, str | int]] = [(value, root, 0, key)]
    while stack:
        value, into, slot, key = stack.pop()
        if isinstance(value, str):
            into[slot], count = _masked_string(value, key, replace)
            total += count
        elif isinstance(value, list):
            items: list[Any] = [None] * len(value)
            into[slot] = items
            stack.extend((item, items, n, key) for n, item in enumerate(value))
        elif isinstance(value, dict):
            image = value.get("type") == "image"
            masked: dict[str, Any] = dict.fromkeys(value)  # the keys in their order
            into[slot] = masked
            for name, item in value.items():
                if image and name == "data":
                    masked[name] = item
                else:
                    stack.append((item, masked, name, name))
        else:
            into[slot] = value
    return root[0], total
