"""``ink-tui --version``, and ``--demo`` keeping its sessions from one launch to the next
(``--demo --reset`` generates them again)."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

import pytest

from ink_tui.cli import main
from ink_tui.demo import DEMO_CWD, ensure_demo
from ink_tui.paths import project_dir
from ink_tui.session.writing.writer import SessionWriter
from ink_tui.ui.app import InkApp, LaunchOptions

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


# -- --version ----------------------------------------------------------------------------------


def test_version_prints_the_package_version_and_exits_0(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    assert out == f"ink-tui {metadata.version('ink-tui')}\n"


def test_version_does_not_import_textual() -> None:
    code = (
        "import sys\n"
        "from ink_tui.cli import main\n"
        "try:\n"
        "    main(['--version'])\n"
        "except SystemExit as exit:\n"
        "    assert exit.code == 0, exit.code\n"
        "print('textual' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    version_line, textual_loaded = done.stdout.splitlines()
    assert version_line.startswith("ink-tui ")
    assert textual_loaded == "False"


def test_help_names_demo_reset(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--version" in out
    assert "--reset" in out and "with --demo: delete the demo sessions and generate them" in out


# -- --demo -------------------------------------------------------------------------------------


def _demo_files(base: Path) -> dict[Path, bytes]:
    return {path: path.read_bytes() for path in sorted(base.rglob("*.jsonl"))}


def _chat_into_newest(base: Path) -> Path:
    """What a user typing into the demo's newest session leaves in it."""
    folder = project_dir(base, DEMO_CWD)
    newest = max(folder.glob("*.jsonl"), key=lambda path: path.stat().st_mtime)
    from ink_tui.session import open_session

    writer = SessionWriter.for_session(open_session(newest, warn=None))
    writer.append_message({"role": "user", "content": "a prompt the user typed in the demo"})
    return newest


def test_ensure_demo_generates_once_and_keeps_what_was_chatted(tmp_path: Path) -> None:
    base = tmp_path / "demo-sessions"
    assert ensure_demo(base, now=NOW) is True
    chatted = _chat_into_newest(base)
    before = _demo_files(base)
    assert ensure_demo(base, now=NOW) is False  # the second launch uses it as it is
    assert _demo_files(base) == before
    assert b"a prompt the user typed in the demo" in chatted.read_bytes()
    assert not list(tmp_path.glob("*.partial-*"))


def test_ensure_demo_reset_generates_again(tmp_path: Path) -> None:
    base = tmp_path / "demo-sessions"
    ensure_demo(base, now=NOW)
    chatted = _chat_into_newest(base)
    assert ensure_demo(base, reset=True, now=NOW) is True
    assert chatted.exists()  # same seed, same names: the file is there, fresh
    assert b"a prompt the user typed in the demo" not in chatted.read_bytes()


def test_ensure_demo_replaces_a_folder_without_the_demo(tmp_path: Path) -> None:
    base = tmp_path / "demo-sessions"
    (base / "half-written").mkdir(parents=True)
    assert ensure_demo(base, now=NOW) is True
    assert not (base / "half-written").exists()
    assert list(project_dir(base, DEMO_CWD).glob("*.jsonl"))


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[LaunchOptions]:
    """The options each ``InkApp`` was started with (the app does not run); the cache dir in
    ``tmp_path``."""
    seen: list[LaunchOptions] = []

    def fake_run(self: InkApp, *args: object, **kwargs: object) -> None:
        seen.append(self.options)

    monkeypatch.setattr(InkApp, "run", fake_run)
    monkeypatch.setattr("ink_tui.cli.folders.cache_dir", lambda: tmp_path / "cache")
    return seen


def test_demo_twice_keeps_the_sessions_and_reset_regenerates(
    launched: list[LaunchOptions],
) -> None:
    assert main(["--demo"]) == 0
    base = launched[0].sessions_dir
    chatted = _chat_into_newest(base)
    assert main(["--demo"]) == 0
    assert launched[1].sessions_dir == base
    assert b"a prompt the user typed in the demo" in chatted.read_bytes()
    assert main(["--demo", "--reset"]) == 0
    assert not any(b"a prompt the user typed" in data for data in _demo_files(base).values())


def test_reset_without_demo_is_a_one_line_error(
    launched: list[LaunchOptions], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--reset"]) == 2
    err = capsys.readouterr().err
    assert "--reset goes with --demo" in err and err.count("\n") == 1
    assert launched == []


# -- every command takes --demo (--help lists every command: test_registry.py) -------------------


def test_help_says_where_the_demo_sessions_are(
    launched: list[LaunchOptions], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert str(tmp_path / "cache" / "demo-sessions") in capsys.readouterr().out


@pytest.mark.parametrize("where", ["after", "before"])
def test_every_command_reads_the_demo_sessions_with_demo(
    launched: list[LaunchOptions],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    where: str,
) -> None:
    """``ink-tui --demo`` then ``ink-tui list --demo``: the same sessions, the demo project."""
    import json

    assert main(["--demo"]) == 0
    base = launched[0].sessions_dir
    assert base == tmp_path / "cache" / "demo-sessions"
    home = {path.name for path in project_dir(base, DEMO_CWD).glob("*.jsonl")}
    argv = ["list", "--json", "--demo"] if where == "after" else ["--demo", "list", "--json"]
    capsys.readouterr()
    assert main(argv) == 0
    listed = json.loads(capsys.readouterr().out)
    assert {Path(row["path"]).name for row in listed} == home and home
    assert main(["stats", "--demo", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert main(["stats", "--json", "--sessions-dir", str(base), "--cwd", DEMO_CWD]) == 0
    assert stats == json.loads(capsys.readouterr().out) and stats["rows"]  # the same folder


def test_demo_and_sessions_dir_together_is_a_one_line_error(
    launched: list[LaunchOptions], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["list", "--demo", "--sessions-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "--demo reads the demo sessions" in err and err.count("\n") == 1


@pytest.mark.parametrize("argv", [["--help"], ["search", "--help"], ["changes", "--help"]])
def test_help_fits_the_terminal_and_keeps_paths_whole(
    argv: list[str],
    launched: list[LaunchOptions],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit):
        main(argv)
    out = capsys.readouterr().out
    demo = str(tmp_path / "cache" / "demo-sessions")
    assert demo in out  # never broken at its hyphen (a path longer than a line stays whole)
    assert all(len(line) <= 80 for line in out.splitlines() if demo not in line), out
