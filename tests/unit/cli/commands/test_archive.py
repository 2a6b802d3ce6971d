"""``list``, ``search`` and ``stats`` over every machine: this one's sessions and each mirror's,
each row and hit naming its machine (``null`` in JSON for this machine)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from ink_tui.paths import machines_dir, project_dir

CWD = "/home/ada/code/retry"


def _write(base: Path, name: str, words: str, when: int) -> Path:
    folder = project_dir(base, CWD)
    folder.mkdir(parents=True, exist_ok=True)
    records = [
        {"type": "session", "version": 1, "id": name, "timestamp": "2026-11-20T10:00:00Z",
         "cwd": CWD},
        {"type": "message", "id": "u1", "parentId": None, "timestamp": "2026-11-20T10:00:01Z",
         "message": {"role": "user", "content": words}},
        {"type": "message", "id": "a1", "parentId": "u1", "timestamp": "2026-11-20T10:00:02Z",
         "message": {"role": "assistant", "content": [{"type": "text", "text": "done"}],
                     "provider": "anthropic", "model": "claude-sonnet-4-5",
                     "usage": {"input": 1000, "output": 10, "cacheRead": 0, "cacheWrite": 0},
                     "stopReason": "stop"}},
    ]  # fmt: skip
    path = folder / f"2026-11-20T10-00-00-000Z-{name}.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    os.utime(path, (when, when))
    return path


@pytest.fixture
def archive(cli: Any) -> Any:
    _write(cli.sessions, "here0000", "the flaky retry test, here", 1_700_000_300)
    _write(
        machines_dir() / "devbox", "devbox00", "the flaky retry test, on the dev box", 1_700_000_200
    )
    _write(machines_dir() / "ci", "ci000000", "a flaky build", 1_700_000_100)
    return cli


def test_list_machines_shows_every_machine_newest_first(archive: Any) -> None:
    code, out, err = archive.run("list", "--machines")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert [line[:8] for line in lines] == ["here0000", "devbox00", "ci000000"]
    assert "(this machine)" in lines[0] and "devbox " in lines[1] and " ci " in lines[2]
    rows = json.loads(archive.run("list", "--machines", "--json")[1])
    assert [(row["id"], row["machine"]) for row in rows] == [
        ("here0000", None),
        ("devbox00", "devbox"),
        ("ci000000", "ci"),
    ]
    assert [row["machine"] for row in json.loads(archive.run("list", "--all", "--json")[1])] == [
        None
    ]


def test_search_reaches_the_mirrors_only_when_asked(archive: Any) -> None:
    hits = json.loads(archive.run("search", "flaky", "--all", "--json")[1])["hits"]
    assert [(hit["sessionId"], hit["machine"]) for hit in hits] == [("here0000", None)]
    hits = json.loads(archive.run("search", "flaky", "--machines", "--json")[1])["hits"]
    assert sorted((hit["sessionId"], hit["machine"]) for hit in hits) == [
        ("ci000000", "ci"),
        ("devbox00", "devbox"),
        ("here0000", None),
    ]
    code, out, _ = archive.run("search", "flaky machine:devbox")
    assert code == 0 and "devbox · " in out and "here0000"[:8] not in out
    code, out, err = archive.run("search", "flaky machine:laptop")
    assert (code, out) == (2, "")
    assert "no such machine (the mirrored machines are ci, devbox" in archive.one_error_line(err)


def test_stats_by_machine_counts_each_machine(archive: Any) -> None:
    report = json.loads(archive.run("stats", "--by", "machine", "--json")[1])
    assert sorted((row["key"], row["sessions"]) for row in report["rows"]) == [
        ("(this machine)", 1),
        ("ci", 1),
        ("devbox", 1),
    ]
    alone = json.loads(archive.run("stats", "--all", "--json")[1])
    assert alone["total"]["sessions"] == 1
