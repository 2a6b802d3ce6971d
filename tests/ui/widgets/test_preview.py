"""The picker's preview: the last turns, read from the end of the file; moving on cancels the
previous preview's scan (its worker's ``cancelled_event`` reaches the core)."""

from __future__ import annotations

import io
import threading
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import Static
from textual.worker import WorkerState
from waiting import DEFAULT_TIMEOUT, wait_for

from ink_tui.session.conversation import lastturns
from ink_tui.ui.app import InkApp
from ink_tui.ui.widgets import preview as preview_module
from ink_tui.ui.widgets.preview import SessionPreview
from ink_tui.ui.widgets.session_list import SessionList


def _text(app: InkApp) -> str:
    widget = app.screen.query_one("#preview-body", Static)
    console = Console(file=io.StringIO(), width=200, color_system=None, legacy_windows=False)
    console.print(widget.content)
    return console.file.getvalue()  # type: ignore[attr-defined]


async def test_preview_shows_the_last_turns_from_the_tail(
    sessions_tree: Any, write_session: Any, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lastturns, "COUNT_BELOW", 0)  # as for a big session: tail only
    monkeypatch.setattr(lastturns, "BLOCK_BYTES", 512)
    prompts = [f"prompt number {n}" for n in range(12)]
    path = write_session(sessions_tree.home, sessions_tree.cwd, prompts, age=1)
    reads: list[lastturns.LastTurns] = []
    real = preview_module.read_last_turns

    def recording(*args: Any, **kwargs: Any) -> lastturns.LastTurns:
        reads.append(real(*args, **kwargs))
        return reads[-1]

    monkeypatch.setattr(preview_module, "read_last_turns", recording)
    app = make_app(sessions_dir=sessions_tree.base, cwd=sessions_tree.cwd)
    async with app.run_test(size=(120, 40)) as pilot:
        table = app.screen.query_one(SessionList)
        await wait_for(pilot, lambda: table.highlighted is not None, "the rows")
        await wait_for(pilot, lambda: table.highlighted.path == path, "the newest row")
        await pilot.press("space")
        await wait_for(pilot, lambda: "prompt number 11" in _text(app), "the preview")
        text = _text(app)
        assert "prompt number 9" in text and "prompt number 10" in text
        assert "prompt number 8" not in text  # three turns, not the whole session
        assert "the last turns (read from the end of the file)" in text
        assert reads and reads[-1].from_tail
        assert reads[-1].bytes_read < path.stat().st_size


async def test_moving_on_cancels_the_previous_preview(
    sessions_tree: Any, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first preview's scan is stuck (a huge file, say): moving the cursor cancels it."""
    real = preview_module.read_last_turns
    stuck: dict[str, Any] = {}
    released = threading.Event()

    def slow_first(path: Path, count: int, *, cancel: threading.Event) -> Any:
        if not stuck:
            stuck["path"], stuck["cancel"] = path, cancel
            released.set()
            cancel.wait(DEFAULT_TIMEOUT)  # as a scan between two blocks: sees the event, stops
            stuck["cancelled"] = cancel.is_set()
            raise lastturns.ScanCancelled
        return real(path, count, cancel=cancel)

    monkeypatch.setattr(preview_module, "read_last_turns", slow_first)
    app = make_app(sessions_dir=sessions_tree.base, cwd=sessions_tree.cwd)
    async with app.run_test(size=(120, 40)) as pilot:
        table = app.screen.query_one(SessionList)
        await wait_for(pilot, lambda: len(table.shown) > 1, "the rows")
        await pilot.press("space")
        await wait_for(pilot, released.is_set, "the first preview's scan")
        preview = app.screen.query_one(SessionPreview)
        first = [w for w in app.workers if w.group == "preview"]
        assert first and first[0].state is WorkerState.RUNNING
        assert "loading" in _text(app)
        await pilot.press("j")
        await wait_for(pilot, lambda: "cancelled" in stuck, "the first scan to stop")
        assert stuck["cancelled"] is True
        assert first[0].is_cancelled
        second = table.shown[1]
        assert stuck["path"] != second.path
        await wait_for(pilot, lambda: preview.loaded_path == second.path, "the second preview")
        assert "loading" not in _text(app)
