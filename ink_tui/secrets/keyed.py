"""Secrets that their key reveals: ``password: hunter2``, ``"client_secret": "…"``,
``db_password=…``, ``--password X``, ``curl -u user:pw``, ``postgres://user:pw@host``.

A key is read by its words (``aws_secret_access_key``, ``SecretAccessKey``, ``X-Api-Key`` and
``_authToken`` split alike): :func:`key_strength` says whether its value is a secret whatever it
looks like (``password``, ``client secret``, ``access token``: :data:`STRONG`), only when it
looks random (a key named ``…key`` with no telling word: :data:`WEAK`), or never
(``sort_key``, ``public_key``, ``max_tokens``, ``password_file``). :func:`secret_value` then
turns away what is not a value at all: placeholders (``$API_KEY``, ``<your key>``, ``***``,
``changeme``), references and code (``os.environ["X"]``, ``settings.API_KEY``, a bare name such
as ``password=password``), paths (``SSH_KEY=~/.ssh/id.pub``), types (``password: str``).
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from typing import Final, Literal

__all__ = [
    "KEY_CLUES",
    "NEVER",
    "STRONG",
    "WEAK",
    "Strength",
    "key_strength",
    "key_words",
    "keyed_kind",
    "keyed_value",
    "looks_random",
    "secret_value",
]

Strength = Literal["strong", "weak", "never"]
STRONG: Final = "strong"
WEAK: Final = "weak"
NEVER: Final = "never"

# The last word (or two, or three) of a key whose value is a secret, whatever it looks like.
_STRONG_LAST: Final = frozenset(
    {"password", "passwd", "pwd", "passphrase", "passcode", "secret", "token", "credential",
     "credentials", "apikey", "sas", "authtoken", "pat", "pw"}
)  # fmt: skip
_STRONG_PAIRS: Final = frozenset(
    {("api", "key"), ("access", "key"), ("secret", "key"), ("private", "key"),
     ("client", "secret"), ("auth", "token"), ("access", "token"), ("refresh", "token"),
     ("account", "key"), ("master", "key"), ("encryption", "key"), ("signing", "key"),
     ("api", "token"), ("bearer", "token"), ("session", "token"), ("id", "token"),
     ("app", "secret"), ("webhook", "secret"), ("license", "key"), ("service", "key"),
     ("db", "pass"), ("key", "data"), ("sas", "token"), ("admin", "key"), ("deploy", "key"),
     ("shared", "key"), ("auth", "key"), ("consumer", "secret"), ("consumer", "key"),
     ("access", "secret"), ("signing", "secret"), ("x", "auth"), ("proxy", "authorization")}
)  # fmt: skip
# Keys that are secrets by their whole name (``auth`` in a Docker config, npm's ``_auth``).
_STRONG_NAMES: Final = frozenset({"auth", "authorization", "pass", "passw", "secretkey"})
# A key ending in one of these names something about a secret, not the secret.
_NOT_SECRET_LAST: Final = frozenset(
    {"file", "files", "path", "dir", "name", "names", "id", "ids", "type", "types", "url",
     "uri", "length", "len", "size", "count", "limit", "limits", "env", "var", "field",
     "fields", "header", "prefix", "suffix", "hint", "policy", "expiry", "expires", "expiration",
     "ttl", "timeout", "format", "label", "placeholder", "required", "enabled", "min", "max",
     "tokens", "keys", "secrets", "passwords", "hash", "hashed", "digest", "salt", "regex",
     "pattern", "version", "algorithm", "alg", "location", "store", "provider", "manager",
     "mode", "source", "reset", "rotation", "changed", "strength", "valid", "usage",
     "endpoint", "host", "port", "user", "username", "login", "email", "kind", "class"}
)  # fmt: skip
# A key named ``…key`` after one of these is not a secret (``sort_key``, ``public_key``).
_NOT_SECRET_KEY: Final = frozenset(
    {"sort", "cache", "primary", "foreign", "public", "partition", "range", "hash", "row",
     "composite", "unique", "lookup", "dict", "map", "hot", "short", "shortcut", "keyboard",
     "idempotency", "dedup", "group", "index", "order", "join", "routing", "object", "s3",
     "i18n", "translation", "react", "list", "config", "setting", "settings", "storage",
     "local", "redis", "cursor", "page", "next", "default", "ssh", "gpg"}
)  # fmt: skip

_NOT_SECRET_TOKEN: Final = frozenset({"page", "continuation", "next", "cursor", "sync", "resume"})
_WORD_SPLIT: Final = re.compile(r"[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def key_words(key: str) -> list[str]:
    """The words of ``key``, lower case: ``SecretAccessKey`` → secret access key."""
    return [word.lower() for word in _WORD_SPLIT.split(key) if word]


def key_strength(key: str) -> Strength:
    """Whether a value under ``key`` is a secret (see the module's text)."""
    words = key_words(key)
    if not words:
        return NEVER
    joined = "".join(words)
    if joined in _STRONG_NAMES and len(words) == 1:
        return STRONG
    last = words[-1]
    if last in _NOT_SECRET_LAST or "public" in words:
        return NEVER  # (``PublicKeyToken``: .NET's public key token, public by name)
    pair = tuple(words[-2:]) if len(words) >= 2 else None
    if last == "token" and len(words) >= 2 and words[-2] in _NOT_SECRET_TOKEN:
        return NEVER  # nextPageToken, continuationToken: a place in a listing
    if pair in _STRONG_PAIRS or last in _STRONG_LAST:
        if last == "key" and len(words) >= 2 and words[-2] in _NOT_SECRET_KEY:
            return NEVER
        return STRONG
    if last == "key":
        if len(words) < 2 or words[-2] in _NOT_SECRET_KEY:
            return NEVER  # ``key: …`` alone names too many things; a real key is found by shape
        return WEAK
    if joined.endswith(("password", "passwd", "secret", "token", "apikey")):
        return STRONG  # ``dbpassword``, ``githubtoken``
    return NEVER


_PLACEHOLDERS: Final = frozenset(
    {"password", "passwd", "secret", "token", "changeme", "change_me", "changeit", "example",
     "dummy", "test", "testing", "null", "none", "nil", "true", "false", "undefined", "redacted",
     "masked", "hidden", "required", "optional", "str", "string", "int", "bool", "bytes", "any",
     "secretstr", "text", "value", "xxx", "todo", "tbd", "na", "n/a", "empty", "default",
     "your_password", "yourpassword", "your_token", "your_api_key", "mypassword", "pass",
     "secret_key", "api_key", "apikey", "enter", "env", "object", "unknown", "number", "date",
     "optional[str]", "str | none", "string | null", "string | undefined", "oauth", "oauth2",
     "basic", "bearer", "digest", "ntlm", "kerberos", "jwt", "saml", "sso", "ldap"}
)  # fmt: skip
_PLACEHOLDER_MARKS: Final = (
    "example", "your", "xxxx", "****", "...", "…", "redacted", "replace_me", "replace-me",
    "replaceme", "insert", "placeholder", "changeme", "change_me",
)  # fmt: skip
_REFERENCE: Final = re.compile(
    r"^(?:\$|%[A-Za-z_]|<|!|\{\{|\{%|\{[A-Za-z_]|\[\[|process\.env|os\.environ|os\.getenv|env\(|"
    r"ENV\[|secrets\.|vault:|op://|arn:aws:secretsmanager|projects/[^/]+/secrets/)"
)
_BARE_NAME: Final = re.compile(r"^[A-Za-z_][A-Za-z_]*$")  # no digit: a name, not a password
_DOTTED: Final = re.compile(  # a.b, a?.b, a!.b, a&.b: a property, not a value
    r"^[A-Za-z_$][\w$]*(?:(?:\?\.|!\.|&\.|\.)[A-Za-z_$][\w$]*)+;?$"
)
_RELATIVE_FILE: Final = re.compile(r"^[\w.\-]+(?:/[\w.\-]+)+\.[A-Za-z0-9]{1,6}$")
_NUMBER: Final = re.compile(r"^\d+$")
_PATH: Final = re.compile(r"^(?:~/|\.\.?/|[A-Za-z]:\\|file:)|\.(?:pub|pem|key|crt|txt|json|env)$")
_SAME: Final = re.compile(r"^(.)\1+$")


def secret_value(value: str, *, quoted: bool) -> bool:
    """Whether ``value`` (under a secret-named key) is a value at all, not a placeholder, a
    reference, code or a path. ``quoted``: it stood in quotes (then a bare word counts)."""
    value = value.strip()
    if len(value) < 4 or len(value) > 1024:
        return False
    lowered = value.lower()
    if lowered in _PLACEHOLDERS or _SAME.match(value):
        return False
    if any(mark in lowered for mark in _PLACEHOLDER_MARKS):
        return False
    if _REFERENCE.match(value) or _PATH.search(value) or _absolute_path(value):
        return False
    if _RELATIVE_FILE.match(value) or _NUMBER.match(value):
        return False  # backups/2024-05-01/db.sql.gz, 8080
    if not quoted:
        if any(char in value for char in "()[]") or _DOTTED.match(value):
            return False  # code: get_token(), os.environ["X"], settings.API_KEY
        if _BARE_NAME.match(value):
            return False  # password=password, token=TOKEN, KEY=Enter
    return True


def _absolute_path(value: str) -> bool:
    """``/etc/ssh/key`` is a path; ``/Mkj2JFGyX3…`` (base64 starting with a slash) is not."""
    if not value.startswith("/"):
        return False
    return value.count("/") >= 2 or not looks_random(value)


def entropy(text: str) -> float:
    """Shannon entropy of ``text``, in bits a character."""
    counts = Counter(text)
    total = len(text)
    return -sum(count / total * math.log2(count / total) for count in counts.values())


_LONG_WORD: Final = re.compile(r"[a-z]{9,}|[A-Z]{9,}")


def looks_random(text: str) -> bool:
    """Whether ``text`` looks like a generated token, not words: letters and a digit, no long
    run of one case of letters (``learn-compatible``, ``navigation_bar``), enough entropy."""
    body = text.lstrip("_-")
    if len(body) < 12:
        return False
    has_digit = any(char.isdigit() for char in body)
    has_letter = any(char.isalpha() for char in body)
    if not (has_digit and has_letter) and _case_switches(body) < len(body) // 4:
        return False  # no digit: only a token of letters whose case changes all the time
    if _LONG_WORD.search(body) and entropy(body) < 4.0:
        return False
    return entropy(body) >= 3.0


def _case_switches(text: str) -> int:
    """How often the case changes from one letter to the next."""
    letters = [char.isupper() for char in text if char.isalpha()]
    return sum(1 for a, b in itertools.pairwise(letters) if a != b)


KEY_CLUES: Final = ("pass", "pwd", "secret", "token", "key", "auth", "cred", "_pat", "pat_", "sas")
"""What a secret-named key holds, lower-cased: a text with none holds no keyed secret."""


def keyed_value(key: str, value: str, *, quoted: bool) -> bool:
    """Whether ``value``, under ``key``, is a secret: the key may name one, the value is a value
    (not a placeholder, a reference, code; see :func:`secret_value`), and under a weak key
    (``…key``) it looks generated."""
    strength = key_strength(key)
    if strength == NEVER or not secret_value(value, quoted=quoted):
        return False
    return strength != WEAK or looks_random(value)


def keyed_kind(key: str) -> str:
    """The kind a keyed secret is reported as, from its key's words."""
    words = key_words(key)
    if any(word.startswith(("pw",)) or "pass" in word or "pwd" in word for word in words):
        return "password"
    for word, kind in (("token", "token"), ("secret", "secret"), ("auth", "credential")):
        if any(word in part for part in words):
            return kind
    return "key"
