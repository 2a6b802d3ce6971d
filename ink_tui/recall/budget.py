"""Every answer within its budget of tokens, counted as the agent reads the answer.

An MCP tool's structured answer reaches the model as the SDK's text form of it: JSON indented
by two spaces. :func:`answer_tokens` counts that text as Ink estimates tokens (characters / 4,
rounded up: :func:`ink_tui.session.rules.tokens.estimated_tokens`), so "within the budget" is
a promise about what the model receives, envelope and escapes included, not about the session
text alone.

:func:`fitted` makes the promise hold whatever the parts: it builds an answer with a budget
for its parts, measures the whole, and builds it again with less room for the parts until the
whole fits. Should even an answer with no parts be over (a budget smaller than the answer's
own envelope), the call is refused with the budget that would do.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, Final, TypeVar

from ink_tui.session.rules.tokens import estimated_tokens

__all__ = [
    "MAX_BUDGET",
    "MIN_BUDGET",
    "BudgetTooSmall",
    "answer_tokens",
    "clamped",
    "fitted",
    "item_tokens",
    "leading",
]

MIN_BUDGET: Final = 200
MAX_BUDGET: Final = 100_000

T = TypeVar("T")


class BudgetTooSmall(Exception):
    """Even the answer's envelope is over the budget (the message names what would do)."""


def answer_tokens(answer: Any) -> int:
    """Tokens of ``answer`` as the model reads it: the SDK's JSON text, indented by two."""
    return estimated_tokens(len(json.dumps(answer, indent=2, ensure_ascii=False)))


def clamped(budget: int) -> int:
    """``budget``, at most :data:`MAX_BUDGET`. Raises :class:`BudgetTooSmall` under
    :data:`MIN_BUDGET` (an answer must never be bigger than the budget asked)."""
    if budget < MIN_BUDGET:
        raise BudgetTooSmall(f"budget_tokens is at least {MIN_BUDGET}, not {budget}")
    return min(budget, MAX_BUDGET)


def fitted(build: Callable[[int], dict[str, Any]], budget: int) -> dict[str, Any]:
    """The answer ``build(room)`` gives for the largest room (tokens for its parts, at most
    ``budget``) found whose whole answer is within ``budget``. Each round that is over takes
    the overshoot off the room, and twice as much more each time (the parts may not shrink by
    the overshoot: whole blocks go, or none), down to no room at all. Raises
    :class:`BudgetTooSmall` when even the answer with no parts is over."""
    room = budget
    extra = 0
    while True:
        answer = build(room)
        over = answer_tokens(answer) - budget
        if over <= 0:
            return answer
        if room == 0:
            raise BudgetTooSmall(
                f"budget_tokens {budget} is too small for this answer: give at least "
                f"{answer_tokens(answer) + MIN_BUDGET // 4}"
            )
        room = max(0, room - over - extra)
        extra = max(2 * extra, 16)


def leading(items: Sequence[T], tokens: Callable[[T], int], room: int) -> int:
    """How many of ``items``, from the first, fit in ``room`` tokens."""
    used = 0
    for count, item in enumerate(items):
        used += tokens(item)
        if used > room:
            return count
    return len(items)


def item_tokens(item: Any, depth: int = 2) -> int:
    """Tokens one list item adds to an answer: its JSON indented at ``depth`` (levels of two
    spaces) and the separator before it."""
    text = json.dumps(item, indent=2, ensure_ascii=False)
    return estimated_tokens(len(text) + (text.count("\n") + 1) * 2 * depth + 2)
