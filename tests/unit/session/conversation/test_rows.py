"""The view rows' core rules (issue 9): labels on the rows they name, model switches in place,
search over labels, one thinking rule for every part, and what Ink makes of a file a followed
line broke."""

from __future__ import annotations

from typing import Any

import pytest

from ink_tui.agent.start import DEFAULT_THINKING, load_chat
from ink_tui.session.conversation.branchview import load_branch
from ink_tui.session.conversation.resume import resumed_model, resumed_thinking
from ink_tui.session.conversation.rows import search_turns
from ink_tui.session.live.tail import FileTrouble, SessionTail, open_for_follow
from ink_tui.session.reading.reader import open_session


def _labelled(sf: Any) -> Any:
    return sf.write(
        sf.user("u1", None, "first"),
        sf.assistant("a1", "u1", "calling", calls=(("c1", "bash"),)),
        sf.results("r1", "a1", ("c1", "bash")),
        sf.user("u2", "r1", "second"),
        sf.entry("label", "l1", "u2", targetId="u2", label="old"),
        sf.entry("label", "l2", "u2", targetId="u2", label="checkpoint"),
        sf.entry("label", "l3", "u2", targetId="r1", label="green"),
        sf.entry("label", "l4", "u2", targetId="a1", label="gone"),
        sf.entry("label", "l5", "u2", targetId="a1", label=""),
        sf.entry("label", "l6", "u2", targetId="elsewhere", label="not on this branch"),
    )


def test_each_label_shows_on_the_first_row_of_the_entry_it_names(sf: Any) -> None:
    session = open_session(_labelled(sf), warn=None)
    loaded = load_branch(session, "u2")
    shown = loaded.row_labels()
    assert shown == {"u2:turn": "checkpoint", "a1:1": "green"}  # the call row of the result
    assert "a1:0" not in shown  # the removed label is gone


def test_search_finds_a_rows_label(sf: Any) -> None:
    session = open_session(_labelled(sf), warn=None)
    loaded = load_branch(session, "u2")
    assert search_turns(loaded.turns, "GREEN", loaded.row_labels()) == ["a1:1"]
    assert search_turns(loaded.turns, "checkpoint", loaded.row_labels()) == ["u2:turn"]
    assert search_turns(loaded.turns, "checkpoint") == []  # without labels: not found


def test_labels_arriving_later_change_the_rows_they_name(sf: Any) -> None:
    path = sf.write(sf.user("u1", None, "first"), sf.assistant("a1", "u1", "ok"))
    session = open_for_follow(path)
    loaded = load_branch(session, session.leaf_id)
    tail = SessionTail(session)
    with path.open("ab") as stream:
        stream.write(sf.line(sf.entry("label", "l1", "a1", targetId="u1", label="here")) + b"\n")
        stream.write(sf.line(sf.entry("label", "l2", "a1", targetId="nobody", label="x")) + b"\n")
    update = tail.poll()
    update.apply_to(session)
    assert loaded.add_labels(update.entries) == {"u1:turn"}
    assert loaded.row_labels() == {"u1:turn": "here"}


def test_model_switches_are_rows_among_the_branchs_entries_in_file_order(sf: Any) -> None:
    path = sf.write(
        sf.session_model("anthropic", "claude-sonnet-4-5", explicit=False),
        sf.user("u1", None, "first"),
        sf.assistant("a1", "u1", "ok"),
        sf.session_model("zai", "glm-5.3"),
        sf.entry("thinkingLevelChange", "t1", "a1", thinkingLevel="high"),
        sf.user("u2", "t1", "second"),
        sf.assistant("a2", "u2", "ok"),
    )
    session = open_session(path, warn=None)
    assert not any(  # the preview's build has no model rows
        item.kind == "model_change"
        for turn in load_branch(session, "a2").turns
        for item in turn.items
    )
    loaded = load_branch(session, "a2", models=True)
    rows = [(turn.key, [(item.kind, item.text) for item in turn.items]) for turn in loaded.turns]
    assert rows == [
        ("start:turn", [("model_change", "anthropic/claude-sonnet-4-5")]),
        (
            "u1:turn",
            [("text", "ok"), ("model_change", "zai/glm-5.3"), ("thinking_level", "high")],
        ),
        ("u2:turn", [("text", "ok")]),
    ]
    model_row = loaded.turns[1].items[1]
    assert model_row.key == "model@5" and model_row.entry.id == "a1"  # continues from a1
    assert loaded.header["model"] == "zai/glm-5.3" and loaded.header["thinking"] == "high"


def test_a_partial_load_shows_only_the_model_switches_after_its_first_entry(sf: Any) -> None:
    path = sf.write(
        sf.session_model("openai", "gpt-5.1"),
        sf.user("u1", None, "first"),
        sf.assistant("a1", "u1", "ok"),
        sf.user("u2", "a1", "second"),
        sf.session_model("zai", "glm-5.3"),
        sf.assistant("a2", "u2", "ok"),
    )
    loaded = load_branch(open_session(path, warn=None), "a2", last=2, models=True)
    kinds = [(item.kind, item.text) for turn in loaded.turns for item in turn.items]
    assert kinds == [("model_change", "zai/glm-5.3"), ("text", "ok")]


