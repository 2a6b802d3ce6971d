"""One pass over a branch's context for everything ``check`` and a continuation ask of it: the
pairing, the first shape no request can carry, the force-quit closing, the count.

The messages stream from the file (:meth:`ContextPlan.messages`): a million-message branch is
read once and never held, where building the context first kept every message alive.
"""

from __future__ import annotations

from dataclasses import dataclass

from ink_tui.session.conversation.context import ContextPlan, stream_context
from ink_tui.session.conversation.pairing import ClosingScan, Pairing, PairingScan
from ink_tui.session.reading.reader import SessionFile
from ink_tui.session.reading.recordtypes import JsonObject
from ink_tui.session.reading.shapes import message_oddity

__all__ = ["ContextScan", "scan_context"]


@dataclass(slots=True)
class ContextScan:
    """What one pass over a context found (the messages themselves are not kept)."""

    plan: ContextPlan
    pairing: Pairing
    oddity: str | None  # reading.shapes.context_oddity of the messages
    closings: ClosingScan

    @property
    def message_count(self) -> int:
        return len(self.plan)

    def closing(self, reason: str) -> JsonObject | None:
        """``synthesizeMissingToolResults`` of the context, with ``reason``."""
        return self.closings.closing(reason)


def scan_context(session: SessionFile, leaf_id: str | None = None) -> ContextScan:
    """Plan the context of the session's leaf (or ``leaf_id``) and scan its messages once.

    Raises ``SessionError`` as :func:`build_context` does, or when the file changed under an
    entry while it was read."""
    plan = stream_context(session, leaf_id)
    pairing, closings = PairingScan(), ClosingScan()
    oddity: str | None = None
    for index, message in enumerate(plan.messages()):
        pairing.add(index, message)
        closings.add(message)
        if oddity is None:
            oddity = message_oddity(index, message)
    return ContextScan(plan, pairing.pairing, oddity, closings)
