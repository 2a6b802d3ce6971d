"""Push and pull through a real S3 store (SeaweedFS on 127.0.0.1, tests/s3server.py): a runner
whose credentials may only write pushes its sessions, a viewer that may only read pulls them;
only new bytes travel, a rewrite is a new generation, and odd objects never reach the mirror."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from s3server import S3Server, s3_server

from ink_tui.archive import s3pull
from ink_tui.archive.machines import Machine, parse_url
from ink_tui.archive.mirrorstate import REPLACED
from ink_tui.archive.rclone import StoreError
from ink_tui.archive.s3pull import pull_s3
from ink_tui.archive.s3push import push_s3
from ink_tui.paths import machines_dir

HEADER = '{"type":"session","version":1,"id":"%s","timestamp":"t","cwd":"/home/me/api"}\n'


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[S3Server]:
    with s3_server(tmp_path_factory.mktemp("s3")) as running:
        yield running


def _line(n: int) -> str:
    return json.dumps({"type": "message", "id": f"m{n}", "parentId": None, "text": "x" * 40}) + "\n"


def _runner_tree(root: Path) -> dict[str, Path]:
    """A runner's sessions: two projects, a subagent session."""
    files = {
        "home-me-api/2026-12-01T10-00-00-000Z-a.jsonl": HEADER % "a" + _line(1),
        "home-me-api/children/2026-12-01T10-05-00-000Z-c.jsonl": HEADER % "c",
        "home-me-web/2026-12-01T11-00-00-000Z-b.jsonl": HEADER % "b" + _line(2) + _line(3),
    }
    made = {}
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        made[rel] = path
    return made


def _viewer_machine(server: S3Server, prefix: str, name: str = "ci") -> Machine:
    return Machine(name, parse_url(server.url(prefix, name)))


def _synced(
    server: S3Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, prefix: str
) -> tuple[dict[str, Path], Any, Machine]:
    """A runner's tree pushed (write-only) and pulled (read-only) once: its files, the store's
    address, the viewer's machine; the viewer's credentials are in use at the end."""
    made = _runner_tree(tmp_path / "runner")
    url = parse_url(server.url(prefix))
    machine = _viewer_machine(server, prefix)
    server.use(monkeypatch, "runner")
    push_s3(url, "ci", tmp_path / "runner")
    server.use(monkeypatch, "viewer")
    pull_s3(machine, machine.mirror())
    return made, url, machine


def _mirror_bytes(name: str = "ci") -> dict[str, bytes]:
    mirror = machines_dir() / name
    return {
        str(path.relative_to(mirror)): path.read_bytes()
        for path in sorted(mirror.rglob("*.jsonl"))
        if REPLACED not in path.parts
    }


