"""``ink-tui scrub``: each secret replaced in place, every record still the record it was (Ink
rebuilds the same context), the original in the trash first and back byte for byte, the index
read again so no search finds the secret; refused, writing nothing, where a scrub is unsafe."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from inksessions import ink_session

from ink_tui.catalog.index import load_rows
from ink_tui.catalog.index.fallback import SearchIndex
from ink_tui.manage.trash import list_trash
from ink_tui.session import build_context, open_session

CWD = "/home/ada/code/retry"
TOKEN = "ghp_" + "Vb3Nm8Qw" * 4 + "Zr7p"
OLD = time.time() - 3600  # not written to for an hour: no writer is active


def _leaky(base: Path, **kwargs: Any) -> Path:
    prompts = ["start the deploy", f"use {TOKEN} and password=hunter22 for it (scrub-me)", "thanks"]
    return ink_session(base, CWD, "leaky", prompts, reply="done", mtime=OLD, **kwargs)


def _shape(path: Path) -> list[tuple[Any, ...]]:
    context = build_context(open_session(path, warn=None))
    return [(context.leaf_id, context.compacted)] + [
        (message.get("role"),) for message in context.messages if isinstance(message, dict)
    ]


def _indexed_secrets() -> dict[str, int] | None:
    """The secrets the index counts in the one session it holds (as the picker shows them)."""
    with SearchIndex().open() as index:
        (row,) = load_rows(index, None)
    return row.secrets


@pytest.fixture
def sessions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    base = tmp_path / "sessions"
    monkeypatch.setenv("INK_SESSIONS_DIR", str(base))
    return base


def test_a_scrub_replaces_each_secret_and_keeps_every_record(cli: Any, sessions: Path) -> None:
    path = _leaky(sessions)
    before, shape, mtime = path.read_bytes(), _shape(path), path.stat().st_mtime_ns
    assert cli.run("--cwd", CWD, "search", "hunter22")[0] == 1  # the index holds it masked
    assert _indexed_secrets() == {"github-token": 1, "password": 1}
    code, out, err = cli.run("--cwd", CWD, "scrub", "leaky")
    assert (code, err) == (0, "")
    (entry,) = list_trash()
    assert out == (
        f"scrubbed 2 secrets (1 github-token, 1 password) in {path}; the original: "
        f"`ink-tui trash restore {entry.id}`\n"
    )
    after = path.read_bytes()
    old_lines, new_lines = before.split(b"\n"), after.split(b"\n")
    changed = [n for n, (a, b) in enumerate(zip(old_lines, new_lines, strict=True)) if a != b]
    assert changed == [3]  # the one record holding the secrets; every other line's bytes kept
    record = json.loads(new_lines[3])
    assert record["id"] == "u2" and record["parentId"] == "a1"
    assert record["message"]["content"].startswith("use [REDACTED:github-token:")
    assert TOKEN.encode() not in after and b"hunter22" not in after
    assert _shape(path) == shape  # Ink rebuilds the same context
    assert path.stat().st_mtime_ns == mtime  # its place in Ink's list (newest first) kept
    assert cli.run("--cwd", CWD, "secrets")[0] == 0
    assert _indexed_secrets() == {}  # the index read it again
    assert cli.run("--cwd", CWD, "search", "scrub-me")[0] == 0
    assert cli.run("--cwd", CWD, "scrub", "leaky") == (0, f"no secret to scrub in {path}\n", "")
    code, _, _ = cli.run("trash", "restore", entry.id)
    assert code == 0 and path.read_bytes() == before  # byte for byte
    assert path.stat().st_mtime_ns == mtime  # and its time


def test_a_dry_run_writes_nothing(cli: Any, sessions: Path) -> None:
    path = _leaky(sessions)
    before = path.read_bytes()
    code, out, _ = cli.run("--cwd", CWD, "scrub", "--all", "--dry-run")
    assert (
        code == 0
        and out == f"would scrub 2 secrets (1 github-token, 1 password) in {path} (lines 4)\n"
    )
    assert path.read_bytes() == before and list_trash() == []


def test_an_unsafe_scrub_is_refused_and_writes_nothing(cli: Any, sessions: Path) -> None:
    path = _leaky(sessions)
    os.utime(path)  # just written: a writer may be active
    code, out, err = cli.run("--cwd", CWD, "scrub", "leaky")
    assert (code, out) == (2, "") and "a writer may be active" in cli.one_error_line(err)
    os.utime(path, (OLD, OLD))
    with path.open("a") as file:
        file.write(f'{{"type":"message","id":"u9","parentId":"a3","message":{{"content":"{TOKEN}')
    os.utime(path, (OLD, OLD))
    before = path.read_bytes()
    code, _, err = cli.run("--cwd", CWD, "scrub", "leaky")
    assert code == 2 and "last line is cut short and may hold a secret" in cli.one_error_line(err)
    assert path.read_bytes() == before and list_trash() == []


def test_a_restore_never_loses_what_was_written_after_the_scrub(cli: Any, sessions: Path) -> None:
    path = _leaky(sessions)
    cli.run("--cwd", CWD, "scrub", "leaky")
    (entry,) = list_trash()
    with path.open("ab") as file:
        file.write(
            b'{"type":"label","id":"l1","parentId":"a3","timestamp":"x","targetId":"u1","label":"ok"}\n'
        )
    grown = path.read_bytes()
    code, _, err = cli.run("trash", "restore", entry.id)
    assert code == 2 and "changed since it was scrubbed" in cli.one_error_line(err)
    assert path.read_bytes() == grown and [e.id for e in list_trash()] == [entry.id]


def test_secrets_in_tool_calls_and_results_are_scrubbed_keeping_the_pairing(
    cli: Any, sessions: Path
) -> None:
    from changesdata import SessionScript

    from ink_tui.paths import project_dir

    script = SessionScript(project_dir(sessions, CWD), CWD)
    script.prompt("log in to the registry")
    headers = {"X-Api-Key": "a8F3kq93LmZ0pw2xQ7", "Authorization": "Basic dXNlcjpodW50ZXIy"}
    script.call("fetch", {"url": "https://registry.local", "headers": headers}, "200 OK")
    script.call("bash", {"command": "cat .env"}, f"GITHUB_TOKEN={TOKEN}\nDEBUG=1")
    script.answer("logged in")
    path = script.path
    os.utime(path, (OLD, OLD))
    shape = _shape(path)
    ids = [json.loads(line).get("id") for line in path.read_text().splitlines()]
    code, out, _ = cli.run("--cwd", CWD, "scrub", str(path))
    assert code == 0 and out.startswith("scrubbed 3 secrets (")
    assert _shape(path) == shape
    assert [json.loads(line).get("id") for line in path.read_text().splitlines()] == ids
    assert cli.run("--cwd", CWD, "check", str(path))[0] == 0  # Ink opens it as before
    assert cli.run("--cwd", CWD, "secrets", str(path))[0] == 0


def test_a_link_a_lease_or_a_failed_write_leaves_the_session_as_it_was(
    cli: Any, sessions: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ink_tui.manage import scrubbing

    path = _leaky(sessions)
    before = path.read_bytes()
    link = path.with_name("2026-11-20T10-00-00-000Z-link.jsonl")
    link.symlink_to(path)
    code, _, err = cli.run("--cwd", CWD, "scrub", str(link))
    assert code == 2 and "symbolic link" in cli.one_error_line(err) and link.is_symlink()
    link.unlink()
    lease = path.with_name(path.name + ".lease")
    lease.mkdir()
    (lease / f"lease-{os.getpid()}-abcd1234-1").write_text(json.dumps({"pid": os.getpid()}))
    code, _, err = cli.run("--cwd", CWD, "scrub", "leaky")
    assert code == 2 and "lease held by process" in cli.one_error_line(err)
    (lease / f"lease-{os.getpid()}-abcd1234-1").unlink()
    lease.rmdir()

    def full(fd: int, data: bytes) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(scrubbing, "write_all", full)
    code, _, err = cli.run("--cwd", CWD, "scrub", "leaky")
    assert code == 2 and "No space left on device" in cli.one_error_line(err)
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary file left
    assert path.read_bytes() == before and list_trash() == []
