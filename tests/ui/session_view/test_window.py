"""The session view's turn window as a pure model (ui/session_view/window.py): which turns of a
long branch the tree and the replay hold, where the window moves through its edges, to a far
row, to either end, and what of a followed branch's growth it shows."""

from __future__ import annotations

from ink_tui.session.conversation.view import Item, ToolExchange, Turn, TurnChanges
from ink_tui.session.reading.reader import Entry
from ink_tui.ui.session_view.edges import EDGE_EARLIER, EDGE_LATER
from ink_tui.ui.session_view.window import Span, TurnWindow, span_around, turn_index


def _entry(entry_id: str) -> Entry:
    record = {"type": "message", "id": entry_id, "parentId": None, "message": {"role": "user"}}
    return Entry(record, 2, 0, 1)


def _turns(count: int, start: int = 0) -> list[Turn]:
    """``count`` turns, each a prompt and one text row (``u<n>:turn``, ``a<n>:0``)."""
    return [
        Turn(_entry(f"u{n}"), [Item("text", _entry(f"a{n}"), 0, "ok")])
        for n in range(start, start + count)
    ]


def test_a_window_is_kept_inside_the_branch() -> None:
    assert span_around(0, 100, 10) == Span(0, 10, 100)
    assert span_around(50, 100, 10) == Span(45, 55, 100)
    assert span_around(99, 100, 10) == Span(90, 100, 100)
    assert span_around(3, 5, 10) == Span(0, 5, 5)
    assert Span(90, 100, 100).at_end and Span(90, 100, 100).earlier == 90


def test_turn_index_finds_turns_and_their_rows() -> None:
    turns = _turns(3)
    assert turn_index(turns, "u1:turn") == 1
    assert turn_index(turns, "a2:0") == 2
    assert turn_index([Turn(None)], "start:turn") == 0
    assert turn_index(turns, "nothing:turn") is None


def test_a_short_branch_is_held_whole() -> None:
    window = TurnWindow(10)
    shown = window.show(_turns(4), None)
    assert len(shown.turns) == 4 and shown.edges == (0, 0) and shown.first_number == 1
    assert window.holds("u0:turn") and window.holds("a3:0")
    assert not window.holds(EDGE_EARLIER) and not window.holds(EDGE_LATER)
    assert not window.to_end() and not window.to_start()  # nothing to move


def test_a_long_branch_opens_on_its_last_turns_numbered_as_in_the_whole_branch() -> None:
    window = TurnWindow(10)
    shown = window.show(_turns(35), None)
    assert [turn.key for turn in shown.turns] == [f"u{n}:turn" for n in range(25, 35)]
    assert shown.edges == (25, 0) and shown.first_number == 26 and shown.placeholder is None
    assert window.holds(EDGE_EARLIER) and not window.holds(EDGE_LATER)
    assert window.holds("a25:0") and not window.holds("a24:0")


def test_a_first_look_holds_every_turn_read_so_far_behind_a_placeholder() -> None:
    window = TurnWindow(10)
    shown = window.show(_turns(30), "⋯ earlier turns")
    assert len(shown.turns) == 30 and shown.edges == (0, 0)
    assert shown.first_number == 0 and shown.placeholder == "⋯ earlier turns"  # not known yet


def test_moving_through_an_edge_moves_half_a_window_and_lands_next_to_it() -> None:
    window = TurnWindow(10)
    window.show(_turns(35), None)
    key, moved = window.through_edge(EDGE_EARLIER)
    assert (key, moved) == ("u24:turn", True)  # the turn just before the window
    assert window.span == Span(19, 29, 35)  # that turn in the middle
    assert window.shown().edges == (19, 6)
    key, moved = window.through_edge(EDGE_LATER)
    assert (key, moved) == ("u29:turn", True)
    window.to_start()
    assert window.through_edge(EDGE_EARLIER) == (None, False)  # nothing before the start


def test_a_far_row_brings_the_window_around_it() -> None:
    window = TurnWindow(10)
    window.show(_turns(100), None)
    assert window.bring("a3:0") is True
    assert window.span == Span(0, 10, 100) and window.holds("a3:0")
    assert window.bring("a4:0") is False  # held already: the window stays
    assert window.bring("nowhere:turn") is False and window.span == Span(0, 10, 100)
    assert window.bring("u50:turn") is True and window.span == Span(45, 55, 100)


def test_g_and_G_move_the_window_to_the_branch_ends() -> None:
    window = TurnWindow(10)
    window.show(_turns(35), None)
    assert window.to_start() is True and window.span == Span(0, 10, 35)
    assert window.shown().first_number == 1 and window.shown().edges == (0, 25)
    assert window.to_start() is False
    assert window.to_end() is True and window.span == Span(25, 35, 35)


def test_growth_at_the_end_is_shown_and_held() -> None:
    window = TurnWindow(10)
    turns = _turns(12)
    window.show(turns, None)
    arrived = _turns(2, start=12)
    turns.extend(arrived)  # the loaded branch grows in place
    change = TurnChanges(new_turns=arrived)
    assert window.grow([change]) == [change]
    assert window.span == Span(2, 14, 14) and window.holds("a13:0")


def test_growth_beyond_a_window_away_from_the_end_counts_on_the_later_edge() -> None:
    window = TurnWindow(10)
    turns = _turns(30)
    window.show(turns, None)
    window.to_start()
    call = Item("tool", _entry("c1"), 1, "", ToolExchange("c1", "bash", {}, None))
    arrived = _turns(3, start=30)
    turns.extend(arrived)
    shown = window.grow([TurnChanges(new_turns=arrived), TurnChanges(answered=[call])])
    assert shown == [TurnChanges(answered=[call])]  # only calls answered: their rows may show
    assert window.span == Span(0, 10, 33) and window.shown().edges == (0, 23)
    assert not window.holds("a31:0")
