"""A subagent's rows under its call (ui/session_view/child_rows.py): a long child shows its first
turns and, of a turn with many rows, its first rows, each time with a row saying what is left
(so expanding a call never makes an unbounded number of rows on the event loop); every row stands
for the call and knows the child entry it shows; the head row says what became of the child."""

from __future__ import annotations

from pathlib import Path

from ink_tui.session.conversation.branchview import load_branch
from ink_tui.session.reading.reader import open_session
from ink_tui.session.writing.writer import SessionWriter
from ink_tui.ui.session_view.child_rows import (
    CHILD_ITEMS_SHOWN,
    CHILD_TURNS_SHOWN,
    ChildState,
    child_rows,
)
from ink_tui.ui.session_view.tree_rows import walk

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


def test_a_long_child_shows_its_first_turns_and_rows(tmp_path: Path) -> None:
    path = _long_child(tmp_path / "children")
    loaded = load_branch(open_session(path, warn=None), None)
    rows = child_rows("a1:0", ChildState("c1", path, loaded))
    turns = [row for row in rows if row.expandable]
    assert len(turns) == CHILD_TURNS_SHOWN
    assert rows[-1].text == "⋯ 51 more turns: Enter opens the subagent"
    first = turns[0]
    assert len(first.children) == CHILD_ITEMS_SHOWN + 1
    assert first.children[-1].text == "⋯ 50 more rows: Enter opens the subagent"
    assert all(row.key == "a1:0" for row in walk(rows))  # every row stands for the call
    assert turns[1].entry_id == loaded.turns[1].user.id  # type: ignore[union-attr]
    assert first.children[0].entry_id == loaded.turns[0].items[0].entry.id  # and its entry
    assert not any(row.expanded for row in walk(rows))  # closed until opened


def test_the_head_row_says_what_became_of_the_child(tmp_path: Path) -> None:
    path = _long_child(tmp_path / "children")
    loaded = load_branch(open_session(path, warn=None), None)
    cases = [
        (
            ChildState("c41a0000-9", path, loaded),
            "⤷ subagent c41a0000 · 251 turns · Enter opens it",
        ),
        (
            ChildState("c41a0000-9", path, loaded, running=True),
            "· ● running · 251 turns so far",
        ),
        (
            ChildState("c41a0000-9", path, loaded, pending=True),
            "turns · stopped without a result",
        ),
        (
            ChildState("c41a0000-9", path, problem="torn\nsecond"),
            "⤷ subagent c41a0000: torn",
        ),
        (
            ChildState("c41a0000-9"),
            "⤷ subagent c41a0000 is not in children/",
        ),
        (
            ChildState(None),
            "⤷ no subagent session found for this call yet",
        ),
        (
            ChildState(None, absent="not kept (disabled)"),
            "⤷ no subagent session: not kept",
        ),
    ]
    for state, says in cases:
        head = child_rows("a1:0", state)[0].text
        assert says in head, (state, head)
        assert "\n" not in head  # one line
