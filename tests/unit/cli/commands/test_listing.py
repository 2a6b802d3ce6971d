"""``ink-tui list`` and how every command finds SESSION, on a copy of the project's own sessions
tree (tests/data/sessions-tree; each file's mtime is the time in its name)."""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from testdata import TREE_HOME, TREE_HOME_CWD, copy_tree

from ink_tui.paths import project_dir

EMPTY = "no message entries and no explicit model selection"
# The home project's listing, newest first: (file uuid, listed, title, messages, why hidden).
HOME_ROWS = [
    (
        "a6666666",
        False,
        None,
        None,
        "EngineError: Cannot read properties of undefined (reading 'inputTokens')",
    ),
    ("a5555555", False, None, None, "SessionError: broken parentId chain at entry a2"),
    ("a4444444", False, "(empty session)", 0, EMPTY),
    ("a3333333", True, "(model: deepseek/deepseek-chat)", 0, None),
    ("a2222222", True, "perf investigation 🔍", 2, None),
    ("a1111111", True, "Why does mean() crash on an empty list?", 4, None),
]
PROJECTS = {  # every project folder -> its sessions, newest first (file uuid prefix)
    TREE_HOME: [row[0] for row in HOME_ROWS],
    "Users-mei-work-web--client": ["b2222222", "b1111111"],
    "C--Users-dev-proj": ["c1111111"],
    "Users-mei-文档-数据分析": ["d1111111"],
}
PERF = ("a2222222", "5e1f0a2b-7c3d-4e5f-8a9b-0c1d2e3f4a05", "n1")  # file, session id, leaf


@pytest.fixture
def tree(tmp_path: Path, cli: Any) -> Path:
    return copy_tree(tmp_path / "sessions")


def _uuid(file_name: str) -> str:
    return file_name[len("2026-03-01T09-00-00-000Z-") :][:8]


def _home_file(tree: Path, uuid: str) -> Path:
    (path,) = (tree / TREE_HOME).glob(f"*-{uuid}-*.jsonl")
    return path


def _list(cli: Any, tree: Path, *extra: str, cwd: str = TREE_HOME_CWD) -> list[dict[str, Any]]:
    code, out, err = cli.run("--sessions-dir", str(tree), "--cwd", cwd, "list", "--json", *extra)
    assert (code, err) == (0, "")
    rows: list[dict[str, Any]] = json.loads(out)
    return rows


def test_list_json_is_newest_first_with_hidden_reasons(tree: Path, cli: Any) -> None:
    rows = _list(cli, tree)
    assert [_uuid(row["file"]) for row in rows] == PROJECTS[TREE_HOME]
    for row, (_, listed, title, count, skip) in zip(rows, HOME_ROWS, strict=True):
        assert (row["listed"], row["skip"], row["project"]) == (listed, skip, TREE_HOME)
        if title is not None:
            assert (row["title"], row["messageCount"]) == (title, count)
    assert rows[4]["id"] == PERF[1]
    assert rows[-1]["mtime"] == "2026-03-01T09:00:00.000000+00:00"


def test_list_mtime_decides_the_order(tree: Path, cli: Any) -> None:
    oldest = _home_file(tree, "a1111111")
    stamp = datetime.fromisoformat("2026-03-25T00:00:00+00:00").timestamp()
    os.utime(oldest, (stamp, stamp))
    assert _list(cli, tree)[0]["file"] == oldest.name


def test_list_text_marks_hidden_rows(tree: Path, cli: Any) -> None:
    code, out, _ = cli.run("--sessions-dir", str(tree), "--cwd", TREE_HOME_CWD, "list")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == len(HOME_ROWS)
    for line, (_, listed, title, _count, skip) in zip(lines, HOME_ROWS, strict=True):
        if listed:
            assert "hidden by Ink" not in line and line.endswith(str(title))
        else:
            assert line.endswith(f"[hidden by Ink: {skip}]")
    assert lines[4].startswith("5e1f0a2b ")


def test_list_all_covers_every_project_newest_first(tree: Path, cli: Any) -> None:
    rows = _list(cli, tree, "--all")
    assert sorted(_uuid(row["file"]) for row in rows) == sorted(
        uuid for files in PROJECTS.values() for uuid in files
    )
    assert [row["mtime"] for row in rows] == sorted((row["mtime"] for row in rows), reverse=True)
    assert {row["project"] for row in rows} == set(PROJECTS)
    assert not any(row["isChild"] for row in rows)  # children/ is never listed
    hidden = {_uuid(row["file"]): row["skip"] for row in rows if not row["listed"]}
    assert hidden == {uuid: skip for uuid, listed, _, _, skip in HOME_ROWS if not listed}
    code, text, _ = cli.run("--sessions-dir", str(tree), "--cwd", TREE_HOME_CWD, "list", "--all")
    assert code == 0 and len(text.splitlines()) == len(rows)
    assert "Users-mei-文档-数据分析" in text and "好的,跑一下全部测试,有问题直接修。" in text


