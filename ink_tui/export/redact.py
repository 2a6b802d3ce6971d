"""Masking secrets in exported text, and the home folder shown as ``~``.

One :class:`Redactor` goes over every piece of session text of one export and counts what it
masked. What is a secret is the one detector's to say (:mod:`ink_tui.secrets`: a provider's
token, a value under a secret-named key, credentials in a URL or a flag, read past colour codes,
line wraps and encodings); each becomes ``[REDACTED:<kind>:<fingerprint>]``, the kind telling a
reader what it was and the fingerprint (8 hex digits of its SHA-256) which ones are the same.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any, Final

from ink_tui.secrets import Secret, mask_value, redaction
from ink_tui.secrets.structured import secrets_in

__all__ = ["MASK", "Redactor"]

MASK: Final = "[REDACTED:"
"""How every masked secret starts."""


@dataclass(slots=True)
class Redactor:
    """Masks secrets (when ``secrets``) and shows ``home`` as ``~``, counting both.

    :attr:`masked` counts distinct secrets: a key quoted in a prompt, in the title made from that
    prompt and again in a compaction's retained messages is one secret masked three times."""

    secrets: bool = True
    home: str | None = None
    watch: bool = False  # without masking: only note the secrets (an export that must not hold any)
    homes: int = 0  # home folders shown as ~
    found: dict[str, str] = field(default_factory=dict, repr=False)  # each secret met: its kind

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
        return self.secrets or self.watch or bool(self._home_pattern())

    def _home_pattern(self) -> re.Pattern[str] | None:
        home = (self.home or "").rstrip("/")
        if not home or home == "~":
            return None
        return re.compile(re.escape(home) + r"(?![A-Za-z0-9_.\-])")

    def text(self, text: str, key: str = "") -> str:
        """``text`` with its secrets masked and the home folder as ``~`` (``key``: the JSON key
        it sits under, which may make it a secret whole). Watching, the secrets are noted and
        the text is left as it is."""
        if self.secrets:
            text, _ = mask_value(text, self._masked, key)
        elif self.watch:
            for secret in secrets_in(text, key):
                self.found[secret.value] = secret.kind
        pattern = self._home_pattern()
        if pattern is not None:
            text, count = pattern.subn("~", text)
            self.homes += count
        return text

    def _masked(self, secret: Secret) -> str:
        self.found[secret.value] = secret.kind
        return redaction(secret)

    def kinds(self) -> str:
        """The kinds of the secrets met: ``2 github-token, 1 password`` (most first)."""
        from collections import Counter

        counts = Counter(self.found.values())
        return ", ".join(f"{count} {kind}" for kind, count in counts.most_common())

    def value(self, value: Any, key: str = "") -> Any:
        """A JSON value with every string redacted, each read with the key it sits under (an
        image's base64 data left as it is)."""
        if isinstance(value, str):
            return self.text(value, key)
        if isinstance(value, list):
            return [self.value(item, key) for item in value]
        if isinstance(value, dict):
            image = value.get("type") == "image"
            return {
                name: item if image and name == "data" else self.value(item, name)
                for name, item in value.items()
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
