"""Errors nobody foresaw are logged with their traceback (``ink_tui.logs``) and shown as one line
that says where the log is: in the tools, the approval preview and the command line."""

from __future__ import annotations

import asyncio
import stat
from pathlib import Path
from typing import Any

import pytest

import ink_tui.agent.tools as tools
import ink_tui.logs as logs
from ink_tui.agent.approval import preview_call
from ink_tui.agent.tools import run_tool


@pytest.fixture
def log_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "logs"
    monkeypatch.setattr(logs, "log_dir", lambda: folder)
    return folder


def _boom(*_args: Any) -> Any:
    raise TypeError("boom \x1b]2;title\x07")  # a bug, with session-like text in its message


def test_unforeseen_logs_the_traceback_privately_and_names_the_error(log_dir: Path) -> None:
    try:
        _boom()
    except TypeError as error:
        line = logs.unforeseen(error, "a test")
    path = log_dir / logs.LOG_FILE_NAME
    assert line.startswith("internal error in a test: TypeError: boom")
    assert line.endswith(f"(traceback in {path})")
    text = path.read_text()
    assert "Traceback (most recent call last)" in text and "in _boom" in text
    assert "\x1b" not in text and "␛]2;title␇" in text  # controls made visible
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(log_dir.stat().st_mode) == 0o700


def test_a_secret_in_an_error_is_masked_in_the_log_and_the_line(log_dir: Path) -> None:
    token = "ghp_" + "Vb3Nm8Qw" * 4 + "Zr7p"
    try:
        raise KeyError(f"no tool for {token}")  # session text in a bug's message
    except KeyError as error:
        line = logs.unforeseen(error, "a test")
    text = (log_dir / logs.LOG_FILE_NAME).read_text()
    assert token not in text and token not in line
    assert "[REDACTED:github-token:" in text and "[REDACTED:github-token:" in line


def test_the_log_is_size_capped(log_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(logs, "MAX_BYTES", 200)
    for n in range(5):
        logs.log_exception(ValueError(f"error {n}"), "a test")
    current = log_dir / logs.LOG_FILE_NAME
    previous = log_dir / (logs.LOG_FILE_NAME + ".1")
    assert "error 4" in current.read_text()
    assert previous.exists() and current.stat().st_size < 400
    assert sorted(p.name for p in log_dir.iterdir()) == [logs.LOG_FILE_NAME, previous.name]


def test_a_log_that_cannot_be_written_still_gives_the_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setattr(logs, "log_dir", lambda: blocker / "logs")  # under a file: OSError
    line = logs.unforeseen(KeyError("k"), "a test")
    assert line == "internal error in a test: KeyError: 'k' (the log could not be written)"


def test_a_bug_in_a_tool_is_logged_and_the_call_still_gets_its_result(
    log_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(tools._FILE_TOOLS, "ls", (_boom, None))
    outcome = asyncio.run(run_tool("ls", {}, cwd=tmp_path))
    assert outcome.is_error
    assert outcome.content.startswith("Error: internal error in the ls tool: TypeError: boom")
    assert "in _boom" in (log_dir / logs.LOG_FILE_NAME).read_text()


def test_a_tool_s_own_errors_are_its_result_and_not_logged(log_dir: Path, tmp_path: Path) -> None:
    outcome = asyncio.run(run_tool("read", {"path": "nul\x00byte"}, cwd=tmp_path))
    assert outcome.is_error and "internal error" not in outcome.content
    assert "without null bytes" in outcome.content  # Node's refusal, as Ink's tool reports it
    (tmp_path / "f.txt").write_text("one two\n")
    edit = {"path": "f.txt", "edits": [{"oldText": "three", "newText": "3"}]}
    missing = asyncio.run(run_tool("edit", edit, cwd=tmp_path))
    assert missing.is_error and "was not found in the file" in missing.content
    command = asyncio.run(run_tool("bash", {"command": "echo a\x00b"}, cwd=tmp_path))
    assert command.is_error and "null byte" in command.content
    assert not log_dir.exists()


def _value_bug(*_args: Any) -> Any:
    return int("not a number")  # a bug raising ValueError: not a tool's own refusal


def test_a_value_error_that_is_a_bug_is_logged_not_passed_off_as_the_tool_s_answer(
    log_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(tools._FILE_TOOLS, "ls", (_value_bug, None))
    outcome = asyncio.run(run_tool("ls", {}, cwd=tmp_path))
    assert outcome.is_error
    assert outcome.content.startswith("Error: internal error in the ls tool: ValueError:")
    assert "in _value_bug" in (log_dir / logs.LOG_FILE_NAME).read_text()


def test_a_bug_in_the_approval_preview_is_logged_and_the_modal_still_asks(
    log_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ink_tui.agent.approval as approval

    monkeypatch.setattr(approval, "_bash", _boom)
    preview = preview_call("bash", {"command": "ls"}, tmp_path)
    assert preview.problem is not None
    assert preview.problem.startswith("could not preview this call: internal error in the ")
    assert '"command": "ls"' in preview.body
    assert (log_dir / logs.LOG_FILE_NAME).exists()


def test_the_command_line_logs_an_internal_error(
    log_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import dataclasses

    import ink_tui.cli as cli
    from ink_tui.cli import registry

    monkeypatch.delenv("INK_TUI_DEBUG", raising=False)
    app = dataclasses.replace(registry.APP, run=_boom)  # what main() runs for the app
    monkeypatch.setattr(registry, "APP", app)
    assert cli.main([]) != 0
    err = capsys.readouterr().err
    assert "internal error" in err and "TypeError: boom" in err
    assert str(log_dir / logs.LOG_FILE_NAME) in err
    assert "in _boom" in (log_dir / logs.LOG_FILE_NAME).read_text()
