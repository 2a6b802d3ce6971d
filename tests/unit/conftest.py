"""Shared helpers for the session-core unit tests: session files built byte by byte.

Test modules run with ``--import-mode=importlib`` and cannot import each other, so the helpers
are handed out through the ``sf`` fixture.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

TS = "2026-10-05T12:34:56.789Z"


def dumps(record: Any) -> bytes:
    """Compact JSON as Ink writes it (no floats or lone surrogates in these helpers)."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class SessionFiles:
    """Builds session records and writes them as JSONL into one temporary folder."""

    TS = TS

    def __init__(self, root: Path) -> None:
        self.root = root
        self._count = 0

    # -- records -----------------------------------------------------------------------------

    @staticmethod
    def header(**extra: Any) -> dict[str, Any]:
        record: dict[str, Any] = {
            "type": "session",
            "version": 1,
            "id": "0b4f6a52-5a43-4a8e-9a55-0c6f6c3c2f11",
            "timestamp": TS,
            "cwd": "/home/ada/proj",
        }
        record.update(extra)
        return record

    @staticmethod
    def entry(kind: str, entry_id: str, parent: str | None, **fields: Any) -> dict[str, Any]:
        record: dict[str, Any] = {
            "type": kind,
            "id": entry_id,
            "parentId": parent,
            "timestamp": TS,
        }
        record.update(fields)
        return record

    @classmethod
    def user(cls, entry_id: str, parent: str | None, text: str = "hi") -> dict[str, Any]:
        return cls.entry("message", entry_id, parent, message={"role": "user", "content": text})

    @classmethod
    def assistant(
        cls,
        entry_id: str,
        parent: str | None,
        text: str = "ok",
        calls: tuple[tuple[str, str], ...] = (),
    ) -> dict[str, Any]:
        blocks: list[dict[str, Any]] = [{"type": "text", "text": text}]
        blocks += [
            {"type": "toolCall", "id": call_id, "name": name, "arguments": {}}
            for call_id, name in calls
        ]
        message = {
            "role": "assistant",
            "blocks": blocks,
            "usage": {"inputTokens": 1, "outputTokens": 1},
            "stopReason": "tool_use" if calls else "end_turn",
        }
        return cls.entry("message", entry_id, parent, message=message)

    @classmethod
    def results(cls, entry_id: str, parent: str | None, *calls: tuple[str, str]) -> dict[str, Any]:
        message = {
            "role": "toolResult",
            "results": [
                {"toolCallId": call_id, "toolName": name, "content": "done", "isError": False}
                for call_id, name in calls
            ],
        }
        return cls.entry("message", entry_id, parent, message=message)

    @staticmethod
    def position(leaf: Any) -> dict[str, Any]:
        return {"type": "position", "leafId": leaf}

    @staticmethod
    def session_model(provider: str, model_id: str, explicit: Any = True) -> dict[str, Any]:
        return {
            "type": "session_model",
            "provider": provider,
            "modelId": model_id,
            "explicit": explicit,
        }

    # -- files -------------------------------------------------------------------------------

    @staticmethod
    def line(item: Any) -> bytes:
        if isinstance(item, bytes):
            return item
        if isinstance(item, str):
            return item.encode("utf-8")
        return dumps(item)

    def path(self, name: str | None = None) -> Path:
        self._count += 1
        return self.root / (name or f"session-{self._count}.jsonl")

    def write_bytes(self, data: bytes, name: str | None = None) -> Path:
        path = self.path(name)
        path.write_bytes(data)
        return path

    def write(self, *items: Any, newline: bool = True, header: bool = True) -> Path:
        """Header (unless ``header=False``) then each item on its own line.

        Items are dicts (encoded compactly), ``str`` or ``bytes`` (written as given).
        ``newline=False`` leaves the final line unterminated.
        """
        lines = ([dumps(self.header())] if header else []) + [self.line(i) for i in items]
        data = b"\n".join(lines) + (b"\n" if newline else b"")
        return self.write_bytes(data)

    @staticmethod
    def error(path: Path, text: str) -> str:
        """An error text with the fixtures' ``<path>`` placeholder filled in."""
        return text.replace("<path>", str(path))


@pytest.fixture
def sf(tmp_path: Path) -> SessionFiles:
    return SessionFiles(tmp_path)
