"""Branch walk, ``buildContext``, name, labels, thinking level, model restore (spec §3-4, §7)."""

from __future__ import annotations

from typing import Any

import pytest

from ink_tui.session import (
    ModelRef,
    SessionError,
    branch,
    build_context,
    labels,
    open_session,
    restored_model,
    session_name,
)
from ink_tui.session.conversation.tree import explicit_model_selection, thinking_level

SUMMARY_FRAME = (
    "[Conversation summary — earlier messages were compacted to save context space. "
    "Treat this as established context, not as a new request.]\n\n"
)
BRANCH_FRAME = (
    "[Branch summary — this context was explored on a branch you later left; keep its "
    "lessons. Treat this as established context, not as a new request.]\n\n"
)


def _open(path: Any) -> Any:
    return open_session(path, warn=None)


def _walk_error(session: Any, leaf: str | None = None) -> str:
    with pytest.raises(SessionError) as caught:
        branch(session) if leaf is None else branch(session, leaf)
    return caught.value.message


def _contents(messages: list[dict[str, Any]]) -> list[Any]:
    return [m.get("content", m.get("blocks")) for m in messages]


# -- branch walk -----------------------------------------------------------------------------


def test_branch_runs_root_to_leaf_along_parent_links(sf: Any) -> None:
    path = sf.write(
        sf.user("a", None),
        sf.assistant("b", "a"),
        sf.user("c", "b", "left"),
        sf.user("d", "b", "right"),
    )
    session = _open(path)
    assert [e.id for e in branch(session)] == ["a", "b", "d"]
    assert [e.id for e in branch(session, "c")] == ["a", "b", "c"]


def test_parent_cycle(sf: Any) -> None:
    path = sf.write(sf.user("x1", "x2"), sf.user("x2", "x1"))
    assert _walk_error(_open(path)) == "parentId cycle at entry x2"


def test_self_parent_is_a_cycle(sf: Any) -> None:
    path = sf.write(sf.user("a", None), sf.user("s", "s"))
    assert _walk_error(_open(path)) == "parentId cycle at entry s"


def test_broken_chain_names_the_leaf(sf: Any) -> None:
    path = sf.write(sf.user("a", None), sf.assistant("b", "gone"), sf.user("c", "b"))
    session = _open(path)
    assert _walk_error(session) == "broken parentId chain at entry c"
    with pytest.raises(SessionError, match="broken parentId chain at entry c"):
        build_context(session)


def test_explicit_branch_to_a_missing_entry(sf: Any) -> None:
    session = _open(sf.write(sf.user("a", None)))
    assert _walk_error(session, "nope") == "entry nope not found"


def test_cycle_off_the_current_branch_does_not_break_it(sf: Any) -> None:
    path = sf.write(sf.user("x", "y"), sf.user("y", "x"), sf.user("a", None))
    assert [e.id for e in branch(_open(path))] == ["a"]


# -- buildContext ----------------------------------------------------------------------------


def test_context_without_compaction(sf: Any) -> None:
    path = sf.write(
        sf.user("a", None, "q"),
        sf.entry("thinkingLevelChange", "t", "a", thinkingLevel="high"),
        sf.entry("session_info", "i", "t", name="n"),
        sf.entry("label", "l", "i", targetId="a", label="x"),
        sf.assistant("b", "i", "answer"),
        sf.entry("branchSummary", "s", "b", summary="went left"),
        sf.user("c", "s", "next"),
    )
    context = build_context(_open(path))
    assert context.leaf_id == "c"
    assert not context.compacted
    assert context.compaction_boundary == 0
    assert context.messages == [
        {"role": "user", "content": "q"},
        sf.assistant("b", "i", "answer")["message"],
        {"role": "user", "content": BRANCH_FRAME + "went left"},
        {"role": "user", "content": "next"},
    ]


def test_compaction_summary_tail_and_boundary(sf: Any) -> None:
    tail = [
        {"role": "user", "content": "kept \u2028 verbatim", "extra": {"k": [1, None]}},
        {"role": "assistant", "blocks": [], "usage": {"inputTokens": 1}, "stopReason": None},
    ]
    path = sf.write(
        sf.user("a", None, "old"),
        sf.assistant("b", "a", "old answer"),
        sf.entry("branchSummary", "bs", "b", summary="old branch"),
        sf.entry("compaction", "c", "bs", summary="the gist", retainedTail=tail, tokensBefore=9),
        sf.user("d", "c", "after"),
    )
    context = build_context(_open(path))
    assert context.compacted
    assert context.compaction_boundary == 1 + len(tail)
    assert context.messages == [
        {"role": "user", "content": SUMMARY_FRAME + "the gist"},
        *tail,
        {"role": "user", "content": "after"},
    ]
    assert list(context.messages[0]) == ["role", "content"]


