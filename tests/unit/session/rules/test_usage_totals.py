"""Ink's ``/status`` usage totals (spec §11; issue 19, figures item 5): every rule, one test each,
against figures computed by hand here (never by ink_tui), and the exact text ``/status`` prints.

Rates used (Ink's static table, ``models.ts@0bea585d``, USD per million: in, out, cache read,
cache write): anthropic/claude-sonnet-4-5 3, 15, 0.3, 3.75; moonshotai/kimi-k3 3, 15, 0.3, 0;
zai/glm-5.3 0, 0, 0, 0 (subscription). ``openai/gpt-5.1`` has no static rate (Ink prices it from
its catalog only). Each dollar text is what Node 20 prints for Ink's sum, ``usd.toFixed(3)``: 4500
µ$ is ``0.004`` (0.0045 is just below the half in binary)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from figurestree import assistant, entry, user, write_session

from ink_tui.session import open_session
from ink_tui.session.rules.rates import ink_rate_for
from ink_tui.session.rules.taskrecord import parse_task_record
from ink_tui.session.rules.usage_totals import (
    UsageTotals,
    format_tokens,
    js_round,
    js_to_fixed,
    session_usage,
)

SONNET = "anthropic/claude-sonnet-4-5"
WHEN = "2026-10-05T10:00:00.000Z"


def reply(
    entry_id: str, inputs: int, outputs: int, reference: str | None = SONNET, **more: Any
) -> Any:
    usage = {"inputTokens": inputs, "outputTokens": outputs}
    record = assistant(entry_id, "p", WHEN, usage, reference or "", **more)
    if reference is None:
        del record["message"]["modelReference"]
    return record


def task_record(attempt: str = "att-1", **changes: Any) -> dict[str, Any]:
    """A valid task record (spec §2) of a launched child of kimi-k3 that used 1000 in, 100 out."""
    record: dict[str, Any] = {
        "version": 1,
        "timestamp": WHEN,
        "attemptId": attempt,
        "sourceId": "src",
        "launched": True,
        "cwd": "/home/u/odd",
        "status": "completed",
        "turns": 3,
        "textPresent": True,
        "taskToolCallId": "call-1",
        "childId": "c41c0000-0000-4000-8000-00000000000c",
        "binding": {
            "providerName": "moonshotai",
            "wireModelId": "kimi-k3",
            "reference": "moonshotai/kimi-k3",
        },
        "tools": ["read", "grep"],
        "timeoutMs": 600000,
        "transcript": {"present": False, "why": "disabled"},
        "usage": {"inputTokens": 1000, "outputTokens": 100},
    }
    for key, value in changes.items():
        if value is None:
            record.pop(key, None)
        else:
            record[key] = value
    return record


def results(entry_id: str, *items: dict[str, Any]) -> Any:
    message = {"role": "toolResult", "results": list(items)}
    return entry("message", entry_id, "p", WHEN, message=message)


def task_result(
    call: str = "call-1", record: dict[str, Any] | None = None, name: str = "task"
) -> dict[str, Any]:
    result: dict[str, Any] = {"toolCallId": call, "toolName": name, "content": "done"}
    result["isError"] = False
    if record is not None:
        result["taskRecord"] = record
    return result


def summary(kind: str, entry_id: str, usage: dict[str, int] | None, **more: Any) -> Any:
    fields: dict[str, Any] = {"summary": "s"}
    if kind == "compaction":
        fields |= {"retainedTail": [], "tokensBefore": 9000}
    if usage is not None:
        fields["usage"] = usage
    return entry(kind, entry_id, "p", WHEN, **fields, **more)


def totals(*records: Any) -> UsageTotals:
    return UsageTotals().add_all(records)


def work(*records: Any) -> str:
    return totals(*records).priced().work()


# -- the parent bucket --------------------------------------------------------------------------


def test_every_reply_counts_with_its_calls() -> None:
    found = totals(user("u", None, WHEN), reply("a1", 1000, 200), reply("a2", 10, 20))
    parent = found.buckets["parent"]
    assert (parent.input, parent.output, parent.calls) == (1010, 220, 2)
    assert not found.is_incomplete
    # (1010 * 3 + 220 * 15) / 1e6 = 0.00633
    assert work(reply("a1", 1000, 200), reply("a2", 10, 20)) == "work ↑1.0k ↓220 $0.006"


def test_a_reply_without_usage_marks_the_parent_incomplete_and_still_counts() -> None:
    found = totals(reply("a1", 3000, 0), reply("a2", 0, 0, usageMissing=True))
    assert found.incomplete == {"parent": True, "child": False, "summarizer": False}
    assert found.buckets["parent"].calls == 2
    assert work(reply("a1", 3000, 0), reply("a2", 0, 0, usageMissing=True)) == (
        "work ↑3.0k ↓0 $0.009!"
    )


def test_cache_tokens_are_priced_but_not_in_the_arrows() -> None:
    record = reply("a1", 1000, 200)
    record["message"]["usage"] |= {"cacheReadTokens": 5000, "cacheWriteTokens": 2000}
    # 1000*3 + 200*15 + 5000*0.3 + 2000*3.75 = 15000 µ$
    assert work(record) == "work ↑1.0k ↓200 $0.015"


# -- the child bucket (task records) ----------------------------------------------------------


def test_a_launched_record_counts_priced_by_its_binding() -> None:
    found = totals(results("r1", task_result(record=task_record())))
    child = found.buckets["child"]
    assert (child.input, child.output, child.calls) == (*(1000, 100)[:2], 1)
    # kimi-k3: 1000*3 + 100*15 = 4500 µ$
    assert found.priced().work() == "work ↑1.0k ↓100 $0.004"  # 0.0045 is 0.00449999… in binary
    assert not found.is_incomplete


def test_records_are_deduplicated_by_attempt_id() -> None:
    record = task_record()
    found = totals(
        results("r1", task_result(record=record)),
        results("r2", task_result("call-2", copy.deepcopy(record))),  # a hand-copied entry
    )
    assert found.buckets["child"].calls == 1 and found.buckets["child"].input == 1000


def test_a_record_not_launched_adds_nothing_and_nothing_missing() -> None:
    found = totals(results("r1", task_result(record=task_record(launched=False, usage=None))))
    assert found.buckets["child"].calls == 0 and not found.is_incomplete
    assert found.priced().work() == "work ↑0 ↓0"  # no money segment at all


def test_launched_without_usage_marks_the_child_incomplete() -> None:
    found = totals(results("r1", task_result(record=task_record(usage=None))))
    assert found.incomplete["child"] and found.buckets["child"].calls == 0
    assert found.priced().work() == "work ↑0 ↓0 $?!"


def test_usage_marked_incomplete_counts_and_marks_the_child_incomplete() -> None:
    usage = {"inputTokens": 1000, "outputTokens": 100, "incomplete": True}
    found = totals(results("r1", task_result(record=task_record(usage=usage))))
    assert found.incomplete["child"] and found.buckets["child"].input == 1000
    assert found.priced().work() == "work ↑1.0k ↓100 $0.004!"


def test_a_task_result_without_a_record_marks_the_child_incomplete() -> None:
    closed = task_result(record=None)  # a fill-in (§6) or a force-quit closer: no record
    found = totals(results("r1", closed))
    assert found.incomplete["child"] and found.priced().money() == "$?!"
    other = totals(results("r1", task_result(record=None, name="bash")))
    assert not other.is_incomplete  # only task calls carry a record


def test_a_record_less_repeat_of_a_counted_call_adds_no_signal() -> None:
    found = totals(
        results("r1", task_result(record=task_record())),
        results("r2", task_result(record=None)),  # the same call id, again, without record
    )
    assert not found.is_incomplete


def test_a_duplicate_record_does_not_vouch_for_its_call() -> None:
    record = task_record()
    found = totals(
        results("r1", task_result("call-1", record)),
        results("r2", task_result("call-2", copy.deepcopy(record))),  # duplicate attempt
        results("r3", task_result("call-2", None)),  # call-2 was never counted
    )
    assert found.incomplete["child"]


def test_an_invalid_record_is_no_record() -> None:
    binding = {"providerName": "moonshotai", "wireModelId": "kimi-k3", "reference": "x/y"}
    bad = task_record(binding=binding)
    found = totals(results("r1", task_result(record=bad)))
    assert found.buckets["child"].calls == 0 and found.incomplete["child"]


# -- the summarizer bucket --------------------------------------------------------------------


def test_summaries_with_usage_count_and_usage_missing_marks_them() -> None:
    found = totals(
        summary(
            "compaction", "k1", {"inputTokens": 2000, "outputTokens": 100}, modelReference=SONNET
        ),
        summary("branchSummary", "b1", {"inputTokens": 0, "outputTokens": 0}, usageMissing=True),
        summary("compaction", "k2", None),  # legacy, without usage: nothing
    )
    summarizer = found.buckets["summarizer"]
    assert (summarizer.input, summarizer.output, summarizer.calls) == (2000, 100, 2)
    assert found.incomplete == {"parent": False, "child": False, "summarizer": True}
    # 2000*3 + 100*15 = 7500 µ$; the branch summary declares no model: unpriced, but 0 tokens
    assert found.priced().work() == "work ↑2.0k ↓100 $0.007!"


# -- pricing: declared references only --------------------------------------------------------


def test_only_a_declared_reference_prices() -> None:
    wire_only = reply("a1", 1000, 0, reference=None, model="claude-sonnet-4-5")
    bare = reply("a2", 1000, 0, reference="claude-sonnet-4-5")
    no_rate = reply("a3", 1000, 0, reference="openai/gpt-5.1")
    for record in (wire_only, bare, no_rate):
        assert work(record) == "work ↑1.0k ↓0 $?"  # never priced at another model's rate
    assert work(reply("a4", 1000, 0), wire_only) == "work ↑2.0k ↓0 ~$0.003"


def test_a_subscription_is_known_at_zero_dollars() -> None:
    glm = reply("a1", 5000, 500, reference="zai/glm-5.3")
    assert work(glm) == "work ↑5.0k ↓500 $0.000 (sub)"
    assert work(glm, reply("a2", 10, 0, reference=None)) == "work ↑5.0k ↓500 ~$0.000 (sub)"


def test_ink_rates_never_cross_providers() -> None:
    assert ink_rate_for("moonshotai/kimi-k3") == ink_rate_for("moonshotai-cn/kimi-k3")
    assert ink_rate_for("openai/gpt-5.4") is None  # the codex plan's model, not openai's
    assert ink_rate_for("openai-codex/gpt-5.4") is not None
    assert ink_rate_for("claude-sonnet-4-5") is None  # a bare id names no provider
    assert ink_rate_for("Anthropic/claude-sonnet-4-5") == ink_rate_for(SONNET)


def test_the_estimate_is_said_when_a_reference_names_a_provider() -> None:
    assert totals(reply("a1", 10, 0)).priced().estimate
    assert not totals(reply("a1", 10, 0, reference=None)).priced().estimate


# -- JavaScript's rounding ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "shown"),
    [
        (0, "0"), (999, "999"), (1000, "1.0k"), (1049, "1.0k"), (1050, "1.1k"), (1150, "1.1k"),
        (1250, "1.3k"), (2250, "2.3k"), (9949, "9.9k"), (9950, "9.9k"), (9951, "10.0k"),
        (9999, "10.0k"), (10000, "10k"), (10499, "10k"), (10500, "11k"), (12500, "13k"),
        (999499, "999k"), (999500, "1000k"), (999999, "1000k"), (1000000, "1.0M"),
        (1050000, "1.1M"), (1250000, "1.3M"), (9949999, "9.9M"), (9950000, "9.9M"),
        (9999999, "10.0M"), (10000000, "10M"), (10500000, "11M"), (12500000, "13M"),
        (2**53, "9007199255M"), (12.5, "12.5"), (999.5, "999.5"), (7.0, "7"),
    ],
)  # fmt: skip
def test_format_tokens_as_javascript_rounds(count: float, shown: str) -> None:
    """Each expected text is what Node 20 prints for Ink's ``formatTokens(count)``."""
    assert format_tokens(count) == shown


