"""A ``task`` call's subagent session: the child file its result names.

Ink's ``task`` tool persists a ``taskRecord`` beside the result (spec §2): its ``childId`` is the
child session's header id (the child's ``launch.childId`` too), and ``transcript.path`` the file
Ink wrote, on the machine that ran it. Children live in the project folder's ``children/`` (a
child's own children beside it). The file is found by the transcript's file name first (checked
against its header), else by the header ids of the ``children/`` files.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePath
from typing import Any, Final

from ink_tui.session.files import NotARegularFile, open_regular
from ink_tui.session.jsoncodec import JsonDecodeError, decode_line

__all__ = ["child_folder", "find_child", "task_child_id"]

HEADER_LIMIT: Final = 1024 * 1024  # a header line longer than this is not a child's


def task_child_id(result: Any) -> str | None:
    """The child session id a ``task`` result's ``taskRecord`` names, if any."""
    record = result.get("taskRecord") if isinstance(result, dict) else None
    child = record.get("childId") if isinstance(record, dict) else None
    return child if isinstance(child, str) and child else None


def _transcript_name(result: Any) -> str | None:
    record = result.get("taskRecord") if isinstance(result, dict) else None
    transcript = record.get("transcript") if isinstance(record, dict) else None
    path = transcript.get("path") if isinstance(transcript, dict) else None
    return PurePath(path.replace("\\", "/")).name if isinstance(path, str) and path else None


def child_folder(session: Path) -> Path:
    """Where ``session``'s children live: its project's ``children/`` (a child's: its own)."""
    return session.parent if session.parent.name == "children" else session.parent / "children"


def _header_id(path: Path) -> str | None:
    try:
        with open_regular(path) as stream:
            line = stream.readline(HEADER_LIMIT + 1)
    except (OSError, NotARegularFile):
        return None
    try:
        header = decode_line(line.rstrip(b"\r\n"))
    except (JsonDecodeError, ValueError):
        return None
    value = header.get("id") if isinstance(header, dict) else None
    return value if isinstance(value, str) else None


def find_child(session: Path, result: Any) -> Path | None:
    """The subagent session file a ``task`` result names, when it is on this disk."""
    child_id = task_child_id(result)
    if child_id is None:
        return None
    folder = child_folder(session)
    name = _transcript_name(result)
    if name is not None and name.endswith(".jsonl"):
        candidate = folder / name
        if _header_id(candidate) == child_id:
            return candidate
    try:
        with os.scandir(folder) as entries:
            names = sorted(entry.name for entry in entries if entry.name.endswith(".jsonl"))
    except OSError:
        return None
    for name in names:
        if _header_id(folder / name) == child_id:
            return folder / name
    return None
