"""The cheap look first: which lines of a session file (JSON, as the file holds them) may hold a
secret at all, so an audit parses and walks only those.

A few patterns run over the whole file's bytes, each in one pass: the provider rules' clues
(one pattern, their common starts shared), the rules with no clue, a secret-named key before
``:`` or ``=`` (inside a string or as a JSON key), credentials in a URL, URL encoding, a long
base64 run. Ink's own keys that only look secret-named (``inputTokens``, ``tokensBefore``…),
keys that are never secret (``path``, ``test_auth.py``) and base64 runs that do not decode to
text (a thinking signature, an image, a hex id) are passed over. A line the gate lets through
is read in full by the detector, so the gate may say yes too often, never too rarely: every
planted secret's line passes it (tested).
"""

from __future__ import annotations

import base64
import binascii
import bisect
import re
from typing import Final

from ink_tui.secrets.keyed import NEVER, key_strength
from ink_tui.secrets.rules import RULES, literal_trie

__all__ = ["lines_that_may_hold_secrets", "may_hold_secret"]

_FLAG_WORDS: Final = [
    *("curl", "mysql", "mariadb", "sshpass", "docker", "podman", "helm"),
    *(f"--{flag}" for flag in ("password", "passwd", "pass", "token", "api-key", "apikey")),
    *(f"--{flag}" for flag in ("secret", "client-secret", "access-token", "auth-token")),
    *(f"--{flag}" for flag in ("private-key", "db-password")),
]  # the command-line flags the detector reads (``detect._FLAGS``)
_PASSES: Final = (
    re.compile(literal_trie(sorted({clue for rule in RULES for clue in rule.clues})).encode()),
    re.compile(rb"[MNO][A-Za-z0-9_\-]{23,25}\.[A-Za-z0-9_\-]{6}\."),  # a Discord bot token
    re.compile(rb"://[^\s\"/@]{1,512}@"),
    re.compile(rb"%[0-9A-Fa-f]{2}"),
    re.compile(literal_trie(_FLAG_WORDS).encode()),
)
_KEYED: Final = re.compile(  # over the lower-cased bytes (the same offsets): much faster
    rb"(?:pass|pwd|secret|token|key|auth|cred|sas|_pat(?![a-z])|pat_)[a-z0-9_.\-]*"
    rb"(?=(?:\\?[\"'])?[ \t]*(?::=|=>|=|:))"
)
_BASE64: Final = re.compile(rb"[A-Za-z0-9+/]{24,}")
_INK_KEYS: Final = frozenset(
    {b"inputTokens", b"outputTokens", b"cacheReadTokens", b"cacheWriteTokens", b"totalTokens",
     b"tokensBefore", b"reasoningTokens", b"thinkingTokens", b"cachedTokens", b"maxTokens",
     b"contextTokens", b"promptTokens", b"completionTokens", b"toolCallId", b"keys"}
)  # fmt: skip
_KEY_BYTES: Final = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")


def _secret_key(data: bytes, start: int, end: int) -> bool:
    """Whether the key ending at ``end`` (found from ``start`` back) may name a secret."""
    while start > 0 and data[start - 1] in _KEY_BYTES:
        start -= 1
    key = data[start:end]
    return key not in _INK_KEYS and key_strength(key.decode("ascii")) != NEVER


def _text_base64(run: bytes) -> bool:
    """A base64 run whose start decodes to text (an encoded secret may be in it)."""
    if not (
        any(65 <= c <= 90 for c in run)
        and any(97 <= c <= 122 for c in run)
        and any(48 <= c <= 57 for c in run)
    ):
        return False
    try:
        decoded = base64.b64decode(run[: min(64, len(run) // 4 * 4)], validate=True)
    except binascii.Error:
        return False
    return all(32 <= byte < 127 or byte in (9, 10, 13) for byte in decoded)


def _places(data: bytes) -> list[int]:
    """Where in ``data`` a secret may start."""
    places = [match.start() for pattern in _PASSES for match in pattern.finditer(data)]
    lowered = data.lower()  # ASCII letters only: every offset stays
    places += [m.start() for m in _KEYED.finditer(lowered) if _secret_key(data, m.start(), m.end())]
    places += [m.start() for m in _BASE64.finditer(data) if _text_base64(m.group())]
    return places


def lines_that_may_hold_secrets(data: bytes) -> set[int]:
    """The indexes (from 0) of the lines of ``data`` that may hold a secret."""
    places = _places(data)
    if not places:
        return set()
    starts = [0] + [match.end() for match in re.finditer(rb"\n", data)]
    return {bisect.bisect_right(starts, place) - 1 for place in places}


def may_hold_secret(line: bytes) -> bool:
    """Whether the one raw line ``line`` may hold a secret."""
    return bool(_places(line))
