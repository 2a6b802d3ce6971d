"""The branches list: every leaf with its fork point, last prompt, size, labels and markers.

The model is checked on small hand-written sessions, against a naive reference on random trees
(hypothesis), and for what it must never do: raise on a broken file, or change the session's
shared entries while a thread builds it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from testdata import session_file

from ink_tui.session import leaves, open_session
from ink_tui.session.conversation.entrytext import record_summary, short_time
from ink_tui.session.conversation.forks import (
    BranchList,
    LeafRow,
    SessionSnapshot,
    build_branch_list,
)
from ink_tui.session.reading.reader import Entry, SessionFile


def listing(path: Path, leaf: str | None = "default") -> tuple[SessionFile, BranchList]:
    session = open_session(path, warn=None)
    current = session.leaf_id if leaf == "default" else leaf
    built = build_branch_list(SessionSnapshot.of(session), current)
    assert built is not None
    return session, built


def row(built: BranchList, leaf_id: str) -> LeafRow:
    return next(r for r in built.rows if r.id == leaf_id)


def test_linear_session_has_one_current_leaf(sf: Any) -> None:
    path = sf.write(sf.user("u1", None, "first\nsecond"), sf.assistant("a1", "u1", "done"))
    _, built = listing(path)
    (only,) = built.rows
    assert only.id == "a1" and only.is_current and built.current_row is only
    assert only.fork_id is None and only.own_entries == 2  # no fork: the whole branch
    assert only.prompt == "first" and only.summary == "done"
    assert built.current_turns == 1


def test_fork_point_turn_prompt_and_size(sf: Any) -> None:
    path = sf.write(
        sf.user("u1", None, "start"),
        sf.assistant("a1", "u1"),
        sf.user("u2", "a1", "left way"),
        sf.assistant("a2", "u2"),
        sf.user("u3", "a2", "left again"),
        sf.assistant("a3", "u3"),
        sf.user("v2", "a1", "right way"),
        sf.assistant("b2", "v2"),
        sf.position("a3"),
    )
    session, built = listing(path)
    assert [r.id for r in built.rows] == ["b2", "a3"]  # newest first (file order reversed)
    current, other = row(built, "a3"), row(built, "b2")
    assert current.is_current and current.prompt == "left again"
    assert current.fork_id == "a1" and current.fork_turn == 1  # its nearest fork
    assert current.own_entries == 4  # u2 a2 u3 a3
    assert not other.is_current and other.prompt == "right way"
    assert other.fork_id == "a1" and other.fork_turn == 1  # leaves the current branch in turn 1
    assert other.own_entries == 2
    assert other.own_bytes == sum(e.end - e.offset for e in session.entries if e.id in {"v2", "b2"})
    assert built.current_turns == 3


def test_prompt_is_found_above_the_fork_point(sf: Any) -> None:
    path = sf.write(
        sf.user("u1", None, "the question"),
        sf.assistant("a1", "u1"),
        sf.assistant("x1", "a1", "one answer"),
        sf.assistant("y1", "a1", "another answer"),
    )
    _, built = listing(path)
    assert {r.id: r.prompt for r in built.rows} == {"x1": "the question", "y1": "the question"}
    assert row(built, "x1").fork_turn == 1


def test_current_leaf_inside_a_branch_is_not_a_row(sf: Any) -> None:
    path = sf.write(
        sf.user("u1", None), sf.assistant("a1", "u1"), sf.user("u2", "a1"), sf.position("a1")
    )
    session, built = listing(path)
    assert session.leaf_id == "a1" and built.current_row is None
    assert [(r.id, r.fork_id, r.own_entries) for r in built.rows] == [("u2", "a1", 1)]


def test_empty_branch_lists_every_leaf_from_its_root(sf: Any) -> None:
    path = sf.write(sf.user("u1", None), sf.assistant("a1", "u1"), sf.position(None))
    _, built = listing(path)
    (only,) = built.rows
    assert built.current_leaf_id is None and not only.is_current
    assert only.fork_id is None and only.root_kind == "root" and only.own_entries == 2


def test_orphans_and_cycles_never_raise(sf: Any) -> None:
    path = sf.write(
        sf.user("u1", None),
        sf.assistant("a1", "gone"),
        sf.user("u2", "a1", "orphan prompt"),
        sf.user("c1", "c3"),
        sf.user("c2", "c1"),
        sf.user("c3", "c2"),
        sf.user("c4", "c3", "in a cycle"),
        sf.position("u1"),
    )
    session = open_session(path, warn=None)
    built = build_branch_list(SessionSnapshot.of(session), "u1")
    assert built is not None
    kinds = {r.id: (r.fork_id, r.root_kind) for r in built.rows}
    assert kinds["u2"] == (None, "orphan")
    assert kinds["c4"] == (None, "cycle")
    assert row(built, "c4").prompt == "in a cycle"
    assert {r.id for r in built.rows} == {e.id for e in leaves(session)}


def test_labels_show_on_the_leaves_whose_own_part_holds_them(sf: Any) -> None:
    path = sf.write(
        sf.user("u1", None),
        sf.assistant("a1", "u1"),
        sf.user("u2", "a1"),
        sf.assistant("a2", "u2"),
        sf.user("v2", "a1"),
        sf.entry("label", "l1", "a2", targetId="u2", label="tried this"),
        sf.entry("label", "l2", "a2", targetId="v2", label="old"),
        sf.entry("label", "l3", "a2", targetId="v2", label="better"),
        sf.entry("label", "l4", "a2", targetId="a1", label="shared"),
        sf.entry("label", "l5", "a2", targetId="nowhere", label="lost"),
        sf.entry("label", "l6", "a2", targetId="a2", label="gone"),
        sf.entry("label", "l7", "a2", targetId="a2", label=""),
        sf.position("v2"),
    )
    _, built = listing(path)
    assert row(built, "a2").labels == [("u2", "tried this")]  # "gone" was removed
    assert row(built, "v2").labels == [("v2", "better")]  # the last label wins
    assert built.stray_labels == [("nowhere", "lost")]


def test_position_markers_attach_to_the_branch_they_moved_into(sf: Any) -> None:
    path = sf.write(
        sf.user("u1", None),
        sf.assistant("a1", "u1"),
        sf.user("u2", "a1"),
        sf.assistant("a2", "u2"),
        sf.position("a1"),
        sf.user("v2", "a1"),
        sf.position("u2"),
        sf.position("zz"),
        sf.position("v2"),
    )
    _, built = listing(path)
    assert [(m.leaf_id, m.line, m.exists, m.effective) for m in built.moves] == [
        ("a1", 6, True, False),
        ("u2", 8, True, False),
        ("zz", 9, False, False),
        ("v2", 10, True, True),
    ]
    assert [m.line for m in row(built, "a2").moves] == [8]
    assert [m.line for m in row(built, "v2").moves] == [10]  # the current leaf
    assert "no such entry" in built.moves[2].describe()


def test_a_line_in_another_key_order_still_gives_its_role(sf: Any) -> None:
    reordered = {
        "message": {"content": "odd order", "role": "user"},
        "timestamp": sf.TS,
        "parentId": "a1",
        "id": "u2",
        "type": "message",
    }
    path = sf.write(
        sf.user("u1", None), sf.assistant("a1", "u1"), reordered, sf.assistant("a2", "u2")
    )
    session = open_session(path, warn=None)
    for entry in session.entries:
        entry.release()  # every payload read from the file, as in a big session
    built = build_branch_list(SessionSnapshot.of(session), session.leaf_id)
    assert built is not None
    assert built.rows[0].prompt == "odd order" and built.current_turns == 2


def test_the_shared_entries_are_not_changed_and_later_entries_not_listed(sf: Any) -> None:
    path = sf.write(sf.user("u1", None), sf.assistant("a1", "u1"), sf.assistant("b1", "u1"))
    session = open_session(path, warn=None)
    for entry in session.entries:
        entry.release()
    snapshot = SessionSnapshot.of(session)
    late = Entry(sf.user("u9", "a1"), 9, 0, 0, path=path)
    session.entries.append(late)  # the live tail appends while the list is built
    session.by_id[late.id] = late
    built = build_branch_list(snapshot, "a1")
    assert built is not None
    assert [r.id for r in built.rows] == ["b1", "a1"]
    assert all(entry._record is None for entry in snapshot.entries)


def test_cancelled_build_returns_none(sf: Any) -> None:
    path = sf.write(sf.user("u1", None))
    session = open_session(path, warn=None)
    assert build_branch_list(SessionSnapshot.of(session), "u1", cancelled=lambda: True) is None


# -- the project's own sessions (tests/data) --------------------------------------------------


def test_branch_position_lists_both_leaves_and_its_markers() -> None:
    session, built = listing(session_file("branch-position"))
    assert session.leaf_id == "a3"
    assert {r.id for r in built.rows} == {"a3", "a4"}
    current, other = row(built, "a3"), row(built, "a4")
    assert current.is_current and built.current_row is current
    assert other.fork_id == "a1" and other.fork_turn == 1  # leaves the current branch at a1
    assert [m.line for m in built.moves] == [6, 9, 13]
    assert built.moves[-1].effective and built.moves[-1].leaf_id == "a3"
    assert 13 in [m.line for m in current.moves]  # the marker that set the current leaf


def test_metadata_mix_shows_only_the_label_left() -> None:
    _, built = listing(session_file("metadata-mix"))
    shown = {label for r in built.rows for _, label in r.labels}
    assert shown == {"the start"}  # overwritten and removed labels are gone


def test_position_then_label_current_leaf_is_the_last_content_entry() -> None:
    session, built = listing(session_file("position-then-label"))
    assert session.leaf_id == "a2" and built.current_row is not None
    assert not built.moves[-1].effective  # a label came after it: the reopen ignores it


@pytest.mark.parametrize("name", ["broken-chain", "parent-cycle"])
def test_broken_files_keep_every_leaf(name: str) -> None:
    session = open_session(session_file(name), warn=None)
    built = build_branch_list(SessionSnapshot.of(session), session.leaf_id)
    assert built is not None
    assert {r.id for r in built.rows} == {e.id for e in leaves(session)}


def test_summaries() -> None:
    def entry(record: dict[str, Any]) -> Entry:
        base = {"id": "x", "parentId": None, "timestamp": "2026-10-05T12:34:56.789Z"}
        return Entry({**base, **record}, 2, 0, 0)

    def message(msg: dict[str, Any]) -> Entry:
        return entry({"type": "message", "message": msg})

    def summary_of(one: Entry) -> str:
        return record_summary(one.type, one.record)

    assert summary_of(message({"role": "user", "content": "\n  hello  \nmore"})) == "hello"
    image = [{"type": "image", "data": "", "mimeType": "image/png"}]
    assert summary_of(message({"role": "user", "content": image})) == "(image)"
    calls = [{"type": "toolCall", "id": "c", "name": "bash", "arguments": {}}]
    assert summary_of(message({"role": "assistant", "blocks": calls})) == "calls bash"
    result = {"toolCallId": "c", "toolName": "bash", "content": "x", "isError": True}
    summary = summary_of(message({"role": "toolResult", "results": [result]}))
    assert summary == "result of bash (error)"
    assert summary_of(entry({"type": "thinkingLevelChange", "thinkingLevel": "high"})) == (
        "thinking level: high"
    )
    assert summary_of(entry({"type": "session_info", "name": "  "})) == "name cleared"
    assert len(summary_of(message({"role": "user", "content": "x" * 500}))) == 80
    assert short_time("2026-10-05T12:34:56.789Z") == "2026-10-05 12:34"
    assert short_time("yesterday") == "yesterday"


# -- against a naive reference, on random trees -------------------------------------------------


def _naive(entries: list[dict[str, Any]], current: str) -> dict[str, tuple[str | None, str | None]]:
    """Per leaf: (the deepest entry shared with the current branch, the nearest prompt's text),
    by walking each path in full."""
    parent = {e["id"]: e["parentId"] for e in entries}
    text = {e["id"]: e["message"]["content"] for e in entries if e["message"]["role"] == "user"}

    def path(leaf: str) -> list[str]:
        out = [leaf]
        while parent[out[-1]] is not None:
            out.append(parent[out[-1]])
        return out

    on_current = set(path(current))
    result = {}
    for leaf in set(parent) - set(parent.values()):
        steps = path(leaf)
        shared = next((step for step in steps if step in on_current), None)
        prompt = next((text[step] for step in steps if step in text), None)
        result[leaf] = (shared if leaf != current else None, prompt)
    return result


@st.composite
def trees(draw: st.DrawFn) -> list[dict[str, Any]]:
    count = draw(st.integers(min_value=1, max_value=40))
    entries = []
    for index in range(count):
        parent = None if index == 0 else f"e{draw(st.integers(0, index - 1))}"
        role = draw(st.sampled_from(["user", "assistant", "assistant"]))
        message: dict[str, Any] = {"role": role, "content": f"prompt {index}"}
        if role == "assistant":
            message = {"role": role, "blocks": [], "usage": {}, "stopReason": "end_turn"}
        record = {"type": "message", "id": f"e{index}", "parentId": parent}
        entries.append({**record, "timestamp": "2026-10-05T12:34:56.789Z", "message": message})
    return entries


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(entries=trees(), pick=st.integers(min_value=0))
def test_matches_a_naive_walk_on_random_trees(
    sf: Any, entries: list[dict[str, Any]], pick: int
) -> None:
    path = sf.write(*entries)
    session = open_session(path, warn=None)
    for entry in session.entries:
        entry.release()
    leaf_ids = [e.id for e in leaves(session)]
    current = leaf_ids[pick % len(leaf_ids)]
    built = build_branch_list(SessionSnapshot.of(session), current)
    assert built is not None
    expected = _naive(entries, current)
    for item in built.rows:
        fork, prompt = expected[item.id]
        assert item.prompt == prompt, item.id
        if not item.is_current:
            assert item.fork_id == fork, item.id
    assert {r.id for r in built.rows} == set(expected)
    assert json.dumps(sorted(r.id for r in built.rows))  # (ids are plain strings)
