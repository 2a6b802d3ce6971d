"""One compaction carried out: ask the model for the summary, check it, append the entry.

Both ``/compact`` and the automatic compaction before a turn (when the context estimate is over
Ink's trigger, :mod:`ink_tui.agent.windows`) come here. Nothing is written unless a complete,
non-empty summary came back.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine, Mapping
from dataclasses import dataclass
from typing import Any

from ink_tui.agent.compact import (
    SUMMARIZATION_SYSTEM_PROMPT,
    SUMMARY_MAX_TOKENS,
    CompactionPlan,
    estimate_tokens,
    summary_request,
)
from ink_tui.agent.persist import ChatStore
from ink_tui.agent.providers import stream_turn
from ink_tui.agent.providers.retry import RetryNotice, RetryPolicy
from ink_tui.agent.providers.stream import DEFAULT_TIMEOUT
from ink_tui.session.conversation.context import frame_summary
from ink_tui.session.reading.records import COMPACTION_SUMMARY_PREFIX, USAGE_KEYS
from ink_tui.session.rules.modelref import ModelRef

__all__ = ["Compacted", "CompactionError", "summarise"]

Message = Mapping[str, Any]  # a message as the chat holds it: written or read (recordtypes)
Race = Callable[[Coroutine[Any, Any, Message]], Awaitable[Message | None]]


class CompactionError(RuntimeError):
    """A compaction produced no usable summary; nothing was written."""


@dataclass(frozen=True, slots=True)
class Compacted:
    """The context after a compaction, and Ink's note about it."""

    messages: list[object]
    compaction_boundary: int
    note: str


async def summarise(
    plan: CompactionPlan,
    model: ModelRef,
    *,
    store: ChatStore,
    race: Race,
    thinking: str,
    env: Mapping[str, str] | None,
    timeout: float = DEFAULT_TIMEOUT,
    retry: RetryPolicy | None = None,
    on_retry: RetryNotice | None = None,
) -> Compacted:
    """Summarise ``plan`` with ``model`` and append the ``compaction`` entry.

    ``race`` runs the request against the user's interrupt (``None``: interrupted); a refused
    request is tried again as ``retry`` says, each wait said through ``on_retry``. Raises
    :class:`CompactionError` when the summary is interrupted, cut by the token cap or empty.
    """
    reply = await race(
        stream_turn(
            model,
            SUMMARIZATION_SYSTEM_PROMPT,
            [summary_request(plan)],
            (),
            on_event=lambda event: None,
            env=env,
            thinking=thinking,
            max_tokens=SUMMARY_MAX_TOKENS,
            timeout=timeout,
            retry=retry,
            on_retry=on_retry,
        )
    )
    if reply is None:
        raise CompactionError("compaction: summarizer aborted — incomplete, rejected")
    if reply.get("stopReason") == "max_tokens":
        raise CompactionError("compaction: summary hit the token cap — incomplete, rejected")
    summary = "".join(
        str(b.get("text", "")) for b in reply.get("blocks", ()) if b.get("type") == "text"
    )
    if not summary.strip():
        raise CompactionError("compaction: summarizer returned an empty summary")
    used = reply.get("usage") or {}
    fields: dict[str, object] = {
        "summary": summary,
        "retainedTail": plan.retained,
        "tokensBefore": plan.tokens_before,
        "usage": {key: int(used[key]) for key in USAGE_KEYS if key in used},  # as reported
        "model": model.model_id,
        "modelReference": model.reference,
    }
    if reply.get("usageMissing"):
        fields["usageMissing"] = True
    await store.run(lambda writer: writer.append_entry("compaction", fields))
    messages = [frame_summary(COMPACTION_SUMMARY_PREFIX, summary), *plan.retained]
    boundary = 1 + len(plan.retained)
    after = estimate_tokens(messages, boundary)
    note = (
        f"compacted: ~{plan.tokens_before:,} → ~{after:,} tokens "
        f"({len(plan.retained)} msgs kept verbatim)"
    )
    return Compacted(messages, boundary, note)
