"""Ink's edit tool: how an ``edit`` call's ``edits`` change a file's text (``edit.ts``).

Every ``oldText`` is matched against the ORIGINAL text, never incrementally, and must be found
exactly once; no two edits may overlap; an edit must change something. Line endings are
normalised to LF for the matching (in the text and in every ``oldText``/``newText``), and the
file keeps its BOM and its dominant line ending (CRLF when CRLF lines outnumber LF-only ones).
All edits apply or none does.

A refusal is an :class:`EditRefused` carrying its :class:`EditProblem` (and the edit's index,
the match count or the line), never words: the edit tool words it as Ink does
(:func:`ink_tui.agent.tools.files.edit_refusal_text`), and the changes analysis says with it why
an edit does not apply to the content it knows. Pure: nothing here reads or writes a file.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum

__all__ = [
    "AppliedEdit",
    "EditProblem",
    "EditRefused",
    "EditedText",
    "edit_pairs",
    "edit_text",
    "normalize_eol",
]

BOM = "\ufeff"


class EditProblem(Enum):
    """Why an ``edit`` call does not apply."""

    NO_EDITS = "no edits"  # ``edits`` is empty (or, in a session file, not a list)
    NOT_AN_OBJECT = "not an object"  # an item of ``edits`` (only in a session file: Ink
    # validates the arguments before the tool runs)
    EMPTY_OLD_TEXT = "empty oldText"
    NO_CHANGE = "no change"  # ``newText`` equals ``oldText``
    NOT_FOUND = "not found"
    FOUND_MANY = "found more than once"
    OVERLAP = "overlap"


class EditRefused(Exception):
    """An edit call that does not apply: :attr:`problem`, and where.

    ``index`` is the edit's place in ``edits`` (``None`` for :attr:`EditProblem.NO_EDITS` and
    :attr:`EditProblem.OVERLAP`), ``matches`` how often ``oldText`` was found
    (:attr:`EditProblem.FOUND_MANY`), ``line`` the original line where the overlap starts
    (:attr:`EditProblem.OVERLAP`).
    """

    def __init__(
        self, problem: EditProblem, index: int | None = None, *, matches: int = 0, line: int = 0
    ) -> None:
        super().__init__(problem.value if index is None else f"edits[{index}]: {problem.value}")
        self.problem = problem
        self.index = index
        self.matches = matches
        self.line = line


@dataclass(frozen=True, slots=True)
class AppliedEdit:
    """One edit as applied: the original line it starts on, its old and new text (LF)."""

    line: int
    old: str
    new: str


@dataclass(frozen=True, slots=True)
class EditedText:
    """A text before and after an edit call.

    ``before`` and ``after`` are without the BOM and with LF line endings (what the edits were
    matched against, and their result); :attr:`content` is what the edit tool writes.
    """

    before: str
    after: str
    applied: tuple[AppliedEdit, ...]  # in the order they stand in the text
    bom: str
    ending: str  # "\n" or "\r\n"

    @property
    def content(self) -> str:
        """The new file text: the BOM kept, the file's line ending restored."""
        after = self.after if self.ending == "\n" else self.after.replace("\n", self.ending)
        return self.bom + after


def normalize_eol(text: str) -> str:
    """``text`` with CRLF and lone CR line endings made LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def edit_pairs(edits: object) -> Iterator[tuple[str, str]]:
    """The ``(oldText, newText)`` pairs of an ``edits`` argument as a session file holds it,
    read one at a time (so a refusal names the first bad edit, in order): a missing text is
    ``""``, a text that is not a string is taken as Python's ``str`` of it. Raises
    :class:`EditRefused` (:attr:`~EditProblem.NO_EDITS` when ``edits`` is not a list,
    :attr:`~EditProblem.NOT_AN_OBJECT` at an item that is not an object)."""
    if not isinstance(edits, list):
        raise EditRefused(EditProblem.NO_EDITS)
    for index, edit in enumerate(edits):
        if not isinstance(edit, dict):
            raise EditRefused(EditProblem.NOT_AN_OBJECT, index)
        yield str(edit.get("oldText", "")), str(edit.get("newText", ""))


def _line_ending(text: str) -> str:
    crlf = text.count("\r\n")
    return "\r\n" if crlf > text.count("\n") - crlf else "\n"


def edit_text(content: str, edits: Iterable[tuple[str, str]]) -> EditedText:
    """``content`` after the edits ``(oldText, newText)``, as Ink's edit tool makes it (see the
    module's notes). Raises :class:`EditRefused` for the first edit, in order, that does not
    apply (an empty ``edits`` is :attr:`~EditProblem.NO_EDITS`), then for an overlap."""
    bom = BOM if content.startswith(BOM) else ""
    text = content[len(bom) :]
    ending = _line_ending(text)
    original = normalize_eol(text)
    spans: list[tuple[int, int, AppliedEdit]] = []
    for index, (raw_old, raw_new) in enumerate(edits):
        old, new = normalize_eol(raw_old), normalize_eol(raw_new)
        if old == "":
            raise EditRefused(EditProblem.EMPTY_OLD_TEXT, index)
        if old == new:
            raise EditRefused(EditProblem.NO_CHANGE, index)
        matches = original.count(old)
        if matches == 0:
            raise EditRefused(EditProblem.NOT_FOUND, index)
        if matches > 1:
            raise EditRefused(EditProblem.FOUND_MANY, index, matches=matches)
        start = original.index(old)
        line = original.count("\n", 0, start) + 1
        spans.append((start, start + len(old), AppliedEdit(line, old, new)))
    if not spans:
        raise EditRefused(EditProblem.NO_EDITS)
    spans.sort(key=lambda span: span[0])
    pieces: list[str] = []
    cursor = 0
    for start, end, edit in spans:
        if start < cursor:
            raise EditRefused(EditProblem.OVERLAP, line=edit.line)
        pieces += [original[cursor:start], edit.new]
        cursor = end
    pieces.append(original[cursor:])
    applied = tuple(edit for _, _, edit in spans)
    return EditedText(original, "".join(pieces), applied, bom, ending)
