"""What may be deleted as a session: a session file inside a sessions root, nothing else.

``ink-tui delete PATH`` takes any path, so before anything moves to the trash the path must be:

- a regular file (not a symbolic link, a folder, a FIFO…) named ``*.jsonl``;
- inside one of the roots once every symbolic link on the way is resolved (a link in the project
  folder pointing elsewhere does not count as inside);
- an Ink session: its first line is a session header (``type`` ``"session"``, ``version`` 1, a
  string ``id``; spec §2 and §3 rule 2).

The roots are the sessions folder given by ``--sessions-dir``, ``$INK_SESSIONS_DIR`` or Ink's
default (:func:`deletable_roots`); a mirror of that folder, when ink-tui has one, joins there.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from pathlib import Path

from ink_tui.safetext import one_line
from ink_tui.session.reading.files import what_it_is
from ink_tui.session.reading.firstline import first_line_header

__all__ = ["deletable_roots", "not_a_lease_folder", "not_a_session_file"]


def deletable_roots(sessions_dir: Path) -> tuple[Path, ...]:
    """The folders whose session files may move to the trash: the sessions folder (a mirror
    root, once there is one, is added here)."""
    return (sessions_dir,)


def _inside(path: Path, roots: Sequence[Path]) -> bool:
    real = os.path.realpath(path)
    for root in roots:
        top = os.path.realpath(root)
        if real != top and os.path.commonpath([real, top]) == top:
            return True
    return False


def _where(roots: Sequence[Path]) -> str:
    return " or ".join(one_line(str(root)) for root in roots) or "no sessions folder"


def not_a_session_file(path: Path, roots: Sequence[Path], *, it: str = "it") -> str | None:
    """Why ``path`` must not be deleted as a session, or ``None``: one line saying what ``it``
    (the path's name in the sentence: ``"it"``, ``"its child x.jsonl"``) is."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return f"{it} does not exist"
    except OSError as error:
        return f"{it} cannot be read ({error.strerror or error})"
    if stat.S_ISLNK(mode):
        return f"{it} is a symbolic link, not a session file"
    if not stat.S_ISREG(mode):
        return f"{it} is {what_it_is(mode)}, not a session file"
    if not _inside(path, roots):
        return f"{it} is not inside the sessions folder {_where(roots)}"
    if not path.name.endswith(".jsonl"):
        return f"{it} is not a session file (its name does not end in .jsonl)"
    header = first_line_header(path)
    version = header.get("version") if header is not None else None
    if (
        header is None
        or header.get("type") != "session"
        or isinstance(version, bool)
        or version != 1
        or not isinstance(header.get("id"), str)
    ):
        return f"{it} is not an Ink session (its first line is no session header)"
    return None


def not_a_lease_folder(path: Path, roots: Sequence[Path]) -> str | None:
    """Why the lease folder ``path`` must not move with its child, or ``None``."""
    it = f"the lease {one_line(path.name)}"
    try:
        mode = os.lstat(path).st_mode
    except OSError as error:
        return f"{it} cannot be read ({error.strerror or error})"
    if not stat.S_ISDIR(mode):
        kind = "a symbolic link" if stat.S_ISLNK(mode) else what_it_is(mode)
        return f"{it} is {kind}, not a folder"
    if not _inside(path, roots):
        return f"{it} is not inside the sessions folder {_where(roots)}"
    return None
