"""Crash repair: the torn tail, the child-resume continuation, refusals (spec §6, §10)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ink_tui.session import (
    ConcurrentWriteError,
    SessionError,
    open_session,
    repair_session,
    report_session,
)
from ink_tui.session.writing.repair import apply_torn_repair, plan_continuation, plan_torn_repair

UNKNOWN = (
    "[ink] this tool call was interrupted before a result was recorded — the outcome is "
    "unknown; it may have partially executed. Re-inspect or re-run it before relying on its "
    "effects."
)


def _complete(sf: Any, *items: Any) -> bytes:
    """Header and items, each with its newline (the part a repair must keep)."""
    return b"".join(sf.line(i) + b"\n" for i in (sf.header(), *items))


def _report(path: Path) -> dict[str, Any]:
    result: dict[str, Any] = report_session(open_session(path, warn=None)).to_json()
    return result


# -- the torn tail ---------------------------------------------------------------------------


def test_half_line_is_truncated(sf: Any) -> None:
    keep = _complete(sf, sf.user("a", None), sf.assistant("b", "a"))
    tail = b'{"type":"message","id":"c","parentId":"b","timestamp":"2026-10-05T1'
    path = sf.write_bytes(keep + tail)
    session, plan = repair_session(path)
    assert plan.ok
    assert plan.torn is not None
    assert plan.torn.to_json() == {"action": "truncated", "bytes": len(tail)}
    assert plan.torn.offset == len(keep)
    assert plan.repairs == [f"dropped a {len(tail)}-byte torn tail"]
    assert path.read_bytes() == keep
    assert not session.torn_final_line
    assert session.leaf_id == "b"


def test_cut_inside_a_utf8_character_is_truncated_in_bytes(sf: Any) -> None:
    keep = _complete(sf, sf.user("a", None))
    tail = sf.line(sf.user("b", "a", "中文😀"))[:-6]  # ends mid-character
    path = sf.write_bytes(keep + tail)
    _, plan = repair_session(path)
    assert plan.torn is not None
    assert plan.torn.bytes == len(tail)
    assert path.read_bytes() == keep


def test_invalid_final_line_with_newline_and_blank_lines_is_truncated_when_forced(
    sf: Any,
) -> None:
    keep = _complete(sf, sf.user("a", None))
    tail = b'{"type":"checkpoint","id":"z","parentId":"a","timestamp":"t"}\n\n  \n'
    path = sf.write_bytes(keep + tail)
    _, plan = repair_session(path, force=True)
    assert plan.torn is not None
    assert plan.torn.to_json() == {"action": "truncated", "bytes": len(tail)}
    assert path.read_bytes() == keep
    assert plan.backup is not None and plan.backup.read_bytes() == tail


def test_a_complete_final_record_is_not_cut_unless_forced(sf: Any) -> None:
    """Ink's repair deletes a complete record of a type it does not know; ink-tui refuses."""
    keep = _complete(sf, sf.user("a", None))
    tail = b'{"type":"checkpoint","id":"z","parentId":"a","timestamp":"t"}\n'
    path = sf.write_bytes(keep + tail)
    assert plan_continuation(open_session(path, warn=None)).ok  # what Ink would do: cut it
    _, plan = repair_session(path)
    assert not plan.ok and plan.backup is None
    assert plan.problem == (
        "the last line is a complete record that fails Ink's checks (unknown entry type "
        '"checkpoint"; from a newer Ink?): Ink\'s repair would cut it'
    )
    assert path.read_bytes() == keep + tail
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]


def test_missing_final_newline_is_terminated(sf: Any) -> None:
    data = _complete(sf, sf.user("a", None), sf.assistant("b", "a"))[:-1]
    path = sf.write_bytes(data)
    session, plan = repair_session(path)
    assert plan.torn is not None
    assert plan.torn.to_json() == {"action": "terminated", "bytes": 1}
    assert plan.repairs == ["terminated an unterminated final record"]
    assert path.read_bytes() == data + b"\n"
    assert [e.id for e in session.entries] == ["a", "b"]


def test_header_only_without_newline_is_terminated(sf: Any) -> None:
    path = sf.write(newline=False)
    _, plan = repair_session(path)
    assert plan.torn is not None
    assert plan.torn.action == "terminated"
    assert path.read_bytes() == sf.line(sf.header()) + b"\n"


def test_clean_file_is_left_alone(sf: Any) -> None:
    path = sf.write(sf.user("a", None), sf.assistant("b", "a"))
    before = path.read_bytes()
    session, plan = repair_session(path)
    assert plan.ok
    assert plan.torn is None
    assert plan.repairs == []
    assert plan.appended == []
    assert path.read_bytes() == before
    assert session.leaf_id == "b"


