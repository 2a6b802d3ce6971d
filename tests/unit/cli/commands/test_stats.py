"""``ink-tui stats`` (issue 12) on the hand-computed tree of tests/statstree.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from statstree import A_CWD, write_tree


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The tree, and a config dir of the test's own holding the prices of statstree.py (the
    defaults still apply to other models; gpt-9-unknown has none)."""
    base = tmp_path / "sessions"
    write_tree(base)
    config = tmp_path / "config" / "ink-tui"
    config.mkdir(parents=True)
    (config / "config.toml").write_text(
        '[prices."anthropic/claude-sonnet-4-5"]\n'
        "input = 3\noutput = 15\ncache_read = 0.3\ncache_write = 3.75\n"
        '[prices."openai/gpt-5.1"]\ninput = 1\noutput = 10\ncache_read = 0.1\n'
        '[prices."zai/glm-5"]\ninput = 1\noutput = 2\ncache_read = 0.5\n',
        encoding="utf-8",
    )
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return base


def _json(cli: Any, tree: Path, *extra: str) -> dict[str, Any]:
    code, out, err = cli.run("stats", "--sessions-dir", str(tree), "--json", *extra)
    assert (code, err) == (0, "")
    found: dict[str, Any] = json.loads(out)
    return found


def test_json_shape_and_totals(cli: Any, tree: Path) -> None:
    report = _json(cli, tree, "--all")
    assert list(report) == [
        "groupBy", "since", "pricesAsOf", "rows", "total", "unpricedModels", "problems",
    ]  # fmt: skip
    assert (report["groupBy"], report["since"], report["pricesAsOf"]) == ("model", None, "2026-12")
    assert list(report["total"]) == [
        "key", "sessions", "turns", "requests", "requestsWithoutUsage", "requestsWithAbsurdUsage",
        "toolCalls", "toolErrors", "toolFailureRate", "inputTokens", "outputTokens",
        "cacheReadTokens", "cacheWriteTokens", "costUsd", "unpricedTokens",
    ]  # fmt: skip
    total = report["total"]
    assert (total["sessions"], total["turns"], total["requests"]) == (3, 7, 8)
    assert (total["inputTokens"], total["outputTokens"], total["costUsd"]) == (4610, 1460, 0.03109)
    assert report["unpricedModels"] == ["openai/gpt-9-unknown"]
    assert report["problems"] == []


def test_this_project_by_default(cli: Any, tree: Path) -> None:
    report = _json(cli, tree, "--cwd", A_CWD, "--by", "project")
    assert [row["key"] for row in report["rows"]] == ["home-u-a"]
    assert report["total"]["costUsd"] == 0.03073


def test_by_day_since(cli: Any, tree: Path) -> None:
    report = _json(cli, tree, "--all", "--by", "day", "--since", "2026-10-12")
    assert [row["key"] for row in report["rows"]] == ["2026-10-12", "2026-10-13"]
    assert report["since"] == "2026-10-12"
    assert report["total"]["turns"] == 4


def test_relative_since_counts_from_today(
    cli: Any, tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import date

    from ink_tui.cli.commands import stats as stats_command

    monkeypatch.setattr(stats_command, "_today", lambda: date(2026, 10, 20))
    report = _json(cli, tree, "--all", "--by", "week", "--since", "1w")  # since 2026-10-13
    assert report["since"] == "2026-10-13"
    assert [row["key"] for row in report["rows"]] == ["2026-W42"]


def test_table(cli: Any, tree: Path) -> None:
    code, out, err = cli.run("stats", "--sessions-dir", str(tree), "--all", "--by", "week")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["week", "sessions", "turns"]
    assert [line.split()[0] for line in lines[2:4]] == ["2026-W41", "2026-W42"]
    assert lines[5].split()[-1] == "$0.03+?"
    assert "no price for openai/gpt-9-unknown: tokens counted, cost '?'" in out
    assert out.endswith("cost: estimated from list prices as of 2026-12; days are UTC\n")


def test_nothing_to_count(cli: Any, tree: Path) -> None:
    code, out, err = cli.run("stats", "--sessions-dir", str(tree), "--cwd", "/nowhere")
    assert (code, err) == (0, "")
    assert out == "no sessions in this project (--all reads every project)\n"


def test_bad_since_is_one_line(cli: Any, tree: Path) -> None:
    code, out, err = cli.run("stats", "--sessions-dir", str(tree), "--since", "last tuesday")
    assert (code, out) == (2, "")
    line = cli.one_error_line(err, naming="--since")
    assert "give a date (2026-10-05), a month (2026-10), or 7d / 4w" in line


def test_bad_config_is_said_and_the_rest_reported(cli: Any, tree: Path, tmp_path: Path) -> None:
    config = tmp_path / "config" / "ink-tui" / "config.toml"
    config.write_text('[prices."openai/gpt-9"]\ninput = "lots"\noutput = 1\n', encoding="utf-8")
    code, out, err = cli.run("stats", "--sessions-dir", str(tree), "--all", "--json")
    assert code == 0
    assert err == (
        f'ink-tui: {config}: prices."openai/gpt-9": input must be a number of USD per million '
        "tokens, 0 or more: entry not used\n"
    )
    assert json.loads(out)["problems"] == [err[len("ink-tui: ") : -1]]


def test_session_text_never_reaches_the_terminal_raw(cli: Any, tmp_path: Path) -> None:
    folder = tmp_path / "hostile" / "p"
    folder.mkdir(parents=True)
    (folder / "s.jsonl").write_text(
        '{"type":"session","version":1,"id":"s","timestamp":"t","cwd":"/p"}\n'
        '{"type":"message","id":"m","parentId":null,"timestamp":"2026-10-05T00:00:00.000Z",'
        '"message":{"role":"assistant","blocks":[],"usage":{"inputTokens":1,"outputTokens":1},'
        '"modelReference":"openai/\\u001b]2;pwned\\u0007"}}\n',
        encoding="utf-8",
    )
    code, out, err = cli.run("stats", "--sessions-dir", str(tmp_path / "hostile"), "--all")
    assert (code, err) == (0, "")
    assert "\x1b" not in out and "\x07" not in out
    assert "openai/\u241b]2;pwned\u2407" in out  # shown as control pictures, never obeyed


def test_a_progress_bar_on_a_terminal(
    cli: Any, tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With stderr a terminal, ``stats`` reads the sessions under a progress bar (gone when it
    is done) and prints the same table."""
    import sys

    from ink_tui.catalog import usagecache as usage

    seen: list[tuple[int, int]] = []
    collect = usage.collect_usage

    def watched(base: Path, scope: str | None, **options: Any) -> Any:
        assert "progress" in options  # the bar asks to be told
        files = collect(base, scope, **options)
        seen.append((len(files), len(files)))
        return files

    code, plain, _ = cli.run("stats", "--sessions-dir", str(tree), "--all")
    monkeypatch.setattr(usage, "collect_usage", watched)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, out, err = cli.run("stats", "--sessions-dir", str(tree), "--all")
    assert code == 0 and out == plain and seen == [(3, 3)]
    assert "Traceback" not in err
