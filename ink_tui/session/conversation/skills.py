"""Ink's ``/skill:`` blocks as the listing and the replay show them (``skills.ts``)."""

from __future__ import annotations

from typing import Final

__all__ = ["skill_summary"]

_SKILL_OPENING: Final = '<skill name="'


def skill_summary(text: str) -> str | None:
    """``▪ skill: NAME`` for a user message that is an expanded ``/skill:`` block, else ``None``.

    Ink's ``skillBlockSummary``: the text starts with ``<skill name="`` and the name up to the
    next ``"`` is not empty. Ink titles such a session, and replays such a prompt, as that line.
    """
    if not text.startswith(_SKILL_OPENING):
        return None
    end = text.find('"', len(_SKILL_OPENING))
    if end <= len(_SKILL_OPENING):
        return None
    return f"▪ skill: {text[len(_SKILL_OPENING) : end]}"
