"""Diffs of what a branch changed (:mod:`ink_tui.session.analysis.changes`): unified diffs ``git
apply``
and GNU ``patch -p1`` apply alike, the lines of a diff to colour, and the +/- counts. Pure:
standard library ``difflib``.

A patch names files, and the names come from the session, which anyone can write: a name is the
one thing in a patch that decides *where* it writes. :func:`patch_name` is the rule for what may
be named (a plain file name inside the session's folder, never in a ``.git`` folder), and
:func:`git_quoted` writes it exactly as ``git diff`` does, so that both tools read it back to
the same bytes. :func:`patch_parts` is the whole patch: a text per file, or why it is left out.
"""

from __future__ import annotations

import difflib
import posixpath
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

from ink_tui.safetext import one_line, visible
from ink_tui.session.analysis.changes import ChangeCall, FileChanges
from ink_tui.session.reading.shapes import list_items

__all__ = [
    "DiffLine",
    "NotInPatch",
    "PatchPart",
    "call_diff",
    "counts",
    "diff_lines",
    "edit_arguments_diff",
    "file_patch",
    "git_quoted",
    "net_counts",
    "patch_name",
    "patch_parts",
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
    replay and the export show what the call said). The path is shown on one line (a newline
    in it would fake a header line of the diff)."""
    path = one_line(str(arguments.get("path", "")))
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


class NotInPatch(Exception):
    """Why a file is left out of a patch: one line in ink-tui's words."""


# Git's C-quoting (quote.c, ``quote_c_style`` with core.quotePath on, git's default): these
# bytes have a letter, every other control byte, DEL and every byte of a non-ASCII character an
# octal escape; a name holding any of them is written in double quotes.
_C_ESCAPES = {7: "a", 8: "b", 9: "t", 10: "n", 11: "v", 12: "f", 13: "r", 34: '"', 92: "\\"}
# What HFS+ ignores in a name (git's is_hfs_dotgit): ".git" with one of them is ".git" there.
_HFS_IGNORED = re.compile("[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]")
NAME_MAX = 255  # bytes in one part of a name: no common file system takes more


def git_quoted(name: str) -> str:
    """``name`` as ``git diff`` writes it in a patch header (``a/…``, ``b/…`` included): as it
    is when it holds only printable ASCII other than ``"`` and ``\\``, else in double quotes with
    git's C escapes, every byte of a non-ASCII character as ``\\ooo`` (core.quotePath)."""
    raw = name.encode("utf-8", "surrogatepass")
    if all(0x20 <= byte < 0x7F and byte not in (0x22, 0x5C) for byte in raw):
        return name
    out = ['"']
    for byte in raw:
        if byte in _C_ESCAPES:
            out.append("\\" + _C_ESCAPES[byte])
        elif byte < 0x20 or byte >= 0x7F:
            out.append(f"\\{byte:03o}")
        else:
            out.append(chr(byte))
    out.append('"')
    return "".join(out)


def _is_dotgit(part: str) -> bool:
    """``part`` names a ``.git`` folder on some file system git protects (git's is_ntfs_dotgit
    and is_hfs_dotgit: any case, trailing dots and spaces, an NTFS stream after ``:``,
    ``git~1``, HFS+'s ignored characters; a backslash is a separator on Windows)."""
    for piece in part.split("\\"):
        folded = _HFS_IGNORED.sub("", piece).lower().split(":", 1)[0].rstrip(" .")
        if folded in (".git", "git~1"):
            return True
    return False


