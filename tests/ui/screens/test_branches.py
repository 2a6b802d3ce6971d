"""Pilot tests of the branches screen (``b`` in the session view): every leaf as one row with its
fork point, labels and last prompt, the vim keys, its own footer, narrow terminals. Assertions
read the screen as the terminal would show it."""

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
from waiting import wait_for

from ink_tui.session import leaves, open_session
from ink_tui.ui.screens.branches import BranchesScreen
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.widgets.branch_list import BranchTable

CWD = "/home/ada/proj"
BRANCHES = 60
LABEL = "keep-this-one"
LONG = "Try a completely different approach to the retry helper, " * 3


def _ts(minute: int) -> str:
    return f"2026-10-05T{10 + minute // 60:02d}:{minute % 60:02d}:00.000Z"


def forked_session(folder: Path, *, label: str = LABEL, prompt: str = LONG) -> Path:
    """A main branch of 30 turns, then ``BRANCHES`` branches forked from its turns (as Ink's
    ``/fork`` writes them: a position marker, a new prompt under the fork point), each of the
    first three labelled, and a final marker back to the main branch's leaf: the current leaf
    is the oldest leaf, listed last."""
    lines: list[dict[str, Any]] = [
        {"type": "session", "version": 1, "id": "feed-0001", "timestamp": _ts(0), "cwd": CWD}
    ]
    minute = 0

    def entry(entry_id: str, parent: str | None, message: dict[str, Any]) -> None:
        nonlocal minute
        minute += 1
        record = {"type": "message", "id": entry_id, "parentId": parent, "timestamp": _ts(minute)}
        lines.append({**record, "message": message})

    def reply(text: str) -> dict[str, Any]:
        return {
            "role": "assistant",
            "blocks": [{"type": "text", "text": text}],
            "usage": {"inputTokens": 1, "outputTokens": 1},
            "stopReason": "end_turn",
        }

    parent = None
    for turn in range(30):
        entry(f"u{turn:03d}main0000", parent, {"role": "user", "content": f"main turn {turn + 1}"})
        entry(f"a{turn:03d}main0000", f"u{turn:03d}main0000", reply("done"))
        parent = f"a{turn:03d}main0000"
    main_leaf = parent
    for branch in range(BRANCHES):
        fork = f"a{branch % 29:03d}main0000"  # (never the main leaf: it stays a leaf)
        lines.append({"type": "position", "leafId": fork})
        entry(f"v{branch:03d}side0000", fork, {"role": "user", "content": f"{prompt} #{branch}"})
        entry(f"b{branch:03d}side0000", f"v{branch:03d}side0000", reply("side answer"))
        if branch < 3:
            record = {"type": "label", "id": f"l{branch:03d}", "parentId": f"b{branch:03d}side0000"}
            lines.append({**record, "timestamp": _ts(minute), "targetId": f"v{branch:03d}side0000"})
            lines[-1]["label"] = label
    lines.append({"type": "position", "leafId": main_leaf})
    path = folder / "forked.jsonl"
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def host(path: Path) -> ScreenHost:
    session = open_session(path, warn=None)
    return ScreenHost(lambda: BranchesScreen(session, session.leaf_id))


async def listed(pilot: Pilot[Any]) -> BranchesScreen:
    await wait_for(
        pilot,
        lambda: isinstance(pilot.app.screen, BranchesScreen) and pilot.app.screen.listing,
        "the branches list",
    )
    screen = pilot.app.screen
    assert isinstance(screen, BranchesScreen)
    return screen


def screen_lines(app: App[Any]) -> list[str]:
    """The screen's lines as the terminal shows them (no colour)."""
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
    return console.export_text(styles=False).splitlines()


def line_with(app: App[Any], text: str) -> str:
    found = [line for line in screen_lines(app) if text in line]
    assert len(found) == 1, (text, screen_lines(app))
    return found[0]


# -- what it shows ----------------------------------------------------------------------------


async def test_every_leaf_is_a_row_and_the_cursor_starts_on_the_current_one(
    tmp_path: Path,
) -> None:
    path = forked_session(tmp_path)
    session = open_session(path, warn=None)
    app = host(path)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await listed(pilot)
        table = screen.query_one(BranchTable)
        assert table.row_count == len(leaves(session)) == BRANCHES + 1
        highlighted = table.highlighted
        assert highlighted is not None and highlighted.id == session.leaf_id
        assert table.cursor_row == BRANCHES  # the oldest leaf, listed last: scrolled to it
        current = line_with(app, "main turn 30")
        assert current.lstrip().startswith("●") and "current branch" in current
        assert f"{BRANCHES + 1} leaves" in screen_lines(app)[0]
        detail = "\n".join(screen_lines(app)[-6:])
        assert f"current leaf {session.leaf_id}" in detail


async def test_rows_show_fork_point_and_labels_whole_before_the_elided_prompt(
    tmp_path: Path,
) -> None:
    app = host(forked_session(tmp_path))
    async with app.run_test(size=(120, 36)) as pilot:
        await listed(pilot)
        await pilot.press("g")
        # the first row: branch 59, forked in turn 59 % 29 + 1
        newest = await wait_for(
            pilot,
            lambda: next((x for x in screen_lines(app)[2:3] if "turn 2 · a001main" in x), ""),
            "the newest branch on top",
        )
        assert "turn 2 · a001main" in newest and "Try a completely" in newest
        await pilot.press("G")  # the three labelled branches are the oldest, just above
        lines = await wait_for(
            pilot,
            lambda: [x for x in screen_lines(app) if f"#{LABEL}" in x],
            "the labelled branches on screen",
        )
        assert len(lines) == 3  # the label whole
        for line in lines:
            assert any(f"turn {n} · a00{n - 1}main" in line for n in (1, 2, 3)), line
            assert line.index(f"#{LABEL}") < line.index("Try a completely")
            assert "…" in line.split("Try a completely", 1)[1]  # only the prompt is cut


