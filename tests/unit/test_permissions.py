"""Paths and permissions (issue 11): what ink-tui creates is private (files 0600, folders 0700),
a SESSION argument never leaves the sessions folder unless it is given as a path, and a chat
that could not write says so before any model request."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

import ink_tui.agent.start as start_module
from ink_tui.agent.start import load_chat, new_chat
from ink_tui.catalog.scan import ResolveError, resolve_session
from ink_tui.session import SessionWriter
from ink_tui.ui.config import UiConfig, save_config


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_session_ink_tui_creates_is_private(tmp_path: Path) -> None:
    old = os.umask(0o022)  # a usual umask: the modes come from ink-tui, not from it
    try:
        writer = SessionWriter.new(tmp_path / "sessions" / "proj", "/home/ada/code/x")
        writer.append_message({"role": "user", "content": "hello"})
    finally:
        os.umask(old)
    assert _mode(writer.path) == 0o600
    assert _mode(writer.path.parent) == 0o700


def test_the_settings_file_is_private(tmp_path: Path) -> None:
    path = tmp_path / "config" / "ink-tui" / "config.toml"
    save_config(UiConfig(theme="ink"), path)
    assert _mode(path) == 0o600
    assert _mode(path.parent) == 0o700


def _session(folder: Path, name: str = "s.jsonl") -> Path:
    writer = SessionWriter.new(folder, "/home/ada/code/x")
    writer.append_message({"role": "user", "content": "hello"})
    return writer.path.rename(folder / name)


@pytest.mark.parametrize(
    "wanted", ["../outside", "../outside.jsonl", "proj/../../outside", "/etc/passwd-x"]
)
def test_a_session_argument_that_is_not_a_file_is_matched_inside_the_sessions_folder_only(
    tmp_path: Path, wanted: str
) -> None:
    base = tmp_path / "sessions"
    _session(base / "proj")
    _session(tmp_path, "outside.jsonl")  # beside the sessions folder, not in it
    with pytest.raises(ResolveError, match="no session matching"):
        resolve_session(base, "/home/ada/code/x", wanted)


def test_a_session_given_as_a_path_is_taken_wherever_it_is(tmp_path: Path) -> None:
    outside = _session(tmp_path, "outside.jsonl")
    assert resolve_session(tmp_path / "sessions", "/x", str(outside)) == outside


def test_a_read_only_session_refuses_to_continue_before_any_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _session(tmp_path / "proj")
    monkeypatch.setattr(start_module.os, "access", lambda where, mode: Path(where) != path)
    start = load_chat(path)
    assert start.read_only == f"the file {path} is read-only: nothing can be written to it"


def test_a_new_chat_in_a_read_only_sessions_folder_refuses_before_any_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = tmp_path / "sessions"
    base.mkdir()
    monkeypatch.setattr(start_module.os, "access", lambda where, mode: Path(where) != base)
    start = new_chat("/home/ada/code/x", sessions_dir=base)
    assert start.read_only == f"the folder {base} is read-only: nothing can be written to it"


def test_saving_the_theme_keeps_every_other_setting(tmp_path: Path) -> None:
    from ink_tui.ui.config import UiConfig, load_config, save_config

    path = tmp_path / "config.toml"
    text = '# mine\ntheme = "ink"\n\n[prices."anthropic/claude-x"]\ninput = 3.0\n'
    path.write_text(text)
    save_config(UiConfig(theme='no"rd'), path)
    assert path.read_text() == text.replace('theme = "ink"', 'theme = "no\\"rd"')
    assert load_config(path).theme == 'no"rd'
    path.write_text('[prices."a/b"]\ntheme = 1\n')  # a key of a table, not the setting
    save_config(UiConfig(theme="nord"), path)
    assert path.read_text() == 'theme = "nord"\n[prices."a/b"]\ntheme = 1\n'
