"""Sessions whose records carry chosen times, for the playback tests (core, command line, app),
and a fake clock that only moves when told."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = ["ANSWER", "T0", "FakeClock", "conversation", "write_timed"]

T0 = "2026-10-18T10:00:00.000Z"
ANSWER = "The retry loop never waits between attempts, so it gives up at once."


class FakeClock:
    """A clock standing still until :meth:`advance` moves it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def _stamp(seconds: float) -> str:
    minutes, rest = divmod(seconds, 60)
    return f"2026-10-18T10:{int(minutes):02d}:{rest:06.3f}Z"


def _assistant(blocks: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "role": "assistant",
        "blocks": blocks,
        "usage": {"inputTokens": 10, "outputTokens": 5},
        "stopReason": "end_turn",
        "model": "claude-sonnet-4-5",
        "modelReference": "anthropic/claude-sonnet-4-5",
    }


def write_timed(path: Path, messages: list[tuple[Any, dict[str, Any]]]) -> Path:
    """A session whose records carry the given times (seconds after 10:00, or a raw string)."""
    lines = [{"type": "session", "version": 1, "id": "b6a25d54-3557-459c-b81e-ceb3b63debdd",
              "timestamp": T0, "cwd": "/home/ada/code/calc-kit"}]  # fmt: skip
    parent = None
    for number, (when, message) in enumerate(messages):
        entry_id = f"e{number}"
        stamp = when if isinstance(when, str) else _stamp(when)
        lines.append({"type": "message", "id": entry_id, "parentId": parent,
                      "timestamp": stamp, "message": message})  # fmt: skip
        parent = entry_id
    path.write_text("".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines))
    return path


def conversation(
    times: tuple[Any, ...] = (0, 20, 25, 200, 230),
) -> list[tuple[Any, dict[str, Any]]]:
    """A prompt, a call, its result, an answer, a second prompt (at ``times``)."""
    call = {"type": "toolCall", "id": "c1", "name": "bash", "arguments": {"command": "pytest -q"}}
    result = {"toolCallId": "c1", "toolName": "bash", "content": "3 passed", "isError": False}
    return list(
        zip(
            times,
            [
                {"role": "user", "content": "why do the tests fail?"},
                _assistant([{"type": "text", "text": "Running them."}, call]),
                {"role": "toolResult", "results": [result]},
                _assistant([{"type": "text", "text": ANSWER}]),
                {"role": "user", "content": "thanks"},
            ],
            strict=True,
        )
    )