# -- refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("items", "problem"),
    [
        (
            lambda sf: [
                sf.user("u", None),
                sf.assistant("a1", "u", calls=(("c1", "read"),)),
                sf.user("u2", "a1"),
                sf.assistant("a2", "u2"),
            ],
            "a new user message begins a turn while tool call(s) c1 are still awaiting results "
            "— the transcript cannot be paired unambiguously (start a new task instead)",
        ),
        (
            lambda sf: [sf.user("u", None), sf.results("r", "u", ("ghost", "bash"))],
            "a tool result for ghost has no preceding tool call — the transcript is not "
            "continuable (start a new task instead)",
        ),
        (
            lambda sf: [
                sf.assistant("a1", None, calls=(("c1", "read"),)),
                sf.results("r1", "a1", ("c1", "read")),
                sf.results("r2", "r1", ("c1", "read")),
            ],
            "the tool result for c1 is recorded more than once — the transcript is not "
            "continuable (start a new task instead)",
        ),
    ],
    ids=["dangling-not-last", "orphan", "duplicate-result"],
)
@pytest.mark.parametrize("torn", [False, True], ids=["clean", "torn"])
def test_refusal_leaves_the_file_byte_for_byte(
    sf: Any, items: Any, problem: str, torn: bool
) -> None:
    data = _complete(sf, *items(sf)) + (b'{"type":"mess' if torn else b"")
    path = sf.write_bytes(data)
    _, plan = repair_session(path)
    assert not plan.ok
    assert plan.problem == problem
    assert plan.to_json() == {"ok": False, "problem": problem}
    assert path.read_bytes() == data


def test_broken_branch_raises_and_writes_nothing(sf: Any) -> None:
    data = _complete(sf, sf.user("a", None), sf.user("b", "gone"))[:-1]
    path = sf.write_bytes(data)
    with pytest.raises(SessionError, match="broken parentId chain at entry b"):
        repair_session(path)
    assert path.read_bytes() == data


# -- the continuation ------------------------------------------------------------------------


def test_dangling_calls_of_the_last_turn_are_closed_by_one_result(sf: Any) -> None:
    items = [
        sf.user("u", None),
        sf.assistant("a1", "u", calls=(("c1", "read"), ("c2", "bash"), ("c3", "grep"))),
        sf.results("r1", "a1", ("c2", "bash")),
    ]
    path = sf.write(*items)
    before = path.read_bytes()
    session, plan = repair_session(path)
    assert plan.repairs == [
        "2 interrupted tool call(s) closed with an explicit unknown-outcome result"
    ]
    data = path.read_bytes()
    assert data.startswith(before)
    added = data[len(before) :]
    assert added.count(b"\n") == 1
    record = json.loads(added)
    assert list(record) == ["type", "id", "parentId", "timestamp", "message"]
    assert record["parentId"] == "r1"
    assert record["message"] == {
        "role": "toolResult",
        "results": [
            {"toolCallId": "c1", "toolName": "read", "content": UNKNOWN, "isError": True},
            {"toolCallId": "c3", "toolName": "grep", "content": UNKNOWN, "isError": True},
        ],
    }
    assert session.leaf_id == record["id"]


def test_torn_tail_and_dangling_calls_are_both_repaired(sf: Any) -> None:
    keep = _complete(sf, sf.user("u", None), sf.assistant("a1", "u", calls=(("c1", "read"),)))
    tail = b'{"type":"message","id":"r1","parentId":"a1","timestamp":"2026'
    path = sf.write_bytes(keep + tail)
    session, plan = repair_session(path)
    assert plan.repairs == [
        f"dropped a {len(tail)}-byte torn tail",
        "1 interrupted tool call(s) closed with an explicit unknown-outcome result",
    ]
    data = path.read_bytes()
    assert data.startswith(keep)
    record = json.loads(data[len(keep) :])
    assert record["parentId"] == "a1"
    assert record["message"]["results"][0]["toolCallId"] == "c1"
    assert not session.torn_final_line


def test_dry_run_writes_nothing(sf: Any) -> None:
    data = _complete(sf, sf.user("u", None), sf.assistant("a", "u", calls=(("c", "ls"),)))[:-1]
    path = sf.write_bytes(data)
    plan = plan_continuation(open_session(path, warn=None))
    assert plan.ok
    assert len(plan.appended) == 1
    assert path.read_bytes() == data


