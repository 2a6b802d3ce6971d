"""Tests for ink_tui.paths: Ink's cwd-folder encoding and where things live."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
import testdata

from ink_tui.paths import (
    cache_dir,
    config_dir,
    config_file,
    cwd_folder_name,
    project_dir,
    sessions_dir,
    styles_dir,
)


@pytest.mark.parametrize(
    ("cwd", "folder"),
    [
        ("/Users/z/my-proj", "Users-z-my--proj"),
        ("C:\\Users\\dev\\proj", "C--Users-dev-proj"),
        ("/home/ada/code/calc-kit", "home-ada-code-calc--kit"),
        # folders of tests/data/sessions-tree
        ("/Users/mei/文档/数据分析", "Users-mei-文档-数据分析"),
        ("/Users/mei/work/web-client", "Users-mei-work-web--client"),
        ("/home/lin/src/ledger-api", "home-lin-src-ledger--api"),
    ],
)
def test_cwd_folder_name_examples(cwd: str, folder: str) -> None:
    assert cwd_folder_name(cwd) == folder


def test_only_one_leading_separator_is_dropped() -> None:
    assert cwd_folder_name("//server/share") == "-server-share"
    assert cwd_folder_name("\\\\server\\share") == "-server-share"
    assert cwd_folder_name("/") == ""


def test_dashes_are_doubled_before_separators_are_replaced() -> None:
    assert cwd_folder_name("/a-/b") == "a---b"
    assert cwd_folder_name("/-x-") == "--x--"
    assert cwd_folder_name("/a--b") == "a----b"


def test_colon_and_mixed_separators() -> None:
    assert cwd_folder_name("D:/work/x-y") == "D--work-x--y"
    assert cwd_folder_name("/opt/a:b") == "opt-a-b"


def test_relative_cwd_is_made_absolute(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert cwd_folder_name("sub-dir") == cwd_folder_name(os.path.join(os.getcwd(), "sub-dir"))


def test_tree_folders_match_header_cwds() -> None:
    """Every folder of the test sessions tree is the encoding of its sessions' header cwd."""
    folders = sorted(p for p in testdata.TREE.iterdir() if p.is_dir())
    names = {p.name for p in folders}
    assert names == {
        "C--Users-dev-proj",
        "Users-mei-work-web--client",
        "Users-mei-文档-数据分析",
        "home-ada-code-calc--kit",
    }
    for folder in folders:
        sessions = sorted(folder.glob("*.jsonl"))
        assert sessions, folder
        for session in sessions:
            with session.open(encoding="utf-8") as fh:
                header = json.loads(fh.readline())
            assert cwd_folder_name(header["cwd"]) == folder.name, session


def test_sessions_dir_flag_wins(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("INK_SESSIONS_DIR", str(tmp_path / "env"))
    assert sessions_dir(tmp_path / "flag") == tmp_path / "flag"
    assert sessions_dir(str(tmp_path / "flag")) == tmp_path / "flag"


def test_sessions_dir_env_next(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("INK_SESSIONS_DIR", str(tmp_path / "env"))
    assert sessions_dir(None) == tmp_path / "env"
    assert sessions_dir("") == tmp_path / "env"


def test_sessions_dir_default(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("INK_SESSIONS_DIR", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert sessions_dir() == tmp_path / ".ink" / "sessions"
    monkeypatch.setenv("INK_SESSIONS_DIR", "")
    assert sessions_dir() == tmp_path / ".ink" / "sessions"


def test_sessions_dir_expands_user(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    assert sessions_dir("~/s") == tmp_path / "s"
    monkeypatch.setenv("INK_SESSIONS_DIR", "~/e")
    assert sessions_dir() == tmp_path / "e"


def test_project_dir(tmp_path: Path) -> None:
    assert project_dir(tmp_path, "/home/ada/code/calc-kit") == tmp_path / "home-ada-code-calc--kit"
    assert project_dir(str(tmp_path), "C:\\Users\\dev\\proj") == tmp_path / "C--Users-dev-proj"


def test_config_and_cache_dirs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for directory in (config_dir(), cache_dir()):
        assert isinstance(directory, Path)
        assert directory.name == "ink-tui"
    assert config_file().parent == config_dir()
    assert config_file().name == "config.toml"
    if sys.platform.startswith("linux"):
        assert config_dir() == tmp_path / "cfg" / "ink-tui"
        assert cache_dir() == tmp_path / "cache" / "ink-tui"


def test_styles_dir_holds_app_tcss() -> None:
    assert (styles_dir() / "app.tcss").is_file()
