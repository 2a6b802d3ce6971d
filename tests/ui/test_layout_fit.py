"""Pilot tests of what fits where: the session header's second line, labels in Chinese (cut by
cell width, figures in a column), the picker's state column, notifications, and the split
between the tree and the replay (resized with < and > or the mouse, kept in the settings)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.cells import cell_len
from waiting import wait_for, workers_finished

from ink_tui.demo import generate_demo
from ink_tui.paths import project_dir
from ink_tui.session import ModelRef
from ink_tui.session.writing.writer import SessionWriter
from ink_tui.ui.config import load_config
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.session_view.tree import SessionTree
from ink_tui.ui.widgets.session_list import SessionList

CWD = "/home/ada/code/calc-kit"
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
PROMPTS = [
    "修复解析器中的错误，并为边界情况添加测试用例，然后更新文档",  # noqa: RUF001
    "ok",
    "为什么 CI 在主分支上失败了？请检查一下最近的提交记录并告诉我原因",  # noqa: RUF001
    "Rename fetch_json to load_json everywhere and update the callers too please",
]


def _session(base: Path, prompts: list[str], **usage: int) -> Path:
    writer = SessionWriter.new(project_dir(base, CWD), CWD, model=ModelRef("deepseek", "x"))
    for prompt in prompts:
        writer.append_message({"role": "user", "content": prompt})
        writer.append_message(
            {
                "role": "assistant",
                "blocks": [{"type": "text", "text": "好的"}],
                "usage": {"inputTokens": 1234, "outputTokens": 567, **usage},
                "stopReason": "end_turn",
            }
        )
    return writer.path


def screen_lines(app: Any) -> list[str]:
    strips = app.screen._compositor.render_strips()
    return ["".join(segment.text for segment in strip) for strip in strips]


async def _session_view(pilot: Any) -> SessionScreen:
    def loaded() -> SessionScreen | None:
        screen = pilot.app.screen
        return screen if isinstance(screen, SessionScreen) and screen.loaded else None

    screen = await wait_for(pilot, loaded, "the session view")
    await wait_for(pilot, workers_finished(pilot.app), "its workers")
    return screen


# -- the header ----------------------------------------------------------------------------------


async def test_the_headers_second_line_keeps_its_important_parts_whole(
    tmp_path: Path, make_app: Any
) -> None:
    """The newest demo session's second line (turns and their span, messages, tool calls and a
    failure, a compaction, the file's work, the branch's tokens and cache) was cut at 120
    columns: the minor parts now get shorter or go; at 60 the turns and the tokens still show,
    whole."""
    paths = generate_demo(tmp_path / "s", seed=0, sessions=12, now=NOW)
    path = next(p for p in paths if p.parent.name == "home-ada-code-calc--kit")
    for width, wanted in (
        (120, ["10 turns over 38m52s", "1 failed", "work ↑", "branch tokens in 82.7k out 32.1k"]),
        (60, ["10 turns", "in 82.7k out 32.1k"]),
    ):
        app = make_app(open_path=path, cwd="/nowhere")
        async with app.run_test(size=(width, 30)) as pilot:
            screen = await _session_view(pilot)
            second = screen.query_one("#session-header").render().plain.split("\n")[1]
            assert "…" not in second, second
            assert all(part in second for part in wanted), second
            assert cell_len(second) <= width - 2


# -- labels in Chinese ---------------------------------------------------------------------------


async def test_chinese_titles_are_cut_by_cells_and_the_figures_line_up(
    tmp_path: Path, make_app: Any
) -> None:
    path = _session(tmp_path / "s", PROMPTS)
    app = make_app(open_path=path, cwd="/nowhere")
    async with app.run_test(size=(119, 20)) as pilot:
        screen = await _session_view(pilot)
        tree = screen.query_one(SessionTree)
        lines = screen_lines(app)
        rows = [line for line in lines if "tok" in line and line.startswith("▶")]
        assert len(rows) == len(PROMPTS) - 1  # the last turn is open (▼)
        # every figure ends in the same terminal column, whatever the title's script
        columns = {cell_len(line[: line.index("tok") + 3]) for line in lines if line[:1] in "▶▼"}
        assert len(columns) == 1, lines
        assert not any(" …" in line for line in lines), lines
        assert any("…" in node.text for node in tree.top_rows)


async def test_the_picker_cuts_a_chinese_title_without_a_space_before_the_ellipsis(
    tmp_path: Path, make_app: Any
) -> None:
    base = tmp_path / "s"
    _session(base, [PROMPTS[0] * 3])
    app = make_app(sessions_dir=base, cwd=CWD)
    async with app.run_test(size=(100, 12)) as pilot:
        await wait_for(pilot, workers_finished(app), "the rows")
        title = app.screen.query_one(SessionList).row_cells(0)[1].plain
        assert title.endswith("…") and " …" not in title
        assert not any(" …" in line for line in screen_lines(app))


# -- the picker's state column -------------------------------------------------------------------


async def test_the_state_column_shows_only_while_a_row_is_live(
    tmp_path: Path, make_app: Any
) -> None:
    base = tmp_path / "s"
    path = _session(base, ["an old session"])
    clock = [path.stat().st_mtime + 3600]
    app = make_app(sessions_dir=base, cwd=CWD, clock=lambda: clock[0])
    async with app.run_test(size=(120, 12)) as pilot:
        await wait_for(pilot, workers_finished(app), "the rows")
        table = app.screen.query_one(SessionList)
        assert table.column_keys()[0] == "title"
        assert table.row_cells(0)[0].plain == "an old session"
        clock[0] = path.stat().st_mtime + 2  # written two seconds ago: live
        table.tick()
        await pilot.pause()
        assert table.row_cells(0)[0].plain == "● live"
        clock[0] = path.stat().st_mtime + 3600
        table.tick()
        await pilot.pause()
        assert "state" not in table.column_keys()


# -- notifications -------------------------------------------------------------------------------


async def test_a_notification_is_one_line_at_the_bottom_right_above_the_footer(
    tmp_path: Path, make_app: Any
) -> None:
    path = _session(tmp_path / "s", PROMPTS)
    app = make_app(open_path=path, cwd="/nowhere")
    async with app.run_test(size=(120, 30), notifications=True) as pilot:
        await _session_view(pilot)
        await pilot.press("t")  # "thinking shown"
        await wait_for(pilot, lambda: "thinking shown" in "".join(screen_lines(app)), "the note")
        lines = screen_lines(app)
        [row] = [index for index, line in enumerate(lines) if "thinking shown" in line]
        assert row == len(lines) - 2  # just above the footer
        line = lines[row]
        assert line.rstrip().endswith("thinking shown") or line.index("thinking shown") > 80
        assert "thinking shown" not in lines[row - 1] and "▌" not in lines[row - 1][80:]


# -- the split -----------------------------------------------------------------------------------


async def test_ctrl_arrows_resize_the_tree_and_the_width_is_kept(
    tmp_path: Path, make_app: Any
) -> None:
    path = _session(tmp_path / "s", PROMPTS)
    config = tmp_path / "config.toml"
    app = make_app(open_path=path, cwd="/nowhere", config_path=config)
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await _session_view(pilot)
        tree = screen.query_one(SessionTree)
        before = tree.outer_size.width
        await pilot.press("ctrl+right", "ctrl+right")
        await pilot.pause()
        assert tree.outer_size.width == before + 12  # 5 % of 118 columns, twice
        await pilot.press("ctrl+left")
        await pilot.pause()
        wider = tree.outer_size.width
        assert wider == before + 6
    assert load_config(config).tree_width == 45
    again = make_app(open_path=path, cwd="/nowhere", config_path=config)
    async with again.run_test(size=(120, 30)) as pilot:
        screen = await _session_view(pilot)
        assert screen.query_one(SessionTree).outer_size.width == wider


async def test_the_focused_pane_is_titled_in_the_primary_colour(
    tmp_path: Path, make_app: Any
) -> None:
    path = _session(tmp_path / "s", PROMPTS)
    app = make_app(open_path=path, cwd="/nowhere")
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await _session_view(pilot)
        tree = screen.query_one(SessionTree)
        replay = screen.query_one("#transcript")
        assert tree.border_title == "branch" and replay.border_title == "replay"
        primary = app.current_theme.primary
        assert tree.has_focus
        assert tree.styles.border_title_color.hex.lower() == primary.lower()
        assert replay.styles.border_title_color.hex.lower() != primary.lower()
        await pilot.press("tab")
        await pilot.pause()
        assert replay.has_focus
        assert replay.styles.border_title_color.hex.lower() == primary.lower()
        assert tree.styles.border_title_color.hex.lower() != primary.lower()