def test_repair_then_reopen_is_clean(sf: Any) -> None:
    keep = _complete(sf, sf.user("u", None), sf.assistant("a1", "u", calls=(("c1", "read"),)))
    path = sf.write_bytes(keep + b'{"ty')
    repair_session(path)
    report = _report(path)
    assert report["tornFinalLine"] is False
    assert report["droppedFinalLine"] is False
    assert report["dangling"] == []
    assert report["problem"] is None
    assert report["continuation"]["ok"] is True
    assert report["continuation"]["repairs"] == []
    assert report["tornRepair"] is None


def test_repair_is_idempotent(sf: Any) -> None:
    keep = _complete(sf, sf.user("u", None), sf.assistant("a1", "u", calls=(("c1", "read"),)))
    path = sf.write_bytes(keep + b'{"ty')
    repair_session(path)
    once = path.read_bytes()
    _, plan = repair_session(path)
    assert plan.ok
    assert plan.repairs == []
    assert path.read_bytes() == once


def test_file_changed_since_it_was_read_is_not_repaired(sf: Any) -> None:
    data = _complete(sf, sf.user("a", None))[:-1]
    path = sf.write_bytes(data)
    session = open_session(path, warn=None)
    repair = plan_torn_repair(session)
    assert repair is not None
    with path.open("ab") as stream:
        stream.write(b"\n")
    with pytest.raises(ConcurrentWriteError):
        apply_torn_repair(session, repair)
    assert path.read_bytes() == data + b"\n"


# -- position markers: current Ink's repair accepts every one (spec §6, §10) -----------------


def test_bad_position_marker_then_torn_tail_keeps_every_complete_record(sf: Any) -> None:
    before_marker = _complete(sf, sf.user("a", None))
    marker = b'{"type":"position","leafId":5}\n'
    after_marker = sf.line(sf.assistant("b", "a")) + b"\n" + sf.line(sf.user("c", "b")) + b"\n"
    tail = b'{"type":"message","id":"d","par'
    path = sf.write_bytes(before_marker + marker + after_marker + tail)
    repair = plan_torn_repair(open_session(path, warn=None))
    # only the torn final line is cut: the marker is acceptable to current Ink's repair
    assert repair is not None
    assert (repair.action, repair.bytes) == ("truncated", len(tail))
    assert repair.offset == len(before_marker + marker + after_marker)

    repaired, plan = repair_session(path)
    assert plan.torn == repair
    assert path.read_bytes() == before_marker + marker + after_marker
    assert [e.id for e in repaired.entries] == ["a", "b", "c"]
    assert not repaired.torn_final_line


def test_bad_position_marker_then_missing_newline_is_terminated(sf: Any) -> None:
    data = (
        _complete(sf, sf.user("a", None))
        + b'{"type":"position","leafId":false}\n'
        + sf.line(sf.assistant("b", "a"))
    )
    path = sf.write_bytes(data)
    _, plan = repair_session(path)
    assert plan.torn is not None
    assert (plan.torn.action, plan.torn.bytes) == ("terminated", 1)
    assert plan.repairs == ["terminated an unterminated final record"]
    assert path.read_bytes() == data + b"\n"  # every record kept


def test_bad_position_marker_in_a_clean_file_needs_no_repair(sf: Any) -> None:
    path = sf.write(sf.user("a", None), sf.position(5), sf.assistant("b", "a"))
    before = path.read_bytes()
    _, plan = repair_session(path)
    assert plan.torn is None
    assert path.read_bytes() == before


def test_check_s_report_reads_and_pairs_the_branch_once(sf: Any) -> None:
    """The report's continuation verdict reuses the report's one scan of the context: a
    100,000-record branch is not read twice (and the verdict is the one a fresh plan gives)."""
    items = [
        sf.user("u", None),
        sf.assistant("a1", "u", calls=(("c1", "read"), ("c2", "bash"))),
        sf.results("r1", "a1", ("c2", "bash")),
    ]
    path = sf.write(*items)
    session = open_session(path, warn=None)
    passes: list[int] = []
    records = session.records

    def counted(entries: Any) -> Any:
        passes.append(1)
        return records(entries)

    session.records = counted  # type: ignore[method-assign]
    made = report_session(session)
    assert len(passes) == 1
    assert [entry._record for entry in session.entries] == [None, None, None]  # none kept
    fresh = plan_continuation(open_session(path, warn=None))
    assert made.continuation.to_json() == fresh.to_json()
    assert made.continuation.appended == fresh.appended and len(fresh.appended) == 1