@pytest.mark.parametrize(
    ("usd", "shown"),
    [
        (0.0625, "0.063"), (0.0005, "0.001"), (0.0015, "0.002"), (0.0025, "0.003"),
        (0.1235, "0.123"), (1.0005, "1.000"), (123.4565, "123.457"), (0.0, "0.000"),
        (-0.0001, "-0.000"),
    ],
)  # fmt: skip
def test_to_fixed_as_javascript_rounds(usd: float, shown: str) -> None:
    """What Node 20 prints for ``usd.toFixed(3)``: the exact binary value, halves up."""
    assert js_to_fixed(usd, 3) == shown


def test_math_round_takes_halves_up() -> None:
    assert [js_round(x) for x in (0.5, 1.5, 2.5, -0.5, -1.5, 0.49999999999999994)] == [
        1, 2, 3, 0, -1, 0,
    ]  # fmt: skip


# -- record validity (spec §2) ---------------------------------------------------------------


@pytest.mark.parametrize(
    "change",
    [
        {"version": 2}, {"version": True}, {"attemptId": ""}, {"attemptId": None},
        {"sourceId": 5}, {"timestamp": None}, {"cwd": None}, {"launched": "yes"},
        {"textPresent": None}, {"turns": "3"}, {"turns": float("inf")}, {"status": "done"},
        {"agent": 5}, {"reason": 5}, {"timeoutMs": "soon"}, {"tools": ["read", 5]},
        {"binding": {"providerName": "", "wireModelId": "k", "reference": "/k"}},
        {"transcript": {"present": False, "why": "gone"}},
        {"transcript": {"present": True, "path": "/x", "writeFailed": False}},
        {"transcript": {"present": False, "path": ""}},
        {"worktree": {"path": "/w", "branch": "b", "disposition": "lost"}},
        {"usage": {"inputTokens": 1}},
        {"usage": {"inputTokens": 1, "outputTokens": 1, "incomplete": False}},
        {"usage": {"inputTokens": 1, "outputTokens": 1, "cacheReadTokens": "2"}},
    ],
)  # fmt: skip
def test_a_record_failing_a_check_is_no_record(change: dict[str, Any]) -> None:
    assert parse_task_record(task_record(**change)) is None


