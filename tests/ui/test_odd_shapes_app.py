"""Pilot: shapes Ink's ``open()`` accepts but its code trips on, walked as a user would.

``"blocks": 5`` once crashed the app on open and in the picker's preview. Now each odd shape is
a row saying what the file holds (``⚠ blocks is 5, not a list``), and the chat pane says why it
will not continue the session instead of sending it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from viewtext import replay_text
from waiting import wait_for

from ink_tui.paths import project_dir
from ink_tui.ui.screens.chat import ChatScreen
from ink_tui.ui.screens.picker import PickerScreen
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.session_view.tree import SessionTree
from ink_tui.ui.widgets.preview import SessionPreview
from ink_tui.ui.widgets.session_list import SessionList

STAMP = "2026-10-05T12:34:56.789Z"


def _records(cwd: Path, message: dict[str, Any], extra: list[dict[str, Any]]) -> list[str]:
    header = {
        "type": "session",
        "version": 1,
        "id": "0dd5a000-0000-4000-8000-000000000000",
        "timestamp": STAMP,
        "cwd": str(cwd),
    }
    user = {
        "type": "message",
        "id": "u1",
        "parentId": None,
        "timestamp": STAMP,
        "message": {"role": "user", "content": "look at this"},
    }
    odd = {"type": "message", "id": "a1", "parentId": "u1", "timestamp": STAMP, "message": message}
    return [json.dumps(record) for record in (header, user, odd, *extra)]


CASES = {
    "blocks-5": ({"role": "assistant", "blocks": 5}, [], "⚠ blocks is 5, not a list"),
    "blocks-true": ({"role": "assistant", "blocks": True}, [], "⚠ blocks is true, not a list"),
    "results-null-5": (
        {"role": "toolResult", "results": [None, 5]},
        [],
        "⚠ result 0 is null, not an object",
    ),
    "tail-missing": (
        {"role": "assistant", "blocks": [{"type": "text", "text": "ok"}]},
        [
            {
                "type": "compaction",
                "id": "c1",
                "parentId": "a1",
                "timestamp": STAMP,
                "summary": "so far",
            }
        ],
        "⚠ no retained tail",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
async def test_an_odd_shape_is_shown_in_the_preview_and_the_view_and_not_continued(
    make_app: Any, tmp_path: Path, case: str
) -> None:
    message, extra, shown = CASES[case]
    cwd = tmp_path / "work"
    cwd.mkdir()
    folder = project_dir(tmp_path / "sessions", str(cwd))
    folder.mkdir(parents=True)
    path = folder / "2026-10-05T12-34-56-789Z-odd.jsonl"
    path.write_text("".join(line + "\n" for line in _records(cwd, message, extra)))
    before = path.read_bytes()
    app = make_app(cwd=cwd)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, PickerScreen), "the picker")
        table = app.screen.query_one(SessionList)
        await wait_for(pilot, lambda: table.row_count == 1, "the session's row")
        await pilot.press("space")
        preview = app.screen.query_one(SessionPreview)
        await wait_for(pilot, lambda: preview.loaded_path == path, "the preview")
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, SessionScreen) and app.screen.loaded is not None,
            "the session view",
        )
        screen = app.screen
        assert isinstance(screen, SessionScreen)
        await wait_for(pilot, lambda: shown in replay_text(screen), "the oddity in the replay")
        tree = screen.query_one(SessionTree)
        labels = [node.text for node in tree.top_rows]
        labels += [child.text for node in tree.top_rows for child in node.children]
        assert any(shown.split(" (")[0].replace("⚠ ", "") in label for label in labels), labels
        await pilot.press("G", "c")
        await wait_for(pilot, lambda: isinstance(app.screen, ChatScreen), "the chat pane")
        chat = app.screen
        assert isinstance(chat, ChatScreen)
        await wait_for(pilot, lambda: chat.cannot_send is not None, "the pane's refusal")
        assert app.is_running
    assert path.read_bytes() == before  # nothing was written
