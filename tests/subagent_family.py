"""A parent session whose ``task`` call launched a subagent session in ``children/``, in the
shape of Ink's own (the shared fixture ``child-session``: header ``parent`` and ``launch``, the
task result's ``taskRecord`` naming the child by its header id), written in ``tmp_path``.

Importable from every test folder (``pythonpath = ["tests"]``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from testdata import task_record

from ink_tui.paths import project_dir
from ink_tui.session.writing.writer import SessionWriter

__all__ = ["CHILD_PROMPT", "CWD", "NOW", "PARENT_PROMPT", "Family", "write_family"]

CWD = "/home/ada/code/kids"
NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
PARENT_PROMPT = "ask a reviewer about the ledger"
CHILD_PROMPT = "Review the change to ledger.py"


@dataclass(frozen=True, slots=True)
class Family:
    """The files written, and the header ids."""

    parent: Path
    child: Path
    parent_id: str
    child_id: str


def _clock(start: datetime) -> Any:
    ticks = iter(range(10_000))
    return lambda: start + timedelta(seconds=next(ticks))


def write_child(
    project: Path, parent_id: str, *, cwd: str, said: str, start: datetime, prompt: str
) -> SessionWriter:
    """A subagent session of ``parent_id`` in ``project/children`` whose answer says ``said``."""
    child = SessionWriter.new(project / "children", cwd, clock=_clock(start))
    child.header["parent"] = parent_id
    child.header["launch"] = {
        "version": 1,
        "parentSessionId": parent_id,
        "childId": child.session_id,
        "inkVersion": "0.2.2",
        "model": {
            "providerName": "anthropic",
            "wireModelId": "claude-sonnet-4-5",
            "reference": "anthropic/claude-sonnet-4-5",
        },
        "cwd": cwd,
        "tools": [{"name": "read"}],
        "system": {"sha256": "0" * 64},
        "extensions": [],
    }
    child.append_message({"role": "user", "content": prompt})
    child.append_message(
        {
            "role": "assistant",
            "blocks": [{"type": "text", "text": f"Checked ledger.py: {said}."}],
            "usage": {"inputTokens": 10, "outputTokens": 5},
            "stopReason": "end_turn",
        }
    )
    return child


def write_family(
    base: Path,
    *,
    cwd: str = CWD,
    said: str = "a zanzibarquux in the rounding",
    start: datetime = NOW - timedelta(hours=1),
    parent_prompt: str = PARENT_PROMPT,
    child_prompt: str = CHILD_PROMPT,
) -> Family:
    """The parent (top-level, in ``cwd``'s project folder) and its child, saying ``said``."""
    project = project_dir(base, cwd)
    parent = SessionWriter.new(project, cwd, clock=_clock(start))
    child = write_child(
        project,
        parent.session_id,
        cwd=cwd,
        said=said,
        start=start + timedelta(seconds=30),
        prompt=child_prompt,
    )
    parent.append_message({"role": "user", "content": parent_prompt})
    call = {"type": "toolCall", "id": "t1", "name": "task", "arguments": {"prompt": child_prompt}}
    parent.append_message(
        {
            "role": "assistant",
            "blocks": [call],
            "usage": {"inputTokens": 1, "outputTokens": 1},
            "stopReason": "tool_use",
        }
    )
    record = task_record(
        parentSessionId=parent.session_id,
        childId=child.session_id,
        transcript={"present": True, "path": str(child.path)},
    )
    result = {
        "toolCallId": "t1",
        "toolName": "task",
        "content": "the reviewer found one problem",
        "isError": False,
        "taskRecord": record,
    }
    parent.append_message({"role": "toolResult", "results": [result]})
    return Family(parent.path, child.path, parent.session_id, child.session_id)
