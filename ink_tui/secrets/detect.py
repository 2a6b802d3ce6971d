"""Finding the secrets in a text: :func:`find_secrets`, and :func:`mask_secrets` to replace them.

A text is read as a person reading it would: its escape sequences looked past (``rg``'s colours
around a token do not hide it), its lines joined where a token was wrapped, and its URL-encoded
and base64 runs decoded and read too. Then the provider rules (:mod:`.rules`: a token's own
shape), the keyed rules (:mod:`.keyed`: ``password: …``) and the placed ones (:mod:`.placed`:
credentials in URLs, command-line flags, XML elements, YAML values under their key) each give
spans of the text; overlapping spans keep the first and longest.

Every :class:`Secret` has a kind, where it is in the text given, and a fingerprint (the first 8
hex digits of the SHA-256 of the secret): the secret itself is kept only to be replaced, never
shown (its ``repr`` leaves it out).
"""

from __future__ import annotations

import base64
import binascii
import bisect
import re
from collections.abc import Callable, Iterator
from typing import Final

from ink_tui.safetext import escape_spans
from ink_tui.secrets.found import Secret, redaction
from ink_tui.secrets.keyed import (
    KEY_CLUES,
    NEVER,
    key_strength,
    keyed_kind,
    keyed_value,
    looks_random,
)
from ink_tui.secrets.placed import flags, keyed_elsewhere, url_credentials
from ink_tui.secrets.rules import RULES, Rule, literal_trie

__all__ = ["KEYED_KINDS", "find_secrets", "mask_secrets"]


_MASK: Final = re.compile(r"\[REDACTED:[a-z0-9\-]+:[0-9a-f]{8}\]")


_SCHEME: Final = r"(?i:bearer|basic|token|digest|bot|apikey)[ \t]+"  # kept: what the value is
# From a word that makes a key secret-named to the value: the key's start is found backwards
# (:func:`_key_start`), which is much faster than a pattern that may start anywhere.
_ASSIGNMENT: Final = re.compile(
    r"(?i:pass|pwd|secret|token|key|auth|cred|sas|_pat(?![a-z])|pat_)[A-Za-z0-9_.\-]*[\"']?[ \t]*"
    r"(?::=|=>|=|:)"
    r"[ \t]*"
    rf"(?:(?P<q>[\"'`])(?:{_SCHEME})?(?P<quoted>[^\"'`\n]{{1,1024}})(?P=q)"
    rf"|(?P<scheme>{_SCHEME})?(?P<bare>[^\s\"'`,;)}}\]]{{1,1024}}))"
)
_KEY_CHAR: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
_KEY_END: Final = re.compile(r"[A-Za-z0-9_.\-]*")
_KEY_CHARS: Final = "A-Za-z0-9_\\-+/="
_WRAP: Final = re.compile(rf"(?<=[{_KEY_CHARS}])\r?\n[ \t]*(?=[{_KEY_CHARS}])")
_PERCENT: Final = re.compile(r"%[0-9A-Fa-f]{2}")
_BASE64_RUN: Final = re.compile(
    r"(?<![A-Za-z0-9+/=_\-])[A-Za-z0-9+/]{24,4096}={0,2}(?![A-Za-z0-9+/=_\-])"
)


KEYED_KINDS: Final = frozenset(
    {"password", "token", "secret", "key", "credential", "database-password", "url-password",
     "basic-auth"}
)  # fmt: skip
"""The kinds a key, a URL or a flag reveals (not a token's own shape)."""


_CLUES: Final = re.compile(literal_trie(sorted({clue for rule in RULES for clue in rule.clues})))
_RULES_BY_CLUE: Final = {
    clue: tuple(rule for rule in RULES if clue in rule.clues)
    for rule in RULES
    for clue in rule.clues
}


_ALWAYS: Final = tuple(rule for rule in RULES if not rule.clues)


def _rules_for(text: str) -> list[Rule]:
    """The provider rules whose clues ``text`` holds (one scan of it), in the rules' order,
    and those with no clue."""
    present = set(_CLUES.findall(text))
    if not present:
        return list(_ALWAYS)
    wanted = {id(rule) for clue in present for rule in _RULES_BY_CLUE[clue]}
    return [rule for rule in RULES if id(rule) in wanted or not rule.clues]


def _provider(text: str) -> Iterator[Secret]:
    for rule in _rules_for(text):
        for match in rule.pattern.finditer(text):
            value = match.group("secret")
            if rule.random and not looks_random(value):
                continue
            yield Secret(rule.kind, match.start("secret"), match.end("secret"), value)


def _key_start(text: str, position: int) -> int:
    """Where the key holding ``position`` starts (its characters run back from there)."""
    while position > 0 and text[position - 1] in _KEY_CHAR:
        position -= 1
    return position


def _assignments(text: str) -> Iterator[Secret]:
    lowered = text.lower()
    if not any(clue in lowered for clue in KEY_CLUES):
        return
    position = 0
    while (match := _ASSIGNMENT.search(text, position)) is not None:
        position = match.start() + 1
        start = _key_start(text, match.start())
        key_end = _KEY_END.match(text, match.start())
        key = text[start : key_end.end() if key_end else match.start()]
        strength = key_strength(key)
        if strength == NEVER:
            continue
        if text.endswith("://", 0, start):
            continue  # a URL's user and password: the URL rule's
        group = "quoted" if match.group("quoted") is not None else "bare"
        value, value_start = match.group(group), match.start(group)
        if group == "bare" and start > 0 and text[start - 1] in "?&#;":
            value = re.split(r"[&#]", value, maxsplit=1)[0]  # a URL's parameter ends at & or #
        if not keyed_value(key, value, quoted=group == "quoted" or bool(match.group("scheme"))):
            continue
        position = match.end()
        yield Secret(keyed_kind(key), value_start, value_start + len(value), value)


