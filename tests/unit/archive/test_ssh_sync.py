"""Pulling a machine over SSH (archive/sshpull.py) against a real sshd on 127.0.0.1 and rsync:
new, grown, rewritten and gone files, hostile names left out, and an unknown host refused."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from sshserver import SshServer, ssh_server

from ink_tui.archive.machines import Machine, parse_url
from ink_tui.archive.mirrorstate import REPLACED
from ink_tui.archive.sshpull import SyncError, control_folder, parse_listing, pull_ssh

HEADER = b'{"type":"session","version":1,"id":"s1","timestamp":"t","cwd":"/home/me/api"}\n'


def _record(n: int) -> bytes:
    return (
        b'{"type":"message","id":"m%d","parentId":null,"timestamp":"t",'
        b'"message":{"role":"user","content":"prompt %d"}}\n' % (n, n)
    )


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[SshServer]:
    with ssh_server(tmp_path / "sshd") as running:
        monkeypatch.setenv("RSYNC_RSH", running.rsh)
        yield running


@pytest.fixture
def source(tmp_path: Path) -> Path:
    """The other machine's sessions folder: two projects, a child session."""
    root = tmp_path / "remote" / "sessions"
    (root / "home-me-api" / "children").mkdir(parents=True)
    (root / "home-me-web").mkdir()
    (root / "home-me-api" / "2026-12-01T10-00-00-000Z-a.jsonl").write_bytes(HEADER + _record(1))
    (root / "home-me-api" / "children" / "2026-12-01T10-05-00-000Z-c.jsonl").write_bytes(HEADER)
    (root / "home-me-web" / "2026-12-02T09-00-00-000Z-w.jsonl").write_bytes(HEADER + _record(2))
    return root


def _tree(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*.jsonl"))
        if not path.relative_to(folder).as_posix().startswith(".")
    }


def test_a_first_sync_mirrors_every_session_in_inks_layout(
    server: SshServer, source: Path, tmp_path: Path
) -> None:
    mirror = tmp_path / "mirror" / "devbox"
    report = pull_ssh(Machine("devbox", parse_url(server.url(source))), mirror)
    assert (report.new, report.grown, report.rewritten, report.gone) == (3, 0, 0, 0)
    assert report.bytes == sum(len(data) for data in _tree(source).values())
    assert _tree(mirror) == _tree(source)
    again = pull_ssh(Machine("devbox", parse_url(server.url(source))), mirror)
    assert (again.new, again.grown, again.rewritten, again.gone, again.bytes) == (0, 0, 0, 0, 0)


def test_grown_rewritten_and_deleted_sources(
    server: SshServer, source: Path, tmp_path: Path
) -> None:
    machine = Machine("devbox", parse_url(server.url(source)))
    mirror = tmp_path / "mirror" / "devbox"
    pull_ssh(machine, mirror)
    grown = source / "home-me-api" / "2026-12-01T10-00-00-000Z-a.jsonl"
    with grown.open("ab") as stream:
        stream.write(_record(3) + _record(4))
    shrunk = source / "home-me-web" / "2026-12-02T09-00-00-000Z-w.jsonl"
    old_web = shrunk.read_bytes()
    shrunk.write_bytes(HEADER)
    (source / "home-me-api" / "children" / "2026-12-01T10-05-00-000Z-c.jsonl").unlink()
    report = pull_ssh(machine, mirror)
    assert (report.new, report.grown, report.rewritten, report.gone) == (0, 1, 1, 1)
    assert report.bytes == len(_record(3) + _record(4)) + len(HEADER)
    assert (mirror / "home-me-api" / "2026-12-01T10-00-00-000Z-a.jsonl").read_bytes() == (
        grown.read_bytes()
    )
    assert (mirror / "home-me-web" / "2026-12-02T09-00-00-000Z-w.jsonl").read_bytes() == HEADER
    kept = list((mirror / REPLACED).rglob("*"))
    assert [path.read_bytes() for path in kept if path.is_file()] == [old_web]  # never dropped
    gone = mirror / "home-me-api" / "children" / "2026-12-01T10-05-00-000Z-c.jsonl"
    assert gone.read_bytes() == HEADER  # gone at the source, kept here
    assert pull_ssh(machine, mirror).gone == 0  # said once


def test_hostile_remote_names_are_left_out_with_a_note(
    server: SshServer, source: Path, tmp_path: Path
) -> None:
    expected = _tree(source)
    project = source / "home-me-api"
    (project / "link.jsonl").symlink_to("/etc/passwd")
    os.mkfifo(project / "fifo.jsonl")
    (project / "bad\x1b]0;x\x07.jsonl").write_bytes(HEADER)
    (project / ".hidden.jsonl").write_bytes(HEADER)
    (source / "x.jsonl").write_bytes(HEADER)  # not in a project folder
    notes: list[str] = []
    mirror = tmp_path / "mirror" / "devbox"
    report = pull_ssh(Machine("devbox", parse_url(server.url(source))), mirror, note=notes.append)
    assert report.new == 3
    assert _tree(mirror) == expected
    assert not any(path.is_symlink() for path in mirror.rglob("*"))
    assert any("link.jsonl: a symlink" in note for note in notes)
    assert any("fifo.jsonl: a FIFO" in note for note in notes)
    assert any("not a plain session file name" in note for note in notes)
    assert all("\x1b" not in note for note in notes)  # rsync lists it escaped


def test_an_unknown_host_key_is_refused(server: SshServer, source: Path, tmp_path: Path) -> None:
    server.known_hosts.write_text("")
    with pytest.raises(SyncError, match=r"the host key of 127\.0\.0\.1 is not known"):
        pull_ssh(Machine("devbox", parse_url(server.url(source))), tmp_path / "mirror" / "devbox")
    assert not _tree(tmp_path / "mirror" / "devbox")


