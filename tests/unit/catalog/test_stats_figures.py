"""``ink-tui stats`` over records that broke it or made it lie (issue 19): dates that cannot be,
a span of ten thousand years, a call without usage, absurd usage and a 200-character model."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from figurestree import (
    CWD,
    IMPOSSIBLE_DAYS,
    LONG_MODEL,
    odd_dates_tree,
    span_tree,
    usage_tree,
)

from ink_tui.catalog.prices import load_price_table
from ink_tui.catalog.stats import build_report
from ink_tui.catalog.usagecache import collect_usage


@pytest.fixture(autouse=True)
def no_user_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The default prices only: no config.toml of the user's."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "no-config"))


def _stats(cli: Any, base: Path, *extra: str) -> tuple[int, str, str]:
    return cli.run("stats", "--sessions-dir", str(base), "--cwd", CWD, *extra)  # type: ignore[no-any-return]


@pytest.mark.parametrize("by", ["model", "project", "day", "week"])
def test_impossible_dates_are_an_unknown_day_for_every_grouping(
    cli: Any, tmp_path: Path, by: str
) -> None:
    base = tmp_path / "sessions"
    odd_dates_tree(base)
    code, out, err = _stats(cli, base, "--by", by, "--json")
    assert (code, err) == (0, "")
    report = json.loads(out)
    assert report["total"]["requests"] == 5 and report["total"]["turns"] == 5
    assert report["total"]["inputTokens"] == 50
    keys = {row["key"]: row for row in report["rows"]}
    if by == "day":
        assert list(keys) == ["(unknown)", "2026-10-05"]  # the four impossible ones: unknown
        assert keys["(unknown)"]["requests"] == len(IMPOSSIBLE_DAYS)
    if by == "week":
        assert list(keys) == ["(unknown)", "2026-W41"]
    code, out, err = _stats(cli, base, "--by", by)  # the table too
    assert (code, err) == (0, "")
    assert "internal error" not in out and out.splitlines()[0].startswith(by)


def test_since_leaves_out_records_whose_day_is_unknown(cli: Any, tmp_path: Path) -> None:
    base = tmp_path / "sessions"
    odd_dates_tree(base)
    code, out, err = _stats(cli, base, "--by", "day", "--since", "2026-01-01", "--json")
    assert (code, err) == (0, "")
    assert [row["key"] for row in json.loads(out)["rows"]] == ["2026-10-05"]


def test_ten_thousand_years_cost_two_days_not_three_million(cli: Any, tmp_path: Path) -> None:
    base = tmp_path / "sessions"
    span_tree(base)
    report = build_report(collect_usage(base, CWD), load_price_table(), "day")
    assert [point.day for point in report.days] == ["0001-01-01", "9999-12-31"]
    code, out, err = _stats(cli, base, "--all", "--by", "day", "--json")
    assert (code, err) == (0, "")
    assert [row["key"] for row in json.loads(out)["rows"]] == ["0001-01-01", "9999-12-31"]
    code, out, err = _stats(cli, base, "--all", "--by", "week")
    assert (code, err) == (0, "")
    assert [line.split()[0] for line in out.splitlines()[2:4]] == ["0001-W01", "9999-W52"]


def test_a_call_recorded_without_usage_counts_though_it_holds_zeros(
    cli: Any, tmp_path: Path
) -> None:
    base = tmp_path / "sessions"
    usage_tree(base)
    code, out, err = _stats(cli, base, "--json")
    assert (code, err) == (0, "")
    total = json.loads(out)["total"]
    assert (total["requests"], total["requestsWithoutUsage"]) == (4, 1)


def test_absurd_usage_is_flagged_and_left_out_of_the_totals(cli: Any, tmp_path: Path) -> None:
    base = tmp_path / "sessions"
    usage_tree(base)
    code, out, err = _stats(cli, base, "--json")
    assert (code, err) == (0, "")
    report = json.loads(out)
    total = report["total"]
    assert total["requestsWithAbsurdUsage"] == 1
    assert (total["inputTokens"], total["outputTokens"]) == (1005, 105)
    assert total["costUsd"] < 0.01  # 1000 in and 100 out of sonnet, not $198 billion
    sonnet = next(row for row in report["rows"] if row["key"] == "anthropic/claude-sonnet-4-5")
    assert (sonnet["requests"], sonnet["requestsWithAbsurdUsage"]) == (3, 1)
    code, out, err = _stats(cli, base)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    total_line = next(line for line in lines if line.startswith("total"))
    assert total_line.split()[3] == "4!"  # the calls, one of them flagged
    assert (
        "flagged: 1 model call reports over 1,000,000,000 tokens (corrupt or hand-made): "
        "counted as calls (marked !), not in tokens or cost"
    ) in lines


def test_a_long_model_name_is_cut_to_fit(cli: Any, tmp_path: Path) -> None:
    base = tmp_path / "sessions"
    usage_tree(base)
    code, out, err = _stats(cli, base)
    assert (code, err) == (0, "")
    table = out.splitlines()[:6]  # the head, a rule, the two models, a rule, the total
    assert table[-1].startswith("total")
    assert max(len(line) for line in table) <= 120  # it was 250 and more
    long_row = next(line for line in table if line.startswith("openai/mmm"))
    assert "…" in long_row and LONG_MODEL not in out
    code, out, err = _stats(cli, base, "--json")
    assert LONG_MODEL in [row["key"] for row in json.loads(out)["rows"]]  # --json: whole


def test_on_a_terminal_the_table_fits_its_width(tmp_path: Path) -> None:
    from ink_tui.catalog.stats import report_table

    base = tmp_path / "sessions"
    usage_tree(base)
    report = build_report(collect_usage(base, CWD), load_price_table(), "model")
    for width in (100, 120, 200):
        lines = report_table(report, width).splitlines()
        assert max(len(line) for line in lines) <= width
        assert any(line.startswith("openai/mmm") and "…" in line for line in lines)
    assert LONG_MODEL in report_table(report, 300)  # room enough: whole
