"""The cheap look first: which lines of a session file (JSON, as the file holds them) may hold a
secret at all, so an audit parses and walks only those.

One Aho-Corasick automaton (``ahocorasick_rs``: every word at once, hundreds of MB a second)
finds the provider rules' clues, the same clues as base64 would spell them (a secret encoded
whole: ``echo … | base64 -d``, a kubeconfig's key data) and the command-line words the detector
reads; a second one finds, over the lower-cased bytes, the words that make a key secret-named,
each then kept only if a ``:`` or ``=`` follows its key and the key may name a secret (not
``path``; Ink's own ``"inputTokens":`` and the like are matched whole by the automaton and so
never even reach that check). A few patterns with a literal start cover the rest: a
Discord bot token, credentials in a URL, URL encoding. A line the gate lets through is read in
full by the detector, so the gate may say yes too often, never too rarely: every planted
secret's line passes it (tested).
"""

from __future__ import annotations

import base64
import bisect
import re
from typing import Final

from ahocorasick_rs import MATCHKIND_LEFTMOST_LONGEST, BytesAhoCorasick, Implementation

from ink_tui.secrets.keyed import NEVER, key_strength
from ink_tui.secrets.rules import RULES

__all__ = ["lines_that_may_hold_secrets", "may_hold_secret"]

_FLAG_WORDS: Final = (
    "curl", "mysql", "mariadb", "sshpass", "docker", "podman", "helm", "--password", "--passwd",
    "--pass", "--token", "--api-key", "--apikey", "--secret", "--client-secret",
    "--access-token", "--auth-token", "--private-key", "--db-password",
)  # fmt: skip  # the command-line flags the detector reads (``placed._FLAGS``)
_KEY_WORDS: Final = (b"pass", b"pwd", b"secret", b"token", b"key", b"auth", b"cred", b"sas",
                     b"_pat", b"pat_")  # fmt: skip


def _base64_forms(word: bytes) -> list[bytes]:
    """How base64 spells ``word`` wherever it starts (three ways: its place modulo 3), each
    cut to the characters that depend on ``word`` alone."""
    forms = []
    for offset in range(3):
        encoded = base64.b64encode(b"\0" * offset + word + b"\0\0")
        first = -(-8 * offset // 6)  # ceil
        last = 8 * (offset + len(word)) // 6  # exclusive
        form = encoded[first:last]
        if len(form) >= 5:
            forms.append(form)
    return forms


def _words() -> list[bytes]:
    clues = {clue.encode() for rule in RULES for clue in rule.clues}
    encoded = {form for clue in clues if len(clue) >= 4 for form in _base64_forms(clue)}
    return sorted(clues | encoded | {word.encode() for word in _FLAG_WORDS})


_INK_KEYS: Final = frozenset(
    {b"inputTokens", b"outputTokens", b"cacheReadTokens", b"cacheWriteTokens", b"totalTokens",
     b"tokensBefore", b"reasoningTokens", b"thinkingTokens", b"cachedTokens", b"maxTokens",
     b"contextTokens", b"promptTokens", b"completionTokens", b"toolCallId", b"keys"}
)  # fmt: skip
# Ink's own keys as a record holds them (``"inputTokens":``), lower-cased: matched whole
# (leftmost, longest), the key word inside each is never reported (there are millions of them).
_INK_FORMS: Final = [b'"' + key.lower() + b'":' for key in sorted(_INK_KEYS)]
# A DFA: built once at import (~1 ms), it reads 1.7 times as fast as the default NFA (the
# bench tree's 132 MB: 0.42 -> 0.24 s for the clues).
_WORDS: Final = BytesAhoCorasick(_words(), implementation=Implementation.DFA)
_KEYS: Final = BytesAhoCorasick(
    [*_KEY_WORDS, *_INK_FORMS],
    matchkind=MATCHKIND_LEFTMOST_LONGEST,
    implementation=Implementation.DFA,
)
_KEY_AFTER: Final = re.compile(rb"[a-z0-9_.\-]*(?:\\?[\"'])?(?:[ \t]|\\t)*(?::=|=>|=|:|>)")
_PATTERNS: Final = (
    re.compile(rb"\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27}"),  # a Discord bot token's middle
    re.compile(rb"://[^\s\"/@]{1,512}@"),
    re.compile(rb"%[0-9A-Fa-f]{2}"),
    re.compile(rb"machine\s+\S+\s+login\s+\S+\s+password\s"),  # a .netrc line
)
_KEY_BYTES: Final = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")


def _secret_key(data: bytes, start: int, end: int) -> bool:
    """Whether the key around ``data[start:end]`` may name a secret."""
    while start > 0 and data[start - 1] in _KEY_BYTES:
        start -= 1
    while end < len(data) and data[end] in _KEY_BYTES:
        end += 1
    key = data[start:end]
    return key not in _INK_KEYS and key_strength(key.decode("ascii")) != NEVER


def _places(data: bytes) -> list[int]:
    """Where in ``data`` a secret may start."""
    places = [start for _, start, _ in _WORDS.find_matches_as_indexes(data)]
    lowered = data.lower()  # ASCII letters only: every offset stays
    words = len(_KEY_WORDS)
    for index, start, end in _KEYS.find_matches_as_indexes(lowered):
        if index < words and _KEY_AFTER.match(lowered, end) and _secret_key(data, start, end):
            places.append(start)
    places += [match.start() for pattern in _PATTERNS for match in pattern.finditer(data)]
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