def test_the_listing_keeps_only_plain_session_files() -> None:
    listing = parse_listing(
        "drwxr-xr-x          4,096 2026/12/05 12:02:26 proj\n"
        "-rw-r--r--         12,345 2026/12/05 12:02:26 proj/a b.jsonl\n"
        "-rw-r--r--              1 2026/12/05 12:02:26 proj/bad\\#033name.jsonl\n"
        "-rw-r--r--              2 2026/12/05 12:02:26 proj/children/c.jsonl\n"
        "-rw-r--r--              2 2026/12/05 12:02:26 proj/deeper/d.jsonl\n"
        "-rw-r--r--              2 2026/12/05 12:02:26 proj/notes.txt\n"
    )
    assert [(f.rel, f.size) for f in listing.files] == [
        ("proj/a b.jsonl", 12345),
        ("proj/children/c.jsonl", 2),
    ]
    assert len(listing.notes) == 2


def test_two_syncs_at_once_take_turns(server: SshServer, source: Path, tmp_path: Path) -> None:
    machine = Machine("devbox", parse_url(server.url(source)))
    mirror = tmp_path / "mirror" / "devbox"
    with ThreadPoolExecutor(2) as pool:
        reports = list(pool.map(lambda _: pull_ssh(machine, mirror), range(2)))
    assert sorted(report.new for report in reports) == [0, 3]  # the second found it all there
    assert _tree(mirror) == _tree(source)


def test_a_sync_killed_mid_file_leaves_a_prefix_and_the_next_completes_it(
    server: SshServer, source: Path, tmp_path: Path
) -> None:
    big = source / "home-me-api" / "2026-12-03T08-00-00-000Z-big.jsonl"
    record = _record(7)
    big.write_bytes(HEADER + record * (120_000_000 // len(record)))
    mirror = tmp_path / "mirror" / "devbox"
    script = (
        "import sys, pathlib\n"
        "from ink_tui.archive.machines import Machine, parse_url\n"
        "from ink_tui.archive.sshpull import pull_ssh\n"
        "pull_ssh(Machine('devbox', parse_url(sys.argv[1])), pathlib.Path(sys.argv[2]))\n"
    )
    running = subprocess.Popen(
        [sys.executable, "-c", script, server.url(source), str(mirror)], start_new_session=True
    )
    copy = mirror / big.relative_to(source)
    deadline = time.monotonic() + 60
    while running.poll() is None and time.monotonic() < deadline:
        if copy.exists() and copy.stat().st_size > 0:
            os.killpg(running.pid, signal.SIGKILL)  # the sync and its rsync and ssh
            break
        time.sleep(0.002)
    running.wait(timeout=30)
    if copy.exists():  # whatever was written is the start of the file: at most a torn tail
        with big.open("rb") as whole:
            assert whole.read(copy.stat().st_size) == copy.read_bytes()
    pull_ssh(Machine("devbox", parse_url(server.url(source))), mirror)
    assert copy.read_bytes() == big.read_bytes()
    assert _tree(mirror) == _tree(source)


def test_the_transfer_says_how_far_it_is(server: SshServer, source: Path, tmp_path: Path) -> None:
    big = source / "home-me-api" / "2026-12-03T08-00-00-000Z-big.jsonl"
    big.write_bytes(HEADER + _record(7) * 200_000)
    heard: list[tuple[int, int]] = []
    pull_ssh(
        Machine("devbox", parse_url(server.url(source))),
        tmp_path / "mirror" / "devbox",
        progress=lambda done, percent: heard.append((done, percent)),
    )
    assert heard and heard[-1][1] == 100
    assert heard[-1][0] == sum(len(data) for data in _tree(source).values())
    assert [percent for _, percent in heard] == sorted(percent for _, percent in heard)


def test_a_sync_leaves_one_shared_connection_for_the_next(
    server: SshServer, source: Path, tmp_path: Path
) -> None:
    """The listing and the transfer share one login, and so does a sync soon after (ssh's
    ControlMaster, its socket in a folder of this user's alone)."""
    folder = control_folder()
    assert folder is not None and stat.S_IMODE(folder.stat().st_mode) == 0o700
    pull_ssh(Machine("devbox", parse_url(server.url(source))), tmp_path / "mirror" / "devbox")
    control = f"ControlPath={folder}/%C"
    check = subprocess.run(
        [*server.rsh.split(), "-p", str(server.port), "-o", control, "-O", "check", "127.0.0.1"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert check.returncode == 0, check.stderr  # "Master running"


def test_a_50_mb_single_line_is_mirrored_exactly_and_indexed(
    server: SshServer, source: Path, tmp_path: Path
) -> None:
    from ink_tui.catalog.index import CatalogIndex, update_index

    huge = source / "home-me-api" / "2026-12-01T12-00-00-000Z-huge.jsonl"
    text = "x" * (50 * 1024 * 1024)
    record = b'{"type":"message","id":"u9","parentId":null,"timestamp":"t","message":'
    record += b'{"role":"user","content":"' + text.encode() + b'"}}\n'
    huge.write_bytes(HEADER + record)
    mirror = tmp_path / "mirror" / "devbox"
    report = pull_ssh(Machine("devbox", parse_url(server.url(source))), mirror)
    assert report.error is None and report.bytes >= len(record)
    copy = mirror / "home-me-api" / huge.name
    assert copy.read_bytes() == huge.read_bytes()
    with CatalogIndex.open(tmp_path / "index.sqlite3") as index:
        indexed = update_index(index, mirror, None)
    assert indexed.unread == 0 and indexed.added == 4
