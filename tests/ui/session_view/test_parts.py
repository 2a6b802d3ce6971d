"""Pilot tests of the session view's parts: the bounded replay cache and the injected clock.

Waits are ``waiting.wait_for``; apps come from the ``make_app`` fixture.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from waiting import wait_for

from ink_tui.session.writing.writer import SessionWriter
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.session_view.tree import SessionTree
from ink_tui.ui.widgets.transcript import Transcript


async def _loaded(pilot: Any) -> SessionScreen:
    def ready() -> bool:
        screen = pilot.app.screen
        return isinstance(screen, SessionScreen) and screen.loaded is not None

    await wait_for(pilot, ready, "the session view")
    screen = pilot.app.screen
    assert isinstance(screen, SessionScreen)
    return screen


def _lines(transcript: Transcript, index: int) -> list[str]:
    return [strip.text for strip in transcript.block_strips(index)]


@pytest.mark.slow  # scrolls through 240 entries
async def test_the_replay_keeps_a_bounded_number_of_rendered_blocks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make_app: Any
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
    async with make_app(open_path=path).run_test(size=(120, 40)) as pilot:
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


async def test_running_times_and_the_last_write_use_the_apps_clock(
    tmp_path: Path, make_app: Any
) -> None:
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
    app = make_app(open_path=writer.path, follow=True, clock=lambda: now[0])
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _loaded(pilot)
        await wait_for(pilot, lambda: screen.live.following, "following")
        tree = screen.query_one(SessionTree)
        await wait_for(pilot, lambda: "⟳ running 42s" in tree.cursor.text, "42s")
        writer.append_message({"role": "user", "content": "and now?"})
        await wait_for(pilot, lambda: screen.live.last_write is not None, "the write")
        assert screen.live.last_write == now[0]
        now[0] += 7
        header = screen.query_one("#session-header")
        await wait_for(pilot, lambda: "(7s ago)" in header.render().plain, "7s ago")