def _plain(text: str) -> list[Secret]:
    """The secrets of ``text`` as it is (no decoding, no joining)."""
    return [
        *_provider(text),
        *_assignments(text),
        *keyed_elsewhere(text),
        *url_credentials(text),
        *flags(text),
    ]


def _without(text: str, spans: list[tuple[int, int]]) -> tuple[str, list[int]]:
    """``text`` with ``spans`` cut out, and where each kept character was (plus the end)."""
    kept: list[str] = []
    where: list[int] = []
    position = 0
    for start, end in [*spans, (len(text), len(text))]:
        kept.append(text[position:start])
        where.extend(range(position, start))
        position = end
    where.append(len(text))
    return "".join(kept), where


def _mapped(secrets: list[Secret], where: list[int]) -> list[Secret]:
    """``secrets`` of a text made from another, placed back in the other."""
    return [Secret(s.kind, where[s.start], where[s.end - 1] + 1, s.value) for s in secrets]


def _wrapped(text: str) -> list[Secret]:
    """Tokens cut by a line wrap (an 80-column terminal): the provider rules over the text with
    such breaks joined, keeping what spans a break, and only where each line after a break is
    the token's rest alone (``NAME=value`` on the next line of a ``.env`` is another line, not
    a wrapped token's rest)."""
    joined, where = _without(text, [match.span() for match in _WRAP.finditer(text)])
    found = []
    for secret in _provider(joined):
        if where[secret.end - 1] - where[secret.start] == secret.end - 1 - secret.start:
            continue  # it spans no break
        start, end = where[secret.start], where[secret.end - 1] + 1
        rests = text[start:end].split("\n")[1:]
        if any("=" in rest.strip().rstrip("=") for rest in rests):
            continue
        line_end = text.find("\n", end)
        if text[end : len(text) if line_end < 0 else line_end].strip():
            continue  # the last line goes on after it: not a token's rest alone
        found.append(secret)
    return _mapped(found, where)


def _decoded(text: str, depth: int) -> list[Secret]:
    """Secrets in the URL-encoded form of ``text`` and in its base64 runs, placed on the
    encoded text (a base64 run is one secret: what it decodes to is said by its kind)."""
    found: list[Secret] = []
    if "%" in text and _PERCENT.search(text):
        spans = []
        chars = []
        position = 0
        for match in _PERCENT.finditer(text):
            chars.append(text[position : match.start()])
            spans.append((match.start(), match.end()))
            chars.append(chr(int(match.group()[1:], 16)))
            position = match.end()
        chars.append(text[position:])
        decoded_text = "".join(chars)
        where = _decode_map(text, spans)
        found += _mapped(_search(decoded_text, depth + 1), where)
    for match in _BASE64_RUN.finditer(text):
        run = match.group()
        try:
            raw = base64.b64decode(run + "=" * (-len(run) % 4), validate=True)
            decoded = raw.decode("utf-8")
        except (binascii.Error, ValueError):
            continue
        if not decoded.isprintable() and not all(c.isprintable() or c in "\n\r\t" for c in decoded):
            continue
        inner = _search(decoded, depth + 1)  # (a bare ``user:pass`` is a secret by its key)
        if inner:
            found.append(Secret(inner[0].kind, match.start(), match.end(), run))
    return found


def _decode_map(text: str, spans: list[tuple[int, int]]) -> list[int]:
    """For the text decoded from ``text`` (each of ``spans`` one character): where each
    character of it came from, plus the end."""
    where: list[int] = []
    position = 0
    for start, end in spans:
        where.extend(range(position, start))
        where.append(start)
        position = end
    where.extend(range(position, len(text)))
    where.append(len(text))
    return where


def _search(text: str, depth: int) -> list[Secret]:
    found = _plain(text)
    if "\n" in text:
        found += _wrapped(text)
    if depth == 0:
        found += _decoded(text, depth)
    return found


def find_secrets(text: str) -> list[Secret]:
    """Every secret in ``text``, in order, none overlapping (see the module's text)."""
    spans = escape_spans(text)
    if spans:
        clean, where = _without(text, spans)
        found = _mapped(_search(clean, 0), where)
    else:
        found = _search(text, 0)
    found = [secret for secret in found if "example" not in secret.value.lower()]
    if "[REDACTED:" in text:  # a scrubbed or masked text: its masks are not secrets
        masks = [match.span() for match in _MASK.finditer(text)]
        found = [s for s in found if not any(a < s.end and s.start < b for a, b in masks)]
    # A provider's kind says more than a key's: where they overlap, the provider's wins.
    found.sort(key=lambda s: (s.kind in KEYED_KINDS, s.start, -(s.end - s.start)))
    starts: list[int] = []  # the spans kept, by start (none overlaps another)
    kept: list[Secret] = []
    for secret in found:
        at = bisect.bisect_left(starts, secret.start)
        if at > 0 and kept[at - 1].end > secret.start:
            continue  # the one before reaches into it
        if at < len(kept) and kept[at].start < secret.end:
            continue  # it reaches into the one after
        starts.insert(at, secret.start)
        kept.insert(at, secret)
    return kept


def mask_secrets(
    text: str, replace: Callable[[Secret], str] = redaction
) -> tuple[str, list[Secret]]:
    """``text`` with each secret replaced by ``replace(secret)``, and the secrets."""
    found = find_secrets(text)
    if not found:
        return text, found
    parts: list[str] = []
    position = 0
    for secret in found:
        parts.append(text[position : secret.start])
        parts.append(replace(secret))
        position = secret.end
    parts.append(text[position:])
    return "".join(parts), found