def test_compaction_with_empty_tail_has_boundary_one(sf: Any) -> None:
    path = sf.write(
        sf.user("a", None),
        sf.entry("compaction", "c", "a", summary="", retainedTail=[], tokensBefore=0),
    )
    context = build_context(_open(path))
    assert context.compaction_boundary == 1
    assert context.messages == [{"role": "user", "content": SUMMARY_FRAME}]


def test_only_the_last_compaction_counts(sf: Any) -> None:
    path = sf.write(
        sf.user("a", None),
        sf.entry("compaction", "c1", "a", summary="first", retainedTail=[], tokensBefore=1),
        sf.user("m", "c1", "between"),
        sf.entry(
            "compaction",
            "c2",
            "m",
            summary="second",
            retainedTail=[{"role": "user", "content": "t"}],
            tokensBefore=2,
        ),
        sf.user("n", "c2", "last"),
    )
    context = build_context(_open(path))
    assert _contents(context.messages) == [SUMMARY_FRAME + "second", "t", "last"]
    assert context.compaction_boundary == 2


def test_compaction_on_another_branch_is_ignored(sf: Any) -> None:
    path = sf.write(
        sf.user("a", None),
        sf.entry("compaction", "c", "a", summary="s", retainedTail=[], tokensBefore=1),
        sf.user("b", "a", "sibling"),
    )
    context = build_context(_open(path))
    assert not context.compacted
    assert _contents(context.messages) == ["hi", "sibling"]


def test_context_for_an_explicit_leaf(sf: Any) -> None:
    path = sf.write(sf.user("a", None, "one"), sf.user("b", "a", "two"), sf.user("c", "a", "three"))
    context = build_context(_open(path), "b")
    assert context.leaf_id == "b"
    assert _contents(context.messages) == ["one", "two"]


# -- session name ----------------------------------------------------------------------------


def _name(path: Any) -> str | None:
    return session_name(branch(_open(path)))


def test_name_is_trimmed(sf: Any) -> None:
    path = sf.write(sf.user("a", None), sf.entry("session_info", "i", "a", name="  stats fix \t"))
    assert _name(path) == "stats fix"


def test_blank_name_clears_an_earlier_one(sf: Any) -> None:
    path = sf.write(
        sf.entry("session_info", "i1", None, name="first"),
        sf.entry("session_info", "i2", "i1", name="  \u3000"),
    )
    assert _name(path) is None


def test_latest_name_wins(sf: Any) -> None:
    path = sf.write(
        sf.entry("session_info", "i1", None, name="first"),
        sf.entry("session_info", "i2", "i1", name=""),
        sf.entry("session_info", "i3", "i2", name="third"),
    )
    assert _name(path) == "third"


def test_name_is_branch_scoped(sf: Any) -> None:
    path = sf.write(
        sf.user("a", None),
        sf.entry("session_info", "i1", "a", name="main"),
        sf.entry("session_info", "i2", "a", name="side"),
        sf.position("i1"),
    )
    assert _name(path) == "main"


def test_no_name(sf: Any) -> None:
    assert _name(sf.write(sf.user("a", None))) is None


@pytest.mark.parametrize(
    ("raw", "shown"), [("\ufeff", None), ("\ufeffWork\ufeff", "Work"), ("x\x1f", "x\x1f")]
)
def test_name_is_trimmed_as_javascript_trims(sf: Any, raw: str, shown: str | None) -> None:
    path = sf.write(sf.user("a", None), sf.entry("session_info", "i", "a", name=raw))
    assert _name(path) == shown


# -- labels ----------------------------------------------------------------------------------


def test_labels_last_write_wins_and_empty_removes(sf: Any) -> None:
    path = sf.write(
        sf.user("a", None),
        sf.assistant("b", "a"),
        sf.entry("label", "l1", "b", targetId="a", label="start"),
        sf.entry("label", "l2", "b", targetId="b", label="one"),
        sf.entry("label", "l3", "b", targetId="a", label="the start"),
        sf.entry("label", "l4", "b", targetId="b", label=""),
    )
    assert labels(_open(path)) == {"a": "the start"}


