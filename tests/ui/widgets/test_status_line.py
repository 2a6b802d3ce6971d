"""The one-line note under a view, alone (ui/widgets/status_line.py), in a small app: the newest
note wins, a part clears only its own note, and an empty line takes no room."""

from __future__ import annotations

from textual.app import App, ComposeResult
from waiting import wait_for

from ink_tui.ui.widgets.status_line import StatusLine


class StatusApp(App[None]):
    def compose(self) -> ComposeResult:
        yield StatusLine(id="status")


def _shown(app: StatusApp) -> str:
    line = app.query_one(StatusLine)
    return str(line.render()) if line.display else ""


async def test_the_newest_note_wins_and_a_part_clears_only_its_own() -> None:
    app = StatusApp()
    async with app.run_test(size=(40, 4)) as pilot:
        line = app.query_one(StatusLine)
        assert _shown(app) == "" and line.region.height == 0  # nothing to say: no room taken
        line.say("searching for 'lint'…", "search")
        line.say("loading the whole branch…", "loader")
        await wait_for(pilot, lambda: _shown(app), "a note shown")
        assert _shown(app) == "loading the whole branch…"
        line.say("", "search")  # the search has nothing more to say: not its note, kept
        assert _shown(app) == "loading the whole branch…"
        line.say("", "loader")
        await wait_for(pilot, lambda: line.region.height == 0, "the line hidden")
        assert _shown(app) == ""


async def test_session_text_in_a_note_is_shown_as_typed_not_as_markup() -> None:
    app = StatusApp()
    async with app.run_test(size=(40, 4)) as pilot:
        line = app.query_one(StatusLine)
        line.say("no match for '[bold]x[/]'", "search")
        await wait_for(pilot, lambda: _shown(app), "the note shown")
        assert _shown(app) == "no match for '[bold]x[/]'"
