"""Records that are no part of a turn never lengthen it (issue 19, figures item 2): a session
named, labelled or given a thinking level a day after its last turn keeps that turn's time, its
span, its model and tool shares, and its playback pace."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from ink_tui.session import open_session
from ink_tui.session.branchview import load_branch
from ink_tui.session.playback import build_plan
from ink_tui.session.turntime import branch_span, turn_time
from ink_tui.session.writer import SessionWriter

T0 = datetime(2026, 11, 2, 10, 0, 0, tzinfo=UTC)
LAST_TURN = 238.0  # 3m58s: the prompt at 100 s, the answer at 338 s
TOOL = 98.0  # the call at 102 s, its result at 200 s
SPAN = 338.0  # the session's first prompt to its last answer
A_DAY = 86_400.0


def _at(*offsets: float) -> Callable[[], datetime]:
    ticks: Iterator[datetime] = (T0 + timedelta(seconds=offset) for offset in offsets)
    return lambda: next(ticks)


def _session(folder: Path) -> Path:
    """Two turns: a prompt at 0 s answered at 5 s; a prompt at 100 s, a bash call at 102 s, its
    result at 200 s, the answer at 338 s."""
    writer = SessionWriter.new(
        folder, "/home/ada/code/time", clock=_at(0, 0, 5, 100, 102, 200, 338)
    )
    text = [{"type": "text", "text": "done"}]
    call = {"type": "toolCall", "id": "c1", "name": "bash", "arguments": {"command": "make"}}
    result = {"toolCallId": "c1", "toolName": "bash", "content": "ok", "isError": False}
    writer.append_message({"role": "user", "content": "first"})
    writer.append_message(_reply(text))
    writer.append_message({"role": "user", "content": "second"})
    writer.append_message(_reply([call]))
    writer.append_message({"role": "toolResult", "results": [result]})
    writer.append_message(_reply(text))
    return writer.path


def _reply(blocks: list[dict[str, object]]) -> dict[str, object]:
    usage = {"inputTokens": 10, "outputTokens": 5}
    return {"role": "assistant", "blocks": blocks, "usage": usage, "stopReason": "end_turn"}


def _renamed(path: Path) -> None:
    """``r`` (or ``ink-tui rename``) a day later: a ``session_info`` at the leaf."""
    writer = SessionWriter.for_session(open_session(path, warn=None), clock=_at(SPAN + A_DAY))
    writer.append_entry("session_info", {"name": "the build"})


def _thinking_changed(path: Path) -> None:
    writer = SessionWriter.for_session(open_session(path, warn=None), clock=_at(SPAN + A_DAY))
    writer.append_entry("thinkingLevelChange", {"thinkingLevel": "high"})


def _labelled_as_leaf(path: Path) -> None:
    """A label a day later, and a ``/tree`` move onto it: the label is the branch's leaf (spec
    §10: a position marker may name a label)."""
    session = open_session(path, warn=None)
    writer = SessionWriter.for_session(session, clock=_at(SPAN + A_DAY))
    label = writer.append_entry("label", {"targetId": session.leaf_id, "label": "built"})
    writer.append_position(str(label["id"]))


CHANGES = {"renamed": _renamed, "thinking level": _thinking_changed, "labelled": _labelled_as_leaf}


@pytest.mark.parametrize("change", CHANGES)
def test_a_later_record_outside_the_turns_changes_no_time(tmp_path: Path, change: str) -> None:
    path = _session(tmp_path)
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
    path = _session(tmp_path)
    _renamed(path)
    writer = SessionWriter.for_session(open_session(path, warn=None), clock=_at(SPAN + 2 * A_DAY))
    writer.append_message({"role": "user", "content": "third"})
    session = open_session(path, warn=None)
    loaded = load_branch(session, session.leaf_id)
    plan = build_plan(session, loaded.entries, loaded.turns)
    name, prompt = plan.records[-2:]
    assert (name.head, name.gap) == ("name", 0)
    assert (prompt.head, prompt.gap) == ("user", pytest.approx(2 * A_DAY))  # the user's idle
    later = build_plan(session, loaded.entries, loaded.turns, first=len(loaded.entries) - 1)
    assert later.records[0].gap == pytest.approx(2 * A_DAY)  # a plan begun at the prompt too
    assert branch_span(loaded.entries) == pytest.approx(SPAN + 2 * A_DAY)
