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
from functools import partial
from typing import Any, Final

__all__ = ["MASK", "Redactor"]

MASK: Final = "[redacted]"

_KEY_CHARS = r"[A-Za-z0-9_\-]"
_NOT_AFTER = r"(?![A-Za-z0-9_\-])"
# Each pattern names, in a group, what is kept of a match (a provider's prefix, the header and
# its scheme, the variable's name): the rest of the match is masked. Case matters, except in
# header names and schemes (``authorization: bearer``). They run one after the other (a value
# masked by one is not a secret to the next), each only over text holding its cheap clue
# (``str.__contains__`` is much faster than a search): a big export spends little time here.
_SECRET_PATTERNS: Final[tuple[tuple[str, tuple[str, ...], str], ...]] = (
    # (the group kept, clues (the text holds one; lower case where case is ignored), pattern)
    (
        "pem",  # -----BEGIN … PRIVATE KEY----- blocks
        ("PRIVATE KEY-----",),
        r"(?P<pem>-----BEGIN [A-Z ]*PRIVATE KEY-----)[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----",
    ),
    (
        "auth",  # Authorization: Bearer xyz / "Authorization": "Basic xyz" (the scheme kept)
        ("uthorization",),
        r"(?P<auth>\b(?i:(?:Proxy-)?Authorization)[\"']?\s*[:=]\s*[\"']?"
        r"(?i:(?:Bearer|Basic|Token|Digest|Bot)\s+)?)"
        r"(?![$<{]|\.\.\.)[A-Za-z0-9._~+/=:\-]{8,}",
    ),
    (
        "env",  # NAME_ENDING_IN_KEY=value (upper case, quoted or not); not $X, ${X}, <key>, ...
        ("KEY", "TOKEN", "SECRET", "PASS", "PWD", "CREDENTIAL"),
        r"(?P<env>(?<![A-Za-z0-9_])(?:export\s+)?(?:[A-Z0-9_]*_|[A-Z0-9_]*API)?"
        r"(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|PWD|CREDENTIALS?)\s*=\s*[\"']?)"
        r"(?![$<{%\"'\s]|\.\.\.)[^\s\"'`]{4,}",
    ),
    (
        "bearer",
        ("earer",),
        r"(?P<bearer>\b(?i:Bearer)\s+)(?![$<{])[A-Za-z0-9._~+/\-]{16,}=*",
    ),
    (
        "prefix",  # Anthropic, OpenAI, GitHub, Slack, Stripe, Google, Hugging Face, GitLab
        ("sk-", "gh", "xox", "xapp-", "k_live_", "k_test_", "AIza", "hf_", "glpat-"),
        rf"(?<![A-Za-z0-9])(?P<prefix>sk-ant-(?:api\d\d-|admin\d\d-)?|sk-(?:proj-|svcacct-|admin-)?"
        rf"|gh[pousr]_|github_pat_|xox[abposr]-|xapp-|[sr]k_(?:live|test)_|AIza|hf_|glpat-)"
        rf"{_KEY_CHARS}{{20,}}{_NOT_AFTER}",
    ),
    (
        "aws",  # AWS access key ids
        ("AKIA", "ASIA", "AGPA", "AIDA", "AROA"),
        r"(?<![A-Z0-9])(?P<aws>AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}(?![A-Z0-9])",
    ),
    (
        "jwt",  # JSON Web Tokens
        ("eyJ",),
        r"(?<![A-Za-z0-9_\-])(?P<jwt>eyJ)[A-Za-z0-9_\-]{10,}\.eyJ[A-Za-z0-9_\-]{10,}"
        r"\.[A-Za-z0-9_\-]{10,}",
    ),
)
_SECRETS: Final = tuple(
    (group, clues, re.compile(pattern)) for group, clues, pattern in _SECRET_PATTERNS
)
_SCHEME: Final = re.compile(r"(?:Bearer|Basic|Token|Digest|Bot)\s+$", re.IGNORECASE)


def _credential(header: str, value: str) -> bool:
    """Whether ``value`` after ``Authorization:`` is a credential, not a word: it follows a
    scheme (``Bearer``), or it is long and holds a digit."""
    if _SCHEME.search(header):
        return True
    return len(value) >= 12 and any(char.isdigit() for char in value)


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
            text = self._mask_secrets(text)
        pattern = self._home_pattern()
        if pattern is not None:
            text, count = pattern.subn("~", text)
            self.homes += count
        return text

    def _mask_secrets(self, text: str) -> str:
        lowered: str | None = None  # for the clues of the patterns that ignore case
        for group, clues, pattern in _SECRETS:
            if group in ("auth", "bearer"):
                lowered = text.lower() if lowered is None else lowered
                holds = any(clue in lowered for clue in clues)
            else:
                holds = any(clue in text for clue in clues)
            if holds:
                text = pattern.sub(partial(self._mask, group=group), text)
        return text

    def _mask(self, match: re.Match[str], group: str) -> str:
        kept = match.group(group)
        if group == "auth" and not _credential(kept, match.group()[len(kept) :]):
            return match.group()
        self.found.add(match.group())
        return f"{kept}{MASK}"

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
