"""The app's own writes do not lock a session (issue 19): after ``r`` the row is not
``● live``, and a second ``r`` or a ``d`` is not refused; a rename made by the command line
before the app started is known too; a record written by anything else still shows live."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from textual.widgets import Input
from waiting import wait_for, workers_finished

from ink_tui.session import open_session
from ink_tui.session.writing.writer import SessionWriter
from ink_tui.ui.modals.keeping import ConfirmScreen, TextScreen
from ink_tui.ui.screens.picker import PickerScreen
from ink_tui.ui.widgets.session_list import SessionList

CWD = "/home/ada/code/keep"
LIVE = "● live"


def _session(base: Path, prompt: str, *, age: float = 3600) -> Path:
    writer = SessionWriter.new(base / "home-ada-code-keep", CWD)
    writer.append_message({"role": "user", "content": prompt})
    stamp = time.time() - age
    os.utime(writer.path, (stamp, stamp))
    return writer.path


def _table(app: Any) -> SessionList:
    return app.screen.query_one(SessionList)


def _state(app: Any) -> str:
    return str(_table(app).row_cells(0)[0].plain)


def _title(app: Any) -> str:
    shown = _table(app).shown
    return shown[0].title if shown else ""


def _notes(app: Any) -> str:
    return " ".join(str(note.message) for note in app._notifications)


async def _rename(pilot: Any, name: str) -> None:
    app = pilot.app
    await pilot.press("r")
    await wait_for(pilot, lambda: isinstance(app.screen, TextScreen), "the name prompt")
    app.screen.query_one(Input).value = name
    await pilot.press("enter")
    await wait_for(pilot, lambda: _title(app) == name, f"the row named {name!r}")


async def test_after_r_the_row_is_not_live_and_r_and_d_still_work(
    tmp_path: Path, make_app: Any
) -> None:
    base = tmp_path / "sessions"
    path = _session(base, "first prompt")
    app = make_app(sessions_dir=base, cwd=CWD)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await wait_for(pilot, workers_finished(app), "the picker's rows")
        assert isinstance(app.screen, PickerScreen)
        await _rename(pilot, "retry logic")
        assert time.time() - path.stat().st_mtime < 30  # written just now, by the app
        await wait_for(pilot, workers_finished(app), "the refreshed rows")
        assert _state(app) != LIVE
        await _rename(pilot, "retry logic, again")  # not "written 3 s ago: Ink may be…"
        assert "Ink may be running it" not in _notes(app)
        assert _state(app) != LIVE
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")


async def test_a_rename_from_the_command_line_is_not_live_in_the_app(
    tmp_path: Path, make_app: Any
) -> None:
    base = tmp_path / "sessions"
    path = _session(base, "first prompt")
    done = subprocess.run(
        [sys.executable, "-m", "ink_tui", "rename", str(path), "named elsewhere"],
        capture_output=True,
        env={**os.environ, "INK_SESSIONS_DIR": str(base)},
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    app = make_app(sessions_dir=base, cwd=CWD)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await wait_for(pilot, workers_finished(app), "the picker's rows")
        await wait_for(pilot, lambda: _title(app) == "named elsewhere", "the named row")
        assert _state(app) != LIVE
        leaf = open_session(path, warn=None).leaf_id
        record = {"type": "message", "id": "ink1", "parentId": leaf, "timestamp": "t"}
        with path.open("ab") as stream:  # Ink writes: that one is live
            message = {"role": "user", "content": "Ink goes on"}
            stream.write(json.dumps({**record, "message": message}).encode() + b"\n")
        app.screen._refresh()  # what the interval timer does every few seconds
        await wait_for(pilot, lambda: _state(app) == LIVE, "the live marker")
