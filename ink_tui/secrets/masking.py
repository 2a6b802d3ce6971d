"""Masking text on its way to a person: the cheap look first, the detector only where it sees a
clue, so text with no secret costs microseconds.

:func:`masked_text` is what every view of session text calls (the app's only door to the
screen, :mod:`ink_tui.ui.render.safe`; titles and names in the listing): each secret becomes
``[REDACTED:<kind>:<fp8>]``, the form ``ink-tui scrub`` writes and the index holds.
"""

from __future__ import annotations

from typing import Final

from ink_tui.secrets.detect import mask_secrets
from ink_tui.secrets.gate import may_hold_secret

__all__ = ["SHORTEST", "masked_text"]

SHORTEST: Final = 8
"""No text shorter than this holds a secret the detector finds (the shortest finding is a key
and a value of four, ``pwd=Hn3J``): counts and sizes are never even looked at."""


def masked_text(text: str) -> str:
    """``text`` with every secret the detector finds masked."""
    if len(text) < SHORTEST or not may_hold_secret(text.encode("utf-8", "surrogatepass")):
        return text
    return mask_secrets(text)[0]
