"""Keeping a search's matches current as a followed branch grows (issue 9 review A3): only the
rows a batch added or changed are searched, and the matches stay in transcript order, equal to a
search of the whole branch."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ink_tui.session.conversation.rows as rows
from ink_tui.session.conversation.rows import SearchMatches, changed_rows, search_turns
from ink_tui.session.conversation.view import Item, Turn, TurnBuilder, TurnChanges, update_labels
from ink_tui.session.reading.entry import Entry


class Branch:
    """A branch built entry by entry, as following builds it."""

    def __init__(self) -> None:
        self.builder = TurnBuilder()
        self.labels: dict[str, str] = {}
        self.line = 1
        self.calls: list[str] = []  # calls not answered yet
        self.ids: list[str] = []

    def _add(self, kind: str, **fields: Any) -> tuple[str, list[TurnChanges]]:
        self.line += 1
        entry_id = f"e{self.line}"
        parent = self.ids[-1] if self.ids else None
        record = {"type": kind, "id": entry_id, "parentId": parent, **fields}
        entry = Entry(record, self.line, 0, 0)
        self.ids.append(entry_id)
        return entry_id, [self.builder.add(entry)]

    def user(self, text: str) -> list[TurnChanges]:
        return self._add("message", message={"role": "user", "content": text})[1]

    def assistant(self, text: str, *, call: str | None = None, arguments: str = "") -> Any:
        blocks: list[dict[str, Any]] = [{"type": "text", "text": text}]
        if call is not None:
            blocks.append(
                {"type": "toolCall", "id": call, "name": "bash", "arguments": {"cmd": arguments}}
            )
            self.calls.append(call)
        return self._add("message", message={"role": "assistant", "blocks": blocks})[1]

    def result(self, call: str, output: str) -> list[TurnChanges]:
        self.calls.remove(call)
        result = {"toolCallId": call, "toolName": "bash", "content": output, "isError": False}
        return self._add("message", message={"role": "toolResult", "results": [result]})[1]

    def label(self, target: str, text: str) -> set[str]:
        """Label entry ``target``: the keys of the rows whose label changed."""
        self.line += 1
        record = {"type": "label", "id": f"l{self.line}", "parentId": None}
        record |= {"targetId": target, "label": text}
        changed = update_labels(self.labels, [Entry(record, self.line, 0, 0)])
        return {key for t in changed if (key := self.builder.row_for(t)) is not None}

    @property
    def turns(self) -> list[Turn]:
        return self.builder.turns

    def row_labels(self) -> dict[str, str]:
        return self.builder.row_labels(self.labels)


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Spy on the test of one row: the keys of the rows searched."""
    searched: list[str] = []
    original = rows.row_holds

    def spy(row: Turn | Item, needle: str, row_labels: Any) -> bool:
        searched.append(row.key)
        return original(row, needle, row_labels)

    monkeypatch.setattr(rows, "row_holds", spy)
    return searched


def _long_branch() -> Branch:
    branch = Branch()
    for n in range(50):
        branch.user(f"prompt {n}" + (" needle" if n % 10 == 0 else ""))
        branch.assistant(f"answer {n}")
    return branch


def test_a_batch_searches_only_the_rows_it_added(monkeypatch: pytest.MonkeyPatch) -> None:
    branch = _long_branch()
    found = SearchMatches("NEEDLE", search_turns(branch.turns, "NEEDLE"))
    assert len(found) == 5
    searched = _counting(monkeypatch)
    changes = branch.user("one more needle") + branch.assistant("no match here")
    start = found.update(branch.turns, changed_rows(changes), branch.row_labels())
    assert sorted(searched) == sorted(changed_rows(changes))  # two rows, not a hundred
    assert start == 5  # appended after the five matches before
    assert found.keys == search_turns(branch.turns, "needle")


def test_a_batch_without_a_match_changes_nothing() -> None:
    branch = _long_branch()
    found = SearchMatches("needle", search_turns(branch.turns, "needle"))
    before = list(found.keys)
    changes = branch.user("nothing to see")
    assert found.update(branch.turns, changed_rows(changes), branch.row_labels()) is None
    assert found.keys == before


