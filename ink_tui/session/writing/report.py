"""One summary of a session for ``ink-tui check`` and the conformance tests.

Its JSON is the shape of the shared fixtures' ``.pairs.json``: the state a resume restores, the
tool-call pairing, the force-quit fill-in, the child-resume verdict and the torn-tail repair.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ink_tui.session.conversation.context import ContextPlan
from ink_tui.session.conversation.contextscan import ContextScan, scan_context
from ink_tui.session.conversation.pairing import FORCE_QUIT_REASON, Pairing
from ink_tui.session.conversation.tree import (
    explicit_model_selection,
    labels,
    restored_model,
    session_name,
    thinking_level,
)
from ink_tui.session.reading.errors import SessionError
from ink_tui.session.reading.reader import SessionFile
from ink_tui.session.rules.modelref import ModelRef
from ink_tui.session.writing.repair import (
    Continuation,
    TornRepair,
    plan_continuation,
    plan_torn_repair,
)

__all__ = ["SessionReport", "report_session"]


@dataclass(slots=True)
class SessionReport:
    """What ``check`` knows about an opened session whose branch could be walked."""

    session: SessionFile
    scan: ContextScan  # the leaf's context, scanned once (its messages are not kept)
    model: ModelRef | None
    name: str | None
    continuation: Continuation
    torn_repair: TornRepair | None

    @property
    def context(self) -> ContextPlan:
        return self.scan.plan

    @property
    def pairing(self) -> Pairing:
        return self.scan.pairing

    def to_json(self) -> dict[str, Any]:
        session = self.session
        synthesized = self.scan.closing(FORCE_QUIT_REASON)
        return {
            "ok": True,
            "leafId": self.context.leaf_id,
            "tornFinalLine": session.torn_final_line,
            "droppedFinalLine": session.dropped_final_line is not None,
            "model": None if self.model is None else self.model.to_json(),
            "explicitModelSelection": explicit_model_selection(session),
            "name": self.name,
            "thinkingLevel": thinking_level(session),
            "labels": labels(session),
            "messageCount": self.scan.message_count,
            **self.pairing.to_json(),
            "synthesized": [] if synthesized is None else [synthesized],
            "continuation": self.continuation.to_json(),
            "tornRepair": None if self.torn_repair is None else self.torn_repair.to_json(),
        }


def report_session(session: SessionFile) -> SessionReport:
    """Build the report. Raises :class:`SessionError` when the branch cannot be walked."""
    scan = scan_context(session)
    model, _ = restored_model(session)
    return SessionReport(
        session=session,
        scan=scan,
        model=model,
        name=session_name(scan.plan.branch),
        continuation=plan_continuation(session, scan),
        torn_repair=plan_torn_repair(session),
    )


def error_json(error: SessionError) -> dict[str, Any]:
    """``{"ok": false, "error": ...}`` as in the fixtures."""
    return {"ok": False, "error": error.message}
