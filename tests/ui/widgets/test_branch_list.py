"""The branches' list alone (ui/widgets/branch_list.py), in a small app on a pinned clock: one
line per leaf (the current one marked, its labels, where it leaves the current branch, its age,
size and last prompt), the cursor starting on the current leaf, moves and Enter told, and the
fork, age and size columns given up when narrow."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.app import ComposeResult
from textual.message import Message
from waiting import wait_for

from ink_tui.session.conversation.forks import BranchList, LeafRow
from ink_tui.session.reading.reader import Entry
from ink_tui.ui.options import InkAppBase, LaunchOptions
from ink_tui.ui.widgets.branch_list import BranchTable

NOW = 1_772_360_000.0  # 2026-03-01T10:13:20Z


def _leaf(entry_id: str, **fields: Any) -> LeafRow:
    record = {"type": "message", "id": entry_id, "parentId": None, "message": {}}
    values: dict[str, Any] = {
        "entry": Entry(record, 7, 0, 1),
        "is_current": False,
        "fork_id": "abcdef0123",
        "fork_turn": 3,
        "root_kind": "root",
        "own_entries": 4,
        "own_bytes": 3072,
        "timestamp": "2026-03-01T08:13:20Z",  # two hours before NOW
    }
    values.update(fields)
    return LeafRow(**values)


ROWS = [
    _leaf("leaf-new", prompt="try the other parser", labels=[("x", "experiment")]),
    _leaf("leaf-cur", is_current=True, fork_id=None, prompt="ship it\nnow"),
    _leaf("leaf-old", fork_id=None, root_kind="orphan", prompt=None, timestamp="not a time"),
]


class BranchesApp(InkAppBase):
    def __init__(self) -> None:
        super().__init__(LaunchOptions(Path("/s"), "/s", clock=lambda: NOW))
        self.said: list[Message] = []

    def compose(self) -> ComposeResult:
        yield BranchTable(id="branches")

    def on_mount(self) -> None:
        table = self.query_one(BranchTable)
        table.show(BranchList(ROWS, "leaf-cur", [], [], current_turns=5))
        table.focus()

    def on_branch_table_highlighted(self, message: BranchTable.Highlighted) -> None:
        self.said.append(message)

    def on_branch_table_selected(self, message: BranchTable.Selected) -> None:
        self.said.append(message)


def _lines(table: BranchTable) -> list[str]:
    return [table.render_line(y).text.rstrip() for y in range(len(ROWS))]


def _squeezed(line: str) -> list[str]:
    return [cell for cell in line.split("  ") if cell.strip()]


async def test_each_leaf_is_a_line_the_current_one_marked() -> None:
    app = BranchesApp()
    async with app.run_test(size=(120, 6)) as pilot:
        table = app.query_one(BranchTable)
        await wait_for(pilot, lambda: "ship it" in "".join(_lines(table)), "the leaves")
        assert table.header().plain.split() == ["labels", "from", "age", "size", "last", "prompt"]
        new, current, old = (_squeezed(line) for line in _lines(table))
        assert [cell.strip() for cell in new] == [
            "#experiment",
            "turn 3 · abcdef01",
            "2h ago",
            "3.0 KB",
            "try the other parser",
        ]
        assert current[0].strip() == "●" and "current branch" in current[1]
        assert current[-1].strip() == "ship it"  # the prompt's first line
        assert (
            old[0].strip() == "⚠ parent missing" and old[1].strip() == "?"
        )  # an undated leaf: its age unknown
        assert old[-1].strip() == "(no prompt on this branch)"


async def test_the_cursor_starts_on_the_current_leaf_and_enter_chooses() -> None:
    app = BranchesApp()
    async with app.run_test(size=(120, 6)) as pilot:
        table = app.query_one(BranchTable)
        await wait_for(pilot, lambda: table.row_count == 3, "the leaves")
        assert table.highlighted is ROWS[1]
        await pilot.press("down")
        await wait_for(pilot, lambda: app.said, "the move told")
        moved = app.said[-1]
        assert isinstance(moved, BranchTable.Highlighted) and moved.row is ROWS[2]
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.said[-1], BranchTable.Selected), "Enter")
        assert app.said[-1].row is ROWS[2]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("width", "columns"),
    [
        (80, ["labels", "from", "age", "last", "prompt"]),  # the size goes first
        (70, ["labels", "from", "last", "prompt"]),  # then the age
        (50, ["labels", "last", "prompt"]),  # then the fork point
    ],
)
async def test_a_narrow_list_gives_up_size_age_and_fork_before_the_prompt(
    width: int, columns: list[str]
) -> None:
    app = BranchesApp()
    async with app.run_test(size=(width, 6)) as pilot:
        table = app.query_one(BranchTable)
        await wait_for(pilot, lambda: table.row_count == 3, "the leaves")
        assert table.header().plain.split() == columns
        assert "try the other parser" in _lines(table)[0]
