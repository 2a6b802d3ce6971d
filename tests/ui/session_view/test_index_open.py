"""Pilot tests: a session the index knows opens from it, and shows what the file shows."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from testdata import session_file
from viewtext import header_text, replay_text
from waiting import wait_for, workers_finished

import ink_tui.ui.session_view.loader as session_load
from ink_tui.catalog.index import CatalogIndex, default_index_path, update_index
from ink_tui.session import SessionFile, open_session
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.session_view.tree import SessionTree

SESSION = "metadata-mix"  # names, labels, model switches: the file-wide facts matter


def _indexed_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "sessions" / "proj"
    folder.mkdir(parents=True)
    path = folder / "session.jsonl"
    shutil.copyfile(session_file(SESSION), path)
    with CatalogIndex.open() as index:
        update_index(index, tmp_path / "sessions", None)
    assert default_index_path().exists()
    return path


def _view(screen: SessionScreen) -> tuple[list[str], str, str]:
    tree = screen.query_one(SessionTree)
    return (
        [node.text for node in tree.top_rows],
        replay_text(screen),
        header_text(screen),
    )


def _no_whole_reads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Make reading the whole file fail loudly; returns the paths it was asked for."""
    asked: list[Path] = []

    def refuse(path: Path, **options: Any) -> SessionFile:
        asked.append(path)
        raise AssertionError("read the whole file")

    monkeypatch.setattr(session_load, "open_session", refuse)
    return asked


async def _settled(pilot: Any, app: Any) -> SessionScreen:
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, SessionScreen) and app.screen.loaded is not None,
        "the session shown",
    )
    await wait_for(pilot, workers_finished(app), "the view settled")
    screen = app.screen
    assert isinstance(screen, SessionScreen)
    return screen


async def test_an_indexed_session_opens_from_the_index_as_the_file_reads(
    tmp_path: Path, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _indexed_copy(tmp_path)
    app = make_app(open_path=path)
    async with app.run_test(size=(120, 40)) as pilot:
        with monkeypatch.context() as patch:
            asked = _no_whole_reads(patch)
            screen = await _settled(pilot, app)
            from_index = _view(screen)
        assert asked == [], "an indexed file was read whole"
        default_index_path().unlink()  # the same file, read without the index
        first = screen.loaded
        screen.reload()
        await wait_for(pilot, lambda: screen.loaded is not first, "read again")
        await wait_for(pilot, workers_finished(app), "the view settled again")
        assert _view(screen) == from_index
        assert "(no model recorded)" not in from_index[2]


async def test_what_was_appended_since_indexing_is_shown(
    tmp_path: Path, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _indexed_copy(tmp_path)
    leaf = open_session(path, warn=None).leaf_id
    record = {
        "type": "message",
        "id": "after-indexing",
        "parentId": leaf,
        "timestamp": "2026-11-20T11:00:00.000Z",
        "message": {"role": "user", "content": "written after the index was made"},
    }
    with path.open("a") as stream:
        stream.write(json.dumps(record) + "\n")
    app = make_app(open_path=path)
    async with app.run_test(size=(120, 40)) as pilot:
        asked = _no_whole_reads(monkeypatch)
        screen = await _settled(pilot, app)
        assert asked == []
        assert "written after the index was made" in replay_text(screen)


async def test_a_broken_line_appended_since_indexing_shows_the_error_view(
    tmp_path: Path, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ink_tui.ui.screens.error import ErrorScreen

    path = _indexed_copy(tmp_path)
    with path.open("a") as stream:
        stream.write('{"type":"message","id":"no-parent"}\n{"type":"label"}\n')
    app = make_app(open_path=path)
    async with app.run_test(size=(120, 40)) as pilot:
        asked = _no_whole_reads(monkeypatch)
        await wait_for(pilot, lambda: isinstance(app.screen, ErrorScreen), "the error view")
        assert asked == []
        assert "line" in str(app.screen.error)
