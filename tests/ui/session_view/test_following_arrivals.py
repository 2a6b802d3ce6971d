"""Pilot tests of following (issue 9 §5): End resumes, a line Ink rejects stays on screen, labels
and model switches arriving while following.

Waits are ``waiting.wait_for``; apps come from the ``make_app`` fixture.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from viewtext import assistant, banner_text, header_text, replay_text, without_time
from waiting import wait_for

from ink_tui.session import ModelRef
from ink_tui.session.writing.writer import SessionWriter
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.session_view.tree import SessionTree


def _writer(tmp_path: Path) -> SessionWriter:
    writer = SessionWriter.new(tmp_path / "sessions" / "p", "/home/ada/code/calc-kit")
    for n in (1, 2, 3):
        writer.append_message({"role": "user", "content": f"prompt {n}"})
        writer.append_message(assistant(f"answer {n}"))
    return writer


async def _following(pilot: Any) -> SessionScreen:
    def ready() -> bool:
        screen = pilot.app.screen
        return isinstance(screen, SessionScreen) and screen.live.following

    await wait_for(pilot, ready, "following")
    screen = pilot.app.screen
    assert isinstance(screen, SessionScreen)
    return screen


async def test_end_jumps_back_and_resumes_following(tmp_path: Path, make_app: Any) -> None:
    writer = _writer(tmp_path)
    async with make_app(open_path=writer.path, follow=True).run_test(size=(120, 40)) as pilot:
        screen = await _following(pilot)
        tree = screen.query_one(SessionTree)
        await pilot.press("k", "k")
        assert screen.live.paused
        writer.append_message({"role": "user", "content": "while away"})
        await wait_for(
            pilot,
            lambda: "1 new record while paused" in str(screen.query_one("#search-status").render()),
            "the counter",
        )
        await pilot.press("end")
        assert not screen.live.paused
        await wait_for(
            pilot,
            lambda: without_time(tree.cursor.text).endswith("while away"),
            "the end",
        )
        writer.append_message(assistant("and following again"))
        await wait_for(pilot, lambda: "and following again" in tree.cursor.text, "following")


async def test_a_line_ink_rejects_stays_on_screen_with_its_reason(
    tmp_path: Path, make_app: Any
) -> None:
    writer = _writer(tmp_path)
    async with make_app(open_path=writer.path, follow=True).run_test(size=(120, 40)) as pilot:
        screen = await _following(pilot)
        turns = len(screen.query_one(SessionTree).top_rows)
        with writer.path.open("ab") as stream:
            stream.write(b'{"type":"message","id":\n')  # a complete line, not JSON
        await wait_for(pilot, lambda: banner_text(screen), "the banner")
        assert "line 8 is not a valid record (invalid JSON" in banner_text(screen)
        assert "torn final line" in banner_text(screen)  # as the last line, Ink would drop it
        assert "● LIVE" not in header_text(screen) and "line 8 rejected" in header_text(screen)
        after = {
            "type": "message",
            "id": "ffff000011112222",
            "parentId": writer.leaf_id,
            "timestamp": "2026-11-02T10:00:00.000Z",
            "message": {"role": "user", "content": "written after it"},
        }
        with writer.path.open("ab") as stream:  # (the writer refuses: the file changed)
            stream.write(json.dumps(after).encode() + b"\n")
        await wait_for(pilot, lambda: "any more" in banner_text(screen), "Ink cannot open it")
        assert "Ink cannot open this file any more: session line 8: invalid JSON" in banner_text(
            screen
        )
        assert "Ink cannot open this file (line 8)" in header_text(screen)
        tree = screen.query_one(SessionTree)
        assert len(tree.top_rows) == turns + 1  # what was shown is kept; following goes on
        assert "written after it" in replay_text(screen)
        later = dict(after, id="ffff000011113333", parentId=after["id"])
        later["message"] = {"role": "user", "content": "and later still"}
        with writer.path.open("ab") as stream:
            stream.write(json.dumps(later).encode() + b"\n")
        await wait_for(pilot, lambda: "and later still" in replay_text(screen), "a later record")
        assert "any more" in banner_text(screen)  # it stays (not a toast)
        assert "Ink cannot open this file (line 8)" in header_text(screen)
        await pilot.press("f")  # stop following: no LIVE, the trouble still said
        await wait_for(pilot, lambda: not screen.live.following, "following stopped")
        assert "LIVE" not in header_text(screen) and "⚠ Ink cannot open this file" in header_text(
            screen
        )
        assert "any more" in banner_text(screen)


async def test_labels_and_model_switches_arriving_while_following_are_shown(
    tmp_path: Path, make_app: Any
) -> None:
    writer = _writer(tmp_path)
    first_prompt = [line for line in writer.path.read_text().splitlines() if "prompt 1" in line]
    target = json.loads(first_prompt[0])["id"]
    async with make_app(open_path=writer.path, follow=True).run_test(size=(120, 40)) as pilot:
        screen = await _following(pilot)
        tree = screen.query_one(SessionTree)
        writer.append_entry("label", {"targetId": target, "label": "start-here"})
        await wait_for(pilot, lambda: "# start-here" in tree.top_rows[0].text, "label")
        assert "# start-here" in replay_text(screen)
        writer.append_session_model(ModelRef("zai", "glm-5.3"))
        writer.append_entry("thinkingLevelChange", {"thinkingLevel": "low"})
        await wait_for(
            pilot, lambda: "· model → zai/glm-5.3" in replay_text(screen), "the model row"
        )
        await wait_for(pilot, lambda: "thinking low" in header_text(screen), "the header")
        assert "zai/glm-5.3" in header_text(screen)
        writer.append_entry("label", {"targetId": target, "label": ""})
        await wait_for(pilot, lambda: "#" not in tree.top_rows[0].text, "label removed")
