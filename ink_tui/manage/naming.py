"""Naming a session and labelling its entries, as Ink's ``/name`` and ``/tree``'s ``L`` do.

Both append through :class:`~ink_tui.session.writing.writer.SessionWriter`, noted as ink-tui's own
writes (:mod:`ink_tui.session.writing.ownwrites`: a session is not "busy" because ink-tui just named
it):

- ``/name`` (``src/repl/commands.ts@3c659997``): the name is trimmed and each run of CR/LF
  becomes one space; a ``session_info`` entry after the leaf (it becomes the leaf, as Ink's
  does). An empty name (or ``-``, Ink's spelling) appends an empty name, which clears it.
- ``L`` in ``/tree``: the label is trimmed, line breaks as for a name; a ``label`` entry whose
  ``parentId`` is the leaf. An empty label removes the entry's label. Any entry can be labelled
  but a label record, named by its id or a unique prefix of it (the 8 characters the app
  shows). A label never moves the leaf: when a ``position`` marker decided it (spec §3 rule 6:
  only a marker after the last entry line counts, labels included), the same marker is written
  again after the label, in the same ``write``.

Names and labels are typed text: Ink's editor never takes a control character (C0 but the line
breaks, DEL, C1) or a bidirectional control, so neither is written here; both refuse them with
the same line (:func:`typed_text`).

A session something other than ink-tui wrote in the last
:data:`~ink_tui.session.writing.ownwrites.IN_USE_SECONDS` is not renamed: Ink's next record would
follow its own leaf, leaving the name off the branch it continues. A label is file-wide, so it may
be written meanwhile. A file that ends mid-record is never written: if it was written in the last
:data:`~ink_tui.session.writing.ownwrites.IN_USE_SECONDS`, a writer may be finishing that record
(Ink writes each record in one call, so a torn tail lasts a moment), and the advice is to wait; an
older torn tail is a crash remnant, which ``ink-tui repair`` cuts.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from ink_tui.safetext import one_line
from ink_tui.session import SessionError, open_session
from ink_tui.session.conversation.tree import entry_named
from ink_tui.session.reading.reader import SessionFile
from ink_tui.session.writing.ownwrites import IN_USE_SECONDS, last_foreign_write
from ink_tui.session.writing.writer import SessionWriter, mirror_refusal

__all__ = [
    "NamingError",
    "Written",
    "label_entry",
    "normalized_name",
    "rename",
    "resume_command",
    "typed_text",
]

_LINE_BREAKS: Final = re.compile(r"[\r\n]+")
# What Ink's editor never takes: C0 (line breaks are turned into spaces first), DEL, C1, the
# bidirectional marks, embeddings, overrides and isolates, the line and paragraph separators, and
# lone surrogates (bytes that are not UTF-8 in a command-line argument).
_REFUSED: Final = re.compile(
    "[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]"
)


class NamingError(Exception):
    """A name or label that was not written, and why (one line; nothing was written)."""


@dataclass(frozen=True, slots=True)
class Written:
    """What was appended: the record's id and the text it holds (``""``: cleared)."""

    path: Path
    entry_id: str
    text: str
    target: str = ""  # the labelled entry's whole id (a label)


def typed_text(text: str, what: str) -> str:
    """``text`` as Ink's editor would take it: trimmed, each run of line breaks one space.
    Raises :class:`NamingError` (the same line for ``what`` = ``"name"`` or ``"label"``) when it
    holds a character the editor never takes."""
    cleaned = _LINE_BREAKS.sub(" ", text.strip()).strip()
    found = _REFUSED.search(cleaned)
    if found is not None:
        raise NamingError(
            f"a {what} cannot hold control characters or bidirectional controls (U+"
            f"{ord(found.group()):04X} here), as Ink's editor never takes them; nothing was written"
        )
    return cleaned


def normalized_name(name: str) -> str:
    """The name as Ink's ``/name`` writes it; ``""`` clears (so does Ink's ``-``)."""
    cleaned = typed_text(name, "name")
    return "" if cleaned == "-" else cleaned


