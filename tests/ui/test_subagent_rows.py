"""A subagent's rows under its call (ui/widgets/subagent_rows.py): a long child shows its first
turns and, of a turn with many rows, its first rows, each time with a row saying what is left
(so expanding a call never adds an unbounded number of nodes on the event loop)."""

from __future__ import annotations

from pathlib import Path

from textual.app import App, ComposeResult
from textual.widgets import Tree

from ink_tui.session.conversation.branchview import load_branch
from ink_tui.session.reading.reader import open_session
from ink_tui.session.writing.writer import SessionWriter
from ink_tui.ui.session_view.child_rows import (
    CHILD_ITEMS_SHOWN,
    CHILD_TURNS_SHOWN,
    ChildState,
    add_child_rows,
)

CWD = "/home/ada/code/calc-kit"


def _long_child(folder: Path) -> Path:
    """A child whose first turn makes 150 calls, then 250 more short turns."""
    child = SessionWriter.new(folder, CWD)
    child.append_message({"role": "user", "content": "look at everything"})
    calls = [
        {"type": "toolCall", "id": f"c{n}", "name": "read", "arguments": {"path": f"f{n}.py"}}
        for n in range(150)
    ]
    child.append_message({"role": "assistant", "blocks": calls})
    results = [
        {"toolCallId": f"c{n}", "toolName": "read", "content": "x", "isError": False}
        for n in range(150)
    ]
    child.append_message({"role": "toolResult", "results": results})
    for n in range(250):
        child.append_message({"role": "user", "content": f"prompt {n}"})
        child.append_message({"role": "assistant", "blocks": [{"type": "text", "text": "ok"}]})
    return child.path


class TreeApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Tree("root")


async def test_a_long_child_shows_its_first_turns_and_rows(tmp_path: Path) -> None:
    path = _long_child(tmp_path / "children")
    loaded = load_branch(open_session(path, warn=None), None)
    app = TreeApp()
    async with app.run_test():
        tree = app.query_one(Tree)
        call = tree.root.add("task", data="a1:0")
        rows = add_child_rows(call, ChildState("c1", path, loaded))
        turns = [node for node in call.children if node.allow_expand]
        assert len(turns) == CHILD_TURNS_SHOWN
        assert call.children[-1].text == "⋯ 51 more turns: Enter opens the subagent"
        first = turns[0]
        assert len(first.children) == CHILD_ITEMS_SHOWN + 1
        assert first.children[-1].text == "⋯ 50 more rows: Enter opens the subagent"
        assert all(node.data == "a1:0" for node in call.children)  # every row stands for the call
        assert rows.entries[turns[1].id] == loaded.turns[1].user.id  # and knows its entry
