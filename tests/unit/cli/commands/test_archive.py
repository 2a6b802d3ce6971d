"""``list``, ``search`` and ``stats`` over every machine: this one's sessions and each mirror's,
each row and hit naming its machine (``null`` in JSON for this machine)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from inksessions import ink_session

from ink_tui.paths import config_file, machines_dir

CWD = "/home/ada/code/retry"


def _write(base: Path, name: str, words: str, when: int) -> Path:
    return ink_session(base, CWD, name, [words], reply="done", mtime=when)


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


# -- one session of another machine -------------------------------------------------------------

REMOTE_CWD = "/home/ada/src/api"
LOCAL_CWD = "/Users/ada/src/api"


def _mirrored(cli: Any, name: str, machine: str = "devbox") -> Path:
    """A session of ``machine`` that ran in REMOTE_CWD, as a sync brings it (with a write)."""
    records = [
        {"type": "session", "version": 1, "id": name, "timestamp": "2026-11-20T10:00:00Z",
         "cwd": REMOTE_CWD},
        {"type": "message", "id": "u1", "parentId": None, "timestamp": "2026-11-20T10:00:01Z",
         "message": {"role": "user", "content": "fix the retry"}},
        {"type": "message", "id": "a1", "parentId": "u1", "timestamp": "2026-11-20T10:00:02Z",
         "message": {"role": "assistant", "blocks": [
             {"type": "toolCall", "id": "c1", "name": "write",
              "arguments": {"path": "src/retry.ts", "content": "retry()\n"}}],
             "usage": {"inputTokens": 10, "outputTokens": 5}, "stopReason": "tool_use",
             "model": "claude-sonnet-4-5", "modelReference": "anthropic/claude-sonnet-4-5"}},
        {"type": "message", "id": "t1", "parentId": "a1", "timestamp": "2026-11-20T10:00:03Z",
         "message": {"role": "toolResult", "results": [
             {"toolCallId": "c1", "toolName": "write", "content": "wrote src/retry.ts",
              "isError": False}]}},
    ]  # fmt: skip
    folder = machines_dir() / machine / "home-ada-src-api"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"2026-11-20T10-00-00-000Z-{name}.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return path


def test_a_mirrored_session_is_read_by_its_id_like_any_other(cli: Any) -> None:
    path = _mirrored(cli, "d0d0d0d0-remote")
    code, out, _ = cli.run("context", "d0d0d0d0", "--json")
    assert code == 0 and json.loads(out)["messages"][0]["content"] == "fix the retry"
    code, out, _ = cli.run("check", "d0d0d0d0")
    assert code == 0 and str(path) in out


def test_an_id_on_two_machines_must_be_given_by_its_path(cli: Any) -> None:
    _mirrored(cli, "e1e1e1e1-twice", "devbox")
    _mirrored(cli, "e1e1e1e1-twice", "laptop")
    code, out, err = cli.run("context", "e1e1e1e1")
    assert (code, out) == (2, "")
    assert "matches a session on each of devbox, laptop: give its path" in cli.one_error_line(err)


def test_a_mirrored_session_is_never_written_here(cli: Any) -> None:
    path = _mirrored(cli, "f2f2f2f2-remote")
    with path.open("a") as torn:  # a tail a repair would cut, were it this machine's
        torn.write('{"type":"message","id":"x')
    before = path.read_bytes()
    code, _, err = cli.run("rename", str(path), "mine now")
    assert code == 2 and "copy of machine devbox's session" in cli.one_error_line(err)
    code, out, err = cli.run("repair", str(path), "--force")
    assert code == 2 and "never written here" in out + err
    assert path.read_bytes() == before


def test_adopt_brings_a_mirrored_session_into_its_project_here_by_the_path_map(
    cli: Any, home: Path
) -> None:
    cli.run("machines", "add", "devbox", "ssh://devbox")
    config = config_file()
    config.write_text(config.read_text() + 'paths = { "/home/ada/src" = "/Users/ada/src" }\n')
    path = _mirrored(cli, "a7a7a7a7-adopt")
    code, out, err = cli.run("adopt", "a7a7a7a7")
    assert (code, err) == (0, "")
    target = home / ".ink" / "sessions" / "Users-ada-src-api" / path.name
    assert out == (
        f"copied {path.name} into {target.parent}\n"
        f"it ran in {REMOTE_CWD} on devbox, which is {LOCAL_CWD} here (the machine's path map)\n"
        f"Ink resumes it now: cd {LOCAL_CWD} && ink -r a7a7a7a7-adopt\n"
    )
    assert target.read_bytes() == path.read_bytes()
    code, out, _ = cli.run("check", str(target))
    assert code == 0, out
    code, _, err = cli.run("adopt", str(path))
    assert code == 2 and "exists already: nothing was copied" in cli.one_error_line(err)
    code, _, err = cli.run("changes", str(path), "--patch")
    assert code == 1  # the file written has no known start: left out, and said so
    assert err.splitlines() == [
        f"ink-tui: devbox's session ran in {REMOTE_CWD}, which is {LOCAL_CWD} here (the "
        f"machine's path map): the names are relative to it, so the patch applies in {LOCAL_CWD}",
        "ink-tui: src/retry.ts: not reconstructed: nothing shows its content before turn 1",
    ]


def test_list_machines_reads_the_files_when_the_index_cannot_be_used(archive: Any) -> None:
    from ink_tui.catalog.index import default_index_path

    default_index_path().parent.mkdir(parents=True, exist_ok=True)
    default_index_path().mkdir()  # not a database: the index is refused, the files are read
    code, out, err = archive.run("list", "--machines", "--json")
    assert code == 0 and "index" in archive.one_error_line(err)
    assert [(row["id"], row["machine"]) for row in json.loads(out)] == [
        ("here0000", None),
        ("devbox00", "devbox"),
        ("ci000000", "ci"),
    ]