def patch_name(change: FileChanges) -> str:
    """The file's name in a patch: relative to the session's folder, and a plain file name that
    ``git apply`` and GNU ``patch -p1`` both write exactly where it says, inside the folder they
    run in. Raises :class:`NotInPatch` with why, when:

    - the session's folder is not an absolute path, or is ``/`` (every file is "inside" it:
      a patch of the whole file system is not a project's);
    - a call names it with an empty name, a control character (newline, tab, escape, bidi
      override: what :func:`~ink_tui.safetext.one_line` shows), or as a folder (``.``, ``..``,
      ``/`` at the end);
    - it is outside the session's folder, absolute or climbing out with ``..`` (once
      normalised, as Ink resolves it: ``src/../a.py`` is ``a.py``);
    - a part of it is a ``.git`` folder, anywhere (git's own files: hooks and config run code,
      in a nested repository too; ``git apply`` refuses such a patch whole);
    - it ends in a space (GNU patch drops it), or a part is longer than 255 bytes.
    """
    cwd = change.cwd
    if not cwd.startswith("/"):
        raise NotInPatch("the session's folder is not an absolute path")
    cwd = posixpath.normpath(cwd)
    if not cwd.strip("/"):
        raise NotInPatch("the session ran in / (a patch is made for a project's folder)")
    for call in change.calls:
        requested = str(call.arguments.get("path", ""))
        if not requested:
            raise NotInPatch("its name is empty")
        if one_line(requested) != requested:
            raise NotInPatch("its name holds a control character")
        if requested.endswith("/") or requested.rsplit("/", 1)[-1] in (".", ".."):
            raise NotInPatch("its name is a folder's, not a file's")
    absolute = change.absolute
    if absolute == cwd:
        raise NotInPatch("its name is a folder's, not a file's")
    if not absolute.startswith(cwd + "/"):
        raise NotInPatch("outside the session's folder")
    name = absolute[len(cwd) + 1 :]
    if any(_is_dotgit(part) for part in name.split("/")):
        raise NotInPatch("inside a .git folder (git's own files)")
    if name.endswith(" "):
        raise NotInPatch("its name ends in a space (GNU patch would drop it)")
    if any(len(part.encode("utf-8")) > NAME_MAX for part in name.split("/")):
        raise NotInPatch(f"a part of its name is longer than {NAME_MAX} bytes")
    return name


def _label(prefix: str, name: str) -> str:
    """A ``---``/``+++`` label as git writes it: quoted, and a tab after it when it holds a
    space (GNU patch reads a name with spaces up to the tab)."""
    quoted = git_quoted(prefix + name)
    return quoted + "\t" if " " in quoted else quoted


def file_patch(change: FileChanges) -> str:
    """The patch from the file's start to its end, named by :func:`patch_name` (raises
    :class:`NotInPatch`), written as ``git diff`` writes it. Only for a file whose start and end
    are known (``ValueError`` otherwise); "" when nothing changed."""
    if not change.known:
        raise ValueError(f"{change.path}: {change.why_unknown()}")
    if not change.changed or (change.start == change.end and not change.created):
        return ""
    name = patch_name(change)
    head = [f"diff --git {git_quoted('a/' + name)} {git_quoted('b/' + name)}"]
    if change.created:
        head += ["new file mode 100644", "--- /dev/null"]
    else:
        head.append(f"--- {_label('a/', name)}")
    head.append(f"+++ {_label('b/', name)}")
    body = diff_lines(change.start, change.end)
    if not body and not change.created:
        return ""
    return "".join(line + "\n" for line in head) + "".join(line.text + "\n" for line in body)


@dataclass(frozen=True, slots=True)
class PatchPart:
    """One file of ``changes --patch``: its patch text, or why it is left out (``why``)."""

    change: FileChanges
    text: str = ""
    why: str = ""  # "not reconstructed: …" or "not in the patch: …"; "" when in the patch


def _part(change: FileChanges) -> PatchPart:
    if not change.changed:  # only failed calls: nothing to say
        return PatchPart(change)
    try:
        patch_name(change)
    except NotInPatch as refused:
        return PatchPart(change, why=f"not in the patch: {refused}")
    if not change.known:
        return PatchPart(change, why=f"not reconstructed: {change.why_unknown()}")
    text = file_patch(change)
    if visible(text) != text:  # printed safely, a carriage return or escape would change
        reason = "its content holds control characters (CRLF line endings?)"
        return PatchPart(change, why=f"not in the patch: {reason}")
    return PatchPart(change, text)


def patch_parts(files: Iterable[FileChanges]) -> list[PatchPart]:
    """Every file's part of one patch, in order: its text ("" when it did not change), or why it
    is left out. A file whose folder is another file of the patch is left out too: no tool can
    write both, and ``git apply`` would refuse the whole patch."""
    parts = [_part(change) for change in files]
    names = {patch_name(part.change) for part in parts if part.text}
    out = []
    for part in parts:
        if part.text:
            name = patch_name(part.change)
            folders = [name.rsplit("/", depth)[0] for depth in range(1, name.count("/") + 1)]
            clash = next((folder for folder in folders if folder in names), None)
            if clash is not None:
                part = PatchPart(part.change, why=f"not in the patch: {clash} is a file in it")
        out.append(part)
    return out


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
