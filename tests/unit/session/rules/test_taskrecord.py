"""A ``task`` result's ``taskRecord`` read as Ink's ``parseTaskRecord`` reads it (spec §2), and
what it says in ink-tui's words: status, turns, health, worktree, transcript."""

from __future__ import annotations

import math
from typing import Any

import pytest
from testdata import task_record

from ink_tui.session.analysis.subagents import task_child_id
from ink_tui.session.rules.taskrecord import no_transcript, parse_task_record, record_line


def test_a_minimal_record_is_valid_and_extra_keys_are_allowed() -> None:
    record = parse_task_record(task_record(somethingNew={"x": 1}))
    assert record is not None and record.status == "completed" and record.launched


def _without(key: str) -> dict[str, Any]:
    return {k: v for k, v in task_record().items() if k != key}


@pytest.mark.parametrize(
    "value",
    [
        None,
        [],
        "record",
        task_record(version=2),
        task_record(version=True),
        task_record(attemptId=""),
        _without("sourceId"),
        _without("timestamp"),
        task_record(cwd=None),
        task_record(launched="yes"),
        task_record(textPresent=1),
        task_record(turns="3"),
        task_record(turns=True),  # a boolean is not a number to JavaScript
        task_record(turns=math.inf),
        task_record(status="done"),
        task_record(agent=None),  # null is not undefined: the key must be absent or a string
        task_record(childId=7),
        task_record(timeoutMs=math.nan),
        task_record(reason=["x"]),
        task_record(tools=["bash", 1]),
        task_record(binding={"providerName": "anthropic", "wireModelId": "m", "reference": "x"}),
        task_record(binding={"providerName": "", "wireModelId": "m", "reference": "/m"}),
        task_record(transcript={"present": False}),
        task_record(transcript={"present": False, "why": "deleted"}),
        task_record(transcript={"present": True}),
        task_record(transcript={"present": True, "path": "/p", "writeFailed": False}),
        task_record(transcript={"present": "yes", "path": "/p"}),
        task_record(worktree={"path": "/w", "branch": "b", "disposition": "gone"}),
        task_record(worktree={"path": "/w", "disposition": "removed"}),
        task_record(usage={"inputTokens": 1}),
        task_record(usage={"inputTokens": 1, "outputTokens": 2, "incomplete": False}),
        task_record(usage={"inputTokens": 1, "outputTokens": 2, "cacheReadTokens": None}),
    ],
)
def test_an_invalid_record_is_absent(value: Any) -> None:
    assert parse_task_record(value) is None


@pytest.mark.parametrize(
    "health",
    [
        "loop",
        [{"code": "repeat-loop", "count": 0, "turn": 1}],
        [{"code": "repeat-loop", "count": 2, "turn": -1}],
        [{"code": "too-slow", "count": 2, "turn": 1}],
        [{"code": "repeat-loop", "count": 2, "turn": 1}, {"code": "repeat-loop"}],
        None,
    ],
)
def test_a_malformed_health_is_dropped_and_the_record_kept(health: Any) -> None:
    record = parse_task_record(task_record(health=health))
    assert record is not None and record.health == ()


def test_what_a_record_says_in_one_line() -> None:
    record = parse_task_record(
        task_record(
            agent="reviewer",
            turns=3,
            health=[
                {"code": "repeat-loop", "count": 2, "turn": 5},
                {"code": "mutation-failure-streak", "count": 1, "turn": 7, "detail": "edit x"},
            ],
            worktree={"path": "/w", "branch": "ink/task-1", "disposition": "kept-work"},
            transcript={"present": True, "path": "/c.jsonl"},
        )
    )
    assert record is not None
    assert record_line(record) == (
        "subagent reviewer completed · 3 turns · health: repeat-loop 2 times by turn 5, "
        "mutation-failure-streak 1 time by turn 7: edit x · worktree kept: it holds work "
        "(branch ink/task-1) · transcript kept"
    )


def test_a_rejected_or_crashed_record_says_why() -> None:
    rejected = parse_task_record(
        task_record(launched=False, status="rejected", turns=0, reason="unknown agent")
    )
    assert rejected is not None
    assert record_line(rejected) == "subagent rejected before it ran: unknown agent"
    assert no_transcript(rejected) == "rejected before any subagent ran"
    crashed = parse_task_record(
        task_record(
            status="crash", turns=1, transcript={"present": True, "path": "/c", "writeFailed": True}
        )
    )
    assert crashed is not None
    assert record_line(crashed) == (
        "subagent crashed · 1 turn · transcript partly written (a write failed)"
    )


@pytest.mark.parametrize(
    ("why", "words"),
    [
        ("disabled", "Ink was told not to keep subagent transcripts (INK_CHILD_SESSIONS=0)"),
        ("no-parent-session", "the parent ran without a session file (--no-session)"),
        ("write-failed", "writing the transcript failed, so nothing was kept"),
        ("no-content", "the subagent wrote nothing to keep"),
    ],
)
def test_why_there_is_no_transcript_in_plain_words(why: str, words: str) -> None:
    record = parse_task_record(task_record(transcript={"present": False, "why": why}))
    assert record is not None
    assert no_transcript(record) == words
    assert record_line(record).endswith(f"· no transcript: {words}")


def test_a_child_is_named_only_by_a_valid_record() -> None:
    assert task_child_id({"taskRecord": task_record(childId="c1")}) == "c1"
    assert task_child_id({"taskRecord": task_record(childId="c1", status="lost")}) is None
    assert task_child_id({"taskRecord": {"version": 1, "childId": "c1"}}) is None
