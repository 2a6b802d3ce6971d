"""Masking secrets in exported text: API keys and tokens, ``Authorization:`` headers,
``.env``-style assignments, and the home folder shown as ``~``.

One :class:`Redactor` goes over every piece of session text of one export and counts what it
masked. The patterns look for the shapes secrets have (a provider's prefix and a long run of key
characters, a credential after ``Authorization:``, a value assigned to a name ending in ``KEY``,
``TOKEN``, ``SECRET`` or ``PASSWORD``); they leave alone what only resembles one (``risk-free``,
``MAX_TOKENS=4096``, ``API_KEY=$API_KEY``, a git hash, a UUID).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any, Final

__all__ = ["MASK", "Redactor"]

MASK: Final = "[redacted]"

_KEY_CHARS = r"[A-Za-z0-9_\-]"
_NOT_AFTER = r"(?![A-Za-z0-9_\-])"
# Each alternative keeps what says what the secret was (its prefix, the header's name) in a
# group called ``keep``; the rest of the match is masked.
_SECRET_PATTERNS: Final[tuple[str, ...]] = (
    # -----BEGIN … PRIVATE KEY----- blocks
    r"(?P<pem>-----BEGIN [A-Z ]*PRIVATE KEY-----)[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----",
    # Authorization: Bearer xyz / "Authorization": "Basic xyz" (the scheme kept)
    r"(?P<auth>\b(?:Proxy-)?Authorization[\"']?\s*[:=]\s*[\"']?"
    r"(?:(?:Bearer|Basic|Token|Digest|Bot)\s+)?)"
    r"(?![$<{]|\.\.\.)[A-Za-z0-9._~+/=:\-]{8,}",
    r"(?P<bearer>\bBearer\s+)(?![$<{])[A-Za-z0-9._~+/\-]{16,}=*",
    # provider prefixes: Anthropic, OpenAI, GitHub, Slack, Stripe, Google, Hugging Face, GitLab
    rf"(?<![A-Za-z0-9])(?P<prefix>sk-ant-(?:api\d\d-|admin\d\d-)?|sk-(?:proj-|svcacct-|admin-)?"
    rf"|gh[pousr]_|github_pat_|xox[abposr]-|xapp-|[sr]k_(?:live|test)_|AIza|hf_|glpat-)"
    rf"{_KEY_CHARS}{{20,}}{_NOT_AFTER}",
    # AWS access key ids
    r"(?<![A-Z0-9])(?P<aws>(?:AKIA|ASIA|AGPA|AIDA|AROA))[0-9A-Z]{16}(?![A-Z0-9])",
    # JSON Web Tokens
    r"(?<![A-Za-z0-9_\-])(?P<jwt>eyJ)[A-Za-z0-9_\-]{10,}\.eyJ[A-Za-z0-9_\-]{10,}"
    r"\.[A-Za-z0-9_\-]{10,}",
    # .env style: NAME_ENDING_IN_KEY=value (quoted or not); references ($X, ${X}) are not values
    r"(?P<env>(?<![A-Za-z0-9_])(?:export\s+)?(?:[A-Za-z0-9_]*_|[A-Za-z0-9_]*API)?"
    r"(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|PWD|CREDENTIALS?)\s*=\s*[\"']?)"
    r"(?![$<{%\"'\s]|\.\.\.)[^\s\"'`]{4,}",
)
_SECRETS: Final = re.compile("|".join(_SECRET_PATTERNS), re.IGNORECASE)
_SCHEME: Final = re.compile(r"(?:Bearer|Basic|Token|Digest|Bot)\s+$", re.IGNORECASE)
_ENV_NAME_PART: Final = re.compile(r"(?:export\s+)?([A-Za-z0-9_]+)", re.IGNORECASE)


def _kept(match: re.Match[str]) -> tuple[str, str] | None:
    """(the group that matched, what to keep of the match) or ``None``: not a secret after all."""
    for group in ("pem", "auth", "bearer", "prefix", "aws", "jwt", "env"):
        kept = match.group(group)
        if kept is None:
            continue
        if group == "aws" and not match.group().isupper():
            return None  # key ids are upper case: ``akia…`` in a word is not one
        if group == "env" and not _env_name_is_upper(kept):
            return None  # ``max_key=3`` in code is a variable, not a .env secret
        if group == "prefix" and not _prefix_case_ok(kept):
            return None
        if group == "auth" and not _credential(kept, match.group()[len(kept) :]):
            return None
        return group, kept
    return None


def _env_name_is_upper(kept: str) -> bool:
    name = _ENV_NAME_PART.match(kept)
    return name is not None and name.group(1) == name.group(1).upper()


def _credential(header: str, value: str) -> bool:
    """Whether ``value`` after ``Authorization:`` is a credential, not a word: it follows a
    scheme (``Bearer``), or it is long and holds a digit."""
    if _SCHEME.search(header):
        return True
    return len(value) >= 12 and any(char.isdigit() for char in value)


def _prefix_case_ok(kept: str) -> bool:
    return kept in ("AIza",) or kept == kept.lower()


@dataclass(slots=True)
class Redactor:
    """Masks secrets (when ``secrets``) and shows ``home`` as ``~``, counting both.

    :attr:`masked` counts distinct secrets: a key quoted in a prompt, in the title made from that
    prompt and again in a compaction's retained messages is one secret masked three times."""

    secrets: bool = True
    home: str | None = None
    homes: int = 0  # home folders shown as ~
    found: set[str] = field(default_factory=set)  # the secrets masked (never shown)

    @property
    def masked(self) -> int:
        """How many distinct secrets were masked."""
        return len(self.found)

    @classmethod
    def for_user(cls, enabled: bool) -> Redactor:
        """A redactor for this user (their home folder), or one that changes nothing."""
        if not enabled:
            return cls(secrets=False)
        return cls(home=os.path.expanduser("~"))

    @property
    def active(self) -> bool:
        return self.secrets or bool(self._home_pattern())

    def _home_pattern(self) -> re.Pattern[str] | None:
        home = (self.home or "").rstrip("/")
        if not home or home == "~":
            return None
        return re.compile(re.escape(home) + r"(?![A-Za-z0-9_.\-])")

    def text(self, text: str) -> str:
        """``text`` with its secrets masked and the home folder as ``~``."""
        if self.secrets:
            text = _SECRETS.sub(self._mask, text)
        pattern = self._home_pattern()
        if pattern is not None:
            text, count = pattern.subn("~", text)
            self.homes += count
        return text

    def _mask(self, match: re.Match[str]) -> str:
        found = _kept(match)
        if found is None:
            return match.group()
        self.found.add(match.group())
        return f"{found[1]}{MASK}"

    def value(self, value: Any) -> Any:
        """A JSON value with every string redacted (an image's base64 data left as it is)."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.value(item) for item in value]
        if isinstance(value, dict):
            image = value.get("type") == "image"
            return {
                key: item if image and key == "data" else self.value(item)
                for key, item in value.items()
            }
        return value

    def summary(self) -> str:
        """``2 secrets masked, the home folder shown as ~ 5 times`` (empty: nothing to say)."""
        from ink_tui.humanize import plural

        if not self.secrets:
            return ""
        said = f"{plural(self.masked, 'secret')} masked"
        if self.homes:
            said += f", the home folder shown as ~ {plural(self.homes, 'time')}"
        return said
