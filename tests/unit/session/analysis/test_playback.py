"""The playback plan and its clock: timing from timestamps, idle gaps, streaming, pause, step,
speeds, and timestamps that cannot be used. A fake clock drives it: nothing sleeps."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from timedsession import ANSWER, T0, FakeClock, conversation, write_timed

from ink_tui.session import open_session
from ink_tui.session.analysis.playback import (
    FIXED_PACE,
    MACHINE_IDLE_CAP,
    STREAM_CHARS_PER_SECOND,
    USER_IDLE_CAP,
    Plan,
    build_plan,
    revealed_length,
    turn_entry,
)
from ink_tui.session.analysis.playclock import SPEEDS, STREAM_TICK, Playback
from ink_tui.session.conversation.branchview import load_branch
from ink_tui.session.reading.timestamps import timestamp_seconds as parse_timestamp


def plan_of(path: Path) -> tuple[Plan, Any]:
    session = open_session(path, warn=None)
    loaded = load_branch(session, None)
    return build_plan(session, loaded.entries, loaded.turns), loaded


@pytest.fixture
def plan(tmp_path: Path) -> Plan:
    return plan_of(write_timed(tmp_path / "s.jsonl", conversation()))[0]


def test_records_in_order_with_gaps_heads_and_rows(plan: Plan) -> None:
    heads = [record.head for record in plan.records]
    assert heads == ["user", "assistant anthropic/claude-sonnet-4-5", "result of bash",
                     "assistant anthropic/claude-sonnet-4-5", "user"]  # fmt: skip
    assert [record.gap for record in plan.records] == [0, 20, 5, 175, 30]
    assert plan.records[0].keys == ("e0:turn",)
    assert plan.records[1].body == "Running them.\n→ bash pytest -q"
    assert plan.records[2].keys == plan.records[1].keys[1:]  # the result shows on its call's row
    assert plan.records[2].body == "← bash ok\n3 passed"
    assert [record.stream for record in plan.records] == [False, True, False, True, False]
    assert plan.note is None


def test_skip_idle_caps_user_and_machine_gaps(plan: Plan) -> None:
    recorded = [record.duration(skip_idle=False) for record in plan.records]
    skipped = [record.duration(skip_idle=True) for record in plan.records]
    assert recorded == [0, 20, 5, 175, 30]
    assert skipped == [0, 20, 5, MACHINE_IDLE_CAP, USER_IDLE_CAP]
    assert plan.total(skip_idle=False) == 230
    assert plan.total(skip_idle=True) == 20 + 5 + MACHINE_IDLE_CAP + USER_IDLE_CAP


def test_text_streams_no_faster_than_the_rate(tmp_path: Path) -> None:
    same_time = conversation((0, 0, 0, 0, 0))
    plan = plan_of(write_timed(tmp_path / "s.jsonl", same_time))[0]
    answer = plan.records[3]
    assert answer.duration(skip_idle=True) == pytest.approx(len(ANSWER) / STREAM_CHARS_PER_SECOND)
    assert plan.records[2].duration(skip_idle=True) == 0  # a result with no gap: at once


def test_revealed_length_whole_words() -> None:
    text = "one two three"
    assert revealed_length(text, 0) == 0
    assert text[: revealed_length(text, 0.5)] == "one "
    assert revealed_length(text, 1.0) == len(text)


def test_bad_timestamp_falls_back_to_fixed_pace_and_says_so(tmp_path: Path) -> None:
    times = (0, "yesterday-ish", 25, 200, 230)
    plan = plan_of(write_timed(tmp_path / "s.jsonl", conversation(times)))[0]
    assert [record.gap for record in plan.records] == [0] + [FIXED_PACE] * 4
    assert plan.note is not None and "line 3" in plan.note and "timestamp" in plan.note


def test_a_clock_moved_back_shows_at_once(tmp_path: Path) -> None:
    plan = plan_of(write_timed(tmp_path / "s.jsonl", conversation((0, 20, 10, 200, 230))))[0]
    assert plan.records[2].gap == 0
    assert plan.note is not None and "1 record" in plan.note


def test_parse_timestamp_forms() -> None:
    assert parse_timestamp(T0) == parse_timestamp("2026-10-18T10:00:00+00:00")
    assert parse_timestamp("2026-10-18T10:00:00") == parse_timestamp(T0)
    assert parse_timestamp("") is None
    assert parse_timestamp(12) is None


@pytest.mark.parametrize("speed", [1, 5, 50])
def test_the_clock_moves_playback_at_each_speed(plan: Plan, speed: int) -> None:
    clock = FakeClock()
    playback = Playback(plan, clock, speed=speed, skip_idle=False)
    assert playback.frame().index == 1  # the prompt (no gap) is over at once
    clock.advance(10 / speed)  # 10 plan seconds: half the answer's 20
    frame = playback.frame()
    assert (frame.index, frame.fraction) == (1, pytest.approx(0.5))
    assert frame.shown_text(plan.records[1]) == "Running them.\n→ "
    clock.advance(12 / speed)  # 22 s: the call runs (the result's gap)
    assert playback.frame().index == 2
    assert playback.next_wake() == pytest.approx(3 / speed)
    clock.advance(1000)
    assert playback.frame().finished
    assert playback.next_wake() is None


def test_streaming_wakes_often_waiting_wakes_once(plan: Plan) -> None:
    clock = FakeClock()
    playback = Playback(plan, clock, skip_idle=False)
    assert playback.next_wake() == STREAM_TICK  # the answer streams in
    clock.advance(21)
    assert playback.next_wake() == pytest.approx(4)  # the call runs: one wake at its result


def test_pause_holds_and_resume_goes_on(plan: Plan) -> None:
    clock = FakeClock()
    playback = Playback(plan, clock, skip_idle=False)
    clock.advance(10)
    assert playback.toggle_pause() is True
    clock.advance(500)
    assert playback.position == pytest.approx(10)
    assert playback.next_wake() is None
    assert playback.toggle_pause() is False
    clock.advance(11)
    assert playback.frame().index == 2


def test_step_finishes_the_record_and_pauses(plan: Plan) -> None:
    clock = FakeClock()
    playback = Playback(plan, clock, skip_idle=False)
    clock.advance(5)
    playback.step()
    assert playback.paused
    frame = playback.frame()
    assert (frame.index, frame.fraction) == (2, 0.0)
    clock.advance(100)
    assert playback.frame().index == 2  # paused: time does not move it
    playback.step()
    playback.step()
    assert playback.frame().index == 4
    playback.step()
    assert playback.frame().finished
    playback.step()  # past the end: nothing more
    assert playback.frame().finished


def test_speed_changes_keep_the_position(plan: Plan) -> None:
    clock = FakeClock()
    playback = Playback(plan, clock, skip_idle=False)
    clock.advance(4)
    assert playback.change_speed(1) == 2
    assert playback.position == pytest.approx(4)
    clock.advance(3)
    assert playback.position == pytest.approx(10)
    for _ in SPEEDS:
        playback.change_speed(1)
    assert playback.speed == SPEEDS[-1]
    for _ in SPEEDS:
        playback.change_speed(-1)
    assert playback.speed == SPEEDS[0]


def test_toggling_skip_idle_stays_in_the_record(plan: Plan) -> None:
    clock = FakeClock()
    playback = Playback(plan, clock, skip_idle=False)
    clock.advance(25 + 175 / 2)  # half-way through the long answer
    assert playback.toggle_skip_idle() is True
    frame = playback.frame()
    assert (frame.index, frame.fraction) == (3, pytest.approx(0.5))
    assert frame.position == pytest.approx(25 + MACHINE_IDLE_CAP / 2)


def test_start_at_a_record(plan: Plan, tmp_path: Path) -> None:
    playback = Playback(plan, FakeClock(), start=3)
    assert playback.frame().index == 3
    _, loaded = plan_of(write_timed(tmp_path / "t.jsonl", conversation()))
    assert turn_entry(loaded.entries, loaded.turns, "e4:turn") == 4
    assert turn_entry(loaded.entries, loaded.turns, "e3:0") == 0
    assert turn_entry(loaded.entries, loaded.turns, "nowhere") == 0


def test_a_plan_holds_a_part_of_the_branch(tmp_path: Path) -> None:
    path = write_timed(tmp_path / "s.jsonl", conversation())
    session = open_session(path, warn=None)
    loaded = load_branch(session, None)
    part = build_plan(session, loaded.entries, loaded.turns, first=1, limit=2)
    assert [record.entry_id for record in part.records] == ["e1", "e2"]
    assert [record.gap for record in part.records] == [20, 5]  # from the record before it
    assert (part.first, part.branch_length) == (1, 5)
    rest = build_plan(session, loaded.entries, loaded.turns, first=3)
    assert [record.gap for record in rest.records] == [175, 30]
