"""Diffs of what a branch changed (:mod:`ink_tui.session.changes`): unified diffs ``git apply``
takes, the lines of a diff to colour, and the +/- counts. Pure: standard library ``difflib``."""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from ink_tui.session.changes import ChangeCall, FileChanges
from ink_tui.session.shapes import list_items

__all__ = [
    "DiffLine",
    "call_diff",
    "counts",
    "diff_lines",
    "edit_arguments_diff",
    "file_patch",
    "net_counts",
    "split_lines",
    "summary_parts",
    "turn_diff",
]

LineKind = Literal["add", "remove", "same", "hunk", "note"]
NO_NEWLINE = "\\ No newline at end of file"


@dataclass(frozen=True, slots=True)
class DiffLine:
    """One line of a diff as shown: its kind and its text (without the newline)."""

    kind: LineKind
    text: str


def edit_arguments_diff(arguments: dict[str, Any]) -> str:
    """An ``edit`` call's replacements as one unified diff, as asked (not as applied: the
    replay and the export show what the call said)."""
    path = str(arguments.get("path", ""))
    diff: list[str] = []
    for edit in list_items(arguments.get("edits")):
        if not isinstance(edit, dict):
            continue
        old = str(edit.get("oldText", "")).splitlines()
        new = str(edit.get("newText", "")).splitlines()
        diff.extend(difflib.unified_diff(old, new, path, path, lineterm="", n=2))
    return "\n".join(diff)


def split_lines(text: str | None) -> list[str]:
    """``text`` cut after each ``\\n`` only (``str.splitlines`` also cuts at ``\\r`` and
    Unicode separators, which a patch must keep inside a line)."""
    if not text:
        return []
    lines = text.split("\n")
    last = lines.pop()
    return [line + "\n" for line in lines] + ([last] if last else [])


def _hunks(before: list[str], after: list[str], context: int) -> Iterator[list[DiffLine]]:
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    for group in matcher.get_grouped_opcodes(context):
        first, last = group[0], group[-1]
        a0, a1, b0, b1 = first[1], last[2], first[3], last[4]
        head = f"@@ -{_range(a0, a1 - a0)} +{_range(b0, b1 - b0)} @@"
        lines = [DiffLine("hunk", head)]
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                lines += [DiffLine("same", " " + line) for line in before[i1:i2]]
                continue
            if tag in ("replace", "delete"):
                lines += [DiffLine("remove", "-" + line) for line in before[i1:i2]]
            if tag in ("replace", "insert"):
                lines += [DiffLine("add", "+" + line) for line in after[j1:j2]]
        yield lines


def _range(start: int, length: int) -> str:
    if length == 1:
        return str(start + 1)
    return f"{start if length == 0 else start + 1},{length}"


def diff_lines(before: str | None, after: str | None, *, context: int = 3) -> list[DiffLine]:
    """The hunks from ``before`` to ``after`` (``None``: empty), each line's text with its
    ``+``/``-``/space and without its newline; a last line without one gets git's note."""
    out: list[DiffLine] = []
    for hunk in _hunks(split_lines(before), split_lines(after), context):
        for line in hunk:
            if line.kind == "hunk" or line.text.endswith("\n"):
                out.append(DiffLine(line.kind, line.text.removesuffix("\n")))
            else:
                out += [line, DiffLine("note", NO_NEWLINE)]
    return out


def counts(before: str | None, after: str | None) -> tuple[int, int]:
    """Lines added and removed from ``before`` to ``after``."""
    added = removed = 0
    matcher = difflib.SequenceMatcher(None, split_lines(before), split_lines(after), False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            removed += i2 - i1
            added += j2 - j1
    return added, removed


def file_patch(change: FileChanges) -> str:
    """A ``git apply`` patch from the file's start to its end (its path relative to the
    session's cwd). Only for a file whose start and end are known."""
    if not change.known:
        raise ValueError(f"{change.path}: {change.why_unknown()}")
    if not change.changed or (change.start == change.end and not change.created):
        return ""
    path = change.path
    head = [f"diff --git a/{path} b/{path}"]
    if change.created:
        head += ["new file mode 100644", "--- /dev/null"]
    else:
        head.append(f"--- a/{path}")
    head.append(f"+++ b/{path}")
    body = diff_lines(change.start, change.end)
    if not body and not change.created:
        return ""
    return "".join(line + "\n" for line in head) + "".join(line.text + "\n" for line in body)


def call_diff(call: ChangeCall) -> list[DiffLine]:
    """One call as a diff: from the content before to after when both are known, else the
    text it replaced (each edit's ``oldText`` against its ``newText``, a write's content)."""
    if call.before is not None and call.after is not None and not call.failed:
        return diff_lines(call.before, call.after)
    out: list[DiffLine] = []
    for old, new in call.pieces():
        out.append(DiffLine("hunk", "@@ edit @@" if call.kind == "edit" else "@@ write @@"))
        out += [DiffLine("remove", "-" + line.removesuffix("\n")) for line in split_lines(old)]
        out += [DiffLine("add", "+" + line.removesuffix("\n")) for line in split_lines(new)]
    return out


def turn_diff(change: FileChanges, turn: int) -> list[DiffLine]:
    """What turn ``turn`` did to the file: its net diff when the content before and after it is
    known (then its failed calls), else each of its calls in turn (failed ones said so)."""
    before, after = change.turn_span(turn)
    mine = [call for call in change.calls if call.turn == turn]
    if before is not None and after is not None and all(c.after is not None for c in mine):
        out = diff_lines(before, after)
        shown = [call for call in mine if call.failed]
    else:
        out, shown = [], mine
    for call in shown:
        mark = "failed " if call.failed else ""
        note = f": {call.note}" if call.note else ""
        out.append(DiffLine("note", f"{mark}{call.kind}{note}"))
        out += call_diff(call)
    return out


def net_counts(change: FileChanges) -> tuple[int, int] | None:
    """Lines added and removed from the file's start to its end (None: not reconstructed)."""
    return counts(change.start, change.end) if change.known else None


def summary_parts(change: FileChanges, net: tuple[int, int] | None) -> list[str]:
    """What a file's summary says after its path: ``+6 -2`` (``net``, from :func:`net_counts`;
    ``?`` when None), ``new``, the turns, the failed calls."""
    parts = [f"+{net[0]} -{net[1]}" if net is not None else "?"]
    if change.created:
        parts.append("new")
    turns = change.turns
    parts.append(f"turn {turns[0] + 1}" if len(turns) == 1 else f"{len(turns)} turns")
    if change.failed:
        parts.append(f"✗ {change.failed} failed")
    return parts
