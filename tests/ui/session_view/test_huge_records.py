"""Pilot tests: a session holding one huge record (a prompt of megabytes, a ``write`` of
200,000 lines) opens, shows its first screen and answers keys while the huge block renders.

The huge block is cut in pieces and rendered in the transcript's worker; these tests hold that
worker (``huge.hold_the_render_worker``), so what they see before releasing it is what the
event loop did by itself. Waits are ``waiting.wait_for``; apps come from ``make_app``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from huge import END_MARKER, hold_the_render_worker, huge_session
from waiting import wait_for

from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.session_view.tree import SessionTree
from ink_tui.ui.widgets.transcript import Transcript

UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def screen_text(app: Any) -> str:
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


def replay_text(screen: SessionScreen) -> str:
    """The replay's lines as they are on the screen now."""
    transcript = screen.query_one(Transcript)
    return "\n".join(transcript.render_line(y).text for y in range(transcript.size.height))


async def _first_screen(pilot: Any) -> SessionScreen:
    """The session view, loaded, with the transcript's last block on the screen."""

    def shown() -> bool:
        screen = pilot.app.screen
        return (
            isinstance(screen, SessionScreen)
            and screen.loaded is not None
            and END_MARKER in screen_text(pilot.app)
        )

    await wait_for(pilot, shown, "the first screen of the session")
    screen = pilot.app.screen
    assert isinstance(screen, SessionScreen)
    return screen


async def _keys_work_while_held(pilot: Any, screen: SessionScreen) -> None:
    """``k`` and ``j`` move the tree's cursor while the huge block waits for the worker."""
    tree = screen.query_one(SessionTree)
    transcript = screen.query_one(Transcript)
    await wait_for(pilot, lambda: transcript.rendering > 0, "the huge block asked of the worker")
    start = tree.cursor_row
    await pilot.press("k")
    await wait_for(pilot, lambda: tree.cursor_row == start - 1, "k to move the cursor up")
    await pilot.press("j")
    await wait_for(pilot, lambda: tree.cursor_row == start, "j to move the cursor down")
    assert transcript.rendering > 0  # the keys were answered before the huge block rendered


@pytest.mark.parametrize(
    ("kind", "size", "seen"),
    [
        ("prompt", 5_000_000, "kappa lambda mu"),
        ("write", 200_000, "return v+66666"),  # the file's last line, at the view's bottom
        ("output", 5_000_000, "kappa lambda mu"),
    ],
    ids=["prompt-5mb", "write-200k-lines", "output-5mb"],
)
async def test_a_huge_record_opens_and_answers_keys_while_it_renders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make_app: Any, kind: Any, size: int, seen: str
) -> None:
    release = hold_the_render_worker(monkeypatch)
    path = huge_session(tmp_path / "sessions" / "p", kind, size)
    async with make_app(open_path=path).run_test(size=(120, 40)) as pilot:
        screen = await _first_screen(pilot)
        assert seen not in replay_text(screen)  # the huge block's lines wait for the worker
        assert "⋯" in replay_text(screen)
        await _keys_work_while_held(pilot, screen)
        release.set()
        await wait_for(pilot, lambda: seen in replay_text(screen), "the huge block's text")
        transcript = screen.query_one(Transcript)
        assert transcript.cached_blocks < 20  # only what is on screen was rendered
        await pilot.press("q")
        await wait_for(pilot, lambda: not pilot.app.is_running, "q to quit")


async def test_q_quits_while_a_huge_block_is_still_to_render(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make_app: Any
) -> None:
    release = hold_the_render_worker(monkeypatch)
    path = huge_session(tmp_path / "sessions" / "p", "prompt", 5_000_000)
    app = make_app(open_path=path)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await _first_screen(pilot)
            transcript = screen.query_one(Transcript)
            await wait_for(pilot, lambda: transcript.rendering > 0, "the worker asked")
            await pilot.press("q")
            await wait_for(pilot, lambda: not app.is_running, "q to quit")
    finally:
        release.set()


async def test_a_huge_block_is_read_through_piece_by_piece(tmp_path: Path, make_app: Any) -> None:
    """Scrolling up through a huge prompt renders the pieces it reaches, and only those."""
    path = huge_session(tmp_path / "sessions" / "p", "output-lines", 3_000_000)
    async with make_app(open_path=path).run_test(size=(120, 40)) as pilot:
        screen = await _first_screen(pilot)
        transcript = screen.query_one(Transcript)
        await pilot.press("o")  # every output in full: 37,501 lines
        screen.jump_to_end()
        await wait_for(pilot, lambda: "line 0037500" in replay_text(screen), "its last line")
        transcript.focus()
        for _ in range(5):  # each page waits for its own scroll, so none is lost under load
            before = transcript.scroll_y
            await pilot.press("pageup")
            await wait_for(pilot, lambda b=before: transcript.scroll_y < b, "a page up")

        def further_up() -> bool:
            text = replay_text(screen)
            shown = [int(n) for n in re.findall(r"line (\d{7})", text)]
            return "⋯" not in text and bool(shown) and max(shown) < 37_450

        await wait_for(pilot, further_up, "the pieces a few pages up, rendered")
        assert transcript.cached_blocks < 30
        await pilot.press("home")
        await wait_for(pilot, lambda: "Please look at this." in replay_text(screen), "the top")


async def test_a_huge_hostile_prompt_is_shown_safely(tmp_path: Path, make_app: Any) -> None:
    """Every piece of a huge text goes through the safe door: escapes and markup stay text."""
    path = huge_session(tmp_path / "sessions" / "p", "prompt", 200_000, hostile=True)
    async with make_app(open_path=path).run_test(size=(120, 40)) as pilot:
        await _first_screen(pilot)
        await wait_for(pilot, lambda: "[bold]loud" in screen_text(pilot.app), "the prompt")
        text = screen_text(pilot.app)
        assert "␛]0;pwned␇" in text
        assert UNSAFE.search(text) is None
