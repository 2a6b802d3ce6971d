"""``ink-tui stats SESSION``: one session's work as Ink's ``/status`` shows it (spec §11; issue
19, figures item 5), said to be an estimate where Ink's own dollars may differ."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from figurestree import CWD, PROJECT, assistant, entry, user, write_session

WHEN = "2026-10-05T10:00:00.000Z"
SESSION_ID = "5e5"


@pytest.fixture
def session(tmp_path: Path) -> Path:
    """A sonnet reply (1000 in, 200 out, cache 5000 read, 2000 written: $0.015), a task whose
    record reports kimi-k3's 1000 in, 100 out ($0.0045), a compaction declaring no model (500
    in, 50 out: unpriced) and a reply recorded without usage. Ink's sum is $0.0195, which
    ``toFixed(3)`` prints as 0.019 (Node 20)."""
    cached = {"inputTokens": 1000, "outputTokens": 200, "cacheReadTokens": 5000}
    cached["cacheWriteTokens"] = 2000
    record = {
        "version": 1, "timestamp": WHEN, "attemptId": "a-1", "sourceId": "s", "launched": True,
        "cwd": CWD, "status": "completed", "turns": 2, "textPresent": True,
        "binding": {"providerName": "moonshotai", "wireModelId": "kimi-k3",
                    "reference": "moonshotai/kimi-k3"},
        "usage": {"inputTokens": 1000, "outputTokens": 100},
    }  # fmt: skip
    result = {"toolCallId": "c1", "toolName": "task", "content": "ok", "isError": False}
    result["taskRecord"] = record
    records = [
        user("u1", None, WHEN),
        assistant("a1", "u1", WHEN, cached),
        entry("message", "r1", "a1", WHEN, message={"role": "toolResult", "results": [result]}),
        entry(
            "compaction", "k1", "r1", WHEN, summary="s", retainedTail=[], tokensBefore=1,
            usage={"inputTokens": 500, "outputTokens": 50},
        ),
        assistant("a2", "k1", WHEN, {"inputTokens": 0, "outputTokens": 0}, usageMissing=True),
    ]  # fmt: skip
    base = tmp_path / "sessions"
    return write_session(base / PROJECT / "2026-10-05T10-00-00-000Z-s.jsonl", records, SESSION_ID)


def _run(cli: Any, session: Path, *extra: str) -> tuple[int, str, str]:
    base = session.parent.parent
    return cli.run("stats", SESSION_ID, "--sessions-dir", str(base), "--cwd", CWD, *extra)  # type: ignore[no-any-return]


def test_the_work_line_is_inks_and_says_it_is_an_estimate(cli: Any, session: Path) -> None:
    code, out, err = _run(cli, session)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == str(session)
    assert lines[1].startswith("work ↑2.5k ↓350 ~$0.019!    (Ink's /status")
    assert lines[3].split() == ["calls", "in", "out", "cache", "read", "cache", "write"]
    assert lines[4].split() == ["replies", "2", "1,000", "200", "5,000", "2,000"]
    assert lines[5].split() == ["subagents", "1", "1,000", "100", "0", "0"]
    assert lines[6].split() == ["summaries", "1", "500", "50", "0", "0"]
    assert lines[7].split() == ["total", "4", "2,500", "350", "5,000", "2,000"]
    assert lines[8].startswith("incomplete (replies, the ! of the work): a model reply was")
    models = {line.split()[0]: line.split()[-1] for line in lines[10:14]}
    assert models == {
        "by": "cost",
        "anthropic/claude-sonnet-4-5": "$0.015",
        "moonshotai/kimi-k3": "$0.004",  # 0.0045 in binary is just below the half
        "(none": "rate",  # (none declared) … no rate
    }
    assert lines[-1] == (
        "dollars at Ink's static rates (models.ts@0bea585d): an estimate; Ink prices from the "
        "pi.dev catalog first, which ink-tui cannot read, so its /status may show other dollars"
    )


def test_json_holds_the_buckets_flags_and_groups(cli: Any, session: Path) -> None:
    code, out, err = _run(cli, session, "--json")
    assert (code, err) == (0, "")
    found = json.loads(out)
    assert found["work"] == "work ↑2.5k ↓350 ~$0.019!"
    assert (found["money"], found["estimate"], found["incomplete"]) == ("~$0.019!", True, True)
    assert found["buckets"]["parent"] == {
        "inputTokens": 1000, "outputTokens": 200, "cacheReadTokens": 5000,
        "cacheWriteTokens": 2000, "calls": 2, "incomplete": True,
    }  # fmt: skip
    assert found["buckets"]["child"]["incomplete"] is False
    assert found["unpricedTokens"] == 550 and found["usd"] == pytest.approx(0.0195)
    assert [group["reference"] for group in found["byModel"]] == [
        "anthropic/claude-sonnet-4-5", "moonshotai/kimi-k3", None,
    ]  # fmt: skip
    assert found["byModel"][2]["costUsd"] is None and found["rates"] == "models.ts@0bea585d"


def test_project_options_do_not_go_with_a_session(cli: Any, session: Path) -> None:
    code, out, err = _run(cli, session, "--by", "day")
    assert (code, out) == (2, "")
    assert "stats SESSION shows one session's totals: --by only go with" in err


def test_a_session_ink_cannot_open_is_one_line(cli: Any, session: Path) -> None:
    session.write_text('{"type":"session","version":1}\n', encoding="utf-8")
    code, out, err = cli.run("stats", str(session))
    assert (code, out) == (2, "")
    cli.one_error_line(err, naming=str(session))


def test_models_without_a_static_rate_are_said(cli: Any, tmp_path: Path) -> None:
    path = write_session(
        tmp_path / PROJECT / "s.jsonl",
        [user("u1", None, WHEN), assistant("a1", "u1", WHEN, reference="openai/gpt-5.1")],
    )
    code, out, err = cli.run("stats", str(path))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[1].startswith("work ↑10 ↓1 $?    ")
    assert lines[-1] == (
        "no rate in Ink's static table (models.ts@0bea585d) for these models; Ink prices from "
        "the pi.dev catalog first, which ink-tui cannot read, so its /status may show dollars here"
    )
