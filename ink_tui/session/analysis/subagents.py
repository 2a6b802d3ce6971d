"""A ``task`` call's subagent session: the child file its result names.

Ink's ``task`` tool persists a ``taskRecord`` beside the result (spec §2; read as Ink reads it,
:mod:`ink_tui.session.rules.taskrecord`, an invalid one being absent): its ``childId`` is the
child session's header id (the child's ``launch.childId`` too), and ``transcript.path`` the file
Ink wrote, on the machine that ran it. Children live in the project folder's ``children/`` (a
child's own children beside it). The file is found by the transcript's file name first (checked
against its header), else by the header ids of the ``children/`` files.

A call still running has no result yet, so nothing names its child. Nothing in the child names the
call either (``launch`` has the parent session's id, not the call's). :func:`launched_child`
finds it as the child of this session (header ``parent`` or ``launch.parentSessionId``) that no
other result claims, started at or after the call, whose first prompt is the call's ``prompt``
(Ink sends it as the child's first user message); failing that, the first such child to start.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Any, Final

from ink_tui.paths import CHILDREN
from ink_tui.session.conversation.view import Item, Turn
from ink_tui.session.reading.files import NotARegularFile, open_regular
from ink_tui.session.reading.firstline import first_line_header, read_json_line
from ink_tui.session.rules.content import content_text
from ink_tui.session.rules.taskrecord import task_record

__all__ = [
    "ChildHead",
    "call_child",
    "child_folder",
    "child_heads",
    "child_of_task",
    "find_child",
    "jsonl_files",
    "launched_child",
    "launching_call",
    "named_children",
    "task_calls",
    "task_child_id",
]

PROMPT_LINES: Final = 8  # lines read after the header, looking for the first prompt


@dataclass(frozen=True, slots=True)
class ChildHead:
    """A child session file's header, and its first prompt when one is among its first lines."""

    path: Path
    id: str
    parent: str | None  # the parent session id (header ``parent``, else ``launch``'s)
    started: str  # the header's timestamp ("" when it has none)
    prompt: str | None


def task_child_id(result: Any) -> str | None:
    """The child session id a ``task`` result's ``taskRecord`` names, if any (a record Ink's
    ``parseTaskRecord`` rejects names nothing: Ink treats it as absent)."""
    record = task_record(result)
    return record.child_id if record is not None else None


def _transcript_name(result: Any) -> str | None:
    record = task_record(result)
    path = record.transcript_path if record is not None else None
    return PurePath(path.replace("\\", "/")).name if path else None


def child_folder(session: Path) -> Path:
    """Where ``session``'s children live: its project's ``children/`` (a child's: its own)."""
    return session.parent if session.parent.name == CHILDREN else session.parent / CHILDREN


def _header_id(path: Path) -> str | None:
    header = first_line_header(path)
    value = header.get("id") if header is not None else None
    return value if isinstance(value, str) else None


def _prompt_text(record: Any) -> str | None:
    message = record.get("message") if isinstance(record, dict) else None
    if not isinstance(message, dict) or message.get("role") != "user":
        return None
    content = message.get("content")
    return content_text(content) if isinstance(content, str | list) else None


def read_child_head(path: Path) -> ChildHead | None:
    """``path``'s header (and first prompt); None when its first line is not a session header.
    Every line is read as the header is (:mod:`ink_tui.session.reading.firstline`)."""
    try:
        with open_regular(path) as stream:
            first = read_json_line(stream)
            header = first.value if first is not None else None
            if not isinstance(header, dict) or not isinstance(header.get("id"), str):
                return None
            prompt = None
            for _ in range(PROMPT_LINES):
                line = read_json_line(stream)
                if line is None:
                    break
                prompt = _prompt_text(line.value)
                if prompt is not None:
                    break
    except (OSError, NotARegularFile):
        return None
    launch = header.get("launch")
    parent = header.get("parent")
    if not isinstance(parent, str) and isinstance(launch, dict):
        parent = launch.get("parentSessionId")
    started = header.get("timestamp")
    return ChildHead(
        path,
        header["id"],
        parent if isinstance(parent, str) else None,
        started if isinstance(started, str) else "",
        prompt,
    )


