"""A big session's first screen: the last turns of its current branch, read from the file's end.

The session view paints this before the whole file is read (and checked as Ink's ``open()``
does); the whole load then replaces it, or the error view says why Ink cannot open the file.
"""

from __future__ import annotations

import threading
from pathlib import Path

from ink_tui.session.conversation.branchview import LoadedBranch, partial_branch
from ink_tui.session.conversation.lastturns import ScanCancelled, TailUnclear, walk_tail
from ink_tui.session.reading.errors import SessionError
from ink_tui.session.reading.reader import SessionFile

__all__ = ["read_tail_branch"]


TAIL_SHARE = 4
TAIL_FLOOR_BYTES = 2 * 1024 * 1024
"""The end of the file a first screen may read: a quarter of it (or 2 MB when that is more).
Read backwards, each record is parsed and linked (several times the cost per byte of the whole
read), so a first screen that needs more (a branch that forks off near the start, a last turn
of most of the file) is no quicker than the whole load, which then shows the file."""


def read_tail_branch(
    path: Path, count: int, *, cancel: threading.Event | None = None
) -> LoadedBranch | None:
    """The last ``count`` turns as a partial :class:`LoadedBranch`; ``None`` when the end of the
    file cannot tell them (a broken chain, a marker pointing far back, an unreadable file…),
    when they need more of the file than :data:`TAIL_SHARE` allows, or when ``cancel`` is set: the
    whole load says what the file holds."""
    try:
        budget = max(path.stat().st_size // TAIL_SHARE, TAIL_FLOOR_BYTES)
    except OSError:
        return None

    def check(done: int) -> None:
        if done > budget or (cancel is not None and cancel.is_set()):
            raise ScanCancelled

    try:
        walked = walk_tail(path, count, check, count_small=False)
    except (TailUnclear, SessionError, OSError, ScanCancelled):
        return None
    session = SessionFile(
        path=path, header=walked.header, header_end=walked.header_end, size=walked.size
    )
    session._last_content_id = walked.leaf  # its leaf, as the whole open will find it
    loaded = partial_branch(session, walked.leaf, walked.entries)
    if any(item.kind == "orphan_result" for turn in loaded.turns for item in turn.items):
        return None  # its call is in an earlier turn: only the whole branch shows it right
    return loaded
