"""Sessions holding one huge record: a prompt, a tool output, a ``write`` of a big file.

Used by the tests of the lazy rendering of huge blocks and by ``tests/bench/bench_huge.py``.
Importable from every test folder as ``import huge`` (``pythonpath`` in pyproject.toml). The
files follow the record shapes of the spec (§2): a header, a user prompt, the assistant's call
and its result, and a final answer holding :data:`END_MARKER` (the transcript's last block).
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any, Literal

from waiting import DEFAULT_TIMEOUT

__all__ = ["CWD", "END_MARKER", "HOSTILE", "HugeKind", "hold_the_render_worker", "huge_session"]

CWD = "/home/ada/code/calc-kit"
END_MARKER = "HUGEENDMARKER5c1e"
HugeKind = Literal["prompt", "output", "output-lines", "write"]

HOSTILE = "\x1b]0;pwned\x07[bold]loud\x1b[2J\x1b[31mred\x1b[0m "
"""Put in a huge text every thousand characters by ``huge_session(..., hostile=True)``."""
_WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi "


def _line(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"


def _entry(entry_id: str, parent: str | None, second: int, **fields: Any) -> dict[str, Any]:
    stamp = f"2026-11-01T09:00:{second:02d}.000Z"
    return {"type": "message", "id": entry_id, "parentId": parent, "timestamp": stamp, **fields}


def _assistant(blocks: list[dict[str, Any]], stop: str) -> dict[str, Any]:
    return {
        "role": "assistant",
        "blocks": blocks,
        "usage": {"inputTokens": 120, "outputTokens": 40},
        "stopReason": stop,
        "model": "claude-sonnet-4-5",
        "modelReference": "anthropic/claude-sonnet-4-5",
    }


def _big_text(size: int, *, lines: bool) -> str:
    """About ``size`` characters of words: one line, or lines of about 80 characters."""
    if not lines:
        return (_WORDS * (size // len(_WORDS) + 1))[:size]
    row = "line {:07d} " + _WORDS[:66] + "\n"
    return "".join(row.format(n) for n in range(size // 80 + 1))


def _python_file(lines: int) -> str:
    """``lines`` lines of Python (about 7 bytes a line, as a generated table would be)."""
    body = ["def f{n}(v):", "    return v+{n}", ""]
    return "\n".join(body[n % 3].format(n=n // 3) for n in range(lines)) + "\n"


def hold_the_render_worker(monkeypatch: Any) -> threading.Event:
    """Hold the transcript's render worker (huge blocks, their pieces) until the returned event
    is set: what a test sees meanwhile is what the event loop did by itself."""
    import ink_tui.ui.widgets.transcript_work as transcript_work

    release = threading.Event()
    original = transcript_work.run_job

    def held(job: Any) -> Any:
        assert release.wait(DEFAULT_TIMEOUT), "the test never released the render worker"
        return original(job)

    monkeypatch.setattr(transcript_work, "run_job", held)
    return release


def _salted(text: str) -> str:
    return "".join(text[start : start + 1000] + HOSTILE for start in range(0, len(text), 1000))


def huge_session(folder: Path, kind: HugeKind, size: int, *, hostile: bool = False) -> Path:
    """A session in ``folder`` whose one huge record is a ``kind`` of ``size`` characters (for
    ``write``: ``size`` lines of Python); ``hostile``: with :data:`HOSTILE` all through it."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"2026-11-01T09-00-00-000Z-huge-{kind}-{size}.jsonl"
    header = {
        "type": "session",
        "version": 1,
        "id": "5a1e0c2d-6b7f-4e3a-9c8d-0f1e2d3c4b5a",
        "timestamp": "2026-11-01T09:00:00.000Z",
        "cwd": CWD,
        "model": {"provider": "anthropic", "modelId": "claude-sonnet-4-5"},
    }
    salt = _salted if hostile else str
    prompt = salt(_big_text(size, lines=False)) if kind == "prompt" else "Please look at this."
    records = [header, _entry("u1", None, 1, message={"role": "user", "content": prompt})]
    if kind == "write":
        call = {"path": "src/big_module.py", "content": salt(_python_file(size))}
        name, output = "write", "Wrote src/big_module.py"
    elif kind in ("output", "output-lines"):
        call = {"command": "cat big.log"}
        name, output = "bash", salt(_big_text(size, lines=kind == "output-lines"))
    else:
        call, name, output = {"command": "ls"}, "bash", "README.md\nsrc\n"
    blocks = [
        {"type": "text", "text": "Looking."},
        {"type": "toolCall", "id": "call_1", "name": name, "arguments": call},
    ]
    records.append(_entry("a1", "u1", 2, message=_assistant(blocks, "tool_use")))
    result = {"toolCallId": "call_1", "toolName": name, "content": output, "isError": False}
    records.append(_entry("r1", "a1", 3, message={"role": "toolResult", "results": [result]}))
    answer = [
        {"type": "text", "text": f"Done.\n\nAll of it: {END_MARKER} here."}
    ]  # not in the tree
    records.append(_entry("a2", "r1", 4, message=_assistant(answer, "end_turn")))
    with path.open("w", encoding="utf-8") as handle:
        handle.writelines(_line(record) for record in records)
    return path
