"""Sessions trees for the search tests, and an index file made read-only for real.

Importable from every test folder (``import searchtree``), as ``testdata`` is.

- :func:`write_session`: one small session, its prompts and answers at the times given;
- :func:`spread_tree`: many sessions over two projects, a year apart from the oldest to the
  newest, each holding a word in several records: more matching records (and sessions) than
  the old search ever looked at;
- :func:`read_only`: a file (the index) that this process cannot write: ``chmod`` for a user,
  ``chattr +i`` for root (permissions do not stop root); the test is skipped where neither works;
- :func:`sqlite_read_only`: the user's index opened as SQLite opens a file it finds it cannot
  write (runs everywhere): reads work, the first write fails with "attempt to write a readonly
  database".
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from ink_tui.catalog.index import default_index_path
from ink_tui.catalog.index import store as index_store
from ink_tui.paths import project_dir

__all__ = [
    "NOW",
    "SPREAD_CWDS",
    "read_only",
    "spread_tree",
    "sqlite_read_only",
    "write_session",
]

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
SPREAD_CWDS = ("/home/ada/code/calc-kit", "/home/ada/code/web-client")


def _stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def write_session(
    base: Path,
    cwd: str,
    name: str,
    *,
    when: datetime,
    exchanges: list[tuple[str, str]],
    session_id: str | None = None,
) -> Path:
    """A session of ``cwd`` whose prompts and answers are ``exchanges`` (a second apart from
    ``when``); the file's mtime is its last record's time."""
    folder = project_dir(base, cwd)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{when.strftime('%Y-%m-%dT%H-%M-%S-000Z')}-{name}.jsonl"
    header = {
        "type": "session",
        "version": 1,
        "id": session_id or f"sess-{name}",
        "timestamp": _stamp(when),
        "cwd": cwd,
    }
    lines = [header]
    parent: str | None = None
    moment = when
    for number, (prompt, answer) in enumerate(exchanges):
        for role, text in (("user", prompt), ("assistant", answer)):
            moment += timedelta(seconds=1)
            entry_id = f"{name}-{role[0]}{number}"
            message: dict[str, Any]
            if role == "user":
                message = {"role": "user", "content": text}
            else:
                message = {
                    "role": "assistant",
                    "blocks": [{"type": "text", "text": text}],
                    "usage": {"inputTokens": 10, "outputTokens": 5},
                    "stopReason": "end_turn",
                }
            lines.append(
                {
                    "type": "message",
                    "id": entry_id,
                    "parentId": parent,
                    "timestamp": _stamp(moment),
                    "message": message,
                }
            )
            parent = entry_id
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    os.utime(path, (moment.timestamp(), moment.timestamp()))
    return path


def spread_tree(base: Path, *, sessions: int = 120, word: str = "formatDuration") -> list[Path]:
    """``sessions`` sessions over :data:`SPREAD_CWDS`, from a year before :data:`NOW` to now,
    each with 4 prompts holding ``word`` (8 matching records with the answers) and one that does
    not. Returns them oldest first."""
    paths = []
    for number in range(sessions):
        when = NOW - timedelta(days=365) + timedelta(days=365 * number / max(1, sessions - 1))
        exchanges = [
            (f"step {step}: look at {word} in module {number}", f"{word} changed ({step})")
            for step in range(4)
        ]
        exchanges.append(("and nothing else", "ok"))
        cwd = SPREAD_CWDS[number % len(SPREAD_CWDS)]
        paths.append(write_session(base, cwd, f"s{number:04d}", when=when, exchanges=exchanges))
    return paths


def _cannot_write(path: Path) -> bool:
    try:
        with path.open("r+b"):
            return False
    except OSError:
        return True


@contextmanager
def read_only(path: Path) -> Iterator[None]:
    """``path`` (a file, and its folder for a user) read-only for this process while inside;
    undone after. Skips the test where this cannot be done for real."""
    folder = path.parent
    if os.geteuid() != 0:
        modes = {item: stat.S_IMODE(item.stat().st_mode) for item in (path, folder)}
        path.chmod(0o444)
        folder.chmod(0o555)
        try:
            yield
        finally:
            for item, mode in modes.items():
                item.chmod(mode)
        return
    chattr = shutil.which("chattr")
    made = chattr is not None and (
        subprocess.run([chattr, "+i", str(path)], capture_output=True, check=False).returncode == 0
    )
    if not made or not _cannot_write(path):
        if made and chattr is not None:
            subprocess.run([chattr, "-i", str(path)], capture_output=True, check=False)
        pytest.skip("this file system cannot make a file read-only for root (chattr +i)")
    assert chattr is not None
    try:
        yield
    finally:
        subprocess.run([chattr, "-i", str(path)], capture_output=True, check=False)


def sqlite_read_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on the user's index opens as SQLite opens a file it cannot write (the file made
    read-only after ink-tui's checks, or a read-only file system only SQLite finds out about):
    reads work, the first write fails with "attempt to write a readonly database". Any other
    index (a temporary one) opens as usual."""
    real = index_store._connect

    def connect(path: Path, timeout: float) -> sqlite3.Connection:
        if path != default_index_path():
            return real(path, timeout)
        return sqlite3.connect(
            f"file:{path}?mode=ro",
            uri=True,
            timeout=timeout,
            isolation_level=None,
            check_same_thread=False,
        )

    monkeypatch.setattr(index_store, "_connect", connect)
