"""Pilot tests of Ink's tree (``I`` in the session view; spec §7 ``/tree``): the whole file as
Ink's ``/tree`` lists it, the cursor on the current leaf, Tab through the five filters with the
status line naming each, ``/`` searching row text and labels, ``f`` folding as Ink's ``f``,
Enter showing the entry's branch, Esc back; rows built off the event loop, only the newest view
asked for built next, deep rows panned into sight. Assertions read the screen as the terminal
shows it; the expected rows are written out from the spec's rules."""

from __future__ import annotations

import io
import json
import threading
from pathlib import Path
from typing import Any

import pytest
from hosting import ScreenHost
from rich.console import Console
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input
from waiting import wait_for

from ink_tui.paths import project_dir
from ink_tui.session import open_session
from ink_tui.ui.modals.keeping import TextScreen
from ink_tui.ui.screens.ink_tree import BUILDING, InkTreeScreen
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.widgets.ink_tree_rows import InkTreeList

CWD = "/home/ada/proj"
SIZE = (100, 30)


def _at(second: int) -> str:
    return f"2026-10-05T12:{second // 60:02d}:{second % 60:02d}.000Z"


def _entry(kind: str, entry_id: str, parent: str | None, second: int, **fields: Any) -> Any:
    return {"type": kind, "id": entry_id, "parentId": parent, "timestamp": _at(second), **fields}


def _user(entry_id: str, parent: str | None, second: int, text: str) -> Any:
    return _entry("message", entry_id, parent, second, message={"role": "user", "content": text})


def _reply(entry_id: str, parent: str, second: int, text: str = "", call: bool = False) -> Any:
    blocks: list[Any] = [{"type": "text", "text": text}] if text else []
    if call:
        blocks.append({"type": "toolCall", "id": f"c-{entry_id}", "name": "bash", "arguments": {}})
    message = {
        "role": "assistant",
        "blocks": blocks,
        "usage": {"inputTokens": 1, "outputTokens": 1},
        "stopReason": "tool_use" if call else "end_turn",
    }
    return _entry("message", entry_id, parent, second, message=message)


def _results(entry_id: str, parent: str, second: int) -> Any:
    result = {"toolCallId": f"c-{parent}", "toolName": "bash", "content": "ok", "isError": False}
    message = {"role": "toolResult", "results": [result]}
    return _entry("message", entry_id, parent, second, message=message)


def write_session(folder: Path, records: list[Any], name: str = "tree.jsonl") -> Path:
    header = {"type": "session", "version": 1, "id": "feed-0001", "timestamp": _at(0), "cwd": CWD}
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in [header, *records]))
    return path


def two_ideas(folder: Path, *, label: str = "keep") -> Path:
    """A prompt and its answer, then two branches: the first idea (a reply that only calls a
    tool, its result, the answer: the current branch, by a position marker) and, later, the
    second idea (labelled; then a thinking level change and a name under it)."""
    return write_session(
        folder,
        [
            _user("u1", None, 1, "start the ledger"),
            _reply("a1", "u1", 2, "on it"),
            _user("u2", "a1", 3, "first idea"),
            _reply("a2", "u2", 4, call=True),
            _results("r2", "a2", 5),
            _reply("a3", "r2", 6, "first idea done"),
            _user("u3", "a1", 7, "second idea"),
            _reply("a4", "u3", 8, "second idea done"),
            _entry("thinkingLevelChange", "t1", "a4", 9, thinkingLevel="high"),
            _entry("session_info", "n1", "t1", 10, name="Ledger"),
            _entry("label", "l1", "n1", 11, targetId="u3", label=label),
            {"type": "position", "leafId": "a3"},
        ],
    )


# Ink's /tree rows of two_ideas, as the spec draws them (current branch first and marked with •,
# the leaf ◂, a connector at the fork, one generation after it indented once more).
ROWS = {
    "u1": "• user: start the ledger",
    "a1": "• assistant: on it",
    "u2": "├─ • user: first idea",
    "a2": "│     • assistant: [bash]",
    "r2": "│     • ⎿ bash",
    "a3": "│     • assistant: first idea done  ◂",
    "u3": "└─ [keep] user: second idea",
    "a4": "      assistant: second idea done",
    "t1": "      thinking: high",
    "n1": "      title: Ledger",
}
ORDER = ["u1", "a1", "u2", "a2", "r2", "a3", "u3", "a4", "t1", "n1"]
SHOWN = {
    "default": ["u1", "a1", "u2", "r2", "a3", "u3", "a4"],
    "no-tools": ["u1", "a1", "u2", "a3", "u3", "a4"],
    "user-only": ["u1", "u2", "a3", "u3"],
    "labeled-only": ["a3", "u3"],
    "all": ORDER,
}


