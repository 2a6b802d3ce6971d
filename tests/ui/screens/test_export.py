"""``e`` in the session view: the export screen, its choices, the file it writes (never over
another), the notification naming it, and Esc."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from testdata import DATA
from waiting import wait_for

from ink_tui.export import ExportOptions
from ink_tui.paths import project_dir

CWD = "/home/ada/code/calc-kit"


@pytest.fixture
def session_file(tmp_path: Path) -> Path:
    folder = project_dir(tmp_path / "sessions", CWD)
    folder.mkdir(parents=True)
    target = folder / "session.jsonl"
    target.write_bytes((DATA / "export" / "session.jsonl").read_bytes())
    return target


@pytest.fixture
def started_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The folder ink-tui is started in (the process's working directory)."""
    folder = tmp_path / "here"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


async def _export_screen(pilot: Any) -> Any:
    from ink_tui.ui.screens.export import ExportScreen
    from ink_tui.ui.session_view.screen import SessionScreen

    await wait_for(
        pilot,
        lambda: isinstance(pilot.app.screen, SessionScreen) and pilot.app.screen.loaded,
        "the session view with its session loaded",
    )
    await pilot.press("e")
    await wait_for(
        pilot, lambda: isinstance(pilot.app.screen, ExportScreen), "the export screen on top"
    )
    return pilot.app.screen


def _notes(app: Any) -> str:
    return " ".join(str(note.message) for note in app._notifications)


async def test_e_exports_markdown_to_a_new_file_where_ink_tui_started(
    session_file: Path, started_in: Path, make_app: Any
) -> None:
    app = make_app(sessions_dir=session_file.parents[1], cwd=started_in, open_path=session_file)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        screen = await _export_screen(pilot)
        expected = started_in / "0c9a7e21-mean-of-an-empty-list.md"
        assert screen.path_input.value == str(expected)
        await pilot.press("enter")  # the session holds two secrets: first, it says so
        problem = screen.query_one("#export-problem")
        await wait_for(pilot, lambda: "would hold 2 secrets" in str(problem.render()), "the stop")
        assert str(problem.render()) == (
            "the export would hold 2 secrets (1 anthropic-key, 1 credential): tick “redact "
            "secrets”, or press Enter again to export them as they are"
        )
        assert not expected.exists()
        await pilot.press("enter")  # knowing it
        await wait_for(pilot, lambda: "exported" in _notes(app), "the notification")
        assert expected.read_text(encoding="utf-8") == (DATA / "export" / "session.md").read_text(
            encoding="utf-8"
        )
        assert f"exported 3 turns to {expected}" in _notes(app)
        # again: a new name, the first file untouched
        await _export_screen(pilot)
        await pilot.press("enter", "enter")
        second = started_in / "0c9a7e21-mean-of-an-empty-list-2.md"
        await wait_for(pilot, second.exists, "the second export")


async def test_choices_html_full_thinking_redacted(
    session_file: Path, started_in: Path, make_app: Any
) -> None:
    app = make_app(sessions_dir=session_file.parents[1], cwd=started_in, open_path=session_file)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        screen = await _export_screen(pilot)
        # the format (focused first), then Tab: the tool calls, thinking, redaction
        await pilot.press("right", "space", "tab", "right", "space")
        await pilot.press("tab", "space", "tab", "space")
        assert screen.options() == ExportOptions("html", "full", thinking=True, redact=True)
        target = started_in / "0c9a7e21-mean-of-an-empty-list.html"
        await wait_for(pilot, lambda: screen.path_input.value == str(target), "the .html name")
        await pilot.press("enter")
        await wait_for(pilot, lambda: "exported" in _notes(app), "the notification")
        page = target.read_text(encoding="utf-8")
        assert page.startswith("<!DOCTYPE html>")
        assert "The user wants the failing tests." in page  # thinking
        assert "test_case_44 PASSED" in page  # the whole output
        assert "sk-ant-api03-EXAMPLE" not in page
        assert "2 secrets masked" in _notes(app)


async def test_a_typed_name_is_kept_and_an_existing_file_refused(
    session_file: Path, started_in: Path, make_app: Any
) -> None:
    from ink_tui.ui.screens.export import ExportScreen

    taken = started_in / "mine.md"
    taken.write_text("keep me\n")
    app = make_app(sessions_dir=session_file.parents[1], cwd=started_in, open_path=session_file)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        screen = await _export_screen(pilot)
        screen.path_input.value = "mine.md"  # relative: to the folder ink-tui started in
        problem = screen.query_one("#export-problem")
        await pilot.press("enter")
        await wait_for(pilot, lambda: "secrets" in str(problem.render()), "the secrets said")
        await pilot.press("enter")
        await wait_for(pilot, lambda: "already exists" in str(problem.render()), "the refusal")
        assert isinstance(app.screen, ExportScreen)
        assert taken.read_text() == "keep me\n"
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ExportScreen), "the screen gone")
        assert sorted(path.name for path in started_in.iterdir()) == ["mine.md"]


async def test_escape_cancels_and_writes_nothing(
    session_file: Path, started_in: Path, make_app: Any
) -> None:
    from ink_tui.ui.session_view.screen import SessionScreen

    app = make_app(sessions_dir=session_file.parents[1], cwd=started_in, open_path=session_file)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await _export_screen(pilot)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, SessionScreen), "the session view")
        assert list(started_in.iterdir()) == []
        assert "exported" not in _notes(app)


async def test_a_branch_shown_from_the_branches_screen_is_the_one_exported(
    tmp_path: Path, started_in: Path, make_app: Any
) -> None:
    from testdata import copy_session
    from textual.widgets import RadioButton

    from ink_tui.ui.session_view.screen import SessionScreen

    path = copy_session(project_dir(tmp_path / "sessions", CWD), "branch-position")
    app = make_app(sessions_dir=tmp_path / "sessions", cwd=started_in)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        app.push_screen(SessionScreen(path, "a4"))
        screen = await _export_screen(pilot)
        screen.query_one("#format-json", RadioButton).value = True
        await wait_for(pilot, lambda: screen.path_input.value.endswith(".json"), "a .json name")
        await pilot.press("enter")
        await wait_for(pilot, lambda: "exported" in _notes(app), "the notification")
        (written,) = started_in.iterdir()
        assert written.suffix == ".json"
        assert '"leafId": "a4"' in written.read_text(encoding="utf-8")
