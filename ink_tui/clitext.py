"""Output of the subcommands: :class:`SafeOutput`, the command line's one door to the terminal,
and the texts it prints.

Every byte a subcommand prints, on stdout and on stderr, goes through :class:`SafeOutput`: text is
made visible (:func:`ink_tui.safetext.visible`: escape sequences, control characters and lone
surrogates shown, never obeyed), JSON is encoded once, as ``JSON.stringify`` writes it
(:func:`ink_tui.session.reading.jsoncodec.encode_json`), with what a terminal would obey escaped.
The text builders below therefore return session text as it is: the door makes it safe.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final, TextIO, cast

from ink_tui.humanize import cell_width, cut, human_size, plural, relative_age
from ink_tui.safetext import json_visible, visible
from ink_tui.session.conversation.pairing import shown_id
from ink_tui.session.reading.jsoncodec import encode_json
from ink_tui.session.reading.shapes import MISSING, list_items, not_a_list, not_an_object
from ink_tui.session.rules.content import content_text

if TYPE_CHECKING:  # the commands that print these import them (``search`` never does)
    from ink_tui.catalog.row import SessionSummary
    from ink_tui.session import Context, SessionReport
    from ink_tui.session.writing.repair import Continuation, TornRepair

__all__ = [
    "CommandError",
    "SafeOutput",
    "check_lines",
    "check_verdict",
    "columns",
    "fit_end",
    "fit_start",
    "json_text",
    "pad",
    "repair_steps",
    "session_table",
    "transcript",
    "would_repair",
]


class CommandError(Exception):
    """A failure a command reports as one line on stderr (its exit code is 2)."""


def json_text(value: Any) -> str:
    """``value`` as ``JSON.stringify(value, null, 2)`` safe to print (see :func:`json_visible`)."""
    return json_visible(encode_json(value, indent=True).decode("utf-8"))


class SafeOutput:
    """A terminal stream that only session-safe text reaches.

    ``write`` makes its text visible, so it can stand in for a ``TextIO`` (``print(file=…)``, the
    reader's torn-line note); ``json`` prints a value as JSON.
    """

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(visible(text))
        return len(text)

    def line(self, text: str) -> None:
        """``text`` and a newline."""
        self.write(text + "\n")

    def json(self, value: Any) -> None:
        """``value`` as indented JSON (as JSON.stringify writes it, controls escaped), a newline."""
        self.stream.write(json_text(value) + "\n")

    def flush(self) -> None:
        self.stream.flush()

    def as_textio(self) -> TextIO:
        """This door where a ``TextIO`` is expected (it only needs ``write``)."""
        return cast(TextIO, self)


TITLE_COLUMNS: Final = 60
"""Terminal columns of a title in ``ink-tui list``; a longer one is cut and ends in ``…``."""
PROJECT_COLUMNS: Final = 40
"""The widest project column of ``ink-tui list --all``; a longer folder name keeps its end."""


def columns(text: str) -> int:
    """Terminal columns ``text`` takes: East Asian wide and fullwidth characters count two,
    combining marks none (:func:`ink_tui.humanize.cell_width`)."""
    return len(text) if text.isascii() else cell_width(text)


def fit_end(text: str, width: int) -> str:
    """``text`` in at most ``width`` columns: cut at the end, trailing spaces stripped, ``…``
    (:func:`ink_tui.humanize.cut`, the one cut of every label)."""
    return cut(text, width)


def fit_start(text: str, width: int) -> str:
    """``text`` in at most ``width`` columns, its end kept: ``…`` then the last columns."""
    if columns(text) <= width:
        return text
    return "…" + fit_end(text[::-1], width)[-2::-1].lstrip()


def pad(text: str, width: int) -> str:
    """``text`` followed by spaces up to ``width`` columns."""
    return text + " " * max(0, width - columns(text))


def session_table(rows: Iterable[SessionSummary], *, show_project: bool) -> str:
    """One line per session: id prefix, age, messages, size, [project], title (and why hidden).

    Columns line up in a terminal: the project column is as wide as its widest folder (at most
    :data:`PROJECT_COLUMNS`), and a title longer than :data:`TITLE_COLUMNS` is cut with ``…``
    (session text is made visible first, so the widths are those printed)."""
    rows = list(rows)
    projects = [fit_start(visible(row.project_folder), PROJECT_COLUMNS) for row in rows]
    project_width = max(map(columns, projects), default=0)
    lines = []
    for row, project in zip(rows, projects, strict=True):
        ident = visible((row.id or "?")[:8])
        count = "-" if row.message_count is None else str(row.message_count)
        parts = [
            pad(ident, 8),
            f"{relative_age(row.mtime, time.time()):>8}",
            f"{count:>5} {'msg ' if count == '1' else 'msgs'}",
            f"{human_size(row.size):>9}",
        ]
        if show_project:
            parts.append(pad(project, project_width))
        title = fit_end(visible(row.title or ""), TITLE_COLUMNS)
        if row.hidden_reason:
            title = f"{title}  [hidden by Ink: {row.hidden_reason}]".strip()
        parts.append(title)
        lines.append("  ".join(parts))
    return "".join(line + "\n" for line in lines)


def _transcript_text(content: Any) -> str:
    """A content as the transcript shows it: odd texts shown, each image said in a line."""
    return content_text(content, show_non_string_text=True, describe_images=True)


def _indent(text: str) -> str:
    return "".join(f"    {line}\n" for line in text.split("\n"))


def _assistant_text(index: int, message: dict[str, Any]) -> list[str]:
    model = message.get("modelReference") or message.get("model") or ""
    out = [f"[{index}] assistant {model}".rstrip() + "\n"]
    blocks = message.get("blocks", MISSING)
    odd = not_a_list("blocks", blocks)
    if odd is not None:
        out.append(f"  ⚠ {odd}\n")
    for number, block in enumerate(list_items(blocks)):
        kind = block.get("type") if isinstance(block, dict) else None
        if not isinstance(block, dict):
            out.append(f"  ⚠ {not_an_object(f'block {number}', block)}\n")
        elif kind == "text":
            out.append(_indent(str(block.get("text", ""))))
        elif kind == "thinking":
            out.append(f"  (thinking)\n{_indent(str(block.get('thinking', '')))}")
        elif kind == "toolCall":
            arguments = encode_json(block.get("arguments")).decode("utf-8")
            call_id = shown_id(block.get("id", MISSING))
            name = shown_id(block.get("name", MISSING))
            out.append(f"  → {name} {arguments}  [{call_id}]\n")
    return out


def _results_text(index: int, message: dict[str, Any]) -> list[str]:
    results = message.get("results", MISSING)
    odd = not_a_list("results", results)
    out = [] if odd is None else [f"[{index}] toolResult\n  ⚠ {odd}\n"]
    for number, result in enumerate(list_items(results)):
        if not isinstance(result, dict):
            out.append(f"[{index}] ⚠ {not_an_object(f'result {number}', result)}\n")
            continue
        status = "error" if result.get("isError") else "ok"
        name = shown_id(result.get("toolName", MISSING))
        call_id = shown_id(result.get("toolCallId", MISSING))
        out.append(
            f"[{index}] result of {name} [{call_id}] {status}\n"
            f"{_indent(_transcript_text(result.get('content')))}"
        )
    return out


def transcript(context: Context) -> str:
    """The rebuilt context as text: one block per message, tool calls and results named, and
    any shape Ink's code would trip on marked with ``⚠``."""
    from ink_tui.session.conversation.context import unframe_summary

    out = []
    if context.compacted:
        out.append(f"(compacted: the first {context.compaction_boundary} messages are the floor)\n")
    for index, message in enumerate(context.messages):
        if not isinstance(message, dict):
            out.append(f"[{index}] ⚠ {not_an_object('message', message)}\n")
            continue
        role = message.get("role")
        if role == "user":
            framed = unframe_summary(message)
            label = f"{framed[0]} summary" if framed else "user"
            body = framed[1] if framed else _transcript_text(message.get("content"))
            out.append(f"[{index}] {label}\n{_indent(body)}")
        elif role == "assistant":
            out.extend(_assistant_text(index, message))
        elif role == "toolResult":
            out.extend(_results_text(index, message))
        else:
            out.append(f"[{index}] {role}\n")
    return "".join(out)


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
    are printed only by a real repair, see :func:`repair_lines`.)
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
    lines.append(f"  context   {plural(len(context.messages), 'message')}{compacted}")
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
