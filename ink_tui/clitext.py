"""Plain-text output of the subcommands. All session text goes through :func:`visible`."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from typing import Any

from ink_tui.catalog.scan import SessionSummary
from ink_tui.humanize import human_size, relative_age
from ink_tui.safetext import visible
from ink_tui.session import Context, SessionReport
from ink_tui.session.context import unframe_summary
from ink_tui.session.tree import leaves

__all__ = ["check_lines", "check_verdict", "session_table", "transcript"]


def session_table(rows: Iterable[SessionSummary], *, show_project: bool) -> str:
    """One line per session: id prefix, age, messages, size, [project], title (and why hidden)."""
    lines = []
    for row in rows:
        ident = (row.id or "?")[:8]
        count = "-" if row.message_count is None else str(row.message_count)
        parts = [
            f"{ident:8}",
            f"{relative_age(row.mtime, time.time()):>8}",
            f"{count:>5} msgs",
            f"{human_size(row.size):>9}",
        ]
        if show_project:
            parts.append(visible(row.project_folder))
        title = visible(row.title or "")
        if row.hidden_reason:
            title = f"{title}  [hidden by Ink: {visible(row.hidden_reason)}]".strip()
        parts.append(title)
        lines.append("  ".join(parts))
    return "".join(line + "\n" for line in lines)


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    pieces = []
    for block in content if isinstance(content, list) else ():
        if not isinstance(block, dict):
            continue
        if block.get("type") == "text":
            pieces.append(str(block.get("text", "")))
        elif block.get("type") == "image":
            data = str(block.get("data", ""))
            pieces.append(f"[image {block.get('mimeType', '?')}, {len(data) * 3 // 4} bytes]")
    return "\n".join(pieces)


def _indent(text: str) -> str:
    return "".join(f"    {line}\n" for line in visible(text).split("\n"))


def transcript(context: Context) -> str:
    """The rebuilt context as text: one block per message, tool calls and results named."""
    out = []
    if context.compacted:
        out.append(f"(compacted: the first {context.compaction_boundary} messages are the floor)\n")
    for index, message in enumerate(context.messages):
        role = message.get("role")
        if role == "user":
            framed = unframe_summary(message)
            label = f"{framed[0]} summary" if framed else "user"
            body = framed[1] if framed else _content_text(message.get("content"))
            out.append(f"[{index}] {label}\n{_indent(body)}")
        elif role == "assistant":
            model = message.get("modelReference") or message.get("model") or ""
            out.append(f"[{index}] assistant {visible(str(model))}".rstrip() + "\n")
            for block in message.get("blocks") or ():
                kind = block.get("type") if isinstance(block, dict) else None
                if kind == "text":
                    out.append(_indent(str(block.get("text", ""))))
                elif kind == "thinking":
                    out.append(f"  (thinking)\n{_indent(str(block.get('thinking', '')))}")
                elif kind == "toolCall":
                    arguments = json.dumps(block.get("arguments"), ensure_ascii=False)
                    out.append(
                        f"  → {visible(str(block.get('name')))} {visible(arguments)}"
                        f"  [{visible(str(block.get('id')))}]\n"
                    )
        elif role == "toolResult":
            for result in message.get("results") or ():
                status = "error" if result.get("isError") else "ok"
                out.append(
                    f"[{index}] result of {visible(str(result.get('toolName')))} "
                    f"[{visible(str(result.get('toolCallId')))}] {status}\n"
                    f"{_indent(_content_text(result.get('content')))}"
                )
        else:
            out.append(f"[{index}] {visible(str(role))}\n")
    return "".join(out)


def check_verdict(report: SessionReport) -> tuple[int, str]:
    """``(exit code, verdict)``: 0 continuable as is, 1 repairable, 2 not safely repairable."""
    continuation = report.continuation
    if not continuation.ok:
        return 2, f"not repairable: {continuation.problem}"
    if continuation.repairs:
        return 1, "repairable with `ink-tui repair`: " + "; ".join(continuation.repairs)
    return 0, "ok: Ink opens and continues it as it is"


def check_lines(report: SessionReport) -> list[str]:
    """A human report of everything ``check`` found."""
    session, context, pairing = report.session, report.context, report.pairing
    lines = [str(session.path)]
    lines.append(f"  session   {visible(session.session_id)}  cwd {visible(session.cwd)}")
    lines.append(
        f"  lines     {session.line_count} non-blank: header, {len(session.entries)} entries, "
        f"{len(session.positions)} position, {len(session.session_models)} session_model"
    )
    lines.append(f"  leaf      {visible(str(context.leaf_id))}; {len(leaves(session))} branch(es)")
    compacted = f", compacted (boundary {context.compaction_boundary})" if context.compacted else ""
    lines.append(f"  context   {len(context.messages)} messages{compacted}")
    model = "none" if report.model is None else visible(report.model.reference)
    lines.append(f"  model     {model}")
    if report.name:
        lines.append(f"  name      {visible(report.name)}")
    dropped = session.dropped_final_line
    if dropped is not None:
        lines.append(f"  torn tail line {dropped.line} dropped: {visible(dropped.reason)}")
    elif not session.ends_with_newline:
        lines.append("  torn tail the final record has no newline")
    for entry_id in dict.fromkeys(session.duplicate_ids):
        lines.append(
            f"  warning   entry id {visible(entry_id)} is used more than once (later wins)"
        )
    for marker in session.skipped_markers:
        lines.append(f"  warning   line {marker.line}: {marker.reason} (Ink ignores it)")
    lines.append(f"  pairing   {len(pairing.calls)} tool call(s), {len(pairing.dangling)} dangling")
    for call in pairing.dangling:
        lines.append(
            f"  dangling  {visible(call.id)} ({visible(call.name)}), message {call.message_index}"
        )
    for label, ids in (
        ("duplicate call", pairing.duplicate_calls),
        ("orphan result", pairing.orphan_results),
        ("duplicate result", pairing.duplicate_results),
    ):
        for call_id in ids:
            lines.append(f"  problem   {label}: {visible(call_id)}")
    _, verdict = check_verdict(report)
    lines.append(f"  verdict   {verdict}")
    return lines
