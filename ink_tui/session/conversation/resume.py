"""What a resume restores of a session, by Ink's runner rules: the thinking level and the model.

One rule for every part of ink-tui that shows or uses them (the session view's header, the
chat pane): the thinking level is the last ``thinkingLevelChange`` in whole-file order (an
unknown level there restores nothing), else :data:`DEFAULT_THINKING`; the model is the latest
``session_model`` in file order, else the header's ``model`` (:func:`restored_model`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ink_tui.session.conversation.tree import restored_model, thinking_level
from ink_tui.session.reading.reader import Entry, SessionFile
from ink_tui.session.reading.records import THINKING_LEVELS
from ink_tui.session.rules.modelref import ModelRef

__all__ = [
    "DEFAULT_THINKING",
    "model_at",
    "resumed_model",
    "resumed_thinking",
    "thinking_after",
    "thinking_at",
]

DEFAULT_THINKING: Final = "medium"
"""The level when neither the file nor the command line names one."""


def resumed_thinking(session: SessionFile | None) -> str:
    """The thinking level a resume of ``session`` starts with (no ``--thinking`` given)."""
    restored = thinking_level(session) if session is not None else None
    return restored or DEFAULT_THINKING


def thinking_after(level: str, appended: Sequence[Entry]) -> str:
    """The level a resume starts with once ``appended`` (entries written after, in file order)
    are in the file, ``level`` being what it was before them."""
    for entry in reversed(appended):
        if entry.type == "thinkingLevelChange":
            restored = str(entry.record["thinkingLevel"])
            return restored if restored in THINKING_LEVELS else DEFAULT_THINKING
    return level


def resumed_model(session: SessionFile) -> ModelRef | None:
    """The model a resume of ``session`` starts with (no ``--model`` given), if it names one."""
    return restored_model(session)[0]


def thinking_at(session: SessionFile, line: int) -> str:
    """The level a resume of the file cut after ``line`` would start with: the runner's rule
    (the last ``thinkingLevelChange`` in file order) over the lines up to ``line``."""
    earlier = [entry for entry in session.entries if entry.line <= line]
    return thinking_after(DEFAULT_THINKING, earlier)


def model_at(session: SessionFile, line: int) -> ModelRef | None:
    """The model a resume of the file cut after ``line`` would start with: the latest
    ``session_model`` up to ``line``, else the header's ``model``."""
    for marker in reversed(session.session_models):
        if marker.line <= line:
            return ModelRef(str(marker.record["provider"]), str(marker.record["modelId"]))
    model = session.header.get("model")
    if isinstance(model, dict):
        return ModelRef(str(model["provider"]), str(model["modelId"]))
    return None
