"""Records that are no part of a turn never lengthen it (issue 19, figures item 2): a session
named, labelled or given a thinking level a day after its last turn keeps that turn's time, its
span, its model and tool shares, and its playback pace."""

from __future__ import annotations

from pathlib import Path

import pytest
from figurestree import A_DAY, LAST_TURN, SPAN, TOOL, append_later, timed_turns

from ink_tui.session import open_session
from ink_tui.session.analysis.playback import build_plan
from ink_tui.session.analysis.turntime import branch_span, turn_time
from ink_tui.session.conversation.branchview import load_branch
from ink_tui.session.writing.writer import SessionWriter


def _renamed(path: Path) -> None:
    """``r`` (or ``ink-tui rename``) a day later: a ``session_info`` at the leaf."""
    append_later(path, "session_info", {"name": "the build"})


def _thinking_changed(path: Path) -> None:
    append_later(path, "thinkingLevelChange", {"thinkingLevel": "high"})


def _labelled_as_leaf(path: Path) -> None:
    """A label a day later, and a ``/tree`` move onto it: the label is the branch's leaf (spec
    §10: a position marker may name a label)."""
    target = open_session(path, warn=None).leaf_id
    label = append_later(path, "label", {"targetId": target, "label": "built"})
    SessionWriter.for_session(open_session(path, warn=None)).append_position(str(label["id"]))


CHANGES = {"renamed": _renamed, "thinking level": _thinking_changed, "labelled": _labelled_as_leaf}


@pytest.mark.parametrize("change", CHANGES)
def test_a_later_record_outside_the_turns_changes_no_time(tmp_path: Path, change: str) -> None:
    path = timed_turns(tmp_path)
    CHANGES[change](path)
    session = open_session(path, warn=None)
    loaded = load_branch(session, session.leaf_id)
    assert session.entries[-1].type == loaded.entries[-1].type != "message"  # on the branch
    last = turn_time(loaded.turns[-1])
    assert last.seconds == pytest.approx(LAST_TURN)  # not 23h56m
    assert last.tool_seconds == pytest.approx(TOOL)
    assert last.model_seconds == pytest.approx(LAST_TURN - TOOL)  # not "model 1d00h"
    assert branch_span(loaded.entries) == pytest.approx(SPAN)  # the header's "over 5m38s"
    plan = build_plan(session, loaded.entries, loaded.turns)
    assert plan.total(skip_idle=False) == pytest.approx(SPAN)  # playback never waits a day
    assert plan.records[-1].gap == 0


def test_the_prompt_after_a_rename_waits_from_the_turn_before(tmp_path: Path) -> None:
    path = timed_turns(tmp_path)
    _renamed(path)
    append_later(path, "message", {"message": {"role": "user", "content": "third"}}, 2 * A_DAY)
    session = open_session(path, warn=None)
    loaded = load_branch(session, session.leaf_id)
    plan = build_plan(session, loaded.entries, loaded.turns)
    name, prompt = plan.records[-2:]
    assert (name.head, name.gap) == ("name", 0)
    assert (prompt.head, prompt.gap) == ("user", pytest.approx(2 * A_DAY))  # the user's idle
    later = build_plan(session, loaded.entries, loaded.turns, first=len(loaded.entries) - 1)
    assert later.records[0].gap == pytest.approx(2 * A_DAY)  # a plan begun at the prompt too
    assert branch_span(loaded.entries) == pytest.approx(SPAN + 2 * A_DAY)
