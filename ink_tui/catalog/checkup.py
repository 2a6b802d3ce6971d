"""Every session of the sessions folder checked in one go (`check --all`, `repair --all`).

- :func:`sessions_to_check`: every project folder's flat ``*.jsonl`` files and, unless told
  otherwise, those of its ``children/`` folder (subagent sessions: Ink's listings never scan
  them, but its child resume continues them, with exactly the repair ``check`` predicts, and a
  subagent killed mid-call is where dangling calls are most often found).
- :func:`check_file`: what ``check`` reads of one file (its :class:`SessionReport`, or Ink's
  error when it cannot open it), and the kinds of problem found (:data:`PROBLEM_KINDS`).
- :func:`writer_activity`: why a file must be left alone now (a writer touched it in the last
  :data:`IN_USE_SECONDS`).

Pure: the texts a user reads are the command line's (:mod:`ink_tui.cli.commands.verdicts`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from ink_tui.catalog.scan import project_folders, session_files
from ink_tui.paths import CHILDREN
from ink_tui.session.reading.errors import SessionError
from ink_tui.session.reading.reader import open_session
from ink_tui.session.writing.ownwrites import IN_USE_SECONDS
from ink_tui.session.writing.repair import cut_complete_final_line
from ink_tui.session.writing.report import SessionReport, report_session

__all__ = [
    "DANGLING",
    "NEEDS_FORCE",
    "NOT_CONTINUABLE",
    "PROBLEM_KINDS",
    "TORN",
    "UNREADABLE",
    "FileCheck",
    "check_file",
    "sessions_to_check",
    "writer_activity",
]


TORN: Final = "torn tail"
DANGLING: Final = "dangling calls"
NEEDS_FORCE: Final = "complete final record cut only with --force"
NOT_CONTINUABLE: Final = "not continuable"
UNREADABLE: Final = "Ink cannot open it"
PROBLEM_KINDS: Final = (TORN, DANGLING, NEEDS_FORCE, NOT_CONTINUABLE, UNREADABLE)
"""The kinds of problem, in the order a summary counts them."""


@dataclass(slots=True)
class FileCheck:
    """One session file as ``check`` sees it: its report, or why Ink cannot open it."""

    path: Path
    report: SessionReport | None = None
    error: str | None = None  # Ink's error, when it cannot open it (as ``check --json``'s)
    error_line: str | None = None  # the same in one line naming the file (and line)
    problems: list[str] = field(default_factory=list)  # kinds from PROBLEM_KINDS

    @property
    def is_child(self) -> bool:
        return self.path.parent.name == CHILDREN


def sessions_to_check(base_dir: Path, *, children: bool = True) -> list[Path]:
    """Every session file under ``base_dir``, by project folder then file name.

    Top-level sessions of each project folder, then (``children``) its ``children/`` sessions.
    Files that cannot even be stat'ed (a symlink loop) are included: checking says why.
    """
    found: list[Path] = []
    for folder in project_folders(base_dir, None):
        found.extend(sorted(item.path for item in session_files([folder])))
        if children:
            found.extend(sorted(item.path for item in session_files([folder / CHILDREN])))
    return found


def check_file(path: Path) -> FileCheck:
    """Open and report ``path`` as ``ink-tui check`` does; never raises for a bad file."""
    result = FileCheck(path)
    try:
        session = open_session(path, warn=None)
        report = report_session(session)
    except SessionError as error:
        result.error, result.error_line = error.message, error.one_line()
        result.problems.append(UNREADABLE)
        return result
    except OSError as error:
        result.error = str(error.strerror or error)
        result.error_line = f"{path}: {result.error}"
        result.problems.append(UNREADABLE)
        return result
    result.report = report
    plan = report.continuation
    if not plan.ok:
        result.problems.append(NOT_CONTINUABLE)
        return result
    if plan.torn is not None:
        result.problems.append(TORN)
        if cut_complete_final_line(report.session, plan.torn) is not None:
            result.problems.append(NEEDS_FORCE)
    if plan.appended:
        result.problems.append(DANGLING)
    return result


def writer_activity(path: Path, now: float | None = None) -> str | None:
    """Why a writer may be active on ``path`` (modified in the last
    :data:`IN_USE_SECONDS`), else ``None``."""
    try:
        mtime = path.stat().st_mtime
    except OSError:
        return None  # vanished or unreadable: repairing it fails on its own, with its reason
    ago = (time.time() if now is None else now) - mtime
    if ago < IN_USE_SECONDS:
        return (
            f"a writer may be active: modified {max(0, round(ago))} s ago (less than "
            f"{IN_USE_SECONDS:.0f} s); run it again once Ink is done with it"
        )
    return None
