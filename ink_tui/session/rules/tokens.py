"""Ink's token estimate: a text's characters divided by 4, rounded up (spec §5-6: the compaction
walk and the context estimate; an image counts as 4,800 characters there). Used wherever
ink-tui counts tokens as Ink would: compaction (:mod:`ink_tui.agent.compact`) and the budgets
of what agents read (:mod:`ink_tui.recall.reading`)."""

from __future__ import annotations

import math

__all__ = ["estimated_tokens"]


def estimated_tokens(characters: int) -> int:
    """Ink's estimate of the tokens ``characters`` characters make."""
    return math.ceil(characters / 4)
