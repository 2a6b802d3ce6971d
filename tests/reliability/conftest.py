"""A realistic session written once by ``SessionWriter``, shared by the reliability tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from ink_tui.session import ModelRef, SessionWriter
from ink_tui.session.reading.jsoncodec import decode_line


@dataclass(frozen=True)
class RecordLine:
    """One line of the base session: its bytes (without newline), where it sits, its record."""

    start: int
    data: bytes
    record: dict[str, Any]

    @property
    def content_end(self) -> int:
        """Offset just past the last byte before the newline."""
        return self.start + len(self.data)


@dataclass(frozen=True)
class BaseSession:
    data: bytes
    header_length: int  # the header line without its newline
    lines: list[RecordLine]  # every line after the header

    def complete_before(self, cut: int) -> list[RecordLine]:
        """Records whose whole line, newline included, lies before ``cut``."""
        return [line for line in self.lines if line.content_end + 1 <= cut]

    def loadable_before(self, cut: int) -> list[RecordLine]:
        """Records whose JSON text is entirely before ``cut`` (newline or not)."""
        return [line for line in self.lines if line.content_end <= cut]


def _clock() -> Callable[[], datetime]:
    moments = (
        datetime(2026, 10, 5, 12, 0, 0, tzinfo=UTC) + timedelta(seconds=s) for s in range(10**6)
    )
    return lambda: next(moments)


def _hex() -> Callable[[], str]:
    numbers: Iterator[int] = iter(range(1, 10**6))
    return lambda: f"{next(numbers) * 0x9E3779B1 % 2**64:016x}"


def build_base_session(folder: Path) -> BaseSession:
    writer = SessionWriter.new(
        folder,
        "/home/mei/文档/proj",
        model=ModelRef("zai", "glm-5.3"),
        clock=_clock(),
        random_hex=_hex(),
        session_id="8f7168e0-eac4-4b38-86e4-cb9421884ebb",
        file_uuid="00000000-0000-4000-8000-000000000000",
    )
    first = writer.append_message({"role": "user", "content": "修一下 sum_list 😀\u2028第二行"})
    writer.append_message(
        {
            "role": "assistant",
            "blocks": [
                {"type": "thinking", "thinking": "先读代码。", "signature": "sig=="},
                {"type": "text", "text": "I'll read it — then run the tests."},
                {"type": "toolCall", "id": "call_1", "name": "read", "arguments": {"path": "a.py"}},
                {
                    "type": "toolCall",
                    "id": "call_2",
                    "name": "bash",
                    "arguments": {"command": "pytest -q", "timeout": 1.5},
                },
            ],
            "usage": {"inputTokens": 10, "outputTokens": 20, "cacheReadTokens": 0},
            "stopReason": "tool_use",
            "model": "glm-5.3",
            "modelReference": "zai/glm-5.3",
        }
    )
    writer.append_message(
        {
            "role": "toolResult",
            "results": [
                {
                    "toolCallId": "call_1",
                    "toolName": "read",
                    "content": "def f():\n\treturn 1\n",
                    "isError": False,
                },
                {
                    "toolCallId": "call_2",
                    "toolName": "bash",
                    "content": "1 failed ✗\n" + "log line — 日志\n" * 400,
                    "isError": True,
                },
            ],
        }
    )
    writer.append_session_model(ModelRef("anthropic", "claude-sonnet-4-5"))
    answer = writer.append_message(
        {
            "role": "assistant",
            "blocks": [{"type": "text", "text": "Fixed: the loop skipped the last element. 🎉"}],
            "usage": {"inputTokens": 30, "outputTokens": 5},
            "stopReason": "end_turn",
            "model": "claude-sonnet-4-5",
        }
    )
    writer.append_entry("label", {"targetId": first["id"], "label": "start ★"})
    writer.append_entry("thinkingLevelChange", {"thinkingLevel": "high"})
    writer.append_entry("session_info", {"name": "sum fix — 修复"})
    writer.append_entry(
        "compaction",
        {
            "summary": "User asked to fix sum_list; fixed.",
            "retainedTail": [{"role": "user", "content": "修一下"}],
            "tokensBefore": 4321,
        },
    )
    writer.append_message({"role": "user", "content": "Now add a test, s'il vous plaît."})
    writer.append_position(answer["id"])
    writer.append_message({"role": "user", "content": "Actually: branch from here ✂"})
    data = writer.path.read_bytes()
    header_length = data.index(b"\n")
    lines = []
    start = header_length + 1
    for raw in data[start:].split(b"\n")[:-1]:
        lines.append(RecordLine(start, raw, decode_line(raw)))
        start += len(raw) + 1
    return BaseSession(data, header_length, lines)


@pytest.fixture(scope="session")
def base_session(tmp_path_factory: pytest.TempPathFactory) -> BaseSession:
    return build_base_session(tmp_path_factory.mktemp("base"))


def present(session: Any, line: RecordLine) -> bool:
    """Whether the opened ``session`` holds ``line``'s record (as an entry or a marker)."""
    record = line.record
    if record["type"] == "position":
        return any(m.record == record and m.offset == line.start for m in session.positions)
    if record["type"] == "session_model":
        return any(m.record == record and m.offset == line.start for m in session.session_models)
    return any(e.record == record and e.offset == line.start for e in session.entries)


@pytest.fixture(scope="session")
def is_present() -> Callable[[Any, RecordLine], bool]:
    return present
