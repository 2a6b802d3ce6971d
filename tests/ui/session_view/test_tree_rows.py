"""The session tree's rows as a pure model (ui/session_view/tree_rows.py): a row per turn, a
turn's rows made when it first opens, a call's result row, a task call that opens onto its
subagent, the edges and the placeholder, the rows shown kept in place as rows open, close and
arrive, and the labels (numbers, labels, search marks, running calls)."""

from __future__ import annotations

from typing import Any

from ink_tui.session.conversation.view import Item, ToolExchange, Turn, TurnChanges
from ink_tui.session.reading.reader import Entry
from ink_tui.ui.session_view.child_rows import reading_row
from ink_tui.ui.session_view.edges import EDGE_EARLIER, EDGE_LATER
from ink_tui.ui.session_view.tree_rows import BranchRows, TreeRow, one_line, walk


def _entry(entry_id: str, content: str = "") -> Entry:
    message = {"role": "user", "content": content}
    return Entry({"type": "message", "id": entry_id, "parentId": None, "message": message}, 2, 0, 1)


def _result(output: str = "done") -> dict[str, Any]:
    return {"toolCallId": "c", "toolName": "bash", "content": output, "isError": False}


def _call(entry: str, index: int, name: str = "bash", result: Any = None) -> Item:
    exchange = ToolExchange(f"{entry}-{index}", name, {"command": "make test"}, result)
    return Item("tool", _entry(entry), index, "", exchange)


def _turn(n: int, *items: Item) -> Turn:
    return Turn(_entry(f"u{n}", f"prompt {n}\nsecond line"), list(items))


def _branch() -> list[Turn]:
    return [
        _turn(1, Item("text", _entry("a1"), 0, "first answer")),
        _turn(2, _call("a2", 0, result=_result("all green")), _call("a2", 1, "task")),
        _turn(3, Item("text", _entry("a3"), 0, "the end")),
    ]


def _shown(rows: BranchRows) -> list[str]:
    return [f"{'  ' * row.depth}{row.kind}:{row.key}" for row in rows.visible]


def test_a_row_per_turn_and_the_last_turn_open() -> None:
    rows = BranchRows()
    rows.show(_branch(), {})
    assert _shown(rows) == ["turn:u1:turn", "turn:u2:turn", "turn:u3:turn", "  item:a3:0"]
    assert rows.top[0].text.startswith("  1 prompt 1")  # the prompt's first line only
    assert rows.top[2].expanded and not rows.top[1].expanded
    assert rows.turn_number(rows.top[2].turn) == 3  # type: ignore[arg-type]


def test_a_turns_rows_are_made_when_it_first_opens() -> None:
    rows = BranchRows()
    rows.show(_branch(), {})
    second = rows.top[1]
    assert second.children == []  # not made yet
    assert rows.expand(second)
    assert _shown(rows)[1:5] == ["turn:u2:turn", "  item:a2:0", "  item:a2:1", "turn:u3:turn"]
    call, task = second.children
    assert call.expandable and [row.kind for row in call.children] == ["result"]
    assert call.children[0].text == "↳ all green" and call.children[0].key == "a2:0"
    assert task.expandable and task.children == []  # opens onto its subagent
    assert not rows.expand(second)  # open already


def test_row_for_makes_a_closed_turns_rows_and_finds_a_calls_own_row() -> None:
    rows = BranchRows()
    rows.show(_branch(), {})
    row = rows.row_for("a2:0")
    assert row is not None and row.kind == "item" and row.parent is rows.top[1]
    assert rows.index_of(row) is None  # made, not shown: its turn is closed
    assert rows.row_for(EDGE_EARLIER) is None and rows.row_for("nowhere:0") is None
    assert rows.turn_of_row("a2:1") == "u2:turn" and rows.item_of("u2:turn") is None


def test_closing_and_opening_keeps_what_was_open_below() -> None:
    rows = BranchRows()
    rows.show(_branch(), {})
    second = rows.top[1]
    rows.expand(second)
    rows.expand(second.children[0])  # the call: its result shown
    assert "    result:a2:0" in _shown(rows)
    rows.collapse(second)
    assert _shown(rows) == ["turn:u1:turn", "turn:u2:turn", "turn:u3:turn", "  item:a3:0"]
    rows.expand(second)
    assert _shown(rows)[1:5] == ["turn:u2:turn", "  item:a2:0", "    result:a2:0", "  item:a2:1"]