def test_a_write_only_runner_pushes_and_a_read_only_viewer_pulls_the_same_bytes(
    server: S3Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = _runner_tree(tmp_path / "runner")
    server.use(monkeypatch, "runner")
    pushed = push_s3(parse_url(server.url("t1")), "ci", tmp_path / "runner")
    assert pushed.to_json(pushed=True) == {
        "machine": "ci", "new": 3, "grown": 0, "rewritten": 0,
        "bytes": sum(path.stat().st_size for path in made.values()), "error": None,
        "secrets": {},
    }  # fmt: skip
    keys = set(server.objects())
    assert (
        f"t1/ci/home-me-api/2026-12-01T10-00-00-000Z-a.jsonl/0001/{0:015d}-{made['home-me-api/2026-12-01T10-00-00-000Z-a.jsonl'].stat().st_size:015d}"
        in keys
    )
    server.use(monkeypatch, "viewer")
    machine = _viewer_machine(server, "t1")
    report = pull_s3(machine, machine.mirror())
    assert (report.new, report.grown, report.rewritten, report.error) == (3, 0, 0, None)
    assert _mirror_bytes() == {rel: path.read_bytes() for rel, path in made.items()}
    again = pull_s3(machine, machine.mirror())
    assert (again.new, again.grown, again.bytes) == (0, 0, 0)


def test_only_new_complete_lines_travel_and_a_rewrite_is_a_new_generation(
    server: S3Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made, url, machine = _synced(server, tmp_path, monkeypatch, "t2")
    grown = made["home-me-api/2026-12-01T10-00-00-000Z-a.jsonl"]
    with grown.open("a") as stream:
        stream.write(_line(4) + _line(5) + '{"type":"message","id":"torn')  # Ink mid-write
    server.use(monkeypatch, "runner")
    pushed = push_s3(url, "ci", tmp_path / "runner")
    new_lines = len(_line(4) + _line(5))
    assert (pushed.grown, pushed.new, pushed.bytes) == (1, 0, new_lines)
    assert push_s3(url, "ci", tmp_path / "runner").bytes == 0  # nothing new: nothing put
    server.use(monkeypatch, "viewer")
    report = pull_s3(machine, machine.mirror())
    assert (report.grown, report.bytes) == (1, new_lines)
    complete = grown.read_bytes()[: grown.read_bytes().rindex(b"\n") + 1]
    assert _mirror_bytes()["home-me-api/2026-12-01T10-00-00-000Z-a.jsonl"] == complete
    rewritten = made["home-me-web/2026-12-01T11-00-00-000Z-b.jsonl"]
    old = rewritten.read_bytes()
    rewritten.write_text(HEADER % "b" + _line(9))  # cut back and changed (a repair, a rewrite)
    server.use(monkeypatch, "runner")
    assert push_s3(url, "ci", tmp_path / "runner").rewritten == 1
    server.use(monkeypatch, "viewer")
    report = pull_s3(machine, machine.mirror())
    assert report.rewritten == 1
    assert _mirror_bytes()["home-me-web/2026-12-01T11-00-00-000Z-b.jsonl"] == rewritten.read_bytes()
    kept = list((machine.mirror() / REPLACED).rglob("*"))
    assert [path.read_bytes() for path in kept if path.is_file()] == [old]


def test_objects_that_are_not_plain_segments_never_reach_the_mirror(
    server: S3Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    good = HEADER % "g"
    server.put(f"t3/ci/p/s.jsonl/0001/{0:015d}-{len(good):015d}", good.encode())
    hostile = {
        f"t3/ci/p/../../evil.jsonl/0001/{0:015d}-{5:015d}": b"evil\n",
        f"t3/ci/.hidden/s.jsonl/0001/{0:015d}-{5:015d}": b"dots\n",
        f"t3/ci/p/\x1b[31mred.jsonl/0001/{0:015d}-{5:015d}": b"esc!\n",
        f"t3/ci/p/short.jsonl/0001/{0:015d}-{99:015d}": b"too short\n",
        "t3/ci/p/notes.txt": b"not a session\n",
    }
    for key, data in hostile.items():
        server.put(key, data)
    server.use(monkeypatch, "viewer")
    machine = _viewer_machine(server, "t3")
    notes: list[str] = []
    report = pull_s3(machine, machine.mirror(), note=notes.append)
    assert report.new == 1 and _mirror_bytes() == {"p/s.jsonl": good.encode()}
    assert len(notes) == len(hostile)
    assert sorted(path.name for path in machines_dir().iterdir()) == [".ci.lock", "ci"]
    assert not list(machines_dir().parent.parent.rglob("evil.jsonl"))


def test_a_viewer_without_read_rights_or_a_store_that_is_down_is_one_line(
    server: S3Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server.use(monkeypatch, "runner")  # may write, not list
    machine = _viewer_machine(server, "t4")
    with pytest.raises(StoreError, match="access denied"):
        pull_s3(machine, machine.mirror())
    monkeypatch.setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:9")
    with pytest.raises(StoreError) as raised:
        pull_s3(machine, machine.mirror())
    assert "\n" not in str(raised.value)
    pushed = push_s3(
        parse_url(server.url("t4")), "ci", _runner_tree(tmp_path / "r") and tmp_path / "r"
    )
    assert pushed.error is not None and "\n" not in pushed.error


def test_new_bytes_that_do_not_all_land_are_cut_back_off(
    server: S3Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made, url, machine = _synced(server, tmp_path, monkeypatch, "t5")
    path = made["home-me-api/2026-12-01T10-00-00-000Z-a.jsonl"]
    with path.open("a") as stream:
        stream.write(_line(7) * 200)
    server.use(monkeypatch, "runner")
    push_s3(url, "ci", tmp_path / "runner")
    before = _mirror_bytes()
    real_write = os.write
    calls = {"n": 0}

    def failing(fd: int, data: Any) -> int:
        calls["n"] += 1
        if calls["n"] > 1:
            raise OSError(28, "No space left on device")
        return real_write(fd, bytes(data)[:100])  # a short write, then the disk is full

    monkeypatch.setattr(s3pull.os, "write", failing)
    server.use(monkeypatch, "viewer")
    with pytest.raises(OSError, match="No space left"):
        pull_s3(machine, machine.mirror())
    monkeypatch.setattr(s3pull.os, "write", real_write)
    assert _mirror_bytes() == before  # as it was: nothing half there
    report = pull_s3(machine, machine.mirror())
    assert (
        report.grown == 1
        and _mirror_bytes()["home-me-api/2026-12-01T10-00-00-000Z-a.jsonl"] == path.read_bytes()
    )


def test_push_then_sync_from_the_command_line(
    server: S3Server, cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = tmp_path / "runner"
    _runner_tree(runner)
    server.use(monkeypatch, "runner")
    code, out, err = cli.run("--sessions-dir", str(runner), "push", server.url("t6"), "--as", "ci")
    assert (code, err) == (0, "")
    assert out.startswith("ci: 3 new, 0 grown, 0 rewritten; ")
    assert out.rstrip().endswith(f"put in {server.url('t6', 'ci')}")
    server.use(monkeypatch, "viewer")
    assert cli.run("machines", "add", "ci", server.url("t6", "ci"))[0] == 0
    code, out, err = cli.run("sync", "--json")
    assert (code, err) == (0, "")
    assert json.loads(out) == [
        {"machine": "ci", "new": 3, "grown": 0, "rewritten": 0, "gone": 0,
         "bytes": sum(p.stat().st_size for p in runner.rglob("*.jsonl")), "error": None}
    ]  # fmt: skip
    rows = json.loads(cli.run("list", "--machines", "--json")[1])
    assert sorted((row["id"], row["machine"]) for row in rows) == [("a", "ci"), ("b", "ci")]
    server.use(monkeypatch, "runner")  # may not list: the sync says so, exit 1
    code, out, _ = cli.run("sync", "--json")
    assert code == 1 and "access denied" in json.loads(out)[0]["error"]


def test_a_file_gone_from_the_store_stays_in_the_mirror_marked_gone(
    server: S3Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made, _, machine = _synced(server, tmp_path, monkeypatch, "t7")
    rel = "home-me-web/2026-12-01T11-00-00-000Z-b.jsonl"
    server.delete(f"t7/ci/{rel}")  # someone cleaned the store up
    report = pull_s3(machine, machine.mirror())
    assert report.gone == 1 and _mirror_bytes()[rel] == made[rel].read_bytes()
    state = json.loads((machine.mirror() / ".ink-tui-mirror.json").read_text())
    assert state["gone"] == [rel]
    assert pull_s3(machine, machine.mirror()).gone == 0  # said once, kept


def test_a_push_says_which_sessions_pushed_hold_secrets(
    server: S3Server, cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = tmp_path / "runner"
    made = _runner_tree(runner)
    token = "ghp_" + "Wm5Rk2Tz" * 4 + "Pq7c"  # a GitHub token's shape (not a real one)
    leaky = made["home-me-web/2026-12-01T11-00-00-000Z-b.jsonl"]
    with leaky.open("a") as stream:
        stream.write(
            json.dumps(
                {
                    "type": "message",
                    "id": "x9",
                    "parentId": None,
                    "timestamp": "2026-12-01T11:09:00Z",
                    "message": {"role": "user", "content": f"GH_TOKEN={token}"},
                }
            )
        )
        stream.write("\n")  # fmt: skip
    server.use(monkeypatch, "runner")
    code, out, err = cli.run("--sessions-dir", str(runner), "push", server.url("t9"), "--json")
    assert code == 0 and token not in out + err
    assert json.loads(out)["secrets"] == {"home-me-web/2026-12-01T11-00-00-000Z-b.jsonl": {
        "github-token": 1}}  # fmt: skip
    assert cli.one_error_line(err) == (
        "ink-tui: 1 session pushed holds secrets (1 github-token): `ink-tui secrets --all` lists "
        "them, `ink-tui scrub` replaces them (the next push sends the scrubbed file)"
    )
