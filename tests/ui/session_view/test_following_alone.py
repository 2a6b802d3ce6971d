"""Following alone (ui/session_view/following.py's ``LiveFollow``), in a small app, on a copy of
the project's ``minimal.jsonl``: what Ink appends arrives as new rows, a pause counts what
arrives (and says how to jump back), resuming and stopping, a last line still being written
asks for a fresh read, and asking for a newer session when there is none."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from testdata import copy_session
from textual.app import App, ComposeResult
from textual.message import Message
from waiting import wait_for

from ink_tui.session.conversation.branchview import load_branch
from ink_tui.session.reading.reader import open_session
from ink_tui.ui.session_view.following import LiveFollow


def _prompt(entry_id: str, parent: str, text: str) -> str:
    message = {"role": "user", "content": text}
    record = {
        "type": "message",
        "id": entry_id,
        "parentId": parent,
        "timestamp": "2026-03-02T09:01:00.000Z",
        "message": message,
    }
    return json.dumps(record) + "\n"


def _append(path: Path, text: str) -> None:
    with path.open("a", encoding="utf-8") as file:
        file.write(text)


class FollowApp(App[None]):
    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path
        self.said: list[Message] = []
        self.notes: list[str] = []
        self.started: bool | None = None

    def compose(self) -> ComposeResult:
        yield LiveFollow(id="follow")

    def on_mount(self) -> None:
        session = open_session(self.path, warn=None)
        self.started = self.query_one(LiveFollow).start(load_branch(session, session.leaf_id))

    def on_live_follow_grew(self, message: LiveFollow.Grew) -> None:
        self.said.append(message)

    def on_live_follow_reopen(self, message: LiveFollow.Reopen) -> None:
        self.said.append(message)

    def notify(self, message: str, **kwargs: Any) -> None:  # type: ignore[override]
        self.notes.append(message)


def _grew(app: FollowApp) -> list[LiveFollow.Grew]:
    return [message for message in app.said if isinstance(message, LiveFollow.Grew)]


async def test_what_ink_appends_arrives_and_a_pause_counts_it(tmp_path: Path) -> None:
    path = copy_session(tmp_path / "proj", "minimal.jsonl")
    app = FollowApp(path)
    async with app.run_test(size=(40, 4)) as pilot:
        follow = app.query_one(LiveFollow)
        await wait_for(pilot, lambda: follow.following, "following")
        assert app.started is True and follow.status == ""
        assert follow.header_state is not None and follow.header_state.following
        _append(path, _prompt("u2", "a1", "and for one item?"))
        await wait_for(pilot, lambda: _grew(app), "the new prompt")
        turns = [turn for change in _grew(app)[0].changes for turn in change.new_turns]
        assert [turn.prompt for turn in turns] == ["and for one item?"]
        follow.pause()
        assert follow.status == "following paused: F or End to jump back"
        _append(path, _prompt("u3", "u2", "still there?"))
        await wait_for(pilot, lambda: len(_grew(app)) == 2, "a record while paused")
        assert follow.status == "1 new record while paused: F or End to jump back"
        follow.resume()
        assert follow.status == "" and follow.unseen == 0
        follow.stop()
        assert not follow.following and follow.header_state is None


async def test_a_last_line_still_being_written_asks_for_a_fresh_read(tmp_path: Path) -> None:
    path = copy_session(tmp_path / "proj", "minimal.jsonl")
    _append(path, _prompt("u2", "a1", "half written").rstrip("\n"))
    app = FollowApp(path)
    async with app.run_test(size=(40, 4)) as pilot:
        await wait_for(pilot, lambda: app.said, "what following asks")
        reopen = app.said[0]
        assert isinstance(reopen, LiveFollow.Reopen) and app.started is False
        assert reopen.leaf_id == "u2"  # the branch shown, to show again once read afresh
        assert not app.query_one(LiveFollow).following


async def test_no_newer_session_is_said(tmp_path: Path) -> None:
    path = copy_session(tmp_path / "proj", "minimal.jsonl")
    app = FollowApp(path)
    async with app.run_test(size=(40, 4)) as pilot:
        follow = app.query_one(LiveFollow)
        await wait_for(pilot, lambda: follow.following, "following")
        follow.switch_newer()
        assert app.notes == ["no newer session in this project"] and follow.following
