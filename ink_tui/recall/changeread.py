"""``session_changes``: the files a session's branch changed through ``edit`` and ``write``, as
``ink-tui changes`` finds them (:func:`ink_tui.session.analysis.changes.collect_changes`).

Each file: its path (relative to the session's cwd when inside it), the net lines added and
removed (``null`` when the start or the end is not known, with why), whether the session created
it, the turns that touched it and the failed calls. Then the diffs, file by file, while the
budget lasts: the net diff where it is known, else each turn's changes; a diff that does not fit
is cut at a line and says how many lines were left out, and the files whose diffs were left out
whole are named (``diffsOmitted``). Paths and diffs are session text: masked and made visible.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ink_tui.export.redact import Redactor
from ink_tui.recall.budget import item_tokens, leading
from ink_tui.recall.reading import (
    ReadError,
    budget_of,
    fitted_answer,
    resolved,
    session_part,
    shown_text,
)

if TYPE_CHECKING:
    from ink_tui.session.analysis.changes import FileChanges

__all__ = ["changes_answer"]


def _diff(change: FileChanges) -> list[str]:
    """The file's diff as lines: net when known, else turn by turn."""
    from ink_tui.session.analysis.changediff import diff_lines, turn_diff

    if change.known:
        return [line.text for line in diff_lines(change.start, change.end)]
    lines: list[str] = []
    for turn in change.turns:
        lines.append(f"## turn {turn + 1}")
        lines += [line.text for line in turn_diff(change, turn)]
    return lines


def _summary(change: FileChanges, redactor: Redactor | None) -> dict[str, Any]:
    from ink_tui.session.analysis.changediff import net_counts

    net = net_counts(change)
    return {
        "path": shown_text(change.path, redactor),
        "added": None if net is None else net[0],
        "removed": None if net is None else net[1],
        "created": change.created,
        "turns": [turn + 1 for turn in change.turns],
        "failedCalls": change.failed,
        "notReconstructed": shown_text(change.why_unknown(), redactor) or None,
    }


def _cut_diff(lines: list[str], room: int) -> str | None:
    """The diff's first lines that fit ``room`` tokens, saying how many were cut; ``None``
    when not even a line fits."""
    text = "\n".join(lines)
    if item_tokens(text, depth=3) <= room:
        return text
    keep = leading(lines, lambda line: item_tokens(line, depth=0), room - 20)
    if keep == 0:
        return None
    return "\n".join([*lines[:keep], f"… {len(lines) - keep:,} more lines cut (the budget)"])


def changes_answer(
    base: Path,
    cwd: str,
    session: str,
    *,
    budget_tokens: int = 4000,
    redactor: Redactor | None = None,
) -> dict[str, Any]:
    """What ``session_changes`` answers (see the module's text). Raises :class:`ReadError`."""
    from ink_tui.session import SessionError, branch, open_session
    from ink_tui.session.analysis.changes import collect_changes
    from ink_tui.session.conversation.view import build_turns

    path = resolved(base, cwd, session)
    try:
        opened = open_session(path, warn=None)
        files = collect_changes(build_turns(branch(opened)), opened.cwd)
    except SessionError as error:
        raise ReadError(error.one_line()) from None
    except OSError as error:
        raise ReadError(f"{path}: {error.strerror or error}") from None
    files = [change for change in files if change.calls]
    summaries = [_summary(change, redactor) for change in files]
    # Each diff masked whole (a private key spans lines), then split into its lines again.
    diffs = [shown_text("\n".join(_diff(change)), redactor).split("\n") for change in files]
    diffs = [[] if lines == [""] else lines for lines in diffs]
    session_id = opened.header.get("id")
    budget = budget_of(budget_tokens)
    known = [s for s in summaries if s["added"] is not None]

    def answer(room: int) -> dict[str, Any]:
        listed = leading(summaries, item_tokens, room)
        left = room - sum(item_tokens(summary) for summary in summaries[:listed])
        shown: list[dict[str, Any]] = []
        omitted: list[str] = []
        for summary, lines in zip(summaries[:listed], diffs[:listed], strict=True):
            cut = _cut_diff(lines, left) if lines else ""
            if cut is None:
                omitted.append(summary["path"])
                shown.append({**summary, "diff": None})
                continue
            left -= item_tokens(cut, depth=3) + 4
            shown.append({**summary, "diff": cut})
        return {
            **session_part(session_id, path),
            "cwd": shown_text(opened.cwd, redactor),
            "filesChanged": len(files),
            "added": sum(summary["added"] for summary in known),
            "removed": sum(summary["removed"] for summary in known),
            "notReconstructed": len(files) - len(known),
            "files": shown,
            "filesOmitted": len(files) - listed,
            "diffsOmitted": omitted,
            "budget": budget,
            "secretsMasked": 0 if redactor is None else redactor.masked,
            "note": "changes made by bash are not seen; ask with a bigger budget_tokens for "
            "what was cut or omitted",
        }

    return fitted_answer(answer, budget)