def resume_command(session_id: str) -> str:
    """What resumes the session in Ink (``ink -r <id>``; Ink takes an id prefix too)."""
    return f"ink -r {session_id}"


def _torn_tail(path: Path, session: SessionFile, now: float) -> NamingError:
    """Why a file ending mid-record is not written, and what to do: wait, or repair."""
    shown = one_line(str(path))
    what = "in a record Ink does not read" if session.ends_with_newline else "mid-record"
    age = now - last_foreign_write(path)
    if age < IN_USE_SECONDS:
        return NamingError(
            f"{shown}: the file ends {what}, written {max(0, int(age))} s ago: the program "
            "writing it (Ink?) may not be done. Wait until it is and try again (nothing was "
            "written)"
        )
    return NamingError(
        f"{shown}: the file ends {what}, untouched for {int(age)} s: a crash left it; "
        "`ink-tui repair` cuts it (nothing was written)"
    )


def _open(path: Path, now: float) -> SessionFile:
    try:
        session = open_session(path, warn=None)
    except SessionError as error:
        raise NamingError(f"{error.one_line()}; nothing was written") from None
    if session.dropped_final_line is not None or not session.ends_with_newline:
        raise _torn_tail(path, session, now)
    return session


def _deciding_marker(session: SessionFile) -> bool:
    """A ``position`` marker decides the leaf: it comes after the last entry line (labels
    count) and names an entry or null (spec §3 rule 6)."""
    if not session.positions:
        return False
    marker = session.positions[-1]
    last_entry = session.entries[-1].line if session.entries else 0
    target = marker.record.get("leafId")
    return marker.line > last_entry and (target is None or target in session.by_id)


def _refuse_mirror(path: Path) -> None:
    refusal = mirror_refusal(path)
    if refusal is not None:
        raise NamingError(f"{one_line(str(path))}: {refusal} (nothing was written)")


def rename(path: Path, name: str, *, now: float | None = None) -> Written:
    """Append a ``session_info`` record naming the session (``""`` or ``-``: clear the name)."""
    text = normalized_name(name)
    _refuse_mirror(path)
    now = time.time() if now is None else now
    age = now - last_foreign_write(path)
    if age < IN_USE_SECONDS:
        raise NamingError(
            f"{one_line(str(path))}: written {max(0, int(age))} s ago, Ink may be running it: "
            "a name written now would land off the branch Ink continues. Use /name in Ink, or "
            "rename it once it is idle (nothing was written)"
        )
    session = _open(path, now)
    writer = SessionWriter.for_session(session, own_writes=True)
    record = writer.append_entry("session_info", {"name": text})
    return Written(path, str(record["id"]), text)


def _target(session: SessionFile, wanted: str) -> str:
    shown = one_line(str(session.path))
    try:
        target_id = entry_named(session, wanted) if wanted else ""
    except SessionError:
        target_id = ""
    entry = session.by_id.get(target_id)
    if entry is None:
        count = sum(entry_id.startswith(wanted) for entry_id in session.by_id) if wanted else 0
        what = f"{count} entries start with it" if count > 1 else "entry not found"
        raise NamingError(f"{shown}: cannot label {wanted}: {what} (nothing was written)")
    if entry.type == "label":
        raise NamingError(f"{shown}: cannot label {wanted}: a label record (nothing was written)")
    return target_id


def label_entry(path: Path, target_id: str, label: str, *, now: float | None = None) -> Written:
    """Append a ``label`` record on entry ``target_id`` (its id or a unique prefix; ``""``
    label: remove its label). The leaf stays where it was (see the module doc)."""
    text = typed_text(label, "label")
    _refuse_mirror(path)
    session = _open(path, time.time() if now is None else now)
    target = _target(session, target_id)
    writer = SessionWriter.for_session(session, own_writes=True)
    fields = {"targetId": target, "label": text}
    record = writer.append_entry("label", fields, then_position=_deciding_marker(session))
    return Written(path, str(record["id"]), text, target)