@pytest.mark.parametrize(
    ("levels", "expected"),
    [
        ((), DEFAULT_THINKING),
        (("high",), "high"),
        (("high", "low"), "low"),
        (("high", "turbo"), DEFAULT_THINKING),  # an unknown last level restores nothing
    ],
)
def test_one_thinking_rule_for_the_view_and_the_chat(
    sf: Any, levels: tuple[str, ...], expected: str
) -> None:
    records: list[Any] = [sf.user("u1", None, "first"), sf.assistant("a1", "u1", "ok")]
    parent = "a1"
    for index, level in enumerate(levels):
        records.append(sf.entry("thinkingLevelChange", f"t{index}", parent, thinkingLevel=level))
        parent = f"t{index}"
    path = sf.write(*records)
    session = open_session(path, warn=None)
    assert resumed_thinking(session) == expected == load_chat(path).thinking
    assert load_branch(session, session.leaf_id).header["thinking"] == expected
    assert DEFAULT_THINKING == "medium"


def test_the_model_is_the_latest_session_model_else_the_headers(sf: Any) -> None:
    from ink_tui.session.rules.modelref import ModelRef

    header = sf.header(model={"provider": "openai", "modelId": "gpt-5.1"})
    plain = sf.write_bytes(
        b"\n".join(sf.line(item) for item in (header, sf.user("u1", None))) + b"\n"
    )
    assert resumed_model(open_session(plain, warn=None)) == ModelRef("openai", "gpt-5.1")
    switched = sf.write_bytes(
        b"\n".join(
            sf.line(item)
            for item in (header, sf.user("u1", None), sf.session_model("zai", "glm-5.3"))
        )
        + b"\n"
    )
    assert resumed_model(open_session(switched, warn=None)) == ModelRef("zai", "glm-5.3")


# -- a line Ink rejects, while following -------------------------------------------------------


def _follow(sf: Any) -> tuple[Any, SessionTail]:
    path = sf.write(sf.user("u1", None, "first"), sf.assistant("a1", "u1", "ok"))
    return path, SessionTail(open_for_follow(path))


def test_a_bad_last_line_is_dropped_by_ink_until_a_line_follows_it(sf: Any) -> None:
    path, tail = _follow(sf)
    with path.open("ab") as stream:
        stream.write(b'{"type":"message"\n')
    trouble = FileTrouble.of(None, tail.poll())
    assert trouble is not None and trouble.line == 4 and not trouble.fatal
    assert "Ink drops it as a torn final line" in trouble.note
    assert trouble.after(tail.poll()) is trouble  # nothing new: unchanged
    with path.open("ab") as stream:
        stream.write(sf.line(sf.user("u2", "a1", "more")) + b"\n")
    later = FileTrouble.of(trouble, tail.poll())
    assert later is not None and later.fatal and later.line == 4
    assert later.note.startswith("Ink cannot open this file any more: session line 4: invalid JSON")
    assert FileTrouble.of(later, tail.poll()) is later  # it stays


def test_a_bad_line_followed_in_the_same_read_or_a_null_is_fatal_at_once(sf: Any) -> None:
    path, tail = _follow(sf)
    with path.open("ab") as stream:
        stream.write(b"[1, 2]\n" + sf.line(sf.user("u2", "a1", "more")) + b"\n")
    trouble = FileTrouble.of(None, tail.poll())
    assert trouble is not None and trouble.fatal and trouble.line == 4
    path, tail = _follow(sf)
    with path.open("ab") as stream:
        stream.write(b"null\n")
    trouble = FileTrouble.of(None, tail.poll())
    assert trouble is not None and trouble.fatal  # not a SessionError to Ink: never skipped
    assert "Cannot read properties of null" in trouble.note


def test_the_tails_verdict_matches_inks_open(sf: Any) -> None:
    """Whatever the follow view says, open() (Ink's rules) agrees."""
    from ink_tui.session.reading.errors import SessionError

    path, tail = _follow(sf)
    with path.open("ab") as stream:
        stream.write(b'{"type":"message"\n')
    trouble = FileTrouble.of(None, tail.poll())
    assert trouble is not None and not trouble.fatal
    dropped = open_session(path, warn=None).dropped_final_line
    assert dropped is not None and dropped.line == trouble.line
    with path.open("ab") as stream:
        stream.write(sf.line(sf.user("u2", "a1", "more")) + b"\n")
    trouble = FileTrouble.of(trouble, tail.poll())
    assert trouble is not None and trouble.fatal
    with pytest.raises(SessionError, match=f"session line {trouble.line}: invalid JSON"):
        open_session(path, warn=None)
