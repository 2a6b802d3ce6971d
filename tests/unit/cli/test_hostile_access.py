"""Files that change or vanish while a command reads them, files it may not read, and sessions
folders that do not exist or cannot be read (issue 11, item 4).

The tests run as root here, where ``chmod 000`` stops no read: an unreadable file is made by
refusing ``os.open`` of it (every session read goes through ``open_regular``), and once for real
in a subprocess that runs as ``nobody`` (``setpriv``, where the system has it).
"""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import hostile
import pytest

import ink_tui.session.conversation.context as context_module
from ink_tui.cli import main
from ink_tui.paths import project_dir


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(folder))
    return folder


def run(capsys: pytest.CaptureFixture[str], base: Path, *argv: str) -> tuple[int, str, str]:
    code = main(["--sessions-dir", str(base), "--cwd", hostile.CWD, *argv])
    out, err = capsys.readouterr()
    assert "internal error" not in err and "Traceback" not in err, err
    return code, out, err


def _refuse(monkeypatch: pytest.MonkeyPatch, refused: Path) -> None:
    """``os.open`` of ``refused`` fails as for a file of mode 000 and another user."""
    real = os.open

    def guarded(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if os.fspath(path) == str(refused):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", guarded)


# -- changed or removed while read --------------------------------------------------------------


def _meddle_before_context(monkeypatch: pytest.MonkeyPatch, act: Callable[[], None]) -> None:
    """Run ``act`` once the file is opened, before the context reads its payloads back."""
    real = context_module.stream_context

    def meddled(session: Any) -> Any:
        act()
        return real(session)

    monkeypatch.setattr(context_module, "stream_context", meddled)  # the command imports it


def test_a_file_truncated_while_it_is_read_is_one_line_naming_it(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    state: Path,
) -> None:
    # the image's record is read again from the file when the context is built
    item = hostile.build(project_dir(tmp_path / "sessions", hostile.CWD), "huge-image")
    _meddle_before_context(monkeypatch, lambda: os.truncate(item.path, 200))
    code, out, err = run(capsys, tmp_path / "sessions", "context", str(item.path))
    assert (code, out) == (2, "")
    assert err == (
        f"ink-tui: {item.path}: {item.path} changed on disk since it was opened (line 2); "
        "open it again\n"
    )
    assert not state.exists()


def test_a_record_rewritten_in_place_to_fail_inks_checks_is_one_line_naming_it(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    state: Path,
) -> None:
    """A record read again from the file is checked again as open() checked it: rewritten
    meanwhile with the same id and a role that is no longer a string (same length, so every
    byte offset still holds), it is refused as changed, never handed out as a message."""
    item = hostile.build(project_dir(tmp_path / "sessions", hostile.CWD), "huge-image")

    def rewrite() -> None:
        data = item.path.read_bytes()
        assert data.count(b'"role":"user"') >= 1
        item.path.write_bytes(data.replace(b'"role":"user"', b'"role":123456', 1))

    _meddle_before_context(monkeypatch, rewrite)
    code, out, err = run(capsys, tmp_path / "sessions", "context", str(item.path))
    assert (code, out) == (2, "")
    assert err == (
        f"ink-tui: {item.path}: {item.path} changed on disk since it was opened (line 2); "
        "open it again\n"
    )


def test_a_file_deleted_while_it_is_read_is_one_line_naming_it(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    state: Path,
) -> None:
    item = hostile.build(project_dir(tmp_path / "sessions", hostile.CWD), "huge-image")
    _meddle_before_context(monkeypatch, item.path.unlink)
    code, out, err = run(capsys, tmp_path / "sessions", "context", str(item.path))
    assert (code, out) == (2, "")
    assert err == f"ink-tui: {item.path}: No such file or directory\n"
    assert not state.exists()


# -- unreadable files -----------------------------------------------------------------------------


@pytest.fixture
def locked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> hostile.Hostile:
    item = hostile.build(project_dir(tmp_path / "sessions", hostile.CWD), "parent-chain")
    _refuse(monkeypatch, item.path)
    return item


@pytest.mark.parametrize(
    "argv",
    [["context"], ["context", "--json"], ["check"], ["check", "--json"], ["repair", "--dry-run"]],
    ids=" ".join,
)
def test_every_command_says_an_unreadable_file_in_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    locked: hostile.Hostile,
    state: Path,
    argv: list[str],
) -> None:
    code, _, err = run(capsys, tmp_path / "sessions", *argv, str(locked.path))
    assert code == 2
    assert err == f"ink-tui: {locked.path}: Permission denied\n"
    assert not state.exists()


