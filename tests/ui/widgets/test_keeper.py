"""Keeping sessions in order from the app (issue 12): r d u y P in the picker, r L Y in the
session view. Every write is read back from the file; every move is undone byte for byte."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input
from waiting import wait_for, workers_finished

from ink_tui.manage.trash import list_trash
from ink_tui.session import open_session
from ink_tui.session.writing.writer import SessionWriter
from ink_tui.ui.modals.keeping import ConfirmScreen, CopyScreen, TextScreen
from ink_tui.ui.screens.picker import PickerScreen
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.session_view.tree import SessionTree
from ink_tui.ui.widgets.session_list import SessionList

CWD = "/home/ada/code/keep"
OLD = time.time() - 3600
HOSTILE = "evil \x1b]0;pwned\x07 \x1b[2J [bold]x[/]"
MARKUP = "not markup: [bold]x[/] [link=http://x]y[/]"


def _session(base: Path, prompt: str, *, age: float = 3600) -> Path:
    writer = SessionWriter.new(base / "home-ada-code-keep", CWD)
    writer.append_message({"role": "user", "content": prompt})
    writer.append_message(
        {
            "role": "assistant",
            "blocks": [{"type": "text", "text": "done"}],
            "usage": {"inputTokens": 1, "outputTokens": 1},
            "stopReason": "end_turn",
        }
    )
    stamp = time.time() - age
    os.utime(writer.path, (stamp, stamp))
    return writer.path


def _last(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text().splitlines()[-1])


def _notes(app: Any) -> str:
    return " ".join(str(note.message) for note in app._notifications)


async def _picker(pilot: Any) -> PickerScreen:
    app = pilot.app
    await wait_for(pilot, workers_finished(app), "the picker's rows")
    assert isinstance(app.screen, PickerScreen)
    return app.screen


def _titles(app: Any) -> list[str]:
    return [row.title for row in app.screen.query_one(SessionList).shown]


async def test_r_renames_the_highlighted_session_and_the_row_shows_it(
    tmp_path: Path, make_app: Any
) -> None:
    base = tmp_path / "sessions"
    path = _session(base, "first prompt")
    app = make_app(sessions_dir=base, cwd=CWD)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await _picker(pilot)
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, TextScreen), "the name prompt")
        app.screen.query_one(Input).value = "retry logic"
        await pilot.press("enter")
        await wait_for(pilot, lambda: _titles(app) == ["retry logic"], "the renamed row")
        assert _last(path)["type"] == "session_info" and _last(path)["name"] == "retry logic"
        assert 'named "retry logic"' in _notes(app)


async def test_d_asks_naming_the_session_then_u_undoes_it(tmp_path: Path, make_app: Any) -> None:
    base = tmp_path / "sessions"
    path = _session(base, "delete me")
    before = path.read_bytes()
    app = make_app(sessions_dir=base, cwd=CWD)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await _picker(pilot)
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        assert '"delete me"' in app.screen.body and str(path) in app.screen.body
        await pilot.press("y")
        await wait_for(pilot, lambda: _titles(app) == [], "the row gone")
        assert not path.exists() and len(list_trash()) == 1
        await pilot.press("u")
        await wait_for(pilot, lambda: _titles(app) == ["delete me"], "the row back")
        assert path.read_bytes() == before and list_trash() == []


async def test_d_on_a_session_being_written_moves_nothing(tmp_path: Path, make_app: Any) -> None:
    base = tmp_path / "sessions"
    path = _session(base, "busy", age=5)
    app = make_app(sessions_dir=base, cwd=CWD)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await _picker(pilot)
        await pilot.press("d")
        await wait_for(pilot, lambda: "not deleted" in _notes(app), "the refusal")
        assert path.exists() and not isinstance(app.screen, ConfirmScreen)


async def test_y_copies_the_command_resuming_it_in_ink(tmp_path: Path, make_app: Any) -> None:
    base = tmp_path / "sessions"
    path = _session(base, "copy me")
    session_id = open_session(path, warn=None).header["id"]
    app = make_app(sessions_dir=base, cwd=CWD)
    copied: list[str] = []
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        app.copy_to_clipboard = copied.append
        await _picker(pilot)
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, CopyScreen), "the copy choices")
        await pilot.press("r")
        await wait_for(pilot, lambda: copied == [f"ink -r {session_id}"], "the copy")
        await pilot.press("y", "p")
        await wait_for(pilot, lambda: copied[-1] == str(path), "the path")


async def test_y_on_an_imp_session_offers_to_copy_it_into_inks_folder_never_ink_r(
    tmp_path: Path, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    base = home / ".imp" / "sessions"  # the user pointed ink-tui at the imp-era folder
    path = _session(base, "from the imp days")
    session_id = open_session(path, warn=None).header["id"]
    app = make_app(sessions_dir=base, cwd=CWD)
    copied: list[str] = []
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        app.copy_to_clipboard = copied.append
        await _picker(pilot)
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, CopyScreen), "the copy choices")
        assert not any("ink -r" in text for _, _, text in app.screen.choices)
        await pilot.press("r")
        resume = f"cd {CWD} && ink -r {session_id}"
        await wait_for(pilot, lambda: copied == [resume], "the command, once copied")
        copy = home / ".ink" / "sessions" / path.parent.name / path.name
        assert copy.read_bytes() == path.read_bytes()
        await wait_for(pilot, lambda: "Ink resumes it with" in _notes(app), "the note")


async def test_P_prunes_orphans_after_showing_them(tmp_path: Path, make_app: Any) -> None:
    base = tmp_path / "sessions"
    _session(base, "a parent")
    writer = SessionWriter.new(base / "home-ada-code-keep" / "children", CWD)
    writer.header["launch"] = {"version": 1, "parentSessionId": "gone", "childId": "c"}
    writer.append_message({"role": "user", "content": "orphan"})
    app = make_app(sessions_dir=base, cwd=CWD)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await _picker(pilot)
        await pilot.press("P")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        assert writer.path.name in app.screen.body
        assert f"in every project folder under {base} (Ink's /sessions prune)" in app.screen.body
        await pilot.press("y")
        await wait_for(pilot, lambda: not writer.path.exists(), "the orphan moved")
        await wait_for(pilot, lambda: "pruned 1 orphaned" in _notes(app), "the note")


async def test_u_undoes_a_prune_too(tmp_path: Path, make_app: Any) -> None:
    """Prune goes to the trash: ``u`` puts the orphans back, as it does after a delete."""
    base = tmp_path / "sessions"
    _session(base, "a parent")
    writer = SessionWriter.new(base / "home-ada-code-keep" / "children", CWD)
    writer.header["launch"] = {"version": 1, "parentSessionId": "gone", "childId": "c"}
    writer.append_message({"role": "user", "content": "orphan"})
    before = writer.path.read_bytes()
    app = make_app(sessions_dir=base, cwd=CWD)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await _picker(pilot)
        await pilot.press("P")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        await pilot.press("y")
        await wait_for(pilot, lambda: "pruned 1 orphaned" in _notes(app), "the note")
        assert not writer.path.exists() and "u undoes" in _notes(app)
        await pilot.press("u")
        await wait_for(pilot, lambda: writer.path.exists(), "the orphan back")
        assert writer.path.read_bytes() == before and list_trash() == []
        assert "nothing to undo" not in _notes(app)
        assert "restored 1 file from the trash" in _notes(app)


async def test_session_view_r_L_Y(tmp_path: Path, make_app: Any) -> None:
    base = tmp_path / "sessions"
    path = _session(base, "first prompt")
    session = open_session(path, warn=None)
    app = make_app(sessions_dir=base, cwd=CWD, open_path=path)
    copied: list[str] = []
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        app.copy_to_clipboard = copied.append
        await wait_for(pilot, lambda: isinstance(app.screen, SessionScreen), "the session")
        screen = app.screen
        tree = screen.query_one(SessionTree)
        await wait_for(pilot, lambda: tree.at_last_row, "the rows")
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, TextScreen), "the name prompt")
        app.screen.query_one(Input).value = HOSTILE  # Ink's editor never takes an ESC
        await pilot.press("enter")
        await wait_for(pilot, lambda: "control characters" in _notes(app), "the refusal")
        assert _last(path)["type"] == "message"
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, TextScreen), "the name prompt")
        app.screen.query_one(Input).value = MARKUP
        await pilot.press("enter")
        header = screen.query_one("#session-header")
        await wait_for(pilot, lambda: "[bold]x[/]" in str(header.render()), "the new title")
        os.utime(path, (OLD, OLD))
        await pilot.press("g", "L")  # label the first prompt
        await wait_for(pilot, lambda: isinstance(app.screen, TextScreen), "the label prompt")
        app.screen.query_one(Input).value = "start here"
        await pilot.press("enter")
        await wait_for(pilot, lambda: "# start here" in tree.top_rows[0].text, "label")
        assert _last(path)["targetId"] == session.entries[0].id
        await pilot.press("Y", "i")
        await wait_for(pilot, lambda: copied == [session.header["id"]], "the id copied")


async def test_branches_L_labels_the_highlighted_leaf(tmp_path: Path, make_app: Any) -> None:
    from ink_tui.ui.screens.branches import BranchesScreen
    from ink_tui.ui.widgets.branch_list import BranchTable

    base = tmp_path / "sessions"
    path = _session(base, "a prompt")
    leaf = open_session(path, warn=None).leaf_id
    app = make_app(sessions_dir=base, cwd=CWD, open_path=path)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, SessionScreen), "the session")
        tree = app.screen.query_one(SessionTree)
        await wait_for(pilot, lambda: tree.at_last_row, "the rows")
        await pilot.press("b")
        await wait_for(pilot, lambda: isinstance(app.screen, BranchesScreen), "the branches")
        table = app.screen.query_one(BranchTable)
        await wait_for(pilot, lambda: table.highlighted is not None, "the leaves")
        await pilot.press("L")
        await wait_for(pilot, lambda: isinstance(app.screen, TextScreen), "the label prompt")
        app.screen.query_one(Input).value = "good one"
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: (
                table.highlighted is not None
                and ("good one" in dict(table.highlighted.labels).values())
            ),
            "the label in the list",
        )
        assert _last(path)["targetId"] == leaf
