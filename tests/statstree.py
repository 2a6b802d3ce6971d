"""A small sessions tree for the stats tests, with its totals computed by hand (below).

Two projects:

- ``home-u-a`` (cwd ``/home/u/a``): session A1 with two branches, and a subagent child;
- ``home-u-b`` (cwd ``/home/u/b``): session B1 whose model changes to one no price knows.

Prices used by the tests (USD per million tokens: input, output, cache read, cache write)::

    anthropic/claude-sonnet-4-5   3    15   0.3  3.75
    openai/gpt-5.1                1    10   0.1  1
    zai/glm-5                     1    2    0.5  1     (a prefix: prices zai/glm-5.3)

Hand-computed, per model (every branch counts):

- sonnet: A1's a1 (in 1000, out 200, cache read 5000, cache write 2000: 3000+3000+1500+7500 =
  15000 µ$), a2 (in 100, out 50: 300+750 = 1050 µ$), the child's (in 10, out 10: 30+150 = 180 µ$):
  3 calls, 2 turns (u1, the child's), 2 tool calls (1 failed), 2 sessions, $0.01623;
- gpt-5.1: a3 on the other branch (in 2000, out 1000, cache read 10000: 2000+10000+1000 = 13000
  µ$) and the compaction (in 500, out 100: 500+1000 = 1500 µ$): 2 calls, 1 turn, 1 tool call
  (failed), $0.0145;
- glm-5.3 (B1's header model, its first answer names none): in 300, out 30: 300+60 = 360 µ$;
  1 call, 1 turn;
- openai/gpt-9-unknown (B1's session_model): a call without usage and one of in 700, out 70:
  2 calls (1 without usage), 3 turns (the last prompt unanswered), 770 unpriced tokens.

Totals: 3 sessions, 7 turns, 8 calls, 3 tool calls, 2 failed, in 4610, out 1460, cache read
15000, cache write 2000, $0.03109 (+ 770 unpriced tokens). Days (UTC): 2026-10-05 and -06 (ISO
week 41), 2026-10-12 and -13 (week 42); B1's last line is torn (skipped).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ink_tui.catalog.prices import Price, PriceTable

__all__ = ["A_CWD", "B_CWD", "PRICES", "test_prices", "write_tree"]

A_CWD = "/home/u/a"
B_CWD = "/home/u/b"
PRICES = {
    "anthropic/claude-sonnet-4-5": Price(3, 15, 0.3, 3.75),
    "openai/gpt-5.1": Price(1, 10, 0.1, 1),
    "zai/glm-5": Price(1, 2, 0.5, 1),
}


def test_prices() -> PriceTable:
    """The table above alone (no default prices)."""
    return PriceTable(defaults=dict(PRICES))


test_prices.__test__ = False  # type: ignore[attr-defined]  # not a test, whatever its name


def _header(session_id: str, cwd: str, **extra: Any) -> dict[str, Any]:
    return {
        "type": "session",
        "version": 1,
        "id": session_id,
        "timestamp": "2026-10-05T09:00:00.000Z",
        "cwd": cwd,
        **extra,
    }


def _entry(kind: str, entry_id: str, parent: str | None, when: str, **fields: Any) -> Any:
    return {"type": kind, "id": entry_id, "parentId": parent, "timestamp": when, **fields}


def _user(entry_id: str, parent: str | None, when: str) -> Any:
    return _entry("message", entry_id, parent, when, message={"role": "user", "content": "hi"})


def _assistant(
    entry_id: str, parent: str, when: str, usage: dict[str, int] | None, *calls: str, **more: Any
) -> Any:
    blocks: list[dict[str, Any]] = [{"type": "text", "text": "ok"}]
    blocks += [{"type": "toolCall", "id": c, "name": "bash", "arguments": {}} for c in calls]
    message: dict[str, Any] = {"role": "assistant", "blocks": blocks}
    if usage is not None:
        message["usage"] = usage
    message["stopReason"] = "tool_use" if calls else "end_turn"
    message.update(more)
    return _entry("message", entry_id, parent, when, message=message)


def _results(entry_id: str, parent: str, when: str, *results: tuple[str, bool]) -> Any:
    items = [
        {"toolCallId": c, "toolName": "bash", "content": "x", "isError": failed}
        for c, failed in results
    ]
    return _entry(
        "message", entry_id, parent, when, message={"role": "toolResult", "results": items}
    )


def _write(path: Path, records: list[Any], tail: bytes = b"") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = b"".join(json.dumps(r, ensure_ascii=False).encode() + b"\n" for r in records)
    path.write_bytes(lines + tail)
    return path


def write_tree(base: Path) -> dict[str, Path]:
    """Write the tree under ``base``; returns the files by name (a1, child, b1)."""
    sonnet = "anthropic/claude-sonnet-4-5"
    gpt = "openai/gpt-5.1"
    a = base / "home-u-a"
    a1 = _write(
        a / "2026-10-05T09-00-00-000Z-aaaa.jsonl",
        [
            _header("aaaaaaaa-0000-4000-8000-000000000001", A_CWD),
            _user("u1", None, "2026-10-05T10:00:00.000Z"),
            _assistant(
                "a1", "u1", "2026-10-05T10:00:05.000Z",
                {"inputTokens": 1000, "outputTokens": 200, "cacheReadTokens": 5000,
                 "cacheWriteTokens": 2000},
                "c1", "c2", model="claude-sonnet-4-5", modelReference=sonnet,
            ),
            _results("r1", "a1", "2026-10-05T10:00:06.000Z", ("c1", False), ("c2", True)),
            _assistant(
                "a2", "r1", "2026-10-05T10:01:00.000Z", {"inputTokens": 100, "outputTokens": 50},
                model="claude-sonnet-4-5", modelReference=sonnet,
            ),
            _user("u2", "a1", "2026-10-06T09:00:00.000Z"),  # a second branch, from a1
            _assistant(
                "a3", "u2", "2026-10-06T09:00:10.000Z",
                {"inputTokens": 2000, "outputTokens": 1000, "cacheReadTokens": 10000},
                "c3", model="gpt-5.1", modelReference=gpt,
            ),
            _results("r3", "a3", "2026-10-06T09:00:11.000Z", ("c3", True)),
            _entry(
                "compaction", "k1", "r3", "2026-10-06T09:05:00.000Z", summary="s",
                retainedTail=[], tokensBefore=9000, usage={"inputTokens": 500, "outputTokens": 100},
                model="gpt-5.1", modelReference=gpt,
            ),
            {"type": "position", "leafId": "a2"},
        ],
    )  # fmt: skip
    child = _write(
        a / "children" / "2026-10-06T09-01-00-000Z-cccc.jsonl",
        [
            _header("cccccccc-0000-4000-8000-000000000003", A_CWD, parent=a1.name),
            _user("cu", None, "2026-10-06T09:01:00.000Z"),
            _assistant(
                "ca", "cu", "2026-10-06T09:01:05.000Z", {"inputTokens": 10, "outputTokens": 10},
                model="claude-sonnet-4-5",  # a wire id alone: Ink reads a bare id as Anthropic's
            ),
        ],
    )  # fmt: skip
    b1 = _write(
        base / "home-u-b" / "2026-10-12T00-00-00-000Z-bbbb.jsonl",
        [
            _header(
                "bbbbbbbb-0000-4000-8000-000000000002", B_CWD,
                model={"provider": "zai", "modelId": "glm-5.3"},
            ),
            _user("v1", None, "2026-10-12T00:30:00.000Z"),
            _assistant("b1", "v1", "2026-10-12T00:30:05.000Z", {"inputTokens": 300,
                                                                 "outputTokens": 30}),
            {"type": "session_model", "provider": "openai", "modelId": "gpt-9-unknown",
             "explicit": True},
            _user("v2", "b1", "2026-10-12T01:00:00.000Z"),
            _assistant("b2", "v2", "2026-10-12T01:00:05.000Z", None, usageMissing=True),
            _user("v3", "b2", "2026-10-13T08:00:00.000Z"),
            _assistant(
                "b3", "v3", "2026-10-13T08:00:05.000Z", {"inputTokens": 700, "outputTokens": 70},
                modelReference="openai/gpt-9-unknown",
            ),
            _user("v4", "b3", "2026-10-13T09:00:00.000Z"),
        ],
        tail=b'{"type":"message","id":"torn","par',
    )  # fmt: skip
    return {"a1": a1, "child": child, "b1": b1}