async def test_vim_keys_move_and_the_detail_follows(tmp_path: Path) -> None:
    app = host(forked_session(tmp_path))
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await listed(pilot)
        table = screen.query_one(BranchTable)
        await pilot.press("g")
        assert table.cursor_row == 0
        await pilot.press("j", "j")
        assert table.cursor_row == 2
        await pilot.press("k")
        assert table.cursor_row == 1
        detail = await wait_for(
            pilot,
            lambda: next((x for x in ["\n".join(screen_lines(app)[-6:])] if "b058" in x), ""),
            "the detail of the second row",
        )
        assert "leaf b058side0000" in detail
        assert "leaves the current branch after entry a000main0000 (turn 1)" in detail
        await pilot.press("G")
        assert table.cursor_row == BRANCHES
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.results, "the branches screen to answer")
        assert app.results == [None]


async def test_its_footer_shows_its_own_keys(tmp_path: Path) -> None:
    app = host(forked_session(tmp_path))
    async with app.run_test(size=(120, 36)) as pilot:
        await listed(pilot)
        footer = screen_lines(app)[-1]
        for key in ("Show branch", "Back", "Move", "Top / bottom"):
            assert key in footer, footer


async def test_the_list_is_built_off_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ink_tui.ui.screens.branches as branches

    threads: list[threading.Thread] = []
    real = branches.build_branch_list

    def spy(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(branches, "build_branch_list", spy)
    app = host(forked_session(tmp_path))
    async with app.run_test(size=(120, 36)) as pilot:
        await listed(pilot)
    assert threads and threads[0] is not threading.main_thread()


@pytest.mark.parametrize("size", [(80, 24), (40, 12)])
async def test_narrow_terminals_keep_mark_labels_and_prompt(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app = host(forked_session(tmp_path, label="ok"))
    async with app.run_test(size=size) as pilot:
        await listed(pilot)
        current = line_with(app, "main turn 30")
        assert current.lstrip().startswith("●")
        await pilot.press("G", "k")
        labelled = await wait_for(
            pilot,
            lambda: [x for x in screen_lines(app) if "#ok" in x and "Try a" in x],
            "the labelled branches on screen",
        )
        assert len(labelled) == 3
        for line in screen_lines(app):
            assert len(line.rstrip()) <= size[0]
        assert "Show branch" in screen_lines(app)[-1]


async def test_session_text_is_shown_literally(tmp_path: Path) -> None:
    hostile = "[bold]x[/bold] \x1b]0;pwned\x07 done"
    app = host(forked_session(tmp_path, label=hostile, prompt="\x1b[2J[red]wipe[/red]"))
    async with app.run_test(size=(160, 36)) as pilot:
        await listed(pilot)
        await pilot.press("G", "k")
        text = await wait_for(
            pilot,
            lambda: next((x for x in ["\n".join(screen_lines(app))] if "#[bold]" in x), ""),
            "the labelled branches on screen",
        )
        assert "#[bold]x[/bold] ␛]0;pwned␇ done" in text
        assert "␛[2J[red]wipe[/red]" in text
        assert "\x1b" not in text


# -- in the app -------------------------------------------------------------------------------


async def test_b_then_enter_shows_that_branch_and_esc_comes_back(
    tmp_path: Path, make_app: Any
) -> None:
    path = forked_session(tmp_path / "sessions" / "p")
    app = make_app(cwd=CWD, open_path=path)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, SessionScreen) and app.screen.loaded is not None,
            "the session view",
        )
        view = app.screen
        await pilot.press("b")
        screen = await listed(pilot)
        assert "Show branch" in screen_lines(app)[-1]
        await pilot.press("g")
        chosen = screen.query_one(BranchTable).highlighted
        assert chosen is not None and not chosen.is_current
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, SessionScreen)
                and app.screen is not view
                and app.screen.loaded is not None
            ),
            "the chosen branch",
        )
        shown = app.screen
        assert isinstance(shown, SessionScreen) and shown.loaded is not None
        assert shown.loaded.leaf_id == chosen.id
        assert "⑂ not the current branch" in screen_lines(app)[0]
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is view, "back to the session view")
        assert "not the current branch" not in screen_lines(app)[0]


async def test_a_click_moves_the_cursor_and_a_second_click_shows_the_branch(
    tmp_path: Path,
) -> None:
    app = host(forked_session(tmp_path))
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await listed(pilot)
        table = screen.query_one(BranchTable)
        await pilot.press("g")
        await pilot.click(BranchTable, offset=(40, 2))
        assert table.cursor_row == 2
        chosen = table.highlighted
        assert chosen is not None
        await pilot.click(BranchTable, offset=(40, 2))
        await wait_for(pilot, lambda: app.results, "the branches screen to answer")
        assert app.results == [chosen.id]


async def test_a_resize_lays_the_columns_out_again(tmp_path: Path) -> None:
    app = host(forked_session(tmp_path))
    async with app.run_test(size=(120, 36)) as pilot:
        await listed(pilot)
        assert "size" in screen_lines(app)[1]
        await pilot.resize_terminal(60, 20)
        await wait_for(pilot, lambda: "size" not in screen_lines(app)[1], "the narrow layout")
        assert "last prompt" in screen_lines(app)[1]
        assert line_with(app, "main turn 30").lstrip().startswith("●")
