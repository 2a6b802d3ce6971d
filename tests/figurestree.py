"""Sessions whose figures were wrong (issue 19, "figures that must be right"), for the core, the
command line and the app alike. Importable as ``import figurestree`` (``pythonpath``).

- :func:`odd_dates_tree`: one session whose records are dated 2026-02-30, 2026-13-01,
  9999-99-99 and 0000-01-01 (dates that cannot be), and one on 2026-10-05;
- :func:`span_tree`: one record on 0001-01-01 and one on 9999-12-31 (real dates, absurd span);
- :func:`usage_tree`: a call recorded with ``usageMissing: true`` and a ``usage`` of zeros, a
  call reporting 2^53 tokens, and a call of a model whose name is 200 characters long;
- :func:`timed_turns`: two turns of known durations (the last 3m58s, 1m38s of it in a tool),
  and :func:`append_later` to write a record outside the turns a day (or more) later.

Every assistant call of the first two reports 10 tokens in and 1 out.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from ink_tui.session import open_session
from ink_tui.session.writing.writer import SessionWriter

__all__ = [
    "A_DAY",
    "CWD",
    "IMPOSSIBLE_DAYS",
    "LAST_TURN",
    "LONG_MODEL",
    "PROJECT",
    "SPAN",
    "T0",
    "TOOL",
    "append_later",
    "assistant",
    "clock_at",
    "entry",
    "odd_dates_tree",
    "span_tree",
    "timed_turns",
    "usage_tree",
    "user",
    "write_session",
]

CWD = "/home/u/odd"
PROJECT = "home-u-odd"
IMPOSSIBLE_DAYS = ("2026-02-30", "2026-13-01", "9999-99-99", "0000-01-01")
LONG_MODEL = "openai/" + "m" * 193  # 200 characters
SONNET = "anthropic/claude-sonnet-4-5"


def entry(kind: str, entry_id: str, parent: str | None, when: str, **fields: Any) -> Any:
    return {"type": kind, "id": entry_id, "parentId": parent, "timestamp": when, **fields}


def user(entry_id: str, parent: str | None, when: str, text: str = "hi") -> Any:
    return entry("message", entry_id, parent, when, message={"role": "user", "content": text})


def assistant(
    entry_id: str,
    parent: str,
    when: str,
    usage: dict[str, Any] | None = None,
    reference: str = SONNET,
    **more: Any,
) -> Any:
    message: dict[str, Any] = {
        "role": "assistant",
        "blocks": [{"type": "text", "text": "ok"}],
        "usage": {"inputTokens": 10, "outputTokens": 1} if usage is None else usage,
        "stopReason": "end_turn",
        "modelReference": reference,
        **more,
    }
    return entry("message", entry_id, parent, when, message=message)


def write_session(path: Path, records: list[Any], session_id: str = "0dd") -> Path:
    header = {
        "type": "session",
        "version": 1,
        "id": f"{session_id}00000-0000-4000-8000-000000000000"[:36],
        "timestamp": "2026-10-05T09:00:00.000Z",
        "cwd": CWD,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(record, ensure_ascii=False) for record in [header, *records]]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _turns(days: list[str]) -> list[Any]:
    records: list[Any] = []
    parent: str | None = None
    for number, day in enumerate(days):
        records.append(user(f"u{number}", parent, f"{day}T10:00:00.000Z"))
        records.append(assistant(f"a{number}", f"u{number}", f"{day}T10:00:05.000Z"))
        parent = f"a{number}"
    return records


def odd_dates_tree(base: Path) -> Path:
    """The impossible dates, then 2026-10-05; returns the session file."""
    path = base / PROJECT / "2026-10-05T09-00-00-000Z-odd.jsonl"
    return write_session(path, _turns([*IMPOSSIBLE_DAYS, "2026-10-05"]))


def span_tree(base: Path) -> Path:
    """0001-01-01 and 9999-12-31; returns the session file."""
    path = base / PROJECT / "2026-10-05T09-00-00-000Z-span.jsonl"
    return write_session(path, _turns(["0001-01-01", "9999-12-31"]), session_id="5ba")


def usage_tree(base: Path) -> Path:
    """On 2026-10-05: a normal call (1000 in, 100 out), a call recorded without usage (a zero
    ``usage`` and ``usageMissing: true``), a call reporting 2^53 input tokens, and a call of
    :data:`LONG_MODEL` (5 in, 5 out); returns the session file."""
    when = "2026-10-05T10:00:0{}.000Z"
    records = [
        user("u1", None, when.format(0)),
        assistant("a1", "u1", when.format(1), {"inputTokens": 1000, "outputTokens": 100}),
        assistant(
            "a2", "a1", when.format(2), {"inputTokens": 0, "outputTokens": 0}, usageMissing=True
        ),
        assistant("a3", "a2", when.format(3), {"inputTokens": 2**53, "outputTokens": 2**53}),
        assistant("a4", "a3", when.format(4), {"inputTokens": 5, "outputTokens": 5}, LONG_MODEL),
    ]
    path = base / PROJECT / "2026-10-05T09-00-00-000Z-usage.jsonl"
    return write_session(path, records, session_id="05a")


T0 = datetime(2026, 11, 2, 10, 0, 0, tzinfo=UTC)
LAST_TURN = 238.0  # 3m58s: the second prompt at 100 s, its answer at 338 s
TOOL = 98.0  # its bash call at 102 s, the result at 200 s
SPAN = 338.0  # the first prompt to the last answer: 5m38s
A_DAY = 86_400.0


def clock_at(*offsets: float) -> Callable[[], datetime]:
    """A writer's clock giving ``T0`` plus each offset (seconds) in turn."""
    ticks: Iterator[datetime] = (T0 + timedelta(seconds=offset) for offset in offsets)
    return lambda: next(ticks)


def _reply(blocks: list[dict[str, Any]]) -> dict[str, Any]:
    usage = {"inputTokens": 10, "outputTokens": 5}
    return {"role": "assistant", "blocks": blocks, "usage": usage, "stopReason": "end_turn"}


def timed_turns(folder: Path) -> Path:
    """Two turns: a prompt at 0 s answered at 5 s; a prompt at 100 s, a bash call at 102 s,
    its result at 200 s, the answer at 338 s. Returns the session file (cwd :data:`CWD`)."""
    writer = SessionWriter.new(folder, CWD, clock=clock_at(0, 0, 5, 100, 102, 200, 338))
    text = [{"type": "text", "text": "done"}]
    call = {"type": "toolCall", "id": "c1", "name": "bash", "arguments": {"command": "make"}}
    result = {"toolCallId": "c1", "toolName": "bash", "content": "ok", "isError": False}
    writer.append_message({"role": "user", "content": "first"})
    writer.append_message(_reply(text))
    writer.append_message({"role": "user", "content": "second"})
    writer.append_message(_reply([call]))
    writer.append_message({"role": "toolResult", "results": [result]})
    writer.append_message(_reply(text))
    return writer.path


def append_later(path: Path, kind: str, fields: dict[str, Any], after: float = A_DAY) -> Any:
    """Append an entry ``after`` seconds past the last answer (as ``ink-tui rename`` or ``label``
    would, a day later); returns the record."""
    writer = SessionWriter.for_session(open_session(path, warn=None), clock=clock_at(SPAN + after))
    return writer.append_entry(kind, fields)
