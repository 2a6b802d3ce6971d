"""``ink-tui changes``: what a session's branch changed in the files, through ``edit`` and
``write`` (:mod:`ink_tui.session.analysis.changes`).

Without ``--patch``: a summary per file (+/- lines, turns, failed calls), which files each turn
changed, and each file's net diff (coloured on a terminal), or its edits one by one where the start
or the end is not known. ``--patch``: one unified diff that ``git apply`` and GNU ``patch -p1``
apply alike, of the files whose start and end are known, named relative to the session's cwd and
quoted as git quotes them; the files left out (not reconstructed, or a name the patch must not
write: :func:`~ink_tui.session.analysis.changediff.patch_name`) are named on stderr, one line each
with the reason (exit 1). File content is session text: every byte of it goes through
:class:`SafeOutput`, and every path printed inside a line through :func:`~ink_tui.safetext.one_line`
(a newline in a name cannot fake a line). Nothing here reads the files named or writes any.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ink_tui.cli.output import CommandError, SafeOutput
from ink_tui.safetext import one_line

if TYPE_CHECKING:
    from ink_tui.session.analysis.changediff import DiffLine
    from ink_tui.session.analysis.changes import FileChanges
    from ink_tui.session.conversation.view import Turn

__all__ = ["add_arguments", "run"]

EXIT_OK, EXIT_INCOMPLETE = 0, 1
_COLOURS = {"add": "32", "remove": "31", "hunk": "36", "note": "2", "title": "1", "failed": "31"}


class ChangesCommandError(CommandError):
    """A failure to report as one line on stderr (exit 2)."""


def add_arguments(changes: argparse.ArgumentParser) -> None:
    """The ``changes`` command's arguments and description."""
    changes.description = (
        "Every file the branch touched through edit and write: the net change "
        "(from the content a read or write showed first to the content after the last "
        "change), per turn and in total; failed edits marked. Changes made by bash are not "
        "seen. Exit 1 with --patch when some files are left out of it (not reconstructed, or "
        "a name a patch must not write: outside the session's folder, in .git, control "
        "characters); each is named on stderr."
    )
    changes.add_argument("session", metavar="SESSION", help="path, id, id prefix or file name")
    changes.add_argument(
        "--branch", metavar="LEAF_ID", help="the branch ending at this entry (default: the leaf)"
    )
    changes.add_argument(
        "--patch",
        action="store_true",
        help="a unified diff (git apply, patch -p1) of the files whose start and end are known",
    )


