"""The bar between the tree and the replay alone (ui/session_view/pane_split.py), in a small app:
the panes' titles, the left pane's share of the width (nudged, dragged, kept within its bounds),
and the chosen width saved once, when the drag ends."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static
from waiting import wait_for

from ink_tui.ui.config import TREE_WIDTH_MAX, TREE_WIDTH_MIN, UiConfig, load_config
from ink_tui.ui.options import InkAppBase, LaunchOptions
from ink_tui.ui.session_view.pane_split import DEFAULT_WIDTH, PaneSplit

WIDTH = 100


class SplitApp(InkAppBase):
    CSS = "Static { border: round $primary; } #right { width: 1fr; }"

    def __init__(self, config_path: Path, saved: int | None = None) -> None:
        super().__init__(LaunchOptions(Path("/s"), "/s", config_path=config_path))
        self.ui_config = UiConfig(tree_width=saved)

    def compose(self) -> ComposeResult:
        with Horizontal(classes="-wide"):
            yield Static("tree", id="left")
            yield PaneSplit(("Turns", "Replay"), id="split")
            yield Static("replay", id="right")


def _left(app: SplitApp) -> int:
    return app.query_one("#left").region.width


async def test_the_titles_and_the_left_panes_share_nudged_within_bounds(tmp_path: Path) -> None:
    app = SplitApp(tmp_path / "config.toml")
    async with app.run_test(size=(WIDTH, 8)) as pilot:
        await wait_for(pilot, lambda: _left(app) == DEFAULT_WIDTH, "the default share")
        assert str(app.query_one("#left").border_title) == "Turns"
        assert str(app.query_one("#right").border_title) == "Replay"
        split = app.query_one(PaneSplit)
        split.nudge(5)
        await wait_for(pilot, lambda: _left(app) == DEFAULT_WIDTH + 5, "a wider tree")
        assert load_config(tmp_path / "config.toml").tree_width == DEFAULT_WIDTH + 5  # kept
        split.nudge(100)
        await wait_for(pilot, lambda: _left(app) == TREE_WIDTH_MAX, "the widest tree")
        split.nudge(-100)
        await wait_for(pilot, lambda: _left(app) == TREE_WIDTH_MIN, "the narrowest tree")


async def test_a_saved_width_is_where_it_starts(tmp_path: Path) -> None:
    app = SplitApp(tmp_path / "config.toml", saved=30)
    async with app.run_test(size=(WIDTH, 8)) as pilot:
        await wait_for(pilot, lambda: _left(app) == 30, "the saved share")


async def test_dragging_the_bar_sizes_the_panes_and_saves_when_let_go(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    app = SplitApp(config)
    async with app.run_test(size=(WIDTH, 8)) as pilot:
        await wait_for(pilot, lambda: _left(app) == DEFAULT_WIDTH, "the default share")
        await pilot.mouse_down("#split")
        await pilot.hover("#right", offset=(20, 2))  # the bar follows the mouse to column 61
        await wait_for(pilot, lambda: _left(app) != DEFAULT_WIDTH, "the tree resized")
        assert _left(app) == 61
        assert not config.exists()  # nothing written while dragging
        await pilot.mouse_up("#split")
        await wait_for(pilot, config.exists, "the width saved")
        assert load_config(config).tree_width == 61
