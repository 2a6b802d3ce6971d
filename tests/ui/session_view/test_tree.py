"""The session tree alone (ui/session_view/tree.py), in a small app: its keys, its messages, how a
row is drawn (guides, icons, the figures at the right edge), the cursor kept on its row as rows
open and arrive, a subagent's rows replaced in place, and only the lines on screen drawn."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.message import Message
from waiting import wait_for

from ink_tui.session.conversation.view import Item, ToolExchange, Turn
from ink_tui.session.reading.reader import Entry
from ink_tui.ui.session_view.child_rows import ChildState
from ink_tui.ui.session_view.tree import SessionTree


def _entry(entry_id: str, content: str = "") -> Entry:
    message = {"role": "user", "content": content}
    return Entry({"type": "message", "id": entry_id, "parentId": None, "message": message}, 2, 0, 1)


def _call(entry: str, index: int, name: str = "bash", output: str | None = "done") -> Item:
    result = None
    if output is not None:
        result = {"toolCallId": "c", "toolName": name, "content": output, "isError": False}
    arguments = {"prompt" if name == "task" else "command": "make test"}  # as Ink's tools take
    exchange = ToolExchange(f"{entry}-{index}", name, arguments, result)
    return Item("tool", _entry(entry), index, "", exchange)


def _turns(count: int) -> list[Turn]:
    """``count`` turns: a prompt, a call with its result, a task call, an answer."""
    return [
        Turn(
            _entry(f"u{n}", f"prompt {n}: " + "a long title " * 8),
            [
                _call(f"a{n}", 0),
                _call(f"a{n}", 1, "task", None),
                Item("text", _entry(f"b{n}"), 0, "ok"),
            ],
        )
        for n in range(1, count + 1)
    ]


class TreeApp(App[None]):
    """The tree alone, and what it says."""

    def __init__(self, turns: int = 3) -> None:
        super().__init__()
        self.turns = _turns(turns)
        self.said: list[Message] = []

    def compose(self) -> ComposeResult:
        yield SessionTree(id="tree")

    def on_mount(self) -> None:
        tree = self.query_one(SessionTree)
        tree.show_turns(self.turns, {})
        tree.focus()
        tree.to_edge(bottom=True)

    def on_session_tree_highlighted(self, message: SessionTree.Highlighted) -> None:
        self.said.append(message)

    def on_session_tree_selected(self, message: SessionTree.Selected) -> None:
        self.said.append(message)

    def on_session_tree_expanded(self, message: SessionTree.Expanded) -> None:
        self.said.append(message)

    def on_session_tree_went_back(self, message: SessionTree.WentBack) -> None:
        self.said.append(message)


def _lines(tree: SessionTree) -> list[str]:
    return [tree.render_line(y).text.rstrip() for y in range(tree.size.height)]


def _said(app: TreeApp, kind: type[Message]) -> list[Any]:
    return [message for message in app.said if isinstance(message, kind)]


async def test_rows_are_drawn_as_the_tree_was_guides_icons_and_figures_at_the_edge() -> None:
    app = TreeApp()
    async with app.run_test(size=(60, 12)) as pilot:
        tree = app.query_one(SessionTree)
        await wait_for(pilot, lambda: tree.at_last_row, "the cursor on the last row")
        lines = _lines(tree)
        assert lines[0].startswith("▶   1 prompt 1: a long title") and lines[0].endswith("…")
        assert lines[2].startswith("▼   3 prompt 3")  # the last turn open
        assert lines[3].startswith("├── ▶ bash make test") and lines[3].endswith("✓ ok")
        assert len(lines[3]) == 60  # the status at the right edge
        assert lines[4].startswith("├── ▶ task make test") and lines[4].endswith("no result")
        assert lines[5] == "└── ¶ ok"
        assert tree.row_texts()[:2] == [row.text for row in tree.top_rows[:2]]


async def test_the_keys_move_open_and_close() -> None:
    app = TreeApp()
    async with app.run_test(size=(60, 12)) as pilot:
        tree = app.query_one(SessionTree)
        await wait_for(pilot, lambda: tree.at_last_row, "the cursor on the last row")
        await pilot.press("k")
        assert tree.cursor_key == "a3:1" and _said(app, SessionTree.WentBack)
        await pilot.press("k", "l")  # the call opens: its result's row under it
        assert tree.cursor_key == "a3:0" and tree.cursor.expanded  # type: ignore[union-attr]
        assert "│   └── ↳ done" in _lines(tree)
        await pilot.press("j")  # onto the result's row: it stands for its call
        assert tree.cursor.kind == "result" and tree.cursor_key == "a3:0"  # type: ignore[union-attr]
        await pilot.press("h")  # a closed row: to the row it is under
        assert tree.cursor_key == "a3:0"
        await pilot.press("h")  # open: closed
        assert not tree.cursor.expanded  # type: ignore[union-attr]
        await pilot.press("left_square_bracket")  # inside a turn: to its start
        assert tree.cursor_key == "u3:turn"
        await pilot.press("left_square_bracket", "space")  # the previous turn, opened by Space
        assert tree.cursor_key == "u2:turn" and tree.cursor.expanded  # type: ignore[union-attr]
        assert [type(m) for m in app.said[-2:]] == [SessionTree.Highlighted, SessionTree.Expanded]
        await pilot.press("right_square_bracket", "right_square_bracket")  # the last turn: its end
        assert tree.at_last_row and tree.cursor_key == "b3:0"
        await pilot.press("enter")
        assert _said(app, SessionTree.Selected)[-1].row is tree.cursor


async def test_a_click_on_the_icon_opens_and_on_the_label_selects() -> None:
    app = TreeApp()
    async with app.run_test(size=(60, 12)) as pilot:
        tree = app.query_one(SessionTree)
        await wait_for(pilot, lambda: tree.at_last_row, "the cursor on the last row")
        await pilot.click(tree, offset=(0, 0))  # ▶ of turn 1
        assert tree.top_rows[0].expanded and tree.at_last_row  # the cursor stayed on its row
        await pilot.click(tree, offset=(10, 1))  # the label of turn 1's first row
        assert tree.cursor_key == "a1:0"
        assert _said(app, SessionTree.Selected)[-1].row is tree.cursor


async def test_the_cursor_stays_on_its_row_as_rows_open_above_and_reveal_opens_a_turn() -> None:
    app = TreeApp()
    async with app.run_test(size=(60, 12)) as pilot:
        tree = app.query_one(SessionTree)
        await wait_for(pilot, lambda: tree.at_last_row, "the cursor on the last row")
        row, before = tree.cursor, tree.cursor_row
        tree.expand_row(tree.top_rows[0])  # three rows more above the cursor
        assert tree.cursor is row and tree.cursor_row == before + 3
        assert tree.reveal("a2:1") and tree.cursor_key == "a2:1"  # turn 2 opened for it
        assert tree.top_rows[1].expanded
        assert not tree.reveal("nowhere:0")


def _child(turns: int) -> ChildState:
    """A running subagent of ``turns`` turns (what the tree reads of it: its turns)."""
    loaded: Any = type("Loaded", (), {"turns": _turns(turns)})()
    return ChildState("c41a0000-x", Path("child.jsonl"), loaded, running=True)


async def test_a_subagents_rows_are_replaced_in_place_keeping_what_was_open() -> None:
    app = TreeApp()
    async with app.run_test(size=(60, 30)) as pilot:
        tree = app.query_one(SessionTree)
        await wait_for(pilot, lambda: tree.at_last_row, "the cursor on the last row")
        tree.show_child_reading("a3:1")
        call = tree.row_for("a3:1")
        assert call is not None and call.children[0].text.startswith("⤷ reading")
        assert not tree.child_rows_shown("a3:1")
        assert tree.show_child_rows("a3:1", _child(2))
        head, _, second = call.children
        assert head.text == "⤷ subagent c41a0000 · ● running · 2 turns so far"
        tree.reveal_row(second.children[1])  # the child's second turn opened, on its task call
        assert tree.open_child_calls() == {"a3:1"} and tree.child_rows_shown("a3:1")
        assert tree.show_child_rows("a3:1", _child(3))  # read again: it grew
        again = call.children[2]
        assert again is not second and again.expanded and len(call.children) == 4
        assert tree.cursor is again.children[1] and tree.cursor.entry_id == "a2"
        assert "│   │   ├── task make test" in "\n".join(_lines(tree))  # a leaf
        assert not tree.show_child_rows("nowhere:0", _child(1))  # not held: nothing shown


async def test_only_the_lines_on_screen_are_drawn_of_a_thousand_turns() -> None:
    app = TreeApp(turns=1000)
    async with app.run_test(size=(80, 24)) as pilot:
        tree = app.query_one(SessionTree)
        await wait_for(pilot, lambda: tree.at_last_row, "the cursor on the last row")
        drawn: list[int] = []
        draw = tree.draw_row

        def counted(index: int, width: int, cursor: bool) -> Any:
            drawn.append(index)
            return draw(index, width, cursor)

        tree.draw_row = counted  # type: ignore[method-assign]
        for _ in range(30):
            await pilot.press("k")
        await pilot.pause()
        assert tree.cursor_row == len(tree.rows) - 31
        assert len(set(drawn)) < 80  # the rows passed on screen, not the thousand
        assert isinstance(tree.top_rows[0].label, Text) and len(tree.top_rows) == 1000
