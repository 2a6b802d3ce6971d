"""Pilot tests of the help, branches and error screens: what a user sees and what the keys do."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from testdata import session_file as fixture
from textual.app import App
from textual.geometry import Region
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Static
from waiting import wait_for

from ink_tui.paths import styles_dir
from ink_tui.session import SessionError, leaves, open_session
from ink_tui.ui.messages import GoBack
from ink_tui.ui.screens.branches import BranchesScreen, ForkTreeView
from ink_tui.ui.screens.error import ErrorScreen
from ink_tui.ui.screens.help import HelpScreen
from ink_tui.ui.screens.session import SessionScreen
from ink_tui.ui.widgets.transcript import Transcript

SIZE = (120, 40)
TS = "2026-10-05T12:34:56.789Z"
HEADER = {"type": "session", "version": 1, "id": "0b4f6a52", "timestamp": TS, "cwd": "/p"}


def user(entry_id: str, parent: str | None, text: str = "hi") -> dict[str, Any]:
    message = {"role": "user", "content": text}
    return {
        "type": "message",
        "id": entry_id,
        "parentId": parent,
        "timestamp": TS,
        "message": message,
    }


def write_session(path: Path, *lines: dict[str, Any] | str) -> Path:
    out = [json.dumps(HEADER)] + [x if isinstance(x, str) else json.dumps(x) for x in lines]
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


class Host(App[None]):
    """A bare app that pushes one screen on mount and keeps what it is dismissed with."""

    CSS_PATH = sorted(styles_dir().glob("*.tcss"))

    def __init__(self, make: Callable[[], Screen[Any]]) -> None:
        super().__init__()
        self.make = make
        self.results: list[Any] = []

    def on_mount(self) -> None:
        self.push_screen(self.make(), self.results.append)

    def on_go_back(self, message: GoBack) -> None:
        """As the real app does with a single screen above the base one."""
        self.pop_screen()


def static_text(screen: Screen[Any], selector: str) -> str:
    content = screen.query_one(selector, Static).content
    return content.plain if hasattr(content, "plain") else str(content)


def shown_lines(widget: Transcript) -> str:
    region = Region(0, 0, widget.size.width, widget.size.height)
    return "\n".join(strip.text for strip in widget.render_lines(region))


# -- help ----------------------------------------------------------------------------------------


async def test_help_lists_the_session_keys_and_closes() -> None:
    app = Host(lambda: HelpScreen(SessionScreen(Path("unused.jsonl"))))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), "the help screen")
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        text = static_text(screen, "#help-keys")
        keys = {row.keys.split(" / ")[0] for row in screen.rows}
        for key in ("[", "]", "/", "n", "t", "o", "y", "b", "q", "?", "ctrl+p"):
            assert key in keys, key
        assert "Next match" in text and "Previous match" in text  # show=False keys are listed
        assert "j / ↓" in text and "Branches" in text and "Quit" in text
        assert text.index("This screen") < text.index("Everywhere")
        assert "command palette (ctrl+p)" in static_text(screen, "#help-palette")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, HelpScreen), "the help to close")


@pytest.mark.parametrize("key", ["q", "question_mark"])
async def test_help_closes_on_q_and_question_mark(key: str) -> None:
    app = Host(lambda: HelpScreen(SessionScreen(Path("unused.jsonl"))))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), "the help screen")
        await pilot.press(key)
        await wait_for(pilot, lambda: not isinstance(app.screen, HelpScreen), "the help to close")
        assert app.is_running  # q closed the help, it did not quit


# -- branches ------------------------------------------------------------------------------------


def branches_host(path: Path, leaf: str | None = "default") -> tuple[Host, Any]:
    session = open_session(path, warn=None)
    current = session.leaf_id if leaf == "default" else leaf
    return Host(lambda: BranchesScreen(session, current)), session


async def open_branches(pilot: Pilot[Any]) -> BranchesScreen:
    await wait_for(
        pilot,
        lambda: getattr(pilot.app.screen, "fork_tree", None) is not None,
        "the branches screen with its fork tree built",
    )
    screen = pilot.app.screen
    assert isinstance(screen, BranchesScreen)
    return screen


def labels_of(screen: BranchesScreen) -> dict[str, str]:
    return {key: node.label.plain for key, node in screen.tree_nodes.items()}


async def test_branches_lists_every_leaf_and_marks_the_current_one() -> None:
    app, session = branches_host(fixture("branch-position.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_branches(pilot)
        shown = labels_of(screen)
        leaf_ids = [entry.id for entry in leaves(session)]
        assert len(leaf_ids) >= 2
        for leaf_id in leaf_ids:
            assert leaf_id in shown[leaf_id]
        assert "← current" in shown[session.leaf_id]
        assert sum("← current" in text for text in shown.values()) == 1
        assert "⑂" in "".join(shown.values())  # a fork point
        cursor = screen.query_one(ForkTreeView).cursor_node
        assert cursor is not None and cursor.data is not None
        assert cursor.data.id == session.leaf_id  # opened on the current leaf
        notes = static_text(screen, "#branches-notes")
        for marker in session.positions:
            assert f"moved to {marker.record['leafId']} (line {marker.line})" in notes


async def test_branches_enter_returns_the_chosen_leaf() -> None:
    app, session = branches_host(fixture("branch-position.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_branches(pilot)
        other = next(e.id for e in leaves(session) if e.id != session.leaf_id)
        view = screen.query_one(ForkTreeView)
        view.move_cursor(screen.tree_nodes[other])
        await wait_for(pilot, lambda: view.cursor_node is screen.tree_nodes[other], "the cursor")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.results, "the branches screen to answer")
        assert app.results == [other]
        assert not isinstance(app.screen, BranchesScreen)


async def test_branches_enter_on_a_fork_folds_it_and_esc_returns_none() -> None:
    app, _ = branches_host(fixture("branch-position.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_branches(pilot)
        fork = next(n for n in screen.tree_nodes.values() if len(n.children) >= 2)
        view = screen.query_one(ForkTreeView)
        view.move_cursor(fork)
        await wait_for(pilot, lambda: view.cursor_node is fork, "the cursor on the fork")
        await pilot.press("enter")
        await wait_for(pilot, lambda: not fork.is_expanded, "the fork to fold")
        assert isinstance(app.screen, BranchesScreen) and not fork.is_expanded
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.results, "the branches screen to answer")
        assert app.results == [None]


async def test_branches_shows_labels() -> None:
    app, _ = branches_host(fixture("metadata-mix.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_branches(pilot)
        everything = "\n".join(labels_of(screen).values())
        assert "# the start" in everything
        assert "# first try" not in everything  # overwritten
        assert "# fixed here" not in everything  # removed by an empty label


async def test_branches_marks_position_then_label() -> None:
    path = fixture("position-then-label.jsonl")
    app, session = branches_host(path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_branches(pilot)
        marker = session.positions[-1]
        target = str(marker.record["leafId"])
        holder = screen.fork_tree.node_of[target]  # a chain entry: shown on the node holding it
        assert f"⤷ moved to {target} (line {marker.line})" in labels_of(screen)[holder.id]
        notes = static_text(screen, "#branches-notes")
        assert f"moved to {target} (line {marker.line})" in notes


@pytest.mark.parametrize("name", ["broken-chain.jsonl", "parent-cycle.jsonl"])
async def test_branches_survive_broken_chains_and_cycles(name: str) -> None:
    app, session = branches_host(fixture(name))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_branches(pilot)
        everything = "\n".join(labels_of(screen).values())
        assert "⚠" in everything  # an orphan or a broken cycle became an extra root
        assert {e.id for e in leaves(session)} <= set(screen.tree_nodes)


async def test_branches_render_session_text_literally(tmp_path: Path) -> None:
    path = write_session(
        tmp_path / "s.jsonl", user("u1", None, "[bold]x[/bold] \x1b]0;pwned\x07 done")
    )
    app, _ = branches_host(path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_branches(pilot)
        label = labels_of(screen)["u1"]
        assert "[bold]x[/bold] ␛]0;pwned␇ done" in label and "\x1b" not in label


# -- error ---------------------------------------------------------------------------------------


def error_of(path: Path) -> SessionError:
    with pytest.raises(SessionError) as caught:
        open_session(path, warn=None)
    return caught.value


async def open_error(pilot: Pilot[Any]) -> ErrorScreen:
    await wait_for(
        pilot, lambda: bool(getattr(pilot.app.screen, "rows", None)), "the error view's lines"
    )
    screen = pilot.app.screen
    assert isinstance(screen, ErrorScreen)
    return screen


def nth_line(path: Path, number: int) -> str:
    lines = [x for x in path.read_text(encoding="utf-8").split("\n") if x.strip()]
    return lines[number - 1]


async def test_error_screen_shows_the_reason_and_the_offending_line() -> None:
    path = fixture("interior-corrupt.jsonl")
    app = Host(lambda: ErrorScreen(path, error_of(path)))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_error(pilot)
        banner = static_text(screen, "#error-banner")
        assert "session line 6: invalid JSON" in banner
        assert str(path) in banner and "line 6" in banner
        lines = shown_lines(screen.query_one(Transcript))
        assert " 6 " + nth_line(path, 6)[:60] in lines  # numbered, in view on open
        view = screen.query_one(Transcript)
        bad = nth_line(path, 6)[:60]
        await pilot.press("G")
        await wait_for(pilot, lambda: bad not in shown_lines(view), "the end, line 6 out of view")
        await pilot.press("n")
        await wait_for(pilot, lambda: bad in shown_lines(view), "line 6 in view again")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ErrorScreen), "the view to close")


async def test_error_screen_shows_escapes_and_markup_literally(tmp_path: Path) -> None:
    lines = [user(f"u{i}", f"u{i - 1}" if i else None) for i in range(30)]
    evil = '{"type":"message", \x1b]0;pwned\x07 [bold]oops[/bold] [red]'
    path = write_session(tmp_path / "evil.jsonl", *lines[:5], "", evil, *lines[5:])
    error = error_of(path)
    assert error.line == 7
    app = Host(lambda: ErrorScreen(path, error))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_error(pilot)
        shown = shown_lines(screen.query_one(Transcript))
        assert "7 " + '{"type":"message", ␛]0;pwned␇ [bold]oops[/bold] [red]' in shown
        assert "\x1b" not in shown and "\x07" not in shown
        assert screen.rows[6].number is None  # the blank line: shown, unnumbered


async def test_error_screen_cuts_a_2mb_line(tmp_path: Path) -> None:
    big = '{"type":"message","id":"x' + "y" * 2_000_000
    path = write_session(tmp_path / "big.jsonl", user("u1", None), big, user("u2", "u1"))
    error = error_of(path)
    app = Host(lambda: ErrorScreen(path, error))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_error(pilot)
        shown = shown_lines(screen.query_one(Transcript))
        more = len(big) - 2000
        assert f"…({more}morecharacters)" in "".join(shown.split())


async def test_error_screen_finds_the_entry_of_a_broken_chain() -> None:
    path = fixture("broken-chain.jsonl")
    session = open_session(path, warn=None)
    with pytest.raises(SessionError) as caught:
        from ink_tui.session import branch

        branch(session)
    app = Host(lambda: ErrorScreen(path, caught.value))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_error(pilot)
        assert screen.line == session.by_id[str(session.leaf_id)].line
        assert f"line {screen.line}" in static_text(screen, "#error-banner")


async def test_error_screen_through_the_app(tmp_path: Path, make_app: Any) -> None:
    path = fixture("interior-corrupt.jsonl")
    (tmp_path / "sessions").mkdir()
    app = make_app(open_path=path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_error(pilot)
        assert "session line 6: invalid JSON" in static_text(screen, "#error-banner")
        assert nth_line(path, 6)[:60] in shown_lines(screen.query_one(Transcript))
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ErrorScreen), "the view to close")
        assert app.is_running