def test_extra_keys_and_a_bad_health_keep_the_record() -> None:
    record = task_record(health="not a list", future={"x": 1}, version=1.0)
    found = parse_task_record(record)
    assert found is not None and found.raw is record
    assert parse_task_record(task_record(binding=None, usage=None, transcript=None)) is not None


# -- from the file ----------------------------------------------------------------------------


def test_the_whole_file_every_branch_and_nothing_else(tmp_path: Path) -> None:
    usage = {"inputTokens": 99999, "outputTokens": 9}
    tail = [{"role": "assistant", "blocks": [], "usage": usage}]
    path = write_session(
        tmp_path / "s.jsonl",
        [
            user("u1", None, WHEN),
            assistant("a1", "u1", WHEN, {"inputTokens": 1000, "outputTokens": 100}),
            user("u2", "u1", WHEN),  # another branch from the first prompt
            assistant("a2", "u2", WHEN, {"inputTokens": 2000, "outputTokens": 200}),
            entry("compaction", "k1", "a2", WHEN, summary="s", retainedTail=tail, tokensBefore=9),
            results("r1", task_result(record=None)) | {"parentId": "k1"},
            {"type": "position", "leafId": "a1"},
        ],
    )
    found = session_usage(open_session(path, warn=None))
    parent = found.buckets["parent"]
    assert (parent.input, parent.output, parent.calls) == (3000, 300, 2)  # the retained tail: no
    assert found.incomplete["child"]  # the record-less task result, read from the file
    assert found.priced().work() == "work ↑3.0k ↓300 $0.013!"  # 3000*3 + 300*15 = 13500 µ$


