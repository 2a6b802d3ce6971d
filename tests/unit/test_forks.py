"""The fork tree: roots, forks and leaves, summaries, labels and position markers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from testdata import session_file as fixture

from ink_tui.session import leaves, open_session
from ink_tui.session.forks import ForkTree, build_fork_tree, entry_summary, short_time


def tree_of(path: Path, leaf: str | None = None) -> ForkTree:
    session = open_session(path, warn=None)
    return build_fork_tree(session, leaf or session.leaf_id)


def shape(tree: ForkTree) -> list[Any]:
    def one(node: Any) -> Any:
        return (node.id, node.count, [one(child) for child in node.children])

    return [one(root) for root in tree.roots]


def test_linear_session_is_root_and_leaf(sf: Any) -> None:
    path = sf.write(sf.user("u1", None, "first\nsecond"), sf.assistant("a1", "u1", "done"))
    tree = tree_of(path)
    assert shape(tree) == [("u1", 1, [("a1", 1, [])])]
    root = tree.roots[0]
    assert root.root_kind == "root"
    assert root.summary == "first"
    assert tree.leaf_ids == ["a1"]
    assert tree.current_leaf_id == "a1"
    assert [node.id for node in tree.leaf_nodes()] == ["a1"]


def test_chains_collapse_between_forks(sf: Any) -> None:
    path = sf.write(
        sf.user("u1", None),
        sf.assistant("a1", "u1"),
        sf.user("u2", "a1", "left"),
        sf.assistant("a2", "u2"),
        sf.user("u3", "a2"),
        sf.user("v2", "a1", "right"),
        sf.assistant("b2", "v2"),
    )
    tree = tree_of(path)
    assert shape(tree) == [("u1", 1, [("a1", 1, [("u3", 3, []), ("b2", 2, [])])])]
    fork = tree.roots[0].children[0]
    left, right = fork.children
    assert [e.id for e in left.chain] == ["u2", "a2", "u3"]
    assert left.prompt == "left"
    assert right.prompt == "right"
    assert tree.node_of["a2"] is left
    assert [n.id for n in tree.path_to("a2")] == ["u1", "a1", "u3"]
    assert tree.path_to("nope") == []


def test_summaries() -> None:
    from ink_tui.session.reader import Entry

    def entry(record: dict[str, Any]) -> Entry:
        base = {"id": "x", "parentId": None, "timestamp": "2026-10-05T12:34:56.789Z"}
        return Entry({**base, **record}, 2, 0, 0)

    def message(msg: dict[str, Any]) -> Entry:
        return entry({"type": "message", "message": msg})

    assert entry_summary(message({"role": "user", "content": "\n  hello  \nmore"})) == "hello"
    image = [{"type": "image", "data": "", "mimeType": "image/png"}]
    assert entry_summary(message({"role": "user", "content": image})) == "(image)"
    calls = [{"type": "toolCall", "id": "c", "name": "bash", "arguments": {}}]
    assert entry_summary(message({"role": "assistant", "blocks": calls})) == "calls bash"
    result = {"toolCallId": "c", "toolName": "bash", "content": "x", "isError": True}
    summary = entry_summary(message({"role": "toolResult", "results": [result]}))
    assert summary == "result of bash (error)"
    assert entry_summary(entry({"type": "thinkingLevelChange", "thinkingLevel": "high"})) == (
        "thinking level: high"
    )
    assert entry_summary(entry({"type": "session_info", "name": "  "})) == "name cleared"
    assert len(entry_summary(message({"role": "user", "content": "x" * 500}))) == 80
    assert short_time("2026-10-05T12:34:56.789Z") == "2026-10-05 12:34"
    assert short_time("yesterday") == "yesterday"


def test_orphans_become_extra_roots(sf: Any) -> None:
    path = sf.write(sf.user("u1", None), sf.assistant("a1", "gone"), sf.user("u2", "a1"))
    tree = tree_of(path)
    assert [(root.id, root.root_kind) for root in tree.roots] == [("u1", "root"), ("a1", "orphan")]
    assert {node.id for node in tree.leaf_nodes()} == {"u1", "u2"}


def test_cycles_do_not_hang_or_crash(sf: Any) -> None:
    path = sf.write(
        sf.user("u1", None), sf.user("c1", "c3"), sf.user("c2", "c1"), sf.user("c3", "c2")
    )
    tree = tree_of(path)
    assert [(root.id, root.root_kind) for root in tree.roots] == [("u1", "root"), ("c1", "cycle")]
    assert sorted(tree.node_of) == ["c1", "c2", "c3", "u1"]


def test_parent_cycle_fixture() -> None:
    tree = tree_of(fixture("parent-cycle.jsonl"))  # a1's parent is the leaf r2
    assert [(root.id, root.root_kind) for root in tree.roots] == [("u1", "root"), ("a1", "cycle")]
    assert sorted(tree.node_of) == ["a1", "a2", "a3", "r1", "r2", "u1", "u2"]


def test_broken_chain_fixture_keeps_every_leaf() -> None:
    path = fixture("broken-chain.jsonl")  # a2 is missing: u2 lost its parent
    session = open_session(path, warn=None)
    tree = build_fork_tree(session, session.leaf_id)
    assert {n.id for n in tree.leaf_nodes()} == {e.id for e in leaves(session)} == {"r1", "r2"}
    assert [(root.id, root.root_kind) for root in tree.roots] == [("u1", "root"), ("u2", "orphan")]


def test_every_leaf_of_branch_position() -> None:
    path = fixture("branch-position.jsonl")
    session = open_session(path, warn=None)
    tree = build_fork_tree(session, session.leaf_id)
    expected = [entry.id for entry in leaves(session)]
    assert sorted(expected) == ["a3", "a4"]
    assert tree.leaf_ids == expected
    assert sorted(node.id for node in tree.leaf_nodes()) == sorted(expected)
    assert [node.id for node in tree.nodes() if len(node.children) >= 2] == ["a1"]  # the fork
    assert sum(node.count for node in tree.nodes()) == len(tree.node_of)


def test_position_markers_in_file_order(sf: Any) -> None:
    path = sf.write(
        sf.user("u1", None),
        sf.assistant("a1", "u1"),
        sf.position("u1"),
        sf.user("u2", "u1"),
        sf.position("zz"),
        sf.position("a1"),
    )
    tree = tree_of(path)
    moves = tree.moves
    assert [(m.leaf_id, m.line, m.exists, m.effective) for m in moves] == [
        ("u1", 4, True, False),
        ("zz", 6, False, False),
        ("a1", 7, True, True),
    ]
    assert moves[0].describe() == "moved to u1 (line 4)"
    assert "no such entry" in moves[1].describe()
    assert tree.node_of["a1"].moves == [moves[2]]
    assert tree.roots[0].moves == [moves[0]]


def test_position_then_label_fixture() -> None:
    path = fixture("position-then-label.jsonl")
    session = open_session(path, warn=None)
    tree = build_fork_tree(session, session.leaf_id)
    assert len(tree.moves) == len(session.positions) == 1
    assert not tree.moves[-1].effective  # a label came after it: the reopen ignores it
    assert tree.moves[-1].describe() == "moved to a1 (line 6)"
    assert tree.current_leaf_id == "a2"


def test_labels_attach_to_the_node_holding_their_target(sf: Any) -> None:
    path = sf.write(
        sf.user("u1", None),
        sf.assistant("a1", "u1"),
        sf.user("u2", "a1"),
        sf.entry("label", "l1", "u2", targetId="a1", label="middle"),
        sf.entry("label", "l2", "u2", targetId="u2", label="end"),
        sf.entry("label", "l3", "u2", targetId="nowhere", label="lost"),
        sf.entry("label", "l4", "u2", targetId="u2", label="end again"),
    )
    tree = tree_of(path)
    leaf = tree.node_of["u2"]
    assert [e.id for e in leaf.chain] == ["a1", "u2"]
    assert leaf.labels == [("a1", "middle"), ("u2", "end again")]
    assert tree.stray_labels == [("nowhere", "lost")]
    assert "l1" not in tree.node_of


def test_metadata_mix_labels() -> None:
    path = fixture("metadata-mix.jsonl")
    session = open_session(path, warn=None)
    tree = build_fork_tree(session, session.leaf_id)
    shown = {label for node in tree.nodes() for _, label in node.labels}
    assert shown == {"the start"}  # "first try" was overwritten, "fixed here" removed


def test_content_under_a_label_is_kept(sf: Any) -> None:
    path = sf.write(
        sf.user("u1", None),
        sf.entry("label", "l1", "u1", targetId="u1", label="here"),
        sf.position("l1"),
        sf.user("u2", "l1"),
    )
    tree = tree_of(path)
    assert {node.id for node in tree.leaf_nodes()} == {"u1", "u2"}
    assert "l1" in tree.node_of
