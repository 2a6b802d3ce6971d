"""Pilot tests of starting to follow: a file whose last line Ink rejects, a file that is repaired
while followed (its old trouble goes), a session still loading when ``f`` is pressed.

Waits are ``waiting.wait_for``; apps come from the ``make_app`` fixture.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from bigload import big_session, hold_the_full_load
from viewtext import assistant, banner_text, header_text, replay_text
from waiting import wait_for

from ink_tui.session.writing.writer import SessionWriter
from ink_tui.ui.session_view.loader import BranchLoader
from ink_tui.ui.session_view.screen import SessionScreen

BAD_LINE = b'{"type":"message","id":\n'  # a complete line that is not JSON


def _writer(tmp_path: Path, turns: int = 3) -> SessionWriter:
    writer = SessionWriter.new(tmp_path / "sessions" / "p", "/home/ada/code/calc-kit")
    for n in range(1, turns + 1):
        writer.append_message({"role": "user", "content": f"prompt {n}"})
        writer.append_message(assistant(f"answer {n}"))
    return writer


def _record(entry_id: str, parent: str | None, text: str) -> bytes:
    record = {
        "type": "message",
        "id": entry_id,
        "parentId": parent,
        "timestamp": "2026-11-02T10:00:00.000Z",
        "message": {"role": "user", "content": text},
    }
    return json.dumps(record).encode() + b"\n"


def _screen(pilot: Any) -> SessionScreen | None:
    screen = pilot.app.screen
    return screen if isinstance(screen, SessionScreen) and screen.loaded is not None else None


def _count_loads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    loads: list[Path] = []
    load = BranchLoader.load

    def counted(self: BranchLoader, path: Path, *args: Any, **kwargs: Any) -> None:
        loads.append(path)
        load(self, path, *args, **kwargs)

    monkeypatch.setattr(BranchLoader, "load", counted)
    return loads


@pytest.mark.parametrize("how", ["--follow", "f"])
async def test_a_complete_last_line_ink_rejects_is_followed_as_the_file_s_trouble(
    tmp_path: Path, make_app: Any, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """Not reloaded again and again: only a line without its newline needs a reopen."""
    writer = _writer(tmp_path)
    leaf = writer.leaf_id
    with writer.path.open("ab") as stream:
        stream.write(BAD_LINE)  # line 8, complete: Ink drops it as a torn final line
    loads = _count_loads(monkeypatch)
    app = make_app(open_path=writer.path, follow=how == "--follow")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await wait_for(pilot, lambda: _screen(pilot), "the session view")
        if how == "f":
            await pilot.press("f")
        await wait_for(pilot, lambda: screen.live.following, "following")
        await wait_for(pilot, lambda: banner_text(screen), "the banner")
        assert "line 8 is not a valid record (invalid JSON" in banner_text(screen)
        assert "line 8 rejected" in header_text(screen)
        assert len(loads) == 1  # read once
        with writer.path.open("ab") as stream:
            stream.write(_record("ffff000011112222", leaf, "written after it"))
        await wait_for(pilot, lambda: "written after it" in replay_text(screen), "the new record")
        await wait_for(pilot, lambda: "any more" in banner_text(screen), "Ink cannot open it")
        assert "Ink cannot open this file any more: session line 8" in banner_text(screen)
        assert len(loads) == 1


async def test_a_file_repaired_while_followed_loses_its_old_trouble(
    tmp_path: Path, make_app: Any
) -> None:
    """A rejected line, then the file cut back (as a repair does): read again, nothing wrong."""
    writer = _writer(tmp_path)
    leaf, healthy = writer.leaf_id, writer.path.read_bytes()
    async with make_app(open_path=writer.path, follow=True).run_test(size=(120, 40)) as pilot:
        screen = await wait_for(pilot, lambda: _screen(pilot), "the session view")
        await wait_for(pilot, lambda: screen.live.following, "following")
        with writer.path.open("ab") as stream:
            stream.write(BAD_LINE)
        await wait_for(pilot, lambda: "line 8 rejected" in header_text(screen), "the trouble")
        first = screen.loaded
        writer.path.write_bytes(healthy)  # the file shrank: read again from the start
        await wait_for(
            pilot, lambda: screen.loaded is not first and screen.live.following, "following again"
        )
        await wait_for(pilot, lambda: not banner_text(screen), "the banner gone")
        assert "rejected" not in header_text(screen) and "⚠" not in header_text(screen)
        with writer.path.open("ab") as stream:
            stream.write(_record("ffff000011112222", leaf, "written after the repair"))
        await wait_for(pilot, lambda: "written after the repair" in replay_text(screen), "a record")
        assert not banner_text(screen) and "Ink cannot open" not in header_text(screen)


# -- f while a big session is still loading ---------------------------------------------------


def _status(screen: SessionScreen) -> str:
    return str(screen.query_one("#search-status").render())


async def test_f_while_the_session_loads_follows_the_whole_branch_once_it_is_read(
    tmp_path: Path, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = hold_the_full_load(monkeypatch)
    path = big_session(tmp_path / "sessions" / "p")
    async with make_app(open_path=path).run_test(size=(120, 40)) as pilot:
        screen = await wait_for(pilot, lambda: _screen(pilot), "the last turns")
        assert screen.loaded is not None and screen.loaded.earlier > 0
        await pilot.press("f")
        assert not screen.live.following
        assert "following starts once it is read" in _status(screen)
        release.set()
        await wait_for(pilot, lambda: screen.live.following, "following")
        assert screen.loaded is not None and not screen.loaded.earlier
        assert "following starts" not in _status(screen)
        turns = screen.loaded.stats.turns
        assert f"{turns} turns" in header_text(screen)
        with path.open("ab") as stream:
            stream.write(_record("ffff000011112222", screen.loaded.leaf_id, "a new prompt"))
        await wait_for(pilot, lambda: "a new prompt" in replay_text(screen), "the new prompt")
        await wait_for(pilot, lambda: f"{turns + 1} turns" in header_text(screen), "counted")
        assert screen.loaded.leaf_id == "ffff000011112222"  # what c and y act on


async def test_f_twice_while_the_session_loads_does_not_follow(
    tmp_path: Path, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = hold_the_full_load(monkeypatch)
    path = big_session(tmp_path / "sessions" / "p")
    async with make_app(open_path=path).run_test(size=(120, 40)) as pilot:
        screen = await wait_for(pilot, lambda: _screen(pilot), "the last turns")
        await pilot.press("f")
        assert "following starts once it is read" in _status(screen)
        await pilot.press("f")
        assert "following starts" not in _status(screen)
        release.set()
        await wait_for(
            pilot, lambda: screen.loaded is not None and not screen.loaded.earlier, "all"
        )
        assert not screen.live.following


async def test_follow_from_the_command_line_says_it_waits_for_the_whole_branch(
    tmp_path: Path, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = hold_the_full_load(monkeypatch)
    path = big_session(tmp_path / "sessions" / "p")
    async with make_app(open_path=path, follow=True).run_test(size=(120, 40)) as pilot:
        screen = await wait_for(pilot, lambda: _screen(pilot), "the last turns")
        assert "following starts once it is read" in _status(screen)
        assert not screen.live.following
        release.set()
        await wait_for(pilot, lambda: screen.live.following, "following")
        assert screen.loaded is not None and not screen.loaded.earlier


# -- after following stopped -------------------------------------------------------------------


async def test_a_newer_session_seen_by_a_stopped_watcher_is_not_offered(
    tmp_path: Path, make_app: Any
) -> None:
    from ink_tui.ui.follow import NewerSession

    writer = _writer(tmp_path)
    async with make_app(open_path=writer.path, follow=True).run_test(size=(120, 40)) as pilot:
        screen = await wait_for(pilot, lambda: _screen(pilot), "the session view")
        await wait_for(pilot, lambda: screen.live.following, "following")
        stopped = screen.live._follower
        assert stopped is not None
        await pilot.press("f")
        newer = SessionWriter.new(writer.path.parent, "/home/ada/code/calc-kit")
        newer.append_message({"role": "user", "content": "a newer session"})
        screen.live.post_message(NewerSession(newer.path, stopped))  # posted as it stopped
        await pilot.pause()
        assert screen.live.newer_session is None
        assert not any("newer session" in str(note.message) for note in pilot.app._notifications)
