"""What ``ink-tui check`` would flag in a session, as cheaply as the listing can see it.

A listing row (:class:`~ink_tui.catalog.row.SessionSummary`) already says why Ink hides a
session or cannot open it (``hidden_reason``). :func:`row_problem` adds, in ``problem``:

- a torn tail: the final line dropped as torn, or the final record without its newline (the
  listing's scan reads every line, so it knows; :attr:`ListingScan.torn`);
- dangling tool calls at the end of the current branch: the last assistant message's calls that
  the ``toolResult`` messages after it do not answer (what ``repair`` closes). Only that
  assistant line and the results after it are parsed: a few lines of the file, whatever its size.
  A pairing problem there (a result recorded twice, say) is named too.

Not seen here (``check`` opens the whole transcript for them): a call left pending deeper in the
branch, orphan or duplicate results before the last turn, an imp-era launch record.
"""

from __future__ import annotations

from typing import Any, BinaryIO

from ink_tui.catalog.scannode import ScanNode
from ink_tui.humanize import plural
from ink_tui.session.conversation.pairing import pair_tool_calls
from ink_tui.session.reading.jsoncodec import JsonDecodeError, decode_line
from ink_tui.session.reading.lines import iter_lines

__all__ = ["dangling_problem", "row_problem", "torn_problem"]

_MESSAGE_KINDS = frozenset({"message", "compaction", "branchSummary"})


def torn_problem(line: int, reason: str | None) -> str:
    """The problem of a torn final line (``reason``: why it was dropped; ``None``: it was kept,
    only its newline is missing)."""
    if reason is None:
        return "torn tail: the final record has no newline"
    return f"torn tail: line {line} is not read ({reason})"


def _record(stream: BinaryIO, node: ScanNode) -> Any:
    raw = next(iter_lines(stream, node.offset, chunk_size=256 * 1024), None)
    if raw is None:
        return None
    try:
        record = decode_line(raw.data)
    except JsonDecodeError:
        return None  # opening the session says what is wrong with it
    return record if isinstance(record, dict) else None


def _last_turn(walked: list[ScanNode]) -> list[ScanNode]:
    """The last assistant message of the branch and the ``toolResult`` messages after it, when
    nothing else follows it in the context (else an empty list)."""
    turn: list[ScanNode] = []
    for node in reversed(walked):
        if node.kind not in _MESSAGE_KINDS:
            continue  # names, labels, model changes: no message in the context
        if node.kind != "message" or node.role not in ("assistant", "toolResult"):
            return []
        turn.append(node)
        if node.role == "assistant":
            turn.reverse()
            return turn
    return []


def dangling_problem(walked: list[ScanNode], stream: BinaryIO) -> str | None:
    """The calls of the branch's last turn left without a result, or the pairing problem
    found there; ``None`` when it is whole."""
    turn = _last_turn(walked)
    if not turn:
        return None
    messages = []
    for node in turn:
        record = _record(stream, node)
        if record is None:
            return None
        messages.append(record.get("message"))
    pairing = pair_tool_calls(messages)
    if pairing.problem is not None:
        return f"not continuable: {pairing.problem}"
    if not pairing.dangling:
        return None
    ids = ", ".join(call.id for call in pairing.dangling)
    return f"{plural(len(pairing.dangling), 'dangling tool call')} ({ids})"


def row_problem(torn: str | None, walked: list[ScanNode] | None, stream: BinaryIO) -> str | None:
    """``problem`` of a row: its torn tail and the dangling calls of its last turn, joined."""
    found = [torn] if torn is not None else []
    if walked is not None:
        dangling = dangling_problem(walked, stream)
        if dangling is not None:
            found.append(dangling)
    return "; ".join(found) or None