def test_a_task_name_spelled_with_escapes_is_still_read(tmp_path: Path) -> None:
    path = write_session(tmp_path / "s.jsonl", [user("u1", None, WHEN)])
    with path.open("a", encoding="utf-8") as stream:
        stream.write(
            '{"type":"message","id":"r1","parentId":"u1","timestamp":"' + WHEN + '",'
            '"message":{"role":"toolResult","results":[{"toolCallId":"c","toolName":"t\\u0061sk",'
            '"content":"x","isError":true}]}}\n'
        )
    assert session_usage(open_session(path, warn=None)).incomplete["child"]


def test_a_branch_loaded_whole_counts_the_same_totals_as_a_pass_of_their_own(
    tmp_path: Path,
) -> None:
    """The session view counts the file's totals while it builds a branch's rows (each record
    read once); for every leaf, on or off the branch, in file order or not, the figures are
    those of reading the file for them alone."""
    from ink_tui.session.conversation.branchview import load_branch

    path = write_session(
        tmp_path / "s.jsonl",
        [
            user("u1", None, WHEN),
            assistant("a1", "u1", WHEN, {"inputTokens": 1000, "outputTokens": 100}),
            user("u2", "u1", WHEN),  # a fork off the first prompt
            assistant("a2", "u2", WHEN, {"inputTokens": 2000, "outputTokens": 200}),
            results("r1", task_result(record=None)) | {"parentId": "a1"},
            user("u3", "r1", WHEN),
            assistant("a3", "u3", WHEN, {"inputTokens": 5, "outputTokens": 7}, usageMissing=True),
            assistant("late", "u9", WHEN, {"inputTokens": 40000, "outputTokens": 1}),
            user("u9", "a3", WHEN),  # "late" hangs below an entry written after it
        ],
    )
    session = open_session(path, warn=None)
    alone = session_usage(open_session(path, warn=None))
    for leaf in ("a2", "a3", "late", "u1"):
        loaded = load_branch(session, leaf, models=True)
        assert loaded.work is not None
        assert loaded.work.buckets == alone.buckets, leaf
        assert loaded.work.incomplete == alone.incomplete, leaf
        assert loaded.work.priced().work() == alone.priced().work() == "work ↑43k ↓308 $0.134!"
