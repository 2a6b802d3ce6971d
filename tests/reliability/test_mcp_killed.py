"""``ink-tui mcp`` killed mid-request (the agent's client crashes, the user closes the terminal)
leaves nothing behind: the sessions are byte for byte as they were, no temporary file is left,
the index opens intact, and the next server answers in full.

The server is driven with raw JSON-RPC lines (the kill needs its process); the first index of
an archive is being built when the request comes, and the process is killed at once, while it
is indexing or answering: whichever it is, the promises above hold."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

import pytest
from inksessions import ink_session

from ink_tui.catalog.index.store import default_index_path

CWD = "/home/ada/code/retry"
SESSIONS = 120


def _send(stdin: IO[bytes], message: dict[str, Any]) -> None:
    stdin.write((json.dumps(message) + "\n").encode())
    stdin.flush()


def _server(sessions: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "ink_tui", "--sessions-dir", str(sessions), "--cwd", CWD, "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )


def _initialized(server: subprocess.Popen[bytes]) -> None:
    assert server.stdin is not None and server.stdout is not None
    _send(
        server.stdin,
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                    "clientInfo": {"name": "test", "version": "1"}}},
    )  # fmt: skip
    assert json.loads(server.stdout.readline())["id"] == 1
    _send(server.stdin, {"jsonrpc": "2.0", "method": "notifications/initialized"})


def _search(server: subprocess.Popen[bytes], query: str, request: int = 2) -> None:
    assert server.stdin is not None
    _send(
        server.stdin,
        {"jsonrpc": "2.0", "id": request, "method": "tools/call",
         "params": {"name": "search_sessions", "arguments": {"query": query, "scope": "all"}}},
    )  # fmt: skip


def _digests(folder: Path) -> dict[str, str]:
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


@pytest.mark.parametrize("request_first", [True, False], ids=["mid-request", "mid-index"])
def test_a_server_killed_mid_request_leaves_nothing_behind(
    tmp_path: Path, request_first: bool
) -> None:
    sessions = tmp_path / "sessions"
    filler = "retry with backoff and jitter " * 2_000  # 60 kB a prompt
    for number in range(SESSIONS):
        ink_session(sessions, CWD, f"s{number:03d}", [f"{filler} {number}"], reply="ok")
    before = _digests(sessions)
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    env = {**os.environ, "TMPDIR": str(temporary)}

    server = _server(sessions, env)
    _initialized(server)
    if request_first:
        _search(server, "jitter")
    server.kill()
    server.wait(30)

    assert _digests(sessions) == before
    assert list(temporary.iterdir()) == []
    index = default_index_path()
    leftovers = {path.name for path in index.parent.iterdir()} - {
        index.name, f"{index.name}-wal", f"{index.name}-shm"
    }  # fmt: skip
    assert leftovers == set()

    again = _server(sessions, env)
    try:
        _initialized(again)
        assert again.stdout is not None
        for request in range(3, 1_000):  # until the index is current (a busy machine is slow)
            _search(again, "jitter", request=request)
            found = json.loads(again.stdout.readline())["result"]["structuredContent"]
            if "index" not in found:
                break
    finally:
        again.kill()
        again.wait(30)
    assert found["found"] is True and found["totalSessions"] == SESSIONS
    with sqlite3.connect(index) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
