"""Pilot tests of follow mode: arrivals, running calls, pause, counter, resume, branch switch."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ink_tui.session.writer import SessionWriter
from ink_tui.ui.app import InkApp, LaunchOptions
from ink_tui.ui.screens.session import SessionScreen
from ink_tui.ui.widgets.session_tree import SessionTree
from ink_tui.ui.widgets.transcript import Transcript


def _assistant(blocks: list[dict[str, Any]], stop: str = "end_turn") -> dict[str, Any]:
    return {
        "role": "assistant",
        "blocks": blocks,
        "usage": {"inputTokens": 3, "outputTokens": 2},
        "stopReason": stop,
        "model": "glm-5.3",
        "modelReference": "zai/glm-5.3",
    }


def _writer(tmp_path: Path) -> SessionWriter:
    writer = SessionWriter.new(tmp_path / "sessions" / "p", "/home/ada/code/calc-kit")
    writer.append_message({"role": "user", "content": "first prompt"})
    writer.append_message(_assistant([{"type": "text", "text": "first answer"}]))
    return writer


async def _following(pilot: Any) -> SessionScreen:
    for _ in range(100):
        await pilot.pause(0.02)
        screen = pilot.app.screen
        if isinstance(screen, SessionScreen) and screen.following:
            return screen
    raise AssertionError("never started following")


async def _until(pilot: Any, condition: Any, what: str) -> None:
    for _ in range(300):
        await pilot.pause(0.02)
        if condition():
            return
    raise AssertionError(f"timed out waiting for {what}")


def _app(tmp_path: Path, path: Path) -> InkApp:
    return InkApp(
        LaunchOptions(
            sessions_dir=tmp_path / "sessions",
            cwd="/nowhere",
            open_path=path,
            config_path=tmp_path / "config.toml",
            follow=True,
        )
    )


def _turn_titles(screen: SessionScreen) -> list[str]:
    return [str(node.label) for node in screen.query_one(SessionTree).root.children]


async def test_new_turns_and_tool_results_appear_as_they_land(tmp_path: Path) -> None:
    writer = _writer(tmp_path)
    app = _app(tmp_path, writer.path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _following(pilot)
        assert "LIVE" in str(screen.query_one("#session-header").render())
        writer.append_message({"role": "user", "content": "second prompt"})
        writer.append_message(
            _assistant(
                [{"type": "toolCall", "id": "c1", "name": "bash", "arguments": {"command": "ls"}}],
                "tool_use",
            )
        )
        await _until(pilot, lambda: any("second prompt" in t for t in _turn_titles(screen)), "turn")
        tree = screen.query_one(SessionTree)
        await _until(pilot, lambda: "running" in str(tree.cursor_node.label), "running call")
        writer.append_message(
            {
                "role": "toolResult",
                "results": [
                    {"toolCallId": "c1", "toolName": "bash", "content": "a\nb", "isError": False}
                ],
            }
        )
        await _until(pilot, lambda: "✓ ok" in str(tree.cursor_node.label), "the result")
        transcript = screen.query_one(Transcript)
        assert transcript.keys.count(screen.loaded.turns[-1].items[0].key) == 1  # once


async def test_moving_up_pauses_counts_and_F_resumes(tmp_path: Path) -> None:
    writer = _writer(tmp_path)
    app = _app(tmp_path, writer.path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _following(pilot)
        await pilot.press("k")
        assert screen.paused
        writer.append_message({"role": "user", "content": "while paused"})
        writer.append_message(_assistant([{"type": "text", "text": "ok"}]))
        status = screen.query_one("#search-status")
        await _until(pilot, lambda: "2 new record(s)" in str(status.render()), "the counter")
        tree = screen.query_one(SessionTree)
        assert "while paused" not in str(tree.cursor_node.label)
        await pilot.press("F")
        assert not screen.paused
        await _until(pilot, lambda: str(tree.cursor_node.label).endswith("ok"), "jump to end")


async def test_a_position_marker_switches_the_branch(tmp_path: Path) -> None:
    writer = _writer(tmp_path)
    first_id = json.loads(writer.path.read_text().splitlines()[1])["id"]
    app = _app(tmp_path, writer.path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _following(pilot)
        writer.append_position(first_id)  # Ink's /tree: back to the first prompt
        writer.append_message(_assistant([{"type": "text", "text": "another answer"}]))
        await _until(
            pilot,
            lambda: (
                isinstance(app.screen, SessionScreen)
                and app.screen.loaded is not None
                and app.screen.loaded.leaf_id == writer.leaf_id
            ),
            "the new branch",
        )
        messages = [notification.message for notification in app._notifications]
        assert any("another branch" in message for message in messages)
        del screen


async def test_f_toggles_following(tmp_path: Path) -> None:
    writer = _writer(tmp_path)
    app = _app(tmp_path, writer.path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _following(pilot)
        await pilot.press("f")
        assert not screen.following
        assert "LIVE" not in str(screen.query_one("#session-header").render())
        await pilot.press("f")
        await _until(pilot, lambda: screen.following, "following again")