def run(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
    """``ink-tui changes SESSION [--branch LEAF_ID] [--patch]``."""
    from ink_tui.catalog.roots import resolve_anywhere
    from ink_tui.session import SessionError, branch, open_session
    from ink_tui.session.analysis.changes import collect_changes
    from ink_tui.session.conversation.tree import entry_named
    from ink_tui.session.conversation.view import build_turns

    path = resolve_anywhere(base, cwd, args.session)
    err = SafeOutput(sys.stderr)
    try:
        session = open_session(path, warn=err.as_textio())
        leaf = None if args.branch is None else entry_named(session, args.branch)
        turns = build_turns(branch(session, leaf))
    except SessionError as error:
        raise ChangesCommandError(error.one_line()) from None
    files = collect_changes(turns, session.cwd)
    if args.patch:
        note = _mapped_note(path, session.cwd)
        if note is not None:
            err.line(f"ink-tui: {one_line(note)}")
        return _patch(files, out, err)
    _report(files, turns, out, colour=out.stream.isatty())
    return EXIT_OK


def _mapped_note(path: Path, cwd: str) -> str | None:
    """For another machine's session whose cwd that machine's path map moves: where the patch
    applies here (its names are relative to the session's cwd)."""
    from ink_tui.paths import mirrored_machine

    machine = mirrored_machine(path)
    if machine is None:
        return None
    from ink_tui.archive.machines import readable_mirrors

    root = next((root for root in readable_mirrors()[0] if root.machine == machine), None)
    if root is None or not root.mapped(cwd):
        return None
    here = root.here(cwd)
    return (
        f"{machine}'s session ran in {cwd}, which is {here} here (the machine's path map): "
        f"the names are relative to it, so the patch applies in {here}"
    )


def _patch(files: list[FileChanges], out: SafeOutput, err: SafeOutput) -> int:
    from ink_tui.session.analysis.changediff import patch_parts

    missing = 0
    for part in patch_parts(files):
        if part.why:
            err.line(f"ink-tui: {one_line(part.change.path)}: {one_line(part.why)}")
            missing += 1
        else:
            out.write(part.text)
    return EXIT_INCOMPLETE if missing else EXIT_OK


def _paint(out: SafeOutput, text: str, kind: str, colour: bool) -> None:
    """One line, coloured on a terminal: the colour is ours, the text goes through the door."""
    code = _COLOURS.get(kind) if colour else None
    if code is None:
        out.line(text)
        return
    out.stream.write(f"\x1b[{code}m")
    out.write(text)
    out.stream.write("\x1b[0m\n")


def _report(files: list[FileChanges], turns: list[Turn], out: SafeOutput, *, colour: bool) -> None:
    from ink_tui.humanize import plural
    from ink_tui.session.analysis.changediff import diff_lines, net_counts, summary_parts, turn_diff

    if not files:
        out.line("no file was changed through edit or write on this branch")
        return
    nets = [net_counts(change) for change in files]
    known = [net for net in nets if net is not None]
    total = f"+{sum(a for a, _ in known)} -{sum(r for _, r in known)}"
    unknown = len(files) - len(known)
    tail = f" ({unknown} not reconstructed)" if unknown else ""
    _paint(out, f"{plural(len(files), 'file')} changed: {total}{tail}", "title", colour)
    names = {change.absolute: one_line(change.path) for change in files}  # each on one line
    width = max(len(name) for name in names.values())
    pairs = zip(files, nets, strict=True)
    summaries = ["  ".join(summary_parts(change, net)) for change, net in pairs]
    for change, summary in zip(files, summaries, strict=True):
        why = "" if change.known else f"  (not reconstructed: {one_line(change.why_unknown())})"
        out.line(f"  {names[change.absolute]:<{width}}  {summary}{why}")
    out.line("")
    _paint(out, "Per turn", "title", colour)
    for index, turn in enumerate(turns):
        touched = [change for change in files if index in change.turns]
        if touched:
            out.line(f"  turn {index + 1}: {one_line(turn.title[:72])}")
            for change in touched:
                out.line(f"    {names[change.absolute]:<{width}}  {_turn_summary(change, index)}")
    for change, summary in zip(files, summaries, strict=True):
        out.line("")
        _paint(out, f"── {names[change.absolute]}  {summary}", "title", colour)
        if change.known:
            _lines(out, diff_lines(change.start, change.end), colour)
            for call in change.calls:
                if call.failed:
                    label = f"✗ failed {call.kind} in turn {call.turn + 1}: {one_line(call.note)}"
                    _paint(out, label, "failed", colour)
            continue
        why = one_line(change.why_unknown())
        _paint(out, f"not reconstructed: {why}; its changes turn by turn:", "note", colour)
        for index in change.turns:
            _paint(out, f"turn {index + 1}", "hunk", colour)
            _lines(out, turn_diff(change, index), colour)


def _turn_summary(change: FileChanges, turn: int) -> str:
    from ink_tui.humanize import plural
    from ink_tui.session.analysis.changediff import counts

    before, after = change.turn_span(turn)
    mine = [call for call in change.calls if call.turn == turn]
    failed = sum(1 for call in mine if call.failed)
    parts = []
    if before is not None and after is not None:
        added, removed = counts(before, after)
        if added or removed or not failed:
            parts.append(f"+{added} -{removed}")
    else:
        parts.append(plural(len(mine) - failed, "change"))
    if failed:
        parts.append(f"✗ {failed} failed")
    return "  ".join(parts)


def _lines(out: SafeOutput, lines: list[DiffLine], colour: bool) -> None:
    for line in lines:
        _paint(out, line.text, line.kind, colour)