def jsonl_files(folder: Path) -> Iterator[Path]:
    """The ``*.jsonl`` files of ``folder``, by name (none when it cannot be listed)."""
    try:
        with os.scandir(folder) as entries:
            names = sorted(entry.name for entry in entries if entry.name.endswith(".jsonl"))
    except OSError:
        return
    for name in names:
        yield folder / name


def child_heads(session: Path, session_id: str) -> list[ChildHead]:
    """The children of session ``session_id`` (whose file is ``session``), oldest first."""
    heads = (read_child_head(path) for path in jsonl_files(child_folder(session)))
    found = [head for head in heads if head is not None and head.parent == session_id]
    return sorted(found, key=lambda head: (head.started, head.path.name))


def launched_child(
    session: Path,
    session_id: str,
    prompt: str | None,
    since: str,
    claimed: Collection[str] = (),
) -> Path | None:
    """The child a ``task`` call with no child named (still running) launched: see above.

    ``since``: the call's message timestamp; ``claimed``: child ids other results name."""
    free = [
        head
        for head in child_heads(session, session_id)
        if head.id not in claimed and head.started >= since
    ]
    same = [head for head in free if prompt is not None and head.prompt == prompt]
    chosen = (same or free)[:1]
    return chosen[0].path if chosen else None


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
    for path in jsonl_files(folder):
        if _header_id(path) == child_id:
            return path
    return None


def named_children(results: Iterable[Any]) -> set[str]:
    """The child ids that ``task`` results name (the children a running call cannot be)."""
    return {child for child in map(task_child_id, results) if child is not None}


def call_child(
    session: Path,
    session_id: str,
    result: Any,
    arguments: Any,
    since: str,
    claimed: Collection[str] = (),
) -> Path | None:
    """The subagent session file of a ``task`` call: the one its result names, else (a call
    still running, or a result without a ``taskRecord``) the one it launched."""
    if task_child_id(result) is not None:
        return find_child(session, result)
    prompt = arguments.get("prompt") if isinstance(arguments, dict) else None
    return launched_child(
        session, session_id, prompt if isinstance(prompt, str) else None, since, claimed
    )


def _result(item: Item) -> Any:
    return item.tool.result if item.tool is not None else None


def task_calls(turns: Iterable[Turn]) -> Iterator[Item]:
    """The ``task`` calls of a branch's turns, in order."""
    for turn in turns:
        for item in turn.items:
            if item.tool is not None and item.tool.name == "task":
                yield item


def child_of_task(session: Path, session_id: str, turns: Sequence[Turn], call: Item) -> Path | None:
    """The subagent session file of ``task`` call ``call`` of the branch ``turns`` (the
    children its other calls name are not its own). Reads the disk: call it off the event loop."""
    assert call.tool is not None
    claimed = named_children(_result(item) for item in task_calls(turns) if item is not call)
    since = call.entry.peek_timestamp()
    since = since if isinstance(since, str) else ""
    return call_child(session, session_id, call.tool.result, call.tool.arguments, since, claimed)


def launching_call(
    session: Path, session_id: str, turns: Sequence[Turn], child: Path
) -> Item | None:
    """The ``task`` call of the branch ``turns`` that launched the subagent session ``child``:
    the one whose result names its header id, else a call still running that finds it."""
    head = read_child_head(child)
    if head is None:
        return None
    calls = list(task_calls(turns))
    named = next((item for item in calls if task_child_id(_result(item)) == head.id), None)
    if named is not None:
        return named
    running = [item for item in calls if task_child_id(_result(item)) is None]
    return next((c for c in running if child_of_task(session, session_id, turns, c) == child), None)
