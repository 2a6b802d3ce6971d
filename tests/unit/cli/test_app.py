"""The app's command line: what ``ink-tui [SESSION] [-c|-r ID] --chat --model --thinking`` asks
the app to do, and the one-line errors of impossible combinations."""

from __future__ import annotations

from pathlib import Path

import pytest

from ink_tui.cli import main
from ink_tui.session.rules.modelref import ModelRef
from ink_tui.session.writing.writer import SessionWriter
from ink_tui.ui.app import InkApp, LaunchOptions

CWD = "/home/ada/proj"


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> list[LaunchOptions]:
    """The options each ``InkApp`` was started with (the app itself does not run)."""
    seen: list[LaunchOptions] = []

    def fake_run(self: InkApp, *args: object, **kwargs: object) -> None:
        seen.append(self.options)

    monkeypatch.setattr(InkApp, "run", fake_run)
    return seen


@pytest.fixture
def sessions(tmp_path: Path) -> Path:
    base = tmp_path / "sessions"
    from ink_tui.paths import project_dir

    writer = SessionWriter.new(project_dir(base, CWD), CWD, session_id="1f0e" + "0" * 32)
    writer.append_message({"role": "user", "content": "hello"})
    return base


def _run(base: Path, *args: str) -> int:
    return main(["--sessions-dir", str(base), "--cwd", CWD, *args])


def test_chat_with_continue_opens_the_newest_session_in_the_chat(
    sessions: Path, launched: list[LaunchOptions]
) -> None:
    assert _run(sessions, "-c", "--chat") == 0
    (options,) = launched
    assert options.chat and options.open_path is not None
    assert options.open_path.name.endswith(".jsonl")


def test_chat_with_resume_and_model_and_thinking(
    sessions: Path, launched: list[LaunchOptions]
) -> None:
    assert (
        _run(sessions, "-r", "1f0e", "--chat", "--model", "openai/gpt-5", "--thinking", "high") == 0
    )
    (options,) = launched
    assert options.model == ModelRef("openai", "gpt-5")
    assert options.thinking == "high"
    assert options.open_path is not None


def test_chat_alone_starts_a_new_session(sessions: Path, launched: list[LaunchOptions]) -> None:
    assert _run(sessions, "--chat", "--model", "glm-5") == 0
    (options,) = launched
    assert options.chat and options.open_path is None
    assert options.model == ModelRef("zai", "glm-5")  # Ink's bare glm-* rule


def test_continue_with_chat_in_a_project_without_sessions_starts_a_new_one(
    tmp_path: Path, launched: list[LaunchOptions], capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "nothing-here"
    assert _run(empty, "-c") != 0  # browsing: nothing to show
    assert "no session to continue" in capsys.readouterr().err
    assert _run(empty, "-c", "--chat") == 0  # as Ink's --continue: a new session
    (options,) = launched
    assert options.chat and options.open_path is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--chat", "--thinking", "huge"], "invalid choice: 'huge'"),
        (["--chat", "--model", " "], "--model: a model is provider/modelId"),
        (["-c", "--chat", "--follow"], "--follow and --chat do not go together"),
        (["--chat", "--model", "openai-codex/gpt-5"], "not supported by ink-tui"),
    ],
)
def test_impossible_requests_are_one_line_errors(
    sessions: Path,
    launched: list[LaunchOptions],
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    message: str,
) -> None:
    assert _run(sessions, *args) != 0
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert launched == []