def test_list_of_an_empty_project_says_where_it_looked(tree: Path, cli: Any) -> None:
    code, out, err = cli.run("--sessions-dir", str(tree), "--cwd", "/nowhere/at-all", "list")
    assert (code, err) == (0, "")
    assert "no sessions in" in out and str(tree) in out


# -- resolving SESSION --------------------------------------------------------------------------


def _resolved_leaf(cli: Any, *argv: str) -> str:
    code, out, err = cli.run(*argv)
    assert code == 0, err
    leaf: str = json.loads(out)["leafId"]
    return leaf


@pytest.mark.parametrize("form", ["path", "id", "prefix", "name", "stem"])
def test_session_resolution_forms(form: str, tree: Path, cli: Any) -> None:
    path = _home_file(tree, PERF[0])
    wanted = {
        "path": str(path),
        "id": PERF[1],
        "prefix": PERF[1][:6],
        "name": path.name,
        "stem": path.stem,
    }[form]
    leaf = _resolved_leaf(
        cli, "--sessions-dir", str(tree), "--cwd", TREE_HOME_CWD, "context", "--json", wanted
    )
    assert leaf == PERF[2]


def test_session_resolution_by_relative_path(
    tree: Path, cli: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _home_file(tree, PERF[0])
    monkeypatch.chdir(path.parent)
    args = ("--sessions-dir", str(tree), "--cwd", TREE_HOME_CWD, "context", "--json")
    assert _resolved_leaf(cli, *args, f"./{path.name}") == PERF[2]


def test_session_resolution_reaches_other_projects(tree: Path, cli: Any) -> None:
    args = ("--sessions-dir", str(tree), "--cwd", TREE_HOME_CWD, "context", "--json", "f4a6b8d0")
    assert _resolved_leaf(cli, *args) == "a1"  # Users-mei-work-web--client's newest


@pytest.mark.parametrize("cwd", [TREE_HOME_CWD, "/nowhere/at-all"])
def test_ambiguous_prefix_is_one_line_listing_the_candidates(
    cwd: str, tree: Path, cli: Any
) -> None:
    code, out, err = cli.run("--sessions-dir", str(tree), "--cwd", cwd, "check", "5e1f")
    assert (code, out) == (2, "")
    line = cli.one_error_line(err, naming="5e1f")
    assert "5e1f0a2b" in line and "5e1f9c3d" in line


def test_unknown_id_names_the_folder_it_looked_in(tree: Path, cli: Any) -> None:
    args = ("--sessions-dir", str(tree), "--cwd", TREE_HOME_CWD, "context", "zzzz-not-an-id")
    code, out, err = cli.run(*args)
    assert (code, out) == (2, "")
    line = cli.one_error_line(err, naming="zzzz-not-an-id")
    assert str(project_dir(tree, TREE_HOME_CWD)) in line


def test_sessions_dir_from_the_environment(
    tree: Path, cli: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INK_SESSIONS_DIR", str(tree))
    code, out, _ = cli.run("--cwd", TREE_HOME_CWD, "list", "--json")
    assert code == 0
    assert [_uuid(row["file"]) for row in json.loads(out)] == PROJECTS[TREE_HOME]
    stem = _home_file(tree, PERF[0]).stem
    assert _resolved_leaf(cli, "--cwd", TREE_HOME_CWD, "context", "--json", stem) == PERF[2]


def test_sessions_dir_flag_wins_over_the_environment(
    tree: Path, tmp_path: Path, cli: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INK_SESSIONS_DIR", str(tree))
    other = tmp_path / "other"
    other.mkdir()
    code, out, _ = cli.run("--sessions-dir", str(other), "--cwd", TREE_HOME_CWD, "list", "--json")
    assert (code, json.loads(out)) == (0, [])
    code, out, _ = cli.run("--cwd", TREE_HOME_CWD, "--sessions-dir", str(other), "list")
    assert code == 0 and str(other) in out
    stem = _home_file(tree, PERF[0]).stem
    code, _, err = cli.run("--sessions-dir", str(other), "check", stem)
    assert code == 2 and str(other) in err


def test_global_options_after_the_command(tree: Path, cli: Any) -> None:
    code, out, _ = cli.run("list", "--json", "--sessions-dir", str(tree), "--cwd", TREE_HOME_CWD)
    assert code == 0
    assert [_uuid(row["file"]) for row in json.loads(out)] == PROJECTS[TREE_HOME]


def test_usage_error_is_one_line_and_returns(tree: Path, cli: Any) -> None:
    code, _, err = cli.run("check", "x", "--sessions-dir", str(tree))
    assert code == 2
    cli.one_error_line(err)
