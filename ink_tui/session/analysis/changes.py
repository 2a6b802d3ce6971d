"""What a branch changed: every file its ``edit`` and ``write`` calls touched, reconstructed.

For each file (paths relative to the session's cwd or absolute name one file once normalised,
as Ink's tools resolve them) the calls are replayed forward from what the session shows of the
content: a ``write`` gives the whole content; a successful ``read`` of the whole file (no
``offset``/``limit``, no continuation note) gives it too; an ``edit`` applied to known content
(exactly as Ink's edit applies it, :mod:`ink_tui.session.rules.edits`) gives the next content.
When an edit does not apply to the known content, or a call's outcome is unknown, the content
stops being known (until a later write or whole read) and the file says why.

The *start* is the content known just before the first change that may have altered the file:
a whole read before it, or "did not exist" when that change is a ``write`` whose result says
``Created`` (Ink's word when nothing was there). A ``write`` answering ``Overwrote`` with nothing
read before leaves the start unknown. The *end* is the content after the last change. Failed
calls (``isError``) changed nothing (Ink's edit is all-or-nothing) and are listed, marked.
Changes made by ``bash`` are not seen; a whole read that differs from the reconstruction is
taken as the truth and noted. Pure: no Textual; nothing here reads the files named.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from ink_tui.session.conversation.view import ToolExchange, Turn
from ink_tui.session.rules.content import content_text
from ink_tui.session.rules.edits import EditProblem, EditRefused, edit_pairs, edit_text
from ink_tui.session.rules.toolpaths import resolve_for_tool
from ink_tui.session.rules.tooltexts import CONTINUATION_NOTE, CREATED, READ_IMAGE_PREFIX

__all__ = [
    "ChangeCall",
    "FileChanges",
    "collect_changes",
    "edit_refusal_note",
    "normalise_path",
]

CallKind = Literal["edit", "write"]
Outcome = Literal["ok", "failed", "unknown"]


def edit_refusal_note(refusal: EditRefused) -> str:
    """Why an edit does not apply to the known content, in the changes view's words."""
    index = refusal.index
    match refusal.problem:
        case EditProblem.NO_EDITS:
            return "edits must contain at least one replacement"
        case EditProblem.NOT_AN_OBJECT:
            return f"edits[{index}] is not an object"
        case EditProblem.EMPTY_OLD_TEXT | EditProblem.NO_CHANGE:
            return f"edits[{index}] is empty or changes nothing"
        case EditProblem.NOT_FOUND:
            return f"edits[{index}].oldText was not found"
        case EditProblem.FOUND_MANY:
            return f"edits[{index}].oldText matches {refusal.matches} times"
        case EditProblem.OVERLAP:
            return "edits overlap"


def normalise_path(requested: str, cwd: str, *, tool: str) -> str:
    """The absolute path a tool call names, as the tool resolves it (``read`` by Ink's
    ``resolveToCwd``, edit and write as they are: :mod:`ink_tui.session.rules.toolpaths`); a
    session without a cwd resolves against ``/``."""
    return resolve_for_tool(tool, requested, cwd or "/")


def shown_path(absolute: str, cwd: str) -> str:
    """``absolute`` relative to ``cwd`` when it is inside it, else as it is (a cwd of ``/``
    holds every path: they are shown absolute, as named)."""
    if cwd.rstrip("/") and (absolute == cwd or absolute.startswith(cwd.rstrip("/") + "/")):
        return posixpath.relpath(absolute, cwd)
    return absolute


@dataclass(slots=True)
class ChangeCall:
    """One ``edit`` or ``write`` call on a file, and what it did to the content."""

    kind: CallKind
    outcome: Outcome
    turn: int  # index in the branch's turns
    turn_key: str
    row_key: str  # the tool row in the session view
    arguments: dict[str, Any]
    before: str | None = None  # the content known just before (None: not known)
    after: str | None = None  # the content known just after
    note: str = ""  # why the content stopped being known, or the failure's first line

    @property
    def failed(self) -> bool:
        return self.outcome == "failed"

    def pieces(self) -> list[tuple[str, str]]:
        """(old, new) text pairs this call asked for: each edit's, or the whole write."""
        if self.kind == "write":
            return [(self.before or "", str(self.arguments.get("content", "")))]
        edits = self.arguments.get("edits")
        return [
            (str(e.get("oldText", "")), str(e.get("newText", "")))
            for e in (edits if isinstance(edits, list) else [])
            if isinstance(e, dict)
        ]


