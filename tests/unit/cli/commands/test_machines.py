"""``ink-tui machines`` and ``ink-tui sync`` as a user runs them: the settings kept, the mirror
kept or trashed on removal, and a sync of a reachable machine beside an unreachable one."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest
from sshserver import ssh_server

from ink_tui.paths import config_file, data_dir

HEADER = b'{"type":"session","version":1,"id":"s1","timestamp":"t","cwd":"/home/me/api"}\n'


def test_machines_are_added_listed_and_removed(cli: Any) -> None:
    assert cli.run("machines") == (
        0,
        "no machine is set up (ink-tui machines add NAME ssh://host adds one)\n",
        "",
    )
    code, out, _ = cli.run("machines", "add", "devbox", "ssh://me@devbox:2222/srv/ink")
    assert (code, out) == (
        0,
        "added devbox: ssh://me@devbox:2222/srv/ink (ink-tui sync devbox pulls it)\n",
    )
    assert "[machines.devbox]" in config_file().read_text()
    listed = json.loads(cli.run("machines", "--json")[1])
    mirror = str(data_dir() / "machines" / "devbox")
    assert listed == [{"name": "devbox", "url": "ssh://me@devbox:2222/srv/ink", "mirror": mirror}]
    assert cli.run("machines", "remove", "devbox") == (0, "removed devbox from the settings\n", "")
    assert json.loads(cli.run("machines", "--json")[1]) == []


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["machines", "add", "devbox"], "machines add needs a NAME and a URL"),
        (["machines", "add", "x", "ssh://-oProxyCommand=y"], "is not a host name"),
        (["machines", "add", "x", "s3://Bad_Bucket"], "is not an S3 bucket name"),
        (["push", "ssh://devbox"], "push puts sessions in an S3 store"),
        (["push", "s3://bucket", "--as=a.b"], "machine name"),
        (["machines", "remove", "nobody"], "no machine is named nobody"),
        (["sync"], "no machine is set up"),
        (["sync", "nobody"], "no machine is named nobody"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(cli: Any, argv: list[str], said: str) -> None:
    code, out, err = cli.run(*argv)
    assert (code, out) == (2, "")
    assert said in cli.one_error_line(err)
    assert not (data_dir() / "machines").exists()


def test_removing_a_machine_keeps_its_mirror_unless_asked_to_trash_it(cli: Any) -> None:
    for name in ("kept", "trashed"):
        cli.run("machines", "add", name, f"ssh://{name}")
        session = data_dir() / "machines" / name / "home-me-api" / "s.jsonl"
        session.parent.mkdir(parents=True)
        session.write_bytes(HEADER)
    code, out, _ = cli.run("machines", "remove", "kept", "--keep-mirror")
    assert code == 0 and f"its sessions stay in {data_dir() / 'machines' / 'kept'}" in out
    code, out, _ = cli.run("machines", "remove", "trashed", "--delete-mirror")
    assert code == 0 and "its mirror is in the trash" in out
    assert not (data_dir() / "machines" / "trashed").exists()
    entry = out.split("(")[-1].split(":")[0]
    assert cli.run("trash", "restore", entry)[0] == 0
    assert (data_dir() / "machines" / "trashed" / "home-me-api" / "s.jsonl").read_bytes() == HEADER


def test_sync_brings_what_it_reaches_and_exits_1_for_what_it_does_not(
    cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "remote"
    (source / "home-me-api").mkdir(parents=True)
    (source / "home-me-api" / "2026-12-01T10-00-00-000Z-a.jsonl").write_bytes(HEADER)
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        dead_port = closed.getsockname()[1]
    with ssh_server(tmp_path / "sshd") as server:
        monkeypatch.setenv("RSYNC_RSH", server.rsh)
        cli.run("machines", "add", "devbox", server.url(source))
        cli.run("machines", "add", "gone", f"ssh://127.0.0.1:{dead_port}/x")
        code, out, err = cli.run("sync", "--json")
    assert code == 1 and err == ""
    devbox, gone = json.loads(out)
    assert devbox == {
        "machine": "devbox", "new": 1, "grown": 0, "rewritten": 0, "gone": 0,
        "bytes": len(HEADER), "error": None,
    }  # fmt: skip
    assert gone["machine"] == "gone" and "Connection refused" in gone["error"]
    mirrored = (
        data_dir() / "machines" / "devbox" / "home-me-api" / "2026-12-01T10-00-00-000Z-a.jsonl"
    )
    assert mirrored.read_bytes() == HEADER


def test_the_progress_line_is_rewritten_in_place_then_cleared(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from ink_tui.cli.commands.machines import SyncProgress

    progress = SyncProgress("devbox")
    progress(1_500_000, 40)
    progress(3_000_000, 100)
    progress.clear()
    err = capsys.readouterr().err
    assert err.split("\r") == ["", "devbox:  40% (1.4 MB)", "devbox: 100% (2.9 MB)", " " * 21, ""]
