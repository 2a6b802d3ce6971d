"""Secrets told by where they sit rather than by their shape or a ``key = value``: the password
of a URL (``postgres://app:…@db``), a command-line flag (``curl -u user:…``, ``mysql -p…``,
``--token …``, a ``.netrc`` line), an XML element named as a secret (``<password>…</password>``)
and a YAML value on the lines under its key (``password: |``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from ink_tui.secrets.found import Secret
from ink_tui.secrets.keyed import KEY_CLUES, keyed_kind, keyed_value, secret_value

__all__ = ["flags", "keyed_elsewhere", "url_credentials"]

_URL_CREDENTIALS: Final = re.compile(
    r"(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]{1,20})://(?P<user>[^\s:/@\"'<>]{0,256}):"
    r"(?P<secret>[^\s@/\"'<>]{1,256})@(?P<host>[A-Za-z0-9\[\]._\-]+)"
)
_DATABASES: Final = frozenset(
    {"postgres", "postgresql", "mysql", "mariadb", "mongodb", "mongodb+srv", "redis", "rediss",
     "amqp", "amqps", "mssql", "sqlserver", "clickhouse", "cockroachdb", "oracle", "jdbc:mysql",
     "jdbc:postgresql", "snowflake", "neo4j", "couchdb", "memcached"}
)  # fmt: skip
_FLAGS: Final = (
    ("curl", re.compile(r"(?:^|\s)(?:-u|--user)(?:\s+|=)?[\"']?[^\s:\"']+:(?P<secret>[^\s\"']+)")),
    ("mysql", re.compile(
        r"\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n]*?\s-p[\"']?(?P<secret>[^\s'\"]+)"
    )),
    ("machine", re.compile(  # a .netrc line: machine HOST login USER password SECRET
        r"\bmachine\s+\S+\s+login\s+\S+\s+password\s+(?P<secret>[^\s\"']+)"
    )),
    ("sshpass", re.compile(r"\bsshpass\s+-p\s*[\"']?(?P<secret>[^\s\"']+)")),
    ("login", re.compile(
        r"\b(?:docker|podman|helm)\s+(?:registry\s+)?login\b[^\n]*?\s-p\s+[\"']?"
        r"(?P<secret>[^\s\"']+)"
    )),
    ("--", re.compile(
        r"--(?:password|passwd|pass|token|api-key|apikey|secret|client-secret|access-token|"
        r"auth-token|private-key|db-password)(?:\s+|=)[\"']?(?P<secret>[^\s\"']+)"
    )),
)  # fmt: skip
# A value in an XML element named as a secret (``<password>…</password>``: Maven's settings.xml,
# .NET configs), and a YAML value on the lines after its key (``password: |`` then the value,
# or the value alone, indented under its key).
_ELEMENT: Final = re.compile(
    r"<(?P<key>[A-Za-z_][\w.\-]{0,64})(?:\s[^<>]{0,256})?>(?P<secret>[^<>\n]{1,1024})</(?P=key)>"
)
_YAML_BLOCK: Final = re.compile(
    r"(?m)^(?P<indent>[ \t]*)(?P<key>[A-Za-z_][\w.\-]{0,64})[ \t]*:[ \t]*(?:[|>][-+]?[ \t]*)?"
    r"\r?\n(?P=indent)[ \t]+(?P<secret>[^\s#][^\n]{0,1023}?)[ \t]*\r?$"
)
_YAML_KEY_LINE: Final = re.compile(r"[A-Za-z_][\w.\-]*[ \t]*:(?:[ \t]|$)")  # a nested key


def url_credentials(text: str) -> Iterator[Secret]:
    if "://" not in text or "@" not in text:
        return
    for match in _URL_CREDENTIALS.finditer(text):
        value = match.group("secret")
        if not secret_value(value, quoted=True) or value.lower() in ("pass", "pw", "pwd"):
            continue
        scheme = match.group("scheme").lower()
        kind = "database-password" if scheme in _DATABASES else "url-password"
        yield Secret(kind, match.start("secret"), match.end("secret"), value)


def flags(text: str) -> Iterator[Secret]:
    for clue, pattern in _FLAGS:
        if clue not in text:
            continue
        for match in pattern.finditer(text):
            value = match.group("secret")
            if (
                clue == "curl"
                and "curl" not in text[text.rfind("\n", 0, match.start()) + 1 : match.start()]
            ):
                continue  # ``-u user:pw`` of another command
            if secret_value(value, quoted=True):
                yield Secret("password", match.start("secret"), match.end("secret"), value)


def keyed_elsewhere(text: str) -> Iterator[Secret]:
    """Values a secret-named key names from elsewhere than ``key = value``: an XML element
    around them, a YAML key on the line above."""
    lowered = text.lower()
    if not any(clue in lowered for clue in KEY_CLUES):
        return
    patterns = [_ELEMENT] if "</" in text else []
    if ":\n" in text or ":\r\n" in text or "|\n" in text or ">\n" in text:
        patterns.append(_YAML_BLOCK)
    for pattern in patterns:
        position = 0
        while (match := pattern.search(text, position)) is not None:
            # on from the value's line: it may be the next key's (``db:`` above ``password:``)
            position = max(match.start() + 1, text.rfind("\n", 0, match.start("secret")) + 1)
            key, value = match.group("key"), match.group("secret").strip()
            if pattern is _YAML_BLOCK and _YAML_KEY_LINE.match(value):
                continue  # a mapping under the key (``auth:`` above ``token: …``), not a value
            if not keyed_value(key, value, quoted=True):
                continue
            start = match.start("secret")
            yield Secret(keyed_kind(key), start, start + len(value), value)