def test_an_answered_call_is_searched_again_and_placed_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    branch = Branch()
    branch.user("run both")
    branch.assistant("first", call="c1")
    branch.assistant("second", call="c2")
    branch.result("c2", "the needle is here")
    found = SearchMatches("needle", search_turns(branch.turns, "needle"))
    assert found.keys == ["e4:1"]  # the second call, answered
    searched = _counting(monkeypatch)
    changes = branch.result("c1", "another needle")  # the first call, answered later
    start = found.update(branch.turns, changed_rows(changes), branch.row_labels())
    assert searched == ["e3:1"]
    assert start == 0 and found.keys == ["e3:1", "e4:1"]  # in transcript order, not appended


def test_a_label_far_back_is_merged_in_place_and_its_removal_unmerges(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    branch = _long_branch()
    found = SearchMatches("needle", search_turns(branch.turns, "needle", branch.row_labels()))
    target = branch.ids[31]  # the answer of prompt 15, between two matches
    searched = _counting(monkeypatch)
    relabelled = branch.label(target, "Needle point")
    assert found.update(branch.turns, relabelled, branch.row_labels()) == 2
    assert searched == [f"{target}:0"]
    assert found.keys == search_turns(branch.turns, "needle", branch.row_labels())
    assert found.keys[2] == f"{target}:0"
    relabelled = branch.label(target, "")
    assert found.update(branch.turns, relabelled, branch.row_labels()) == 2
    assert f"{target}:0" not in found
    assert found.keys == search_turns(branch.turns, "needle", branch.row_labels())


def test_a_label_on_a_row_whose_text_matches_keeps_it() -> None:
    branch = _long_branch()
    target = branch.ids[20]  # prompt 10: "prompt 10 needle"
    branch.label(target, "needle too")
    found = SearchMatches("needle", search_turns(branch.turns, "needle", branch.row_labels()))
    before = list(found.keys)
    relabelled = branch.label(target, "")
    assert found.update(branch.turns, relabelled, branch.row_labels()) is None
    assert found.keys == before


def test_the_scan_stops_once_cancelled() -> None:
    import threading

    branch = _long_branch()
    cancelled = threading.Event()
    cancelled.set()
    assert search_turns(branch.turns, "needle", cancelled=cancelled) == []


# -- the property: batch by batch, the matches are what a whole search finds ----------------------

WORDS = st.sampled_from(["needle", "hay", "Needle", "nee", "dle", "stack"])
TEXT = st.lists(WORDS, min_size=0, max_size=3).map(" ".join)
STEP = st.one_of(
    st.tuples(st.just("user"), TEXT),
    st.tuples(st.just("text"), TEXT),
    st.tuples(st.just("call"), TEXT),
    st.tuples(st.just("result"), TEXT),
    st.tuples(st.just("label"), TEXT),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(STEP, min_size=1, max_size=4), min_size=1, max_size=8), st.data())
def test_merged_matches_equal_a_whole_search(batches: list[Any], data: st.DataObject) -> None:
    branch = Branch()
    branch.user("start")
    found = SearchMatches("needle", search_turns(branch.turns, "needle"))
    for number, batch in enumerate(batches):
        changes: list[TurnChanges] = []
        relabelled: set[str] = set()
        for step, (kind, text) in enumerate(batch):
            if kind == "user":
                changes += branch.user(text)
            elif kind == "text":
                changes += branch.assistant(text)
            elif kind == "call":
                changes += branch.assistant("calling", call=f"c{number}-{step}", arguments=text)
            elif kind == "result" and branch.calls:
                call = data.draw(st.sampled_from(branch.calls))
                changes += branch.result(call, text)
            elif kind == "label":
                target = data.draw(st.sampled_from(branch.ids))
                relabelled |= branch.label(target, text)
        found.update(branch.turns, changed_rows(changes, relabelled), branch.row_labels())
        assert found.keys == search_turns(branch.turns, "needle", branch.row_labels())