@dataclass(slots=True)
class FileChanges:
    """Everything a branch did to one file."""

    absolute: str
    path: str  # as shown: relative to the session's cwd when inside it
    cwd: str = ""  # the session's cwd, which relative paths resolve against
    calls: list[ChangeCall] = field(default_factory=list)
    start: str | None = None
    start_known: bool = False
    created: bool = False  # the start is "did not exist"
    end: str | None = None
    end_known: bool = False
    notes: list[str] = field(default_factory=list)  # why start or end are not known, and oddities
    _current: str | None = None
    _started: bool = False
    _lost: str = ""  # why the content last stopped being known

    @property
    def changed(self) -> bool:
        """A call that may have changed the file ran (not only failed ones)."""
        return self._started

    @property
    def known(self) -> bool:
        """The net change can be reconstructed: the start and the end are known, or nothing
        but failed calls touched the file (no change)."""
        return not self._started or (self.start_known and self.end_known)

    @property
    def failed(self) -> int:
        return sum(1 for call in self.calls if call.failed)

    @property
    def turns(self) -> list[int]:
        """The turns (indexes) that touched the file, in order."""
        return list(dict.fromkeys(call.turn for call in self.calls))

    def why_unknown(self) -> str:
        """One line: why the net change cannot be reconstructed ("" when it can)."""
        if self.known:
            return ""
        if not self.start_known:
            return self.notes[0] if self.notes else "its content before the changes is not known"
        return self._lost or "its content after the last change is not known"

    def turn_span(self, turn: int) -> tuple[str | None, str | None]:
        """The content before the turn's first change and after its last (None: not known)."""
        mine = [call for call in self.calls if call.turn == turn]
        if not mine:
            return None, None
        return mine[0].before, mine[-1].after

    # -- the replay ------------------------------------------------------------------------

    def _read(self, content: str) -> None:
        if self._started and self._current is not None and self._current != content:
            self.notes.append("a read shows content that the edits and writes do not explain")
        self._current = content

    def _change(self, call: ChangeCall, exchange: ToolExchange) -> None:
        call.before = self._current
        if call.outcome == "failed":
            call.after = self._current
            call.note = _first_line(exchange.output)
        else:
            if not self._started:
                self._started = True
                created = call.kind == "write" and exchange.output.startswith(f"{CREATED} ")
                self.created = created and call.outcome == "ok"
                self.start_known = self.created or self._current is not None
                self.start = None if self.created else self._current
                call.before = "" if self.created else call.before
                if not self.start_known:
                    self.notes.append(f"nothing shows its content before turn {call.turn + 1}")
            self._current = self._next(call)
            call.after = self._current
        self.calls.append(call)
        self.end, self.end_known = self._current, self._current is not None

    def _next(self, call: ChangeCall) -> str | None:
        if call.outcome == "unknown":
            call.note = "the call's outcome is unknown (interrupted): the content is not known"
            self._lost = f"a {call.kind} in turn {call.turn + 1} has an unknown outcome"
            self.notes.append(self._lost)
            return None
        if call.kind == "write":
            return str(call.arguments.get("content", ""))
        if self._current is None:
            call.note = "applied to content that is not known"
            return None
        try:
            return edit_text(self._current, edit_pairs(call.arguments.get("edits"))).content
        except EditRefused as refusal:
            call.note = f"does not apply to the known content: {edit_refusal_note(refusal)}"
            self._lost = f"an edit in turn {call.turn + 1} {call.note}"
            self.notes.append(self._lost)
            return None


def _first_line(text: str) -> str:
    return text.strip().split("\n", 1)[0]


def _outcome(exchange: ToolExchange) -> Outcome:
    status = exchange.status
    return "ok" if status == "ok" else "failed" if status == "error" else "unknown"


def _whole_read(exchange: ToolExchange) -> str | None:
    """The file's content a read shows, when it shows all of it."""
    arguments = exchange.arguments
    if exchange.status != "ok" or not isinstance(arguments, dict) or exchange.result is None:
        return None
    if arguments.get("offset") not in (None, 1) or arguments.get("limit") is not None:
        return None
    content = exchange.result.get("content")
    if not isinstance(content, str):  # blocks: an image, or not the read tool's text
        text = content_text(content, show_non_string_text=True)
        if text.startswith(READ_IMAGE_PREFIX):
            return None
        content = text
    if CONTINUATION_NOTE.search(content):
        return None  # cut at 2000 lines or 50KB
    return content


def collect_changes(turns: Iterable[Turn], cwd: str) -> list[FileChanges]:
    """Every file the branch's ``edit`` and ``write`` calls touched, in the order first
    touched, with its calls replayed (see the module's notes). Reads of files never changed
    are not listed."""
    files: dict[str, FileChanges] = {}
    reads: dict[str, str] = {}  # the last whole read of a file not changed yet
    for index, turn in enumerate(turns):
        for item in turn.items:
            exchange = item.tool
            if exchange is None or exchange.name not in ("read", "edit", "write"):
                continue
            arguments = exchange.arguments
            if not isinstance(arguments, dict) or not isinstance(arguments.get("path"), str):
                continue
            absolute = normalise_path(arguments["path"], cwd, tool=exchange.name)
            entry = files.get(absolute)
            if exchange.name == "read":
                content = _whole_read(exchange)
                if content is None:
                    continue
                if entry is None:
                    reads[absolute] = content
                else:
                    entry._read(content)
                continue
            if entry is None:
                entry = files[absolute] = FileChanges(absolute, shown_path(absolute, cwd), cwd)
                entry._current = reads.pop(absolute, None)
            kind: CallKind = "write" if exchange.name == "write" else "edit"
            call = ChangeCall(kind, _outcome(exchange), index, turn.key, item.key, arguments)
            entry._change(call, exchange)
    return list(files.values())
