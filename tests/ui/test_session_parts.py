"""Pilot tests of the session view's parts: the bounded replay cache and the injected clock.

Waits are bounded polls (``_until``), never bare sleeps.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from ink_tui.session.writer import SessionWriter
from ink_tui.ui.app import InkApp, LaunchOptions
from ink_tui.ui.screens.session import SessionScreen
from ink_tui.ui.widgets.session_tree import SessionTree
from ink_tui.ui.widgets.transcript import Transcript

WAIT_SECONDS = 20.0


async def _until(pilot: Any, predicate: Callable[[], object], what: str) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.02)
    await pilot.pause()


def _app(tmp_path: Path, path: Path, **options: Any) -> InkApp:
    return InkApp(
        LaunchOptions(
            sessions_dir=tmp_path / "sessions",
            cwd="/nowhere",
            open_path=path,
            config_path=tmp_path / "config.toml",
            **options,
        )
    )


async def _loaded(pilot: Any) -> SessionScreen:
    def ready() -> bool:
        screen = pilot.app.screen
        return isinstance(screen, SessionScreen) and screen.loaded is not None

    await _until(pilot, ready, "the session view")
    screen = pilot.app.screen
    assert isinstance(screen, SessionScreen)
    return screen


def _lines(transcript: Transcript, index: int) -> list[str]:
    return [strip.text for strip in transcript.block_strips(index)]


async def test_the_replay_keeps_a_bounded_number_of_rendered_blocks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading a long session from end to end must not keep every rendered block."""
    import ink_tui.ui.widgets.transcript as transcript_module
    from ink_tui.demo import generate_session

    monkeypatch.setattr(transcript_module, "CACHED_BLOCKS", 12)
    path = generate_session(
        tmp_path / "sessions" / "p",
        "/home/ada/code/calc-kit",
        seed=5,
        entries=240,
        clock_start=datetime(2026, 11, 1, tzinfo=UTC),
        compact=False,
        fork=False,
    )
    async with _app(tmp_path, path).run_test(size=(120, 40)) as pilot:
        screen = await _loaded(pilot)
        transcript = screen.query_one(Transcript)
        blocks = len(transcript.keys)
        assert blocks > 100
        first = _lines(transcript, 0)
        for index in range(0, blocks, 3):  # scroll through the whole branch
            transcript.scroll_to_key(transcript.keys[index])
            await pilot.pause()
        assert transcript.cached_blocks <= 12
        assert _lines(transcript, 0) == first  # a block dropped from the cache renders the same


async def test_running_times_and_the_last_write_use_the_apps_clock(tmp_path: Path) -> None:
    """``⟳ running Ns`` and ``last write`` are measured on the injected clock, not the wall's."""
    started = datetime(2026, 11, 2, 9, 30, tzinfo=UTC)
    writer = SessionWriter.new(
        tmp_path / "sessions" / "p", "/home/ada/code/calc-kit", clock=lambda: started
    )
    writer.append_message({"role": "user", "content": "build it"})
    writer.append_message(
        {
            "role": "assistant",
            "blocks": [
                {"type": "toolCall", "id": "c1", "name": "bash", "arguments": {"command": "make"}}
            ],
            "usage": {"inputTokens": 3, "outputTokens": 2},
            "stopReason": "tool_use",
        }
    )
    now = [started.timestamp() + 42]
    app = _app(tmp_path, writer.path, follow=True, clock=lambda: now[0])
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _loaded(pilot)
        await _until(pilot, lambda: screen.following, "following")
        tree = screen.query_one(SessionTree)
        await _until(pilot, lambda: "⟳ running 42s" in str(tree.cursor_node.label), "42s")
        writer.append_message({"role": "user", "content": "and now?"})
        await _until(pilot, lambda: screen.live.last_write is not None, "the write")
        assert screen.live.last_write == now[0]
        now[0] += 7
        header = screen.query_one("#session-header")
        await _until(pilot, lambda: "(7s ago)" in header.render().plain, "7s ago")
