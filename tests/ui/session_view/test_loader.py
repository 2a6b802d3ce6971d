"""Pilot tests of the session view's loader (:class:`BranchLoader`): a load superseded by a newer
one is never shown, and a short branch in a file of many entries is built once, whole.

Waits are ``waiting.wait_for``.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import hostile
import pytest
from bigload import tail_first
from textual import on
from textual.app import App, ComposeResult
from waiting import DEFAULT_TIMEOUT, wait_for, workers_finished

from ink_tui.paths import project_dir
from ink_tui.session.writing.writer import SessionWriter
from ink_tui.ui.session_view.loader import BranchLoader


def _session(folder: Path, prompt: str) -> Path:
    writer = SessionWriter.new(folder, "/home/ada/code/calc-kit")
    writer.append_message({"role": "user", "content": prompt})
    return writer.path


class LoaderHost(App[None]):
    """A loader alone, and what reached the app from it."""

    def __init__(self) -> None:
        super().__init__()
        self.arrived: list[tuple[str, Path]] = []
        self.partial: list[bool] = []  # each load shown: a first look (True) or the whole

    def compose(self) -> ComposeResult:
        yield BranchLoader()

    @on(BranchLoader.Loaded)
    def _loaded(self, message: BranchLoader.Loaded) -> None:
        self.arrived.append(("loaded", message.loaded.session.path))
        self.partial.append(message.loaded.partial)

    @on(BranchLoader.Failed)
    def _failed(self, message: BranchLoader.Failed) -> None:
        self.arrived.append(("failed", message.error.path or Path()))


@pytest.mark.parametrize("outcome", ["loaded", "failed"])
async def test_a_superseded_load_is_dropped_when_it_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, outcome: str
) -> None:
    """The thread of an older load cannot be stopped: what it posts late is not shown."""
    import ink_tui.ui.session_view.loader as session_load

    older = _session(tmp_path / "a", "the older load")
    newer = _session(tmp_path / "b", "the newer load")
    release, started = threading.Event(), threading.Event()
    original = session_load.open_session

    def held(path: Path, **options: Any) -> Any:
        if Path(path) == older:
            started.set()
            assert release.wait(DEFAULT_TIMEOUT), "the test never released the older load"
            if outcome == "failed":
                older.unlink()
        return original(path, **options)

    monkeypatch.setattr(session_load, "open_session", held)
    app = LoaderHost()
    async with app.run_test() as pilot:
        loader = app.query_one(BranchLoader)
        loader.load(older, None)
        await wait_for(pilot, started.is_set, "the older load to start")
        loader.load(newer, None)
        await wait_for(pilot, lambda: app.arrived, "the newer load")
        release.set()
        await wait_for(pilot, workers_finished(app), "the older load to end")
        assert app.arrived == [("loaded", newer)]


async def test_a_short_branch_among_many_forks_is_built_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """300 forks off one prompt: 300 entries in the file, two on the branch. A long branch
    paints its last turns first; this one is whole at once, and built once."""
    tail_first(monkeypatch)  # more than 40 entries in the file
    sizes = hostile.Sizes(long_line=10, records=10, chain=300, nesting=10, image=10)
    star = hostile.build(project_dir(tmp_path, hostile.CWD), "fork-star", sizes).path
    app = LoaderHost()
    async with app.run_test() as pilot:
        app.query_one(BranchLoader).load(star, None)
        await wait_for(pilot, workers_finished(app), "the file read")
        assert app.arrived == [("loaded", star)]
        assert app.partial == [False]
