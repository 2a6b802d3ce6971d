"""Pilot tests of the app shell: the "ink" theme, the saved theme and the command palette."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

import pytest
from textual.command import CommandList, CommandPalette
from textual.pilot import Pilot
from textual.widgets import Input
from waiting import wait_for, workers_finished

from ink_tui.paths import project_dir
from ink_tui.session import ModelRef
from ink_tui.session.writing.writer import SessionWriter
from ink_tui.ui.app import InkApp
from ink_tui.ui.screens.picker import PickerScreen
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.session_view.tree import SessionTree

SIZE = (120, 40)
CWD = "/home/ada/code/calc-kit"
PROMPTS = ["first question", "second question", "third question"]


@pytest.fixture
def app_for(tmp_path: Path, make_app: Any) -> Any:
    """``app_for(open_path=None)``: the app on ``tmp_path/sessions`` (created), cwd ``CWD``."""

    def make(*, open_path: Path | None = None) -> InkApp:
        (tmp_path / "sessions").mkdir(exist_ok=True)
        app: InkApp = make_app(cwd=CWD, open_path=open_path)
        return app

    return make


def write_three_turns(tmp_path: Path) -> Path:
    folder = project_dir(tmp_path / "sessions", CWD)
    writer = SessionWriter.new(folder, CWD, model=ModelRef("anthropic", "claude-sonnet-4-5"))
    for prompt in PROMPTS:
        writer.append_message({"role": "user", "content": prompt})
        writer.append_message(
            {
                "role": "assistant",
                "blocks": [{"type": "text", "text": f"answer to {prompt}"}],
                "usage": {"inputTokens": 10, "outputTokens": 5},
                "stopReason": "end_turn",
                "model": "claude-sonnet-4-5",
                "modelReference": "anthropic/claude-sonnet-4-5",
            }
        )
    return writer.path


async def settle(app: InkApp, pilot: Pilot[Any]) -> None:
    await wait_for(pilot, workers_finished(app), "every worker of the app to finish")


async def session_ready(app: InkApp, pilot: Pilot[Any]) -> SessionScreen:
    def loaded() -> SessionScreen | None:
        screen = app.screen
        return screen if isinstance(screen, SessionScreen) and screen.loaded is not None else None

    screen = await wait_for(pilot, loaded, "the session view to load")
    assert screen is not None
    return screen


async def type_text(pilot: Pilot[Any], text: str) -> None:
    await pilot.press(*["space" if char == " " else char for char in text])


def top_match(app: InkApp) -> str:
    """The first command the open palette offers ("" while it has none)."""
    palette = app.screen
    if not isinstance(palette, CommandPalette):
        return ""
    commands = palette.query_one(CommandList)
    return str(commands.get_option_at_index(0).prompt) if commands.option_count else ""


async def palette_search(app: InkApp, pilot: Pilot[Any], query: str) -> CommandPalette:
    """Type ``query`` into the open palette; wait until its top match holds it."""
    palette = app.screen
    assert isinstance(palette, CommandPalette)
    await type_text(pilot, query)
    assert palette.query_one(Input).value == query
    await wait_for(  # the search runs in the background
        pilot, lambda: query.lower() in top_match(app).lower(), f"the palette to offer {query!r}"
    )
    return palette


async def palette_run(app: InkApp, pilot: Pilot[Any], query: str) -> None:
    """Open the command palette, type ``query``, wait for the match, run it."""
    await pilot.press("ctrl+p")
    await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette), "the command palette")
    palette = await palette_search(app, pilot, query)
    await pilot.press("enter")
    await wait_for(pilot, lambda: app.screen is not palette, f"the palette to run {query!r}")


def turn_index(screen: SessionScreen) -> int:
    tree = screen.query_one(SessionTree)
    node = tree.cursor
    assert node is not None
    while node.parent is not None and node.parent is not None:
        node = node.parent
    return list(tree.top_rows).index(node)


# -- the theme ----------------------------------------------------------------------------------


async def test_the_app_starts_on_the_ink_theme(tmp_path: Path, app_for: Any) -> None:
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.theme == "ink"
        assert isinstance(app.screen, PickerScreen)
        assert "ink" in app.available_themes
    # starting on the default theme writes nothing
    assert not (tmp_path / "config.toml").exists()


async def test_a_chosen_theme_is_saved_and_restored(tmp_path: Path, app_for: Any) -> None:
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.theme = "textual-light"
        config = tmp_path / "config.toml"
        await wait_for(pilot, config.exists, "the chosen theme saved")
    config = tmp_path / "config.toml"
    assert tomllib.loads(config.read_text("utf-8")) == {"theme": "textual-light"}

    again = app_for()
    async with again.run_test(size=SIZE) as pilot:
        await settle(again, pilot)
        assert again.theme == "textual-light"


async def test_switching_back_to_ink_is_saved_too(tmp_path: Path, app_for: Any) -> None:
    (tmp_path / "config.toml").write_text('theme = "textual-light"\n', encoding="utf-8")
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.theme == "textual-light"
        app.theme = "ink"
        await wait_for(pilot, lambda: app.theme == "ink", "the ink theme")
    assert tomllib.loads((tmp_path / "config.toml").read_text("utf-8")) == {"theme": "ink"}


@pytest.mark.parametrize(
    "content",
    [
        b"\xff\xfe\x00garbage",
        b"theme = [unclosed",
        b'theme = "no-such-theme"\n',
        b"theme = 42\n",
        b'theme = ""\n',
        b"[theme]\nname = 'textual-light'\n",
    ],
    ids=["binary", "bad-toml", "unknown-theme", "not-a-string", "empty", "a-table"],
)
async def test_a_garbage_config_falls_back_to_ink(
    tmp_path: Path, content: bytes, app_for: Any
) -> None:
    (tmp_path / "config.toml").write_bytes(content)
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.theme == "ink"


async def test_an_unreadable_config_falls_back_to_ink(tmp_path: Path, app_for: Any) -> None:
    (tmp_path / "config.toml").mkdir()  # reading it fails with an OSError, even as root
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.theme == "ink"
        app.theme = "textual-light"  # cannot be saved: a warning, not a crash
        await wait_for(pilot, lambda: app._notifications, "the warning that it cannot be saved")
        assert app.theme == "textual-light"
        assert app.is_running


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file")
async def test_a_config_without_read_permission_falls_back_to_ink(
    tmp_path: Path, app_for: Any
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('theme = "textual-light"\n', encoding="utf-8")
    config.chmod(0)
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.theme == "ink"


# -- the command palette ------------------------------------------------------------------------


async def test_the_palette_offers_the_session_screens_keys(tmp_path: Path, app_for: Any) -> None:
    path = write_three_turns(tmp_path)
    app = app_for(open_path=path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await session_ready(app, pilot)
        commands = {command.title: command.help for command in app.get_system_commands(screen)}
        assert commands["Next turn"] == "key: ], }"
        assert commands["Prev turn"] == "key: [, {"
        assert commands["Bottom"] == "key: G, End"  # keys as a person names them
        assert commands["Search"] == "key: /"
        assert commands["Branches"] == "key: b"
        assert "Theme" in commands
        assert "Help" in commands
        assert sum(title == "Quit" for title in commands) == 1


async def test_next_turn_from_the_palette_moves_the_cursor(tmp_path: Path, app_for: Any) -> None:
    path = write_three_turns(tmp_path)
    app = app_for(open_path=path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await session_ready(app, pilot)
        await pilot.press("g")
        await wait_for(pilot, lambda: turn_index(screen) == 0, "the cursor on the first turn")
        assert turn_index(screen) == 0

        await palette_run(app, pilot, "Next turn")
        assert app.screen is screen
        assert turn_index(screen) == 1

        await palette_run(app, pilot, "Next turn")
        assert turn_index(screen) == 2


async def test_the_palette_offers_theme_and_it_switches(tmp_path: Path, app_for: Any) -> None:
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Theme" in titles
        assert "Preview" in titles  # the picker's own keys

        await palette_run(app, pilot, "Theme")
        assert isinstance(app.screen, CommandPalette)  # now listing the themes
        await palette_search(app, pilot, "textual-light")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.theme == "textual-light", "the theme to switch")
        assert app.theme == "textual-light"
    assert "textual-light" in (tmp_path / "config.toml").read_text("utf-8")


async def test_rendered_session_content_takes_its_colours_from_the_theme(
    tmp_path: Path, app_for: Any
) -> None:
    from ink_tui.ui.render import palette

    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert palette.current.ok == app.theme_variables["text-success"]
        app.theme = "nord"
        await wait_for(
            pilot,
            lambda: palette.current.ok == app.theme_variables["text-success"],
            "the session palette to follow the theme",
        )
        assert palette.current.ok == app.theme_variables["text-success"]
        assert palette.current.error == app.theme_variables["text-error"]
