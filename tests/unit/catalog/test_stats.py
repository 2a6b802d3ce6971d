"""Usage and cost (issue 12): the core against the hand-computed totals of tests/statstree.py."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path

import pytest
from statstree import A_CWD, test_prices, write_tree

from ink_tui.catalog import usagecache as usage_module
from ink_tui.catalog.prices import DEFAULT_PRICES, PRICES_AS_OF, Price, load_price_table
from ink_tui.catalog.stats import (
    SinceError,
    StatsReport,
    build_report,
    parse_since,
    report_table,
    week_of,
)
from ink_tui.catalog.usage import FileUsage, model_name, scan_usage
from ink_tui.catalog.usagecache import collect_usage


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    write_tree(tmp_path / "sessions")
    return tmp_path / "sessions"


def _files(tree: Path, tmp_path: Path, cwd: str | None = None) -> list[FileUsage]:
    return collect_usage(tree, cwd, cache_path=tmp_path / "usage.json")


def _report(tree: Path, tmp_path: Path, by: str = "model", **options: object) -> StatsReport:
    return build_report(_files(tree, tmp_path), test_prices(), by, **options)  # type: ignore[arg-type]


def _row(report: StatsReport, key: str) -> dict[str, object]:
    (row,) = [row.to_json() for row in report.rows if row.key == key]
    return row


def test_totals_over_every_branch_and_child(tree: Path, tmp_path: Path) -> None:
    total = _report(tree, tmp_path).total.to_json()
    assert total == {
        "key": "total",
        "sessions": 3,
        "turns": 7,
        "requests": 8,
        "requestsWithoutUsage": 1,
        "requestsWithAbsurdUsage": 0,
        "toolCalls": 3,
        "toolErrors": 2,
        "toolFailureRate": 0.6667,
        "inputTokens": 4610,
        "outputTokens": 1460,
        "cacheReadTokens": 15000,
        "cacheWriteTokens": 2000,
        "costUsd": 0.03109,
        "unpricedTokens": 770,
    }


def test_by_model(tree: Path, tmp_path: Path) -> None:
    report = _report(tree, tmp_path)
    keys = [row.key for row in report.rows]
    # the biggest cost first; the unpriced model last
    assert keys == [
        "anthropic/claude-sonnet-4-5",
        "openai/gpt-5.1",
        "zai/glm-5.3",
        "openai/gpt-9-unknown",
    ]
    sonnet = _row(report, "anthropic/claude-sonnet-4-5")
    assert (sonnet["sessions"], sonnet["turns"], sonnet["requests"]) == (2, 2, 3)
    assert (sonnet["toolCalls"], sonnet["toolErrors"], sonnet["costUsd"]) == (2, 1, 0.01623)
    assert (sonnet["inputTokens"], sonnet["outputTokens"]) == (1110, 260)
    gpt = _row(report, "openai/gpt-5.1")
    assert (gpt["requests"], gpt["turns"], gpt["toolErrors"], gpt["costUsd"]) == (2, 1, 1, 0.0145)
    glm = _row(report, "zai/glm-5.3")
    assert (glm["requests"], glm["turns"], glm["costUsd"]) == (1, 1, 0.00036)
    unknown = _row(report, "openai/gpt-9-unknown")
    assert (unknown["requests"], unknown["requestsWithoutUsage"], unknown["turns"]) == (2, 1, 3)
    assert (unknown["costUsd"], unknown["unpricedTokens"]) == (None, 770)
    assert report.unpriced_models == ["openai/gpt-9-unknown"]


def test_by_project_day_and_week(tree: Path, tmp_path: Path) -> None:
    project = _report(tree, tmp_path, "project")
    a, b = _row(project, "home-u-a"), _row(project, "home-u-b")
    assert (a["sessions"], a["turns"], a["requests"], a["costUsd"]) == (2, 3, 5, 0.03073)
    assert (b["sessions"], b["turns"], b["requests"], b["costUsd"]) == (1, 4, 3, 0.00036)
    assert b["unpricedTokens"] == 770

    day = _report(tree, tmp_path, "day")
    assert [row.key for row in day.rows] == ["2026-10-05", "2026-10-06", "2026-10-12", "2026-10-13"]
    first = _row(day, "2026-10-05")
    assert (first["sessions"], first["turns"], first["requests"]) == (1, 1, 2)
    assert (first["toolCalls"], first["toolErrors"], first["costUsd"]) == (2, 1, 0.01605)
    second = _row(day, "2026-10-06")  # A1's other branch and the child
    assert (second["sessions"], second["turns"], second["requests"]) == (2, 2, 3)
    assert second["costUsd"] == 0.01468
    last = _row(day, "2026-10-13")  # only the unpriced model: cost unknown
    assert (last["turns"], last["costUsd"], last["unpricedTokens"]) == (2, None, 770)
    # the chart's days: the days with activity (the chart fills in the quiet ones it draws)
    assert [point.day for point in day.days] == [
        "2026-10-05", "2026-10-06", "2026-10-12", "2026-10-13",
    ]  # fmt: skip
    assert [point.tokens for point in day.days] == [8350, 13620, 330, 770]

    week = _report(tree, tmp_path, "week")
    assert [row.key for row in week.rows] == ["2026-W41", "2026-W42"]
    assert _row(week, "2026-W41")["costUsd"] == 0.03073
    assert _row(week, "2026-W42")["sessions"] == 1


def test_since_leaves_out_earlier_days(tree: Path, tmp_path: Path) -> None:
    report = _report(tree, tmp_path, since=date(2026, 10, 6))
    sonnet = _row(report, "anthropic/claude-sonnet-4-5")  # the child's call alone
    assert (sonnet["sessions"], sonnet["requests"], sonnet["costUsd"]) == (1, 1, 0.00018)
    assert report.total.counts.turns == 6
    assert report.to_json()["since"] == "2026-10-06"
    late = _report(tree, tmp_path, since=date(2026, 10, 13))
    assert [row.key for row in late.rows] == ["openai/gpt-9-unknown"]
    assert late.total.to_json()["costUsd"] is None


def test_parse_since() -> None:
    today = date(2026, 12, 4)
    assert parse_since("2026-10-05", today) == date(2026, 10, 5)
    assert parse_since("2026-10", today) == date(2026, 10, 1)
    assert parse_since("7d", today) == date(2026, 11, 27)
    assert parse_since("2w", today) == date(2026, 11, 20)
    for bad in ("yesterday", "2026-13-01", "2026/10/05", ""):
        with pytest.raises(SinceError, match="give a date"):
            parse_since(bad, today)
    assert week_of("2026-10-05") == "2026-W41"
    assert week_of("") == ""


def test_one_project(tree: Path, tmp_path: Path) -> None:
    files = _files(tree, tmp_path, A_CWD)
    assert sorted(f.path.name for f in files) == [
        "2026-10-05T09-00-00-000Z-aaaa.jsonl",
        "2026-10-06T09-01-00-000Z-cccc.jsonl",
    ]
    assert {f.project for f in files} == {"home-u-a"}  # the child counts in its parent's project


def test_model_names_by_inks_rule() -> None:
    assert model_name("openai/gpt-5.1") == "openai/gpt-5.1"
    assert model_name("claude-sonnet-4-5") == "anthropic/claude-sonnet-4-5"
    assert model_name("glm-5.3") == "zai/glm-5.3"
    assert model_name("OpenAI/gpt-5") == "openai/gpt-5"
    assert model_name("acme/thing") == "anthropic/acme/thing"  # an unknown prefix


def test_odd_files_never_raise(tmp_path: Path) -> None:
    folder = tmp_path / "sessions" / "p"
    folder.mkdir(parents=True)
    not_a_session = folder / "x.jsonl"
    not_a_session.write_bytes(b'{"type":"message"}\n')
    odd = folder / "y.jsonl"
    odd.write_bytes(
        b'{"type":"session","version":1,"id":"s","timestamp":"t","cwd":"/p"}\n'
        b"[1,2]\nnot json\n"
        b'{"type":"message","id":"m","parentId":null,"timestamp":"soon","message":{"role":'
        b'"assistant","blocks":"no","usage":{"inputTokens":-5,"outputTokens":1e400,'
        b'"cacheReadTokens":true,"cacheWriteTokens":"9"}}}\n'
    )
    assert (
        scan_usage(not_a_session, "p").problem == f"{not_a_session}: line 1 is not a session header"
    )
    found = scan_usage(odd, "p")
    assert found.problem is None and found.skipped_lines == 2
    ((key, counts),) = found.buckets.items()
    assert key == ("", "")  # no day, no model
    assert (counts.requests, counts.tokens) == (1, 0)
    report = build_report([found], test_prices(), "day", since=date(2026, 1, 1))
    assert report.rows == []  # an unknown day is not "since" any date


def test_the_cache_reads_only_changed_files(
    tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = _files(tree, tmp_path)
    read: list[str] = []
    real_scan = usage_module.scan_usage

    def counting(path: Path, project: str) -> FileUsage:
        read.append(path.name)
        return real_scan(path, project)

    monkeypatch.setattr(usage_module, "scan_usage", counting)
    again = _files(tree, tmp_path)
    assert read == []
    assert sorted(map(repr, (f.buckets for f in again))) == sorted(
        map(repr, (f.buckets for f in first))
    )
    b1 = next((tree / "home-u-b").glob("*.jsonl"))
    with b1.open("ab") as stream:  # the torn line completed, and one more answer
        stream.write(b"x\n")  # no more JSON than before: what matters is that it is read
    os.utime(b1, ns=(1, 1))
    _files(tree, tmp_path)
    assert read == [b1.name]


def test_prices_table_and_config(tmp_path: Path) -> None:
    defaults = load_price_table(tmp_path / "missing.toml")
    assert defaults.problems == [] and PRICES_AS_OF == "2026-12"
    # a dated model id is priced by its family's key; the longest key wins
    assert defaults.key_for("anthropic/claude-sonnet-4-5-20250929") == "anthropic/claude-sonnet"
    assert defaults.key_for("openai/gpt-5-mini-2025") == "openai/gpt-5-mini"
    assert defaults.price_of("openai/gpt-9-unknown") is None
    for provider in ("anthropic", "openai", "zai", "deepseek", "moonshotai", "moonshotai-cn"):
        assert any(key.startswith(provider + "/") for key in DEFAULT_PRICES), provider

    config = tmp_path / "config.toml"
    config.write_text(
        'theme = "ink"\n'
        '[prices."openai/gpt-9"]\ninput = 1\noutput = 2\n'
        '[prices."anthropic/claude-sonnet"]\ninput = 1\noutput = 1\ncache_read = 0\n'
        "cache_write = 0.5\n"
        '[prices."no-slash"]\ninput = 1\noutput = 1\n'
        '[prices."openai/bad"]\ninput = "cheap"\noutput = 1\n'
        '[prices."openai/half"]\ninput = 1\n',
        encoding="utf-8",
    )
    table = load_price_table(config)
    assert table.price_of("openai/gpt-9-unknown") == Price(1, 2, 1, 1)  # cache: the input price
    assert table.price_of("anthropic/claude-sonnet-4-5") == Price(1, 1, 0, 0.5)
    assert table.problems == [
        f'{config}: prices."no-slash": a key is provider/modelId (e.g. anthropic/'
        "claude-sonnet-4-5): entry not used",
        f'{config}: prices."openai/bad": input must be a number of USD per million tokens, 0 or '
        "more: entry not used",
        f'{config}: prices."openai/half": output is missing: entry not used',
    ]
    config.write_text("prices = [", encoding="utf-8")
    assert load_price_table(config).problems[0].startswith(f"{config}: not valid TOML")


def test_config_price_for_an_unknown_model(tree: Path, tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[prices."openai/gpt-9"]\ninput = 1\noutput = 2\n', encoding="utf-8")
    table = load_price_table(config)
    table.defaults = test_prices().defaults
    report = build_report(_files(tree, tmp_path), table)
    assert _row(report, "openai/gpt-9-unknown")["costUsd"] == 0.00084  # 700·1 + 70·2 µ$
    assert report.unpriced_models == []
    assert report.total.to_json()["costUsd"] == 0.03193


def test_table_text(tree: Path, tmp_path: Path) -> None:
    text = report_table(_report(tree, tmp_path))
    lines = text.splitlines()
    assert lines[0].split() == [
        "model", "sessions", "turns", "calls", "tools", "failed", "in", "out", "cache", "r",
        "cache", "w", "cost",
    ]  # fmt: skip
    assert lines[2].split() == [
        "anthropic/claude-sonnet-4-5", "2", "2", "3", "2", "50.0%", "1110", "260", "5000",
        "2000", "$0.02",
    ]  # fmt: skip
    assert lines[5].split()[-1] == "?"
    assert lines[-1].split() == [
        "total", "3", "7", "8", "3", "66.7%", "4610", "1460", "15.0k", "2000", "$0.03+?",
    ]  # fmt: skip


def test_the_cache_forgets_deleted_files(tree: Path, tmp_path: Path) -> None:
    cache_path = tmp_path / "usage.json"
    collect_usage(tree, None, cache_path=cache_path)
    assert len(usage_module.UsageCache(cache_path).entries) == 3
    child = next((tree / "home-u-a" / "children").glob("*.jsonl"))
    child.unlink()
    collect_usage(tree, "/home/u/b", cache_path=cache_path)  # another project: kept
    assert len(usage_module.UsageCache(cache_path).entries) == 3
    collect_usage(tree, A_CWD, cache_path=cache_path)
    assert len(usage_module.UsageCache(cache_path).entries) == 2