def test_the_listing_and_the_index_show_an_unreadable_file_with_its_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], locked: hostile.Hostile, state: Path
) -> None:
    base = tmp_path / "sessions"
    code, out, err = run(capsys, base, "list", "--all")
    assert code == 0 and err == ""
    assert "[hidden by Ink: OSError: [Errno 13] Permission denied" in out
    code, out, err = run(capsys, base, "index", "--all")
    assert code == 0 and err == ""
    code, out, err = run(capsys, base, "search", "--all", "chain")
    assert code == 1 and out == ""
    assert not state.exists()


def _nobody() -> list[str]:
    setpriv = shutil.which("setpriv")
    if os.geteuid() != 0 or setpriv is None:
        pytest.skip("needs root and setpriv to run a command as nobody")
    prefix = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
    probe = [*prefix, sys.executable, "-c", "import ink_tui"]
    if subprocess.run(probe, capture_output=True, timeout=60, check=False).returncode != 0:
        pytest.skip("nobody cannot run this interpreter or import ink_tui from here")
    return prefix


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A folder ``nobody`` can enter (``tmp_path``'s parents are root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="ink-tui-hostile-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder)


def _as_nobody(prefix: list[str], home: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(home),
        "XDG_CACHE_HOME": str(home / "cache"),
        "XDG_STATE_HOME": str(home / "state"),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    return subprocess.run(
        [*prefix, sys.executable, "-m", "ink_tui", *argv],
        capture_output=True,
        text=True,
        env=env,
        cwd=home,
        timeout=120,
        check=False,
    )


def test_a_file_of_mode_000_as_another_user(shared_folder: Path) -> None:
    prefix = _nobody()
    home = shared_folder / "home"
    home.mkdir()
    os.chown(home, 65534, 65534)
    base = shared_folder / "sessions"
    item = hostile.build(project_dir(base, hostile.CWD), "deep-json")
    for folder in (base, item.path.parent):
        folder.chmod(0o755)
    item.path.chmod(0o000)
    done = _as_nobody(prefix, home, "context", str(item.path))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"ink-tui: {item.path}: Permission denied\n"
    done = _as_nobody(prefix, home, "--sessions-dir", str(base), "list", "--all")
    assert done.returncode == 0 and done.stderr == ""
    assert "[hidden by Ink: OSError: [Errno 13] Permission denied" in done.stdout
    assert not (home / "state").exists()
    base.chmod(0o000)
    done = _as_nobody(prefix, home, "--sessions-dir", str(base), "list", "--all")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"ink-tui: cannot read {base}: Permission denied\n"


# -- the sessions folder --------------------------------------------------------------------------


def test_a_sessions_folder_that_does_not_exist_lists_nothing_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], state: Path
) -> None:
    base = tmp_path / "nowhere"
    code, out, err = run(capsys, base, "list", "--all")
    assert (code, err) == (0, "")
    assert out == (
        f"no sessions in {base} ({base} does not exist); point elsewhere with --sessions-dir "
        "or $INK_SESSIONS_DIR\n"
    )
    code, out, err = run(capsys, base, "list", "--json")
    assert (code, out, err) == (0, "[]\n", "")
    code, out, err = run(capsys, base, "index", "--all")
    assert code == 0 and out.startswith("indexed: 0 session files")
    code, out, err = run(capsys, base, "search", "--all", "anything")
    assert (code, out) == (1, "")
    assert err.startswith("ink-tui: no record in any project matches anything; every file")
    code, out, err = run(capsys, base, "search", "--all", "--fresh", "anything")
    assert err == "ink-tui: no record in any project matches anything\n"
    assert not base.exists()  # nothing made
    assert not state.exists()


@pytest.mark.parametrize("scope", ["--all", "this project"])
@pytest.mark.parametrize("command", ["list", "index", "search"])
def test_a_sessions_folder_that_cannot_be_read_is_one_line_naming_it(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    state: Path,
    command: str,
    scope: str,
) -> None:
    base = tmp_path / "sessions"
    item = hostile.build(project_dir(base, hostile.CWD), "deep-json")
    refused = base if scope == "--all" else item.path.parent
    real = os.scandir

    def guarded(path: Any = ".") -> Any:
        if os.fspath(path) == str(refused):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", guarded)
    argv = [command, *(["deep"] if command == "search" else [])]
    argv += ["--all"] if scope == "--all" else []
    code, out, err = run(capsys, base, *argv)
    assert (code, out) == (2, "")
    assert err == f"ink-tui: cannot read {refused}: Permission denied\n"
    assert not state.exists()
