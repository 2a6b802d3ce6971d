"""``read_session``: a session's turns as text for an agent, every block citing its entry, cut
to a budget of tokens.

The blocks are the records of the current branch as ``ink-tui replay`` shows them
(:func:`ink_tui.session.analysis.playback.build_plan`): prompts, replies (with their tool calls
named by their key argument), tool results cut to a few thousand characters, summaries, names
and labels. A turn starts at each prompt (turn 1 is the first prompt; records before it are
turn 0). Tokens are counted as the agent receives them (:mod:`.budget`: the answer's JSON text,
characters / 4 as Ink estimates). Over the budget, whole blocks are left out **from the middle**
(the start of the request and the latest work are what an agent needs most), and the answer says
which turns and entries were left out and how to ask for them.

Session text is untrusted: each block's text is masked (secrets) and made visible (controls
shown as symbols, :func:`ink_tui.safetext.visible`), so an escape sequence stays text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ink_tui.catalog.roots import resolve_anywhere
from ink_tui.catalog.scan import ResolveError
from ink_tui.export.redact import Redactor
from ink_tui.paths import mirrored_machine
from ink_tui.recall.budget import BudgetTooSmall, clamped, fitted, item_tokens
from ink_tui.safetext import visible, without_colour

__all__ = [
    "Block",
    "ReadError",
    "budget_of",
    "fitted_answer",
    "read_answer",
    "read_blocks",
    "resolved",
    "session_part",
    "shown_text",
    "within_budget",
]


class ReadError(Exception):
    """The session cannot be read as asked (one line)."""


@dataclass(frozen=True, slots=True)
class Block:
    entry_id: str
    turn: int
    time: str  # HH:MM:SS (UTC), or ``line N``
    head: str  # user, assistant MODEL, result of TOOL, compaction…
    text: str

    tokens: int = field(init=False, compare=False)
    """What the block adds to an answer, as the agent receives it (:mod:`.budget`; one more
    for the longest name of :attr:`turn`'s unit)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "tokens", item_tokens(self.to_json()) + 1)

    def rendered(self) -> str:
        """The block as ``ink-tui read`` prints it."""
        return f"[turn {self.turn} · {self.time} · {self.entry_id}] {self.head}\n{self.text}\n"

    def to_json(self, unit: str = "turn") -> dict[str, Any]:
        """The block as an answer holds it; ``unit`` names what :attr:`turn` counts."""
        return {
            "entryId": self.entry_id,
            unit: self.turn,
            "time": self.time,
            "head": self.head,
            "text": self.text,
        }


def session_part(session_id: object, path: Path) -> dict[str, Any]:
    """What every answer about one session starts with: its id, file and machine."""
    return {
        "sessionId": None if session_id is None else visible(str(session_id)),
        "file": visible(str(path)),
        "machine": mirrored_machine(path),
    }


def fitted_answer(build: Callable[[int], dict[str, Any]], budget: int) -> dict[str, Any]:
    """:func:`~.budget.fitted`, a budget too small said as a :class:`ReadError`."""
    try:
        return fitted(build, budget)
    except BudgetTooSmall as error:
        raise ReadError(str(error)) from None


def budget_of(tokens: int) -> int:
    """The budget asked, as the tools take it (:func:`~.budget.clamped`). Raises
    :class:`ReadError` under the least."""
    try:
        return clamped(tokens)
    except BudgetTooSmall as error:
        raise ReadError(str(error)) from None


def shown_text(text: str, redactor: Redactor | None) -> str:
    """Session text as an agent may see it: colour codes dropped, secrets masked (unless
    ``redactor`` is None), every other control character made visible."""
    text = without_colour(text)
    return visible(text if redactor is None else redactor.text(text))


def resolved(base: Path, cwd: str, session: str) -> Path:
    """The file ``session`` names, here or on a mirrored machine. Raises :class:`ReadError`."""
    try:
        return resolve_anywhere(base, cwd, session)
    except ResolveError as error:
        raise ReadError(str(error)) from None


def read_blocks(path: Path, redactor: Redactor | None = None) -> tuple[str | None, list[Block]]:
    """The session's header id and its current branch as blocks. Raises :class:`ReadError`."""
    from ink_tui.session import SessionError, open_session
    from ink_tui.session.analysis.playback import build_plan
    from ink_tui.session.conversation.branchview import load_branch

    try:
        session = open_session(path, warn=None)
        loaded = load_branch(session, None)
        blocks: list[Block] = []
        turn = 0
        first = 0
        while first < len(loaded.entries):
            plan = build_plan(loaded.session, loaded.entries, loaded.turns, first=first)
            for record in plan.records:
                if record.head == "user":
                    turn += 1
                text = shown_text(record.body, redactor)
                head = shown_text(record.head, redactor)
                entry_id = visible(record.entry_id)
                blocks.append(Block(entry_id, turn, record.time_of_day, head, text))
            first += len(plan.records)
    except SessionError as error:
        raise ReadError(error.one_line()) from None
    except OSError as error:
        raise ReadError(f"{path}: {error.strerror or error}") from None
    session_id = session.header.get("id")
    return (str(session_id) if session_id is not None else None), blocks


def _chosen(blocks: list[Block], turns: str | None, entry_id: str | None) -> list[Block]:
    """The blocks of turns ``A:B`` (``first``/``last`` allowed, either side open), or of the
    turn holding ``entry_id`` (an id or a unique prefix)."""
    if not blocks:
        return []
    last = blocks[-1].turn
    if entry_id is not None:
        found = [block for block in blocks if block.entry_id.startswith(entry_id)]
        if not found:
            raise ReadError(f"no entry {entry_id!r} on the session's current branch")
        if len({block.entry_id for block in found}) > 1:
            raise ReadError(f"{entry_id!r} starts several entries: give more characters")
        return [block for block in blocks if block.turn == found[0].turn]
    if turns is None:
        return blocks
    low, sep, high = turns.partition(":")
    if not sep:
        high = low
    try:
        start = _turn_number(low, 1, last)
        end = _turn_number(high, last, last)
    except ValueError:
        raise ReadError(
            f"turns {turns!r}: give A:B with numbers, first or last (the session has {last} turns)"
        ) from None
    return [block for block in blocks if start <= block.turn <= end]


def _turn_number(text: str, default: int, last: int) -> int:
    """A side of ``A:B``: a number, ``first``, ``last``, or nothing (``default``)."""
    named = {"": default, "first": 1, "last": last}
    text = text.strip()
    return named[text] if text in named else int(text)


def _fitted(block: Block, tokens: int) -> Block:
    """``block`` with its text cut to about ``tokens`` tokens, saying how much was cut."""
    if block.tokens <= tokens:
        return block
    envelope = block.tokens - len(block.text) // 4  # escapes make the text longer: a guess
    keep = max(0, (tokens - envelope) * 4 - 160)
    while True:
        more = len(block.text) - keep
        text = f"{block.text[:keep]}\n… {more:,} more characters cut (the budget)"
        cut = Block(block.entry_id, block.turn, block.time, block.head, text)
        if cut.tokens <= tokens or keep == 0:
            return cut
        keep = max(0, keep - (cut.tokens - tokens) * 4 - 16)  # JSON escapes took more room


def read_ask(low: int, high: int) -> str:
    """How to ask ``read_session`` for the turns left out."""
    return f'read_session with turns="{low}:{high}" (and a budget that fits)'


def within_budget(
    blocks: list[Block],
    budget: int,
    ask: Callable[[int, int], str] = read_ask,
    *,
    unit: str = "turns",
) -> tuple[list[Block], dict[str, Any] | None]:
    """The blocks that fit ``budget`` tokens, whole blocks left out from the middle; and what
    was left out (``None``: nothing). A block bigger than half the budget (a 5 MB message) is
    cut to that first, so the latest one always shows."""
    budget = max(budget, 0)
    blocks = [_fitted(block, budget // 2) for block in blocks]
    total = sum(block.tokens for block in blocks)
    if total <= budget:
        return blocks, None
    head: list[Block] = []
    tail: list[Block] = []
    used = 0
    left, right = 0, len(blocks) - 1
    take_tail = True  # the latest work first, then the start, in turn
    while left <= right:
        block = blocks[right] if take_tail else blocks[left]
        if used + block.tokens > budget:
            break
        used += block.tokens
        if take_tail:
            tail.insert(0, block)
            right -= 1
        else:
            head.append(block)
            left += 1
        take_tail = not take_tail
    dropped = blocks[left : right + 1]
    if not dropped:
        return head + tail, None
    turns = sorted({block.turn for block in dropped})
    omitted = {
        "blocks": len(dropped),
        "tokens": sum(block.tokens for block in dropped),
        unit: f"{turns[0]}:{turns[-1]}",
        "fromEntry": dropped[0].entry_id,
        "toEntry": dropped[-1].entry_id,
        "afterEntry": head[-1].entry_id if head else None,  # where they were, among the blocks
        "ask": ask(turns[0], turns[-1]),
    }
    return head + tail, omitted


def read_answer(
    base: Path,
    cwd: str,
    session: str,
    *,
    turns: str | None = None,
    entry_id: str | None = None,
    budget_tokens: int = 4000,
    redactor: Redactor | None = None,
) -> dict[str, Any]:
    """What ``read_session`` answers (see the module's text). Raises :class:`ReadError`."""
    if turns is not None and entry_id is not None:
        raise ReadError("give turns or entry_id, not both")
    path = resolved(base, cwd, session)
    session_id, blocks = read_blocks(path, redactor)
    chosen = _chosen(blocks, turns, entry_id)
    budget = budget_of(budget_tokens)

    def answer(room: int) -> dict[str, Any]:
        kept, omitted = within_budget(chosen, room)
        return {
            **session_part(session_id, path),
            "turns": blocks[-1].turn if blocks else 0,
            "blocks": [block.to_json() for block in kept],
            "tokens": sum(block.tokens for block in kept),
            "budget": budget,
            "omitted": omitted,
            "secretsMasked": 0 if redactor is None else redactor.masked,
        }

    return fitted_answer(answer, budget)
