"""Counts in the session view take the word that fits them: "1 turn", "1 compaction", "kept 1
message", never "1 turns" or "compaction(s)"."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from rich.console import Console
from waiting import wait_for

from ink_tui.ui.app import InkApp
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.widgets.transcript import Transcript

TS = "2026-10-05T12:34:56.789Z"


def one_of_each(folder: Path) -> Path:
    """One turn with one tool call, then one compaction that kept one message."""
    header = {"type": "session", "version": 1, "id": "one-each", "timestamp": TS, "cwd": "/p"}
    call = {"type": "toolCall", "id": "call_1", "name": "read", "arguments": {"path": "a.py"}}
    usage = {"inputTokens": 1, "outputTokens": 1}
    messages = [
        {"role": "user", "content": "read it"},
        {"role": "assistant", "blocks": [call], "usage": usage, "stopReason": "tool_use"},
        {
            "role": "toolResult",
            "results": [
                {"toolCallId": "call_1", "toolName": "read", "content": "x", "isError": False}
            ],
        },
    ]
    lines: list[dict[str, Any]] = [header]
    parent = None
    for index, message in enumerate(messages):
        entry_id = f"m{index}"
        lines.append(
            {"type": "message", "id": entry_id, "parentId": parent, "timestamp": TS}
            | {"message": message}
        )
        parent = entry_id
    lines.append(
        {"type": "compaction", "id": "c1", "parentId": parent, "timestamp": TS}
        | {"summary": "read a.py", "retainedTail": messages[:1], "tokensBefore": 900}
    )
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "one.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def screen_text(app: InkApp) -> str:
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system=None,
        record=True,
        legacy_windows=False,
    )
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text(styles=False)


async def test_the_header_and_the_replay_count_in_the_singular(
    tmp_path: Path, make_app: Any
) -> None:
    path = one_of_each(tmp_path / "sessions" / "p")
    app: InkApp = make_app(cwd="/p", open_path=path)
    async with app.run_test(size=(160, 30)) as pilot:
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, SessionScreen) and app.screen.loaded is not None,
            "the session view to load",
        )
        text = " ".join(screen_text(app).split())
        assert "1 turn · 3 messages · 1 tool call · 1 compaction ·" in text
        transcript = app.screen.query_one(Transcript)
        lines = []
        for index in range(len(transcript.keys)):
            lines += ["".join(s.text for s in strip) for strip in transcript.block_strips(index)]
        replay = " ".join(" ".join(lines).split())
        assert "kept 1 message as the retained tail" in replay
        assert "(s)" not in text and "(s)" not in replay