def test_labels_are_file_wide(sf: Any) -> None:
    path = sf.write(
        sf.user("a", None),
        sf.user("b", None),
        sf.entry("label", "l1", "b", targetId="b", label="off-branch"),
        sf.position("a"),
    )
    session = _open(path)
    assert session.leaf_id == "a"
    assert labels(session) == {"b": "off-branch"}


def test_labels_never_move_the_leaf(sf: Any) -> None:
    path = sf.write(sf.user("a", None), sf.entry("label", "l1", "a", targetId="a", label="x"))
    assert _open(path).leaf_id == "a"


# -- thinking level --------------------------------------------------------------------------


def test_thinking_level_is_the_last_in_whole_file_order(sf: Any) -> None:
    path = sf.write(
        sf.user("a", None),
        sf.entry("thinkingLevelChange", "t1", "a", thinkingLevel="low"),
        sf.entry("thinkingLevelChange", "t2", "a", thinkingLevel="max"),  # another branch
        sf.position("t1"),
    )
    session = _open(path)
    assert session.leaf_id == "t1"
    assert thinking_level(session) == "max"


def test_unknown_level_in_the_last_change_restores_nothing(sf: Any) -> None:
    path = sf.write(
        sf.entry("thinkingLevelChange", "t1", None, thinkingLevel="high"),
        sf.entry("thinkingLevelChange", "t2", "t1", thinkingLevel="ultra"),
    )
    assert thinking_level(_open(path)) is None


def test_no_thinking_change(sf: Any) -> None:
    assert thinking_level(_open(sf.write(sf.user("a", None)))) is None


@pytest.mark.parametrize("level", ["off", "minimal", "low", "medium", "high", "xhigh", "max"])
def test_every_known_level_restores(sf: Any, level: str) -> None:
    path = sf.write(sf.entry("thinkingLevelChange", "t", None, thinkingLevel=level))
    assert thinking_level(_open(path)) == level


# -- model restore ---------------------------------------------------------------------------


def test_no_model(sf: Any) -> None:
    session = _open(sf.write(sf.user("a", None)))
    assert restored_model(session) == (None, False)
    assert not explicit_model_selection(session)


def test_header_model_restores_as_not_explicit(sf: Any) -> None:
    path = sf.write(sf.header(model={"provider": "zai", "modelId": "glm-5.3"}), header=False)
    session = _open(path)
    assert restored_model(session) == (ModelRef("zai", "glm-5.3"), False)
    assert not explicit_model_selection(session)


def test_latest_session_model_in_file_order_beats_the_header(sf: Any) -> None:
    path = sf.write(
        sf.header(model={"provider": "anthropic", "modelId": "claude-sonnet-4-5"}),
        sf.session_model("zai", "glm-5.3", explicit=True),
        sf.user("a", None),
        sf.user("b", None),
        sf.session_model("deepseek", "deepseek-chat", explicit=False),
        sf.position("a"),
        header=False,
    )
    session = _open(path)
    model, explicit = restored_model(session)
    assert model == ModelRef("deepseek", "deepseek-chat")
    assert model.reference == "deepseek/deepseek-chat"
    assert explicit is False
    # an explicit /model anywhere in the file is an explicit selection
    assert explicit_model_selection(session)


def test_explicit_flag_of_the_restored_model(sf: Any) -> None:
    path = sf.write(
        sf.session_model("openai", "gpt-5", explicit=False), sf.session_model("zai", "glm")
    )
    session = _open(path)
    assert restored_model(session) == (ModelRef("zai", "glm"), True)


def test_legacy_seed_only_is_not_an_explicit_selection(sf: Any) -> None:
    session = _open(sf.write(sf.session_model("zai", "glm", explicit=False)))
    assert not explicit_model_selection(session)
    assert restored_model(session) == (ModelRef("zai", "glm"), False)


def test_session_model_keeps_the_model_id_untrimmed(sf: Any) -> None:
    session = _open(sf.write(sf.session_model("zai", " glm-5.3 ")))
    assert restored_model(session)[0] == ModelRef("zai", " glm-5.3 ")