def host(path: Path) -> ScreenHost:
    return ScreenHost(lambda: InkTreeScreen(path))


def screen_lines(app: App[Any]) -> list[str]:
    """The screen's lines as the terminal shows them (no colour), right spaces dropped."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system=None,
        record=True,
        legacy_windows=False,
    )
    console.print(app.screen._compositor.render_update(full=True))
    return [line.rstrip() for line in console.export_text(styles=False).splitlines()]


def list_lines(app: App[Any]) -> list[str]:
    """The lines of the rows list only (between the title and the status line)."""
    tree = app.screen.query_one(InkTreeList)
    top = tree.region.y
    return [line.strip() for line in screen_lines(app)[top : top + tree.region.height] if line]


def status(app: App[Any]) -> str:
    return str(app.screen.query_one("#ink-tree-status").render())


async def shown(pilot: Pilot[Any], mode: str = "default", query: str = "") -> InkTreeScreen:
    def ready() -> bool:
        screen = pilot.app.screen
        return (
            isinstance(screen, InkTreeScreen)
            and screen.shown is not None
            and screen.shown.mode == mode
            and screen.shown.query == query
            and BUILDING not in status(pilot.app)
        )

    await wait_for(pilot, ready, f"Ink's tree under {mode!r}, search {query!r}")
    screen = pilot.app.screen
    assert isinstance(screen, InkTreeScreen)
    return screen


def rows_of(ids: list[str]) -> list[str]:
    return [ROWS[entry_id].strip() for entry_id in ids]


# -- what it shows ----------------------------------------------------------------------------


async def test_it_lists_the_whole_file_as_inks_tree_with_the_cursor_on_the_current_leaf(
    tmp_path: Path,
) -> None:
    app = host(two_ideas(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        screen = await shown(pilot)
        assert list_lines(app) == rows_of(SHOWN["default"])
        tree = screen.query_one(InkTreeList)
        highlighted = tree.highlighted
        assert highlighted is not None and highlighted.entry_id == "a3"
        assert status(app).startswith("(5/7)  ·  filter: default")
        title = screen_lines(app)[0]
        assert "Ink's tree" in title and "10 entries" in title and "current leaf ◂ a3" in title


async def test_tab_cycles_inks_five_filters_and_the_status_line_names_each(
    tmp_path: Path,
) -> None:
    app = host(two_ideas(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await shown(pilot)
        for mode in ("no-tools", "user-only", "labeled-only", "all", "default"):
            await pilot.press("tab")
            screen = await shown(pilot, mode)
            assert list_lines(app) == rows_of(SHOWN[mode]), mode
            assert f"filter: {mode}" in status(app)
            highlighted = screen.query_one(InkTreeList).highlighted
            assert highlighted is not None and highlighted.entry_id == "a3"  # the leaf stays


async def test_slash_keeps_the_rows_whose_text_or_label_holds_the_words(tmp_path: Path) -> None:
    app = host(two_ideas(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        screen = await shown(pilot)
        await pilot.press("slash")
        search = screen.query_one("#ink-tree-search", Input)
        assert search.display and search.has_focus
        await pilot.press("q", "question_mark")  # text here: neither quits nor opens the help
        assert search.value == "q?" and app.is_running and app.screen is screen
        search.value = ""
        await pilot.press(*"IDEA f")  # f types here: it folds only outside the search line
        await shown(pilot, query="IDEA f")
        assert list_lines(app) == rows_of(["a3"])  # nothing else holds it; the leaf stays
        search.value = ""
        await pilot.press(*"KEEP", "enter")
        await shown(pilot, query="KEEP")
        assert not search.display
        assert list_lines(app) == rows_of(["a3", "u3"])  # the label matches
        assert "search: KEEP" in status(app)
        await pilot.press("slash")
        assert search.value == "KEEP"  # the search shown, to go on typing
        search.value = "idea"
        await pilot.press("escape")  # closes the line; the search stays
        await shown(pilot, query="idea")
        assert list_lines(app) == rows_of(["u2", "a3", "u3", "a4"])
        await pilot.press("escape")  # clears the search
        await shown(pilot)
        assert list_lines(app) == rows_of(SHOWN["default"])
        await pilot.press("escape")  # then goes back
        await wait_for(pilot, lambda: app.results, "the tree to answer")
        assert app.results == [None]


async def test_f_folds_the_row_as_inks_f_does(tmp_path: Path) -> None:
    app = host(two_ideas(tmp_path))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await shown(pilot)
        tree = screen.query_one(InkTreeList)
        await pilot.press("k", "k", "k")
        assert tree.highlighted is not None and tree.highlighted.entry_id == "a1"
        await pilot.press("f")
        await wait_for(pilot, lambda: screen.shown and screen.shown.folded, "the fold")
        await shown(pilot)
        assert list_lines(app) == ["• user: start the ledger", "⊞ • assistant: on it"]
        assert "1 row folded" in status(app)
        await pilot.press("space")  # Space does the same
        await wait_for(pilot, lambda: screen.shown and not screen.shown.folded, "the unfold")
        await shown(pilot)
        assert list_lines(app) == rows_of(SHOWN["default"])
        await pilot.press("j", "j", "j", "j", "j", "j")
        assert tree.highlighted is not None and tree.highlighted.entry_id == "a4"
        await pilot.press("f")  # its child (t1) is hidden by the filter already: folded anyway
        await wait_for(pilot, lambda: screen.shown and screen.shown.folded, "the fold")
        await shown(pilot)
        assert list_lines(app)[-1] == ROWS["a4"].strip()  # no connector to show ⊞ in (Ink's)
        await pilot.press("tab", "tab", "tab", "tab")  # "all" (a filter change clears folds)
        await shown(pilot, "all")
        assert list_lines(app) == rows_of(SHOWN["all"])
        await pilot.press("G")
        assert tree.highlighted is not None and tree.highlighted.entry_id == "n1"
        await pilot.press("f")
        await wait_for(
            pilot,
            lambda: any("nothing under this row" in n.message for n in app._notifications),
            "the note",
        )


async def test_enter_answers_the_entry(tmp_path: Path) -> None:
    app = host(two_ideas(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        screen = await shown(pilot)
        await pilot.press("j")
        tree = screen.query_one(InkTreeList)
        assert tree.highlighted is not None and tree.highlighted.entry_id == "u3"
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.results, "the tree to answer")
        assert app.results == ["u3"]


async def test_its_footer_shows_its_own_keys(tmp_path: Path) -> None:
    app = host(two_ideas(tmp_path))
    async with app.run_test(size=(120, 30)) as pilot:
        await shown(pilot)
        footer = screen_lines(app)[-1]
        for key in ("Show its branch", "Move", "Filter", "Search", "Fold", "Label", "Back"):
            assert key in footer, footer


async def test_session_text_is_shown_literally_on_one_line(tmp_path: Path) -> None:
    hostile = "[bold]x[/bold] \x1b]0;pwned\x07\nsecond"
    app = host(two_ideas(tmp_path, label=hostile))
    async with app.run_test(size=(140, 30)) as pilot:
        await shown(pilot)
        line = next(line for line in list_lines(app) if "second idea" in line)
        assert line == "└─ [[bold]x[/bold] ␛]0;pwned␇␊second] user: second idea"
        assert all("\x1b" not in line for line in screen_lines(app))


async def test_l_labels_the_entry_and_the_tree_is_read_again(tmp_path: Path) -> None:
    path = two_ideas(tmp_path)
    app = host(path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await shown(pilot)
        await pilot.press("k")  # r2
        await pilot.press("L")
        await wait_for(pilot, lambda: isinstance(app.screen, TextScreen), "the label prompt")
        app.screen.query_one(Input).value = "the tool run"
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: app.screen is screen and "│     • [the tool run] ⎿ bash" in list_lines(app),
            "the new label in the rows",
        )
        highlighted = screen.query_one(InkTreeList).highlighted
        assert highlighted is not None and highlighted.entry_id == "r2"
    records = [json.loads(line) for line in path.read_text().splitlines()]
    labels = [r for r in records if r.get("type") == "label" and r.get("targetId") == "r2"]
    assert [label["label"] for label in labels] == ["the tool run"]
    assert open_session(path, warn=None).leaf_id == "a3"  # a label never moves the leaf


async def test_an_empty_session_and_an_unreadable_one_each_say_so(tmp_path: Path) -> None:
    app = host(write_session(tmp_path, []))
    async with app.run_test(size=SIZE) as pilot:
        await shown(pilot)
        assert list_lines(app) == []
        assert status(app).startswith("nothing in this session yet")
        assert "current leaf none (the empty branch)" in screen_lines(app)[0]
    gone = tmp_path / "gone.jsonl"
    app = host(gone)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: "cannot show Ink's tree" in status(app), "the reason")
        assert str(gone) in status(app) and app.is_running


# -- building off the event loop --------------------------------------------------------------


async def test_only_the_lines_on_screen_are_drawn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: set[int] = set()
    real = InkTreeList.row_text

    def spy(self: InkTreeList, index: int, width: int) -> Any:
        drawn.add(index)
        return real(self, index, width)

    monkeypatch.setattr(InkTreeList, "row_text", spy)
    records: list[Any] = [_user("p0", None, 0, "prompt 0")]
    for turn in range(1, 1500):
        records.append(_reply(f"a{turn}", records[-1]["id"], 2 * turn, f"answer {turn}"))
        records.append(_user(f"p{turn}", f"a{turn}", 2 * turn + 1, f"prompt {turn}"))
    app = host(write_session(tmp_path, records))
    async with app.run_test(size=SIZE) as pilot:
        screen = await shown(pilot)
        assert screen.query_one(InkTreeList).row_count == len(records)
        await pilot.press("g")
        await wait_for(pilot, lambda: "• user: prompt 0" in list_lines(app), "the first row")
        await pilot.press("G")
        await wait_for(pilot, lambda: "• user: prompt 1499  ◂" in list_lines(app), "the last row")
    assert 0 < len(drawn) < 120  # a few screens' worth of 2,999 rows


async def test_rows_are_built_in_a_worker_and_only_the_newest_view_is_built_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ink_tui.ui.screens.ink_tree as ink_tree_screen

    real = ink_tree_screen.tree_rows
    release = threading.Event()
    calls: list[tuple[str, threading.Thread]] = []

    def slow(*args: Any, **kwargs: Any) -> Any:
        calls.append((args[2], threading.current_thread()))
        release.wait(10)
        return real(*args, **kwargs)

    monkeypatch.setattr(ink_tree_screen, "tree_rows", slow)
    app = host(two_ideas(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: calls, "the first build")
        assert BUILDING in status(app)  # said while the rows are built
        await pilot.press("tab", "tab")  # asked for twice while the first build runs
        assert "filter: user-only" in status(app)
        release.set()
        await shown(pilot, "user-only")
        assert list_lines(app) == rows_of(SHOWN["user-only"])
    assert [mode for mode, _ in calls] == ["default", "user-only"]  # no-tools never built
    assert all(thread is not threading.main_thread() for _, thread in calls)


def deep_session(folder: Path, forks: int) -> Path:
    """A fork at every step: each step's prompt gets an abandoned answer and the one the branch
    goes on from, so every level indents once more (three columns per fork)."""
    records: list[Any] = [_user("p0", None, 0, "root prompt")]
    parent = "p0"
    for level in range(forks):
        second = 1 + 3 * level
        records.append(_reply(f"x{level}", parent, second, "abandoned answer"))
        records.append(_reply(f"k{level}", parent, second + 1, f"kept answer {level}"))
        records.append(_user(f"p{level + 1}", f"k{level}", second + 2, f"prompt {level + 1}"))
        parent = f"p{level + 1}"
    records.append(_reply("leaf", parent, 3 * forks + 5, "deep answer"))
    return write_session(folder, records)


async def test_a_deep_row_is_panned_into_sight_as_ink_does(tmp_path: Path) -> None:
    app = host(deep_session(tmp_path, 40))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await shown(pilot)
        tree = screen.query_one(InkTreeList)
        assert tree.highlighted is not None and tree.highlighted.entry_id == "leaf"
        await wait_for(  # the rows are painted after the screen says it is shown
            pilot, lambda: any("◂" in line for line in list_lines(app)), "the leaf's row drawn"
        )
        leaf_line = next(line for line in list_lines(app) if "◂" in line)
        assert "• assistant: deep answer  ◂" in leaf_line  # its text in sight, not off the edge
        assert tree.pan > 0
        await pilot.press("g")  # the root starts at the left edge: the view pans back
        await wait_for(pilot, lambda: tree.pan == 0, "the pan back")
        assert list_lines(app)[0] == "• user: root prompt"


# -- in the app -------------------------------------------------------------------------------


async def test_i_in_the_session_view_then_enter_shows_that_entrys_branch(
    tmp_path: Path, make_app: Any
) -> None:
    base = tmp_path / "sessions"
    path = two_ideas(project_dir(base, CWD))
    app = make_app(sessions_dir=base, cwd=CWD, open_path=path)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, SessionScreen) and app.screen.loaded is not None,
            "the session view",
        )
        view = app.screen
        await pilot.press("I")
        screen = await shown(pilot)
        await pilot.press("j", "j")  # u3, then a4: the second idea's answer
        highlighted = screen.query_one(InkTreeList).highlighted
        assert highlighted is not None and highlighted.entry_id == "a4"
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, SessionScreen)
                and app.screen is not view
                and app.screen.loaded is not None
            ),
            "the chosen entry's branch",
        )
        chosen = app.screen
        assert isinstance(chosen, SessionScreen) and chosen.loaded is not None
        assert chosen.loaded.leaf_id == "a4"
        assert [entry.id for entry in chosen.loaded.entries] == ["u1", "a1", "u3", "a4"]
        assert "⑂ not the current branch" in screen_lines(app)[0]
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is view, "back to the session view")
