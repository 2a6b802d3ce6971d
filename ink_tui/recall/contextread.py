"""``session_context``: what the model saw at a point of a session, as Ink would rebuild it there.

The messages are Ink's ``buildContext`` for the branch ending at that entry
(:func:`ink_tui.session.conversation.context.stream_context`): after a compaction, its summary
and the retained tail, then every message and branch summary since. The model and the thinking
level are the runner's resume rules applied to the file as it was when that entry was written
(:func:`~ink_tui.session.conversation.resume.model_at`, :func:`~.resume.thinking_at`); with no
entry, the current leaf and the whole file. Each message is one block citing the entry it comes
from (the compaction's entry for its summary and retained tail) and its place in the context,
shown as ``ink-tui context`` shows it, masked and with controls made visible; over the budget
whole messages are left out from the middle, as ``read_session`` does.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ink_tui.export.redact import Redactor
from ink_tui.recall.reading import (
    Block,
    ReadError,
    budget_of,
    fitted_answer,
    resolved,
    session_part,
    shown_text,
    within_budget,
)
from ink_tui.safetext import visible

__all__ = ["context_answer"]


def _time(record: dict[str, Any], line: int) -> str:
    from ink_tui.session.reading.timestamps import timestamp_seconds

    stamp = timestamp_seconds(record.get("timestamp"))
    if stamp is None:
        return f"line {line}"
    return datetime.fromtimestamp(stamp, UTC).strftime("%H:%M:%S")


def _block(
    index: int, message: object, entry_id: str, time: str, redactor: Redactor | None
) -> Block:
    from ink_tui.session.conversation.contexttext import message_text

    if redactor is not None:  # each value read with its key, before arguments become JSON text
        message = redactor.value(message)
    first, _, rest = message_text(index, message).partition("\n")
    head = first.removeprefix(f"[{index}] ")
    body = "\n".join(line.removeprefix("    ") for line in rest.rstrip("\n").split("\n"))
    return Block(
        visible(entry_id), index, time, shown_text(head, redactor), shown_text(body, redactor)
    )


def context_blocks(plan: Any, redactor: Redactor | None) -> Iterator[Block]:
    """The context's messages as blocks, a message at a time from the file."""
    index = 0
    if plan.compaction is not None:
        compaction = plan.compaction
        time = _time(compaction.record, compaction.line)
        for message in plan.head:
            yield _block(index, message, compaction.id, time, redactor)
            index += 1
    entries = plan.entries
    records = plan.session.records(entries)
    for entry, record in zip(entries, records, strict=True):
        if entry.type == "message":
            message = record["message"]
        else:
            from ink_tui.session.conversation.context import frame_summary
            from ink_tui.session.reading.records import BRANCH_SUMMARY_PREFIX

            message = frame_summary(BRANCH_SUMMARY_PREFIX, str(record["summary"]))
        yield _block(index, message, entry.id, _time(record, entry.line), redactor)
        index += 1


def _entry(session: Any, wanted: str) -> Any:
    """The entry ``wanted`` names (an id or a unique prefix). Raises :class:`ReadError`."""
    entry = session.by_id.get(wanted)
    if entry is not None:
        return entry
    found = [entry for key, entry in session.by_id.items() if key.startswith(wanted)]
    if len(found) == 1:
        return found[0]
    if found:
        raise ReadError(f"{wanted!r} starts {len(found)} entries: give more characters")
    raise ReadError(f"no entry {wanted!r} in the session")


def _ask(low: int, high: int) -> str:
    return (
        f"session_context with a bigger budget_tokens (messages {low}:{high} were left out), "
        "or read_session with entry_id set to fromEntry"
    )


def context_answer(
    base: Path,
    cwd: str,
    session: str,
    *,
    at_entry: str | None = None,
    budget_tokens: int = 4000,
    redactor: Redactor | None = None,
) -> dict[str, Any]:
    """What ``session_context`` answers (see the module's text). Raises :class:`ReadError`."""
    from ink_tui.session import SessionError, open_session
    from ink_tui.session.conversation.context import stream_context
    from ink_tui.session.conversation.resume import (
        model_at,
        resumed_model,
        resumed_thinking,
        thinking_at,
    )

    path = resolved(base, cwd, session)
    try:
        opened = open_session(path, warn=None)
        if at_entry is None:
            leaf = opened.leaf_id
            model, thinking = resumed_model(opened), resumed_thinking(opened)
        else:
            entry = _entry(opened, at_entry)
            leaf = entry.id
            model, thinking = model_at(opened, entry.line), thinking_at(opened, entry.line)
        plan = stream_context(opened, leaf)
        blocks = list(context_blocks(plan, redactor))
    except SessionError as error:
        raise ReadError(error.one_line()) from None
    except OSError as error:
        raise ReadError(f"{path}: {error.strerror or error}") from None
    session_id = opened.header.get("id")
    budget = budget_of(budget_tokens)

    def answer(room: int) -> dict[str, Any]:
        kept, omitted = within_budget(blocks, room, _ask, unit="messages")
        return {
            **session_part(session_id, path),
            "atEntry": None if leaf is None else visible(leaf),
            "model": None if model is None else visible(model.reference),
            "thinkingLevel": thinking,
            "compacted": plan.compacted,
            "compactionBoundary": plan.compaction_boundary,
            "messageCount": len(blocks),
            "messages": [block.to_json(unit="message") for block in kept],
            "budget": budget,
            "omitted": omitted,
            "secretsMasked": 0 if redactor is None else redactor.masked,
        }

    return fitted_answer(answer, budget)
