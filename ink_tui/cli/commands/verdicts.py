"""What ``check`` and ``repair`` say about a session: the verdict and its exit code, the report
of everything ``check`` found, and each step of a repair (what it would do, or Ink's own note for
what it did). ``check --all`` and ``repair --all`` say the same, one line per session."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ink_tui.humanize import plural
from ink_tui.session.conversation.pairing import shown_id
from ink_tui.session.reading.shapes import MISSING

if TYPE_CHECKING:  # the commands that print these import them when they run
    from ink_tui.session import SessionReport
    from ink_tui.session.writing.repair import Continuation, TornRepair

__all__ = ["check_lines", "check_verdict", "repair_steps", "would_repair"]


def _closed_ids(plan: Continuation) -> list[str]:
    return [
        shown_id(result.get("toolCallId", MISSING))
        for message in plan.appended
        for result in message["results"]
    ]


def _would_mend(torn: TornRepair) -> str:
    if torn.action == "truncated":
        return f"would drop a {torn.bytes}-byte torn tail"
    return "would add the missing newline after the final record"


def _would_close(closing: list[str]) -> str:
    count = plural(len(closing), "interrupted tool call")
    return f"would close {count} with an explicit unknown-outcome result"


def would_repair(plan: Continuation) -> list[str]:
    """What ``ink-tui repair`` would do, in the conditional: nothing has been done yet.

    (Ink's own notes, ``dropped a N-byte torn tail`` and the like, say what a repair did; they
    are printed only by a real repair, see :func:`repair_steps`.)
    """
    steps: list[str] = []
    if plan.torn is not None:
        steps.append(_would_mend(plan.torn))
    closing = _closed_ids(plan)
    if closing:
        steps.append(_would_close(closing))
    return steps


def check_verdict(report: SessionReport) -> tuple[int, str]:
    """``(exit code, verdict)``: 0 continuable as is, 1 repairable, 2 not safely repairable."""
    from ink_tui.session.writing.repair import complete_record_problem, cut_complete_final_line

    continuation = report.continuation
    if not continuation.ok:
        return 2, f"not repairable: {continuation.problem}"
    if continuation.repairs:
        steps = "; ".join(would_repair(continuation))
        complete = cut_complete_final_line(report.session, continuation.torn)
        if complete is not None:
            return 1, (
                f"repairable with `ink-tui repair --force` ({complete_record_problem(complete)}): "
                + steps
            )
        return 1, "repairable with `ink-tui repair`: " + steps
    return 0, "ok: Ink opens and continues it as it is"


def repair_steps(plan: Continuation, *, dry_run: bool) -> tuple[str | None, str | None]:
    """``(torn tail line, closing line)`` of ``repair``: after a real repair Ink's own note
    first (``dropped a 58-byte torn tail: truncated at byte …``), in a dry run what would be
    done (``would drop a 58-byte torn tail: truncate the file at byte …``)."""
    torn_line = closing_line = None
    torn = plan.torn
    if torn is not None:
        if torn.action == "truncated":
            where = f"byte {torn.offset}" + (f" (line {torn.line})" if torn.line else "")
            detail = (
                f"truncate the file at {where}, keeping the bytes cut in a backup beside it"
                if dry_run
                else f"truncated at {where}"
            )
        else:
            detail = "append a newline" if dry_run else "appended a newline"
        torn_line = f"{_would_mend(torn) if dry_run else torn.note}: {detail}"
    closing = _closed_ids(plan)
    if closing:
        ids = ", ".join(closing)
        if dry_run:
            closing_line = f"{_would_close(closing)}: append one toolResult closing {ids}"
        else:  # Ink's note, verbatim
            closing_line = f"{plan.repairs[-1]}: appended one toolResult closing {ids}"
    return torn_line, closing_line


def check_lines(report: SessionReport) -> list[str]:
    """A human report of everything ``check`` found."""
    from ink_tui.session.conversation.tree import leaves

    session, context, pairing = report.session, report.context, report.pairing
    lines = [str(session.path)]
    lines.append(f"  session   {session.session_id}  cwd {session.cwd}")
    lines.append(
        f"  lines     {session.line_count} non-blank: header, "
        f"{plural(len(session.entries), 'entry', 'entries')}, "
        f"{plural(len(session.positions), 'position marker')}, "
        f"{plural(len(session.session_models), 'session_model marker')}"
    )
    branches = plural(len(leaves(session)), "branch", "branches")
    lines.append(f"  leaf      {context.leaf_id}; {branches}")
    compacted = f", compacted (boundary {context.compaction_boundary})" if context.compacted else ""
    lines.append(f"  context   {plural(len(context), 'message')}{compacted}")
    model = "none" if report.model is None else report.model.reference
    lines.append(f"  model     {model}")
    if report.name:
        lines.append(f"  name      {report.name}")
    dropped = session.dropped_final_line
    if dropped is not None:
        lines.append(f"  torn tail line {dropped.line} is not read: {dropped.reason}")
    elif not session.ends_with_newline:
        lines.append("  torn tail the final record has no newline")
    for entry_id in dict.fromkeys(session.duplicate_ids):
        lines.append(f"  warning   entry id {entry_id} is used more than once (later wins)")
    for marker in session.skipped_markers:
        lines.append(f"  warning   line {marker.line}: {marker.reason} (Ink ignores it)")
    calls = plural(len(pairing.calls), "tool call")
    closed = sum(call.unknown_outcome for call in pairing.calls)
    unknown = f", {closed} closed with unknown outcome ([ink]/[imp])" if closed else ""
    lines.append(f"  pairing   {calls}, {len(pairing.dangling)} dangling{unknown}")
    for call in pairing.dangling:
        lines.append(f"  dangling  {call.id} ({call.name}), message {call.message_index}")
    for label, ids in (
        ("duplicate call", pairing.duplicate_calls),
        ("orphan result", pairing.orphan_results),
        ("duplicate result", pairing.duplicate_results),
    ):
        for call_id in ids:
            lines.append(f"  problem   {label}: {shown_id(call_id)}")
    _, verdict = check_verdict(report)
    lines.append(f"  verdict   {verdict}")
    return lines
