"""The session view's header alone (ui/session_view/header.py's ``SessionHeader``), in a small
app on a branch of the project's own data (``compaction.jsonl``, read in place): its two lines at
a wide and a narrow width, following and what is wrong with a followed file, and a branch that is
not the current one said so."""

from __future__ import annotations

from dataclasses import replace

from testdata import session_file
from textual.app import App, ComposeResult
from waiting import wait_for

from ink_tui.session.conversation.branchview import LoadedBranch, load_branch
from ink_tui.session.reading.reader import open_session
from ink_tui.ui.session_view.header import HeaderState, LiveState, SessionHeader


def _loaded() -> LoadedBranch:
    session = open_session(session_file("compaction.jsonl"))
    return load_branch(session, session.leaf_id)


class HeaderApp(App[None]):
    def __init__(self, state: HeaderState) -> None:
        super().__init__()
        self.state = state

    def compose(self) -> ComposeResult:
        yield SessionHeader(id="header")

    def on_mount(self) -> None:
        self.query_one(SessionHeader).show(self.state)


def _lines(app: HeaderApp) -> list[str]:
    return [line.rstrip() for line in app.query_one(SessionHeader).text.split("\n")]


async def test_the_two_lines_say_the_session_and_its_branch() -> None:
    app = HeaderApp(HeaderState("fix the build", _loaded()))
    async with app.run_test(size=(122, 4)) as pilot:
        await wait_for(pilot, lambda: app.query_one(SessionHeader).text, "the header")
        assert _lines(app) == [
            "fix the build  /home/ada/code/calc-kit  anthropic/claude-sonnet-4-5  thinking medium",
            "3 turns over 12s · 12 msgs · 3 calls, 1 failed · work ↑720 ↓240 $0.006 (estimate)"
            " · branch tokens in 720 out 240",
        ]


async def test_a_narrow_header_keeps_the_title_and_the_first_figures() -> None:
    app = HeaderApp(HeaderState("fix the build", _loaded()))
    async with app.run_test(size=(62, 4)) as pilot:
        await wait_for(pilot, lambda: app.query_one(SessionHeader).text, "the header")
        assert _lines(app) == [
            "fix the build  anthropic/claude-sonnet-4-5  thinking medium",
            "3 turns · branch in 720 out 240",
        ]


async def test_following_and_a_followed_files_trouble_are_said() -> None:
    loaded = _loaded()
    app = HeaderApp(HeaderState("fix the build", loaded, LiveState()))
    async with app.run_test(size=(122, 4)) as pilot:
        header = app.query_one(SessionHeader)
        await wait_for(pilot, lambda: header.text, "the header")
        assert _lines(app)[0].endswith("thinking medium  ● LIVE")
        header.show(HeaderState("fix the build", loaded, LiveState(trouble="line 9: not JSON")))
        await wait_for(pilot, lambda: "⚠" in header.text, "the trouble said")
        assert _lines(app)[0].endswith("thinking medium  ⚠ LIVE · line 9: not JSON")
        stopped = LiveState(trouble="line 9: not JSON", following=False)
        header.show(HeaderState("fix the build", loaded, stopped))
        await wait_for(pilot, lambda: "LIVE" not in header.text, "following stopped")
        assert _lines(app)[0].endswith("thinking medium  ⚠ line 9: not JSON")


async def test_a_branch_other_than_the_current_one_is_said_so() -> None:
    loaded = replace(_loaded(), leaf_id="a1")
    app = HeaderApp(HeaderState("fix the build", loaded))
    async with app.run_test(size=(122, 4)) as pilot:
        await wait_for(pilot, lambda: app.query_one(SessionHeader).text, "the header")
        assert _lines(app)[0].endswith("thinking medium  ⑂ not the current branch")


async def test_a_mirrored_session_says_its_machine_before_its_project() -> None:
    app = HeaderApp(HeaderState("fix the build", _loaded(), machine="devbox"))
    async with app.run_test(size=(122, 4)) as pilot:
        await wait_for(pilot, lambda: app.query_one(SessionHeader).text, "the header")
        assert _lines(app)[0].startswith("fix the build  devbox:/home/ada/code/calc-kit  anthropic")
