"""Naming a session and labelling its entries, as Ink's ``/name`` and ``/tree``'s ``L`` do.

Both append one record through :class:`~ink_tui.session.writer.SessionWriter`:

- ``/name`` (``src/repl/commands.ts@3c659997``): the name is trimmed and each run of CR/LF
  becomes one space; a ``session_info`` entry after the leaf (it becomes the leaf, as Ink's
  does). An empty name (or ``-``, Ink's spelling) appends an empty name, which clears it.
- ``L`` in ``/tree``: the label is trimmed (Ink's editor never takes control characters: here a
  line break becomes a space, any other control character is refused); a ``label`` entry whose
  ``parentId`` is the leaf, which never moves it. An empty label removes the entry's label. Any
  entry can be labelled but a label record.

A session Ink wrote in the last :data:`~ink_tui.manage.deleting.LIVE_SECONDS` is not renamed:
Ink's next record would follow its own leaf, leaving the name off the branch it continues.
A label is file-wide, so it may be written meanwhile; the writer still refuses to write while
another process is mid-record.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path

from ink_tui.manage.deleting import LIVE_SECONDS
from ink_tui.session import SessionError, open_session
from ink_tui.session.writer import SessionWriter

__all__ = ["NamingError", "Written", "label_entry", "normalized_name", "rename", "resume_command"]

_LINE_BREAKS = re.compile(r"[\r\n]+")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class NamingError(Exception):
    """A name or label that was not written, and why (one line; nothing was written)."""


@dataclass(frozen=True, slots=True)
class Written:
    """What was appended: the record's id and the text it holds (``""``: cleared)."""

    path: Path
    entry_id: str
    text: str


def normalized_name(name: str) -> str:
    """The name as Ink's ``/name`` writes it; ``""`` clears (so does Ink's ``-``)."""
    cleaned = _LINE_BREAKS.sub(" ", name.strip()).strip()
    return "" if cleaned == "-" else cleaned


def _normalized_label(label: str) -> str:
    cleaned = _LINE_BREAKS.sub(" ", label).strip()
    if _CONTROL.search(cleaned):
        raise NamingError("a label cannot hold control characters (Ink's editor never takes them)")
    return cleaned


def resume_command(session_id: str) -> str:
    """What resumes the session in Ink (``ink -r <id>``; Ink takes an id prefix too)."""
    return f"ink -r {session_id}"


def _writer(path: Path) -> SessionWriter:
    try:
        session = open_session(path, warn=None)
    except SessionError as error:
        raise NamingError(f"{error.one_line()}; nothing was written") from None
    if session.dropped_final_line is not None or not session.ends_with_newline:
        raise NamingError(
            f"{path}: the file ends in a torn record; `ink-tui repair` it first "
            "(nothing was written)"
        )
    return SessionWriter.for_session(session)


def rename(path: Path, name: str, *, now: float | None = None) -> Written:
    """Append a ``session_info`` record naming the session (``""`` or ``-``: clear the name)."""
    text = normalized_name(name)
    age = (time.time() if now is None else now) - path.stat().st_mtime
    if age < LIVE_SECONDS:
        raise NamingError(
            f"{path}: written {max(0, int(age))} s ago, Ink may be running it: a name written "
            "now would land off the branch Ink continues. Use /name in Ink, or rename it once "
            "it is idle (nothing was written)"
        )
    record = _writer(path).append_entry("session_info", {"name": text})
    return Written(path, str(record["id"]), text)


def label_entry(path: Path, target_id: str, label: str) -> Written:
    """Append a ``label`` record on entry ``target_id`` (``""``: remove its label)."""
    text = _normalized_label(label)
    writer = _writer(path)
    session = open_session(path, warn=None)
    target = session.by_id.get(target_id)
    if target is None or target.type == "label":
        what = "a label record" if target is not None else "entry not found"
        raise NamingError(f"{path}: cannot label {target_id}: {what} (nothing was written)")
    record = writer.append_entry("label", {"targetId": target_id, "label": text})
    return Written(path, str(record["id"]), text)