def test_edges_and_the_placeholder_stand_for_the_turns_not_held() -> None:
    rows = BranchRows()
    rows.show(_branch(), {}, first_number=26, edges=(25, 7))
    assert [row.kind for row in rows.top] == ["edge", "turn", "turn", "turn", "edge"]
    assert rows.top[0].text.startswith("⋯ 25 earlier turns")
    assert rows.top[1].text.startswith(" 26 prompt 1")  # numbered as in the whole branch
    assert rows.row_for(EDGE_LATER) is rows.top[-1]
    rows.set_edges(25, 9)
    assert rows.top[-1].text.startswith("⋯ 9 later turns")
    rows.show(_branch(), {}, first_number=0, placeholder="⋯ earlier turns: still reading")
    assert rows.top[0].kind == "placeholder" and rows.top[0].key is None
    assert rows.top[1].text.startswith("  · prompt 1")  # its number is not known yet


def test_a_call_answered_while_following_gets_its_result_row_first() -> None:
    turns = _branch()
    rows = BranchRows()
    rows.show(turns, {})
    running = _call("a3", 1)
    turns[2].items.append(running)
    rows.grow([TurnChanges(new_items=[(turns[2], running)])])
    call = rows.row_for("a3:1")
    assert call is not None and not call.expandable and "no result" in call.text
    assert _shown(rows)[-1] == "  item:a3:1"  # shown: its turn is open
    running.tool.result = _result("passed")  # type: ignore[union-attr]
    before = call.version
    rows.grow([TurnChanges(answered=[running])])
    assert call.expandable and call.children[0].text == "↳ passed" and call.version > before
    assert call.text.endswith("✓ ok") and call.tail == len(" ✓ ok")


def test_new_turns_arrive_at_the_end() -> None:
    turns = _branch()
    rows = BranchRows()
    rows.show(turns, {})
    rows.grow([TurnChanges(new_turns=[_turn(4)])])
    assert _shown(rows)[-1] == "turn:u4:turn" and rows.top[-1].text.startswith("  4 prompt 4")


def test_labels_marks_and_running_calls_relabel_only_their_rows() -> None:
    rows = BranchRows()
    rows.show(_branch(), {})
    first, second = rows.top[0], rows.top[1]
    rows.set_row_labels({"u1:turn": "checkpoint"}, {"u1:turn"})
    assert first.text.startswith("  1 # checkpoint · prompt 1")
    rows.mark_matches(frozenset({"u2:turn"}))
    assert second.text.startswith("◆ ") and not first.text.startswith("◆ ")
    rows.mark_matches(frozenset())
    assert not second.text.startswith("◆ ")
    turns = _branch()
    rows.show(turns, {})
    pending = _call("a3", 1)
    turns[2].items.append(pending)
    rows.add_item(turns[2], pending)
    rows.set_running({"a3:1": 100.0}, 142.0, {"a3:1"})
    row = rows.row_for("a3:1")
    assert row is not None and row.text.endswith("⟳ running 42s")


def test_a_subagents_rows_replace_the_reading_row_after_the_result() -> None:
    rows = BranchRows()
    rows.show(_branch(), {})
    call = rows.row_for("a2:0")
    assert call is not None
    rows.expand(rows.top[1])
    rows.expand(call)
    rows.set_children(call, [reading_row("a2:0")], keep="result")
    assert [row.kind for row in call.children] == ["result", "child"]
    head = TreeRow("child", "a2:0", one_line(_text("⤷ subagent c41a0000\nsecond line")))
    turn = TreeRow("child", "a2:0", _text("1 a child's turn"), expandable=True, entry_id="c1")
    turn.adopt(TreeRow("child", "a2:0", _text("¶ its answer"), entry_id="c2"))
    rows.set_children(call, [head, turn], keep="result")
    shown = [row.text for row in call.children]
    assert shown == ["↳ all green", "⤷ subagent c41a0000", "1 a child's turn"]
    assert turn.children[0].depth == 3  # under the child's turn, the call, the turn
    rows.expand(turn)
    assert rows.index_of(turn.children[0]) == rows.index_of(turn) + 1  # type: ignore[operator]
    assert len(list(walk([call]))) == 5


def _text(text: str) -> Any:
    from rich.text import Text

    return Text(text)
