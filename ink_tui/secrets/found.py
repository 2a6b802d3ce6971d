"""A secret found in a text: its kind, its span, its fingerprint, and how it is masked."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

__all__ = ["Secret", "redaction"]


@dataclass(frozen=True, slots=True)
class Secret:
    """One secret found: its kind, its span in the text searched, and (hidden) the secret."""

    kind: str
    start: int
    end: int
    value: str = field(repr=False, compare=False)

    @property
    def fingerprint(self) -> str:
        """The first 8 hex digits of the SHA-256 of the secret: the same secret, the same
        fingerprint, wherever it is; the secret cannot be read back from it."""
        return hashlib.sha256(self.value.encode("utf-8", "surrogatepass")).hexdigest()[:8]


def redaction(secret: Secret) -> str:
    """What replaces a secret in a scrubbed session: ``[REDACTED:<kind>:<fingerprint>]``."""
    return f"[REDACTED:{secret.kind}:{secret.fingerprint}]"
