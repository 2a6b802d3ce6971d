"""The picker's preview alone (ui/widgets/preview.py), in a small app on a pinned clock, on the
project's own data sessions (read in place): the session's heading and facts, its last turns
once read in the worker, a file Ink cannot open said in one line, and no session selected."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from rich.console import Console
from testdata import session_file
from textual.app import ComposeResult
from textual.widgets import Static
from waiting import wait_for

from ink_tui.catalog import SessionSummary
from ink_tui.ui.options import InkAppBase, LaunchOptions
from ink_tui.ui.widgets.preview import SessionPreview

NOW = 1_800_000_000.0


def _summary(name: str, **fields: Any) -> SessionSummary:
    path = session_file(name)
    values: dict[str, Any] = {
        "path": path,
        "file_name": path.name,
        "project_folder": "calc-kit",
        "mtime": NOW - 3 * 3600,
        "size": 2048,
        "id": "0c9a7e21",
        "title": "the mean of nothing",
        "message_count": 2,
        "leaf_count": 1,
    }
    values.update(fields)
    return SessionSummary(**values)


class PreviewApp(InkAppBase):
    def __init__(self) -> None:
        super().__init__(LaunchOptions(Path("/s"), "/s", clock=lambda: NOW))
        self.said: list[Any] = []

    def compose(self) -> ComposeResult:
        yield SessionPreview(id="preview")


def _text(app: PreviewApp) -> str:
    body = app.query_one("#preview-body", Static)
    console = Console(file=io.StringIO(), width=200, color_system=None, legacy_windows=False)
    console.print(body.content)
    return "\n".join(line.rstrip() for line in console.file.getvalue().splitlines())  # type: ignore[attr-defined]


async def test_the_heading_then_the_last_turns_read_in_the_worker() -> None:
    app = PreviewApp()
    async with app.run_test(size=(80, 30)) as pilot:
        preview = app.query_one(SessionPreview)
        preview.show(_summary("minimal.jsonl"))
        assert _text(app).splitlines()[:4] == [
            "the mean of nothing",
            "calc-kit/minimal.jsonl",
            "id 0c9a7e21",
            "no model recorded · 2 messages · 1 branch · 2.0 KB · 3h ago",
        ]
        assert "loading…" in _text(app)
        await wait_for(pilot, lambda: preview.loaded_path is not None, "the last turns")
        text = _text(app)
        assert "loading…" not in text
        assert "What does stats.mean return for an empty list?" in text
        assert "It raises ZeroDivisionError" in text


async def test_a_file_ink_cannot_open_is_said_in_one_line() -> None:
    app = PreviewApp()
    async with app.run_test(size=(80, 30)) as pilot:
        preview = app.query_one(SessionPreview)
        hidden = "missing or unsupported session header"
        preview.show(_summary("bad-header.jsonl", hidden_reason=hidden))
        await wait_for(pilot, lambda: preview.loaded_path is not None, "the read to fail")
        lines = _text(app).splitlines()
        assert f"Ink's /sessions hides this session: {hidden}" in lines
        path = session_file("bad-header.jsonl")
        assert lines[-1] == (
            f"cannot open this session: SessionError: session file {path}: "
            "missing or unsupported session header"
        )


async def test_no_session_selected_is_said() -> None:
    app = PreviewApp()
    async with app.run_test(size=(80, 30)) as pilot:
        preview = app.query_one(SessionPreview)
        preview.show(None)
        await wait_for(pilot, lambda: _text(app), "the preview")
        assert _text(app) == "no session selected"
