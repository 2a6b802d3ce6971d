"""Following a file another process is writing: every record exactly once, in order.

A writer subprocess appends real-shaped records in chunks of random size (splitting records
across writes and pausing mid-line), in bursts or at a steady pace, while the test polls a
:class:`SessionTail`. Nothing here depends on how fast the machine is: the check is that what
the tail collected equals what the file holds once the writer is done.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from testdata import session_file

from ink_tui.demo import generate_session
from ink_tui.session.live.tail import SessionTail, open_for_follow
from ink_tui.session.reading.reader import open_session

FOLLOW_LIMIT_SECONDS = 120.0  # a bound, never reached when the tail works: the writer is quick
WRITER = r"""
import json, os, random, sys, time
source, target, mode, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
rng = random.Random(seed)
data = open(source, "rb").read()
fd = os.open(target, os.O_WRONLY | os.O_APPEND)
position = 0
lines_written = 0
while position < len(data):
    size = rng.choice([1, 7, 50, 300, 4096, 20000])
    chunk = data[position : position + size]
    os.write(fd, chunk)
    position += len(chunk)
    if mode == "steady":
        newlines = chunk.count(b"\n")
        lines_written += newlines
        time.sleep(0.05 * newlines + (0.01 if not chunk.endswith(b"\n") else 0))
    elif mode == "burst":
        if rng.random() < 0.02:
            time.sleep(0.02)  # a pause, sometimes in the middle of a line
os.close(fd)
"""


def _follow(source_lines: bytes, header: bytes, tmp_path: Path, mode: str, seed: int) -> Path:
    """Write ``header`` now, let a subprocess append ``source_lines``; follow until done."""
    target = tmp_path / "followed.jsonl"
    target.write_bytes(header)
    source = tmp_path / "source.bin"
    source.write_bytes(source_lines)
    session = open_for_follow(target)
    tail = SessionTail(session)
    seen: list[str] = []
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(source), str(target), mode, str(seed)]
    )
    deadline = time.monotonic() + FOLLOW_LIMIT_SECONDS
    try:
        while True:  # following is polling: this loop is what the test exercises
            done = writer.poll() is not None
            update = tail.poll()
            assert update.reset is None, update.reset
            update.apply_to(session)  # what the app's handler does, on its event loop
            seen.extend(entry.id for entry in update.entries)
            if done and tail.offset == target.stat().st_size:
                break
            assert time.monotonic() < deadline, "timed out following the writer to its end"
            time.sleep(0.005)  # the cadence of the polls, as the app's follow thread has one
    finally:
        writer.wait(timeout=60)
    final = open_session(target, warn=None)
    assert seen == [entry.id for entry in final.entries]  # none missing, none twice, in order
    assert session.leaf_id == final.leaf_id
    assert len(session.positions) == len(final.positions)
    assert [entry.id for entry in session.entries] == seen
    return target


def _split_header(path: Path) -> tuple[bytes, bytes]:
    data = path.read_bytes()
    newline = data.index(b"\n") + 1
    return data[:newline], data[newline:]


@pytest.fixture(scope="module")
def realistic(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from datetime import UTC, datetime

    folder = tmp_path_factory.mktemp("live")
    return generate_session(
        folder,
        "/home/ada/code/calc-kit",
        seed=7,
        entries=1200,
        clock_start=datetime(2026, 11, 1, tzinfo=UTC),
    )


def test_bursts_of_a_thousand_records(realistic: Path, tmp_path: Path) -> None:
    header, body = _split_header(realistic)
    assert body.count(b"\n") >= 1000
    _follow(body, header, tmp_path, "burst", seed=1)


def test_steady_twenty_records_a_second(realistic: Path, tmp_path: Path) -> None:
    header, body = _split_header(realistic)
    lines = body.split(b"\n")[:60]
    _follow(b"\n".join(lines) + b"\n", header, tmp_path, "steady", seed=2)


@pytest.mark.parametrize("name", ["branch-position", "position-then-label", "metadata-mix"])
def test_fork_fixtures_followed_equal_opened(name: str, tmp_path: Path) -> None:
    header, body = _split_header(session_file(name))
    _follow(body, header, tmp_path, "burst", seed=3)


def test_torn_fixture_waits_for_the_newline(tmp_path: Path) -> None:
    """A half-written last line is never an error and never read half; its end completes it."""
    header, body = _split_header(session_file("torn-no-newline"))
    target = tmp_path / "s.jsonl"
    target.write_bytes(header + body)  # the last record lacks its newline
    session = open_for_follow(target)
    tail = SessionTail(session)
    assert not session.dropped_final_line and session.ends_with_newline
    before = len(session.entries)
    update = tail.poll()
    assert not update and tail.offset == session.size  # nothing to show: the line waits
    with target.open("ab") as stream:
        stream.write(b"\n")
    update = tail.poll()
    assert len(update.entries) == 1 and not update.problems
    update.apply_to(session)
    assert len(session.entries) == before + 1
    assert tail.poll().entries == []  # read once


def test_an_invalid_complete_line_is_reported_and_following_goes_on(tmp_path: Path) -> None:
    header, body = _split_header(session_file("minimal"))
    target = tmp_path / "s.jsonl"
    target.write_bytes(header + body)
    session = open_for_follow(target)
    tail = SessionTail(session)
    good = {
        "type": "message",
        "id": "ffff000011112222",
        "parentId": "a1",
        "timestamp": "2026-10-12T11:40:00.000Z",
        "message": {"role": "user", "content": "next"},
    }
    with target.open("ab") as stream:
        stream.write(b'{"type":"message","id":\n')
        stream.write(json.dumps(good).encode() + b"\n")
    update = tail.poll()
    assert [problem.line for problem in update.problems] == [4]
    assert "invalid JSON" in update.problems[0].reason
    assert [entry.id for entry in update.entries] == ["ffff000011112222"]
    update.apply_to(session)
    assert session.leaf_id == "ffff000011112222"


def test_a_file_that_shrinks_or_is_replaced_asks_for_a_reload(tmp_path: Path) -> None:
    header, body = _split_header(session_file("minimal"))
    target = tmp_path / "s.jsonl"
    target.write_bytes(header + body)
    tail = SessionTail(open_for_follow(target))
    target.write_bytes(header)
    assert "shrank" in (tail.poll().reset or "")
    target.write_bytes(header + body)
    tail = SessionTail(open_for_follow(target))
    replacement = tmp_path / "new.jsonl"
    replacement.write_bytes(header + body + body)
    replacement.replace(target)
    assert "replaced" in (tail.poll().reset or "")


def test_a_position_marker_moves_the_leaf(tmp_path: Path) -> None:
    header, body = _split_header(session_file("minimal"))
    target = tmp_path / "s.jsonl"
    target.write_bytes(header + body)
    session = open_for_follow(target)
    tail = SessionTail(session)
    assert session.leaf_id != "u1"
    with target.open("ab") as stream:
        stream.write(b'{"type":"position","leafId":"u1"}\n')
    update = tail.poll()
    update.apply_to(session)
    assert session.leaf_id == "u1"  # the branch the view shows (LoadedBranch.extension_to)


def test_a_poll_is_a_batch_of_its_own_and_the_session_changes_only_when_applied(
    tmp_path: Path,
) -> None:
    """The follow thread polls while the app reads the session: polling must not touch it."""
    header, body = _split_header(session_file("minimal"))
    target = tmp_path / "s.jsonl"
    target.write_bytes(header + body)
    session = open_for_follow(target)
    before = (list(session.entries), session.leaf_id, session.size, session.line_count)
    tail = SessionTail(session)
    extra = {
        "type": "message",
        "id": "ffff000011112222",
        "parentId": session.leaf_id,
        "timestamp": "2026-10-12T11:40:00.000Z",
        "message": {"role": "user", "content": "next"},
    }
    with target.open("ab") as stream:
        stream.write(json.dumps(extra).encode() + b"\n")
        stream.write(
            b'{"type":"session_model","provider":"zai","modelId":"glm-5.3","explicit":true}\n'
        )
    update = tail.poll()
    assert [entry.id for entry in update.entries] == ["ffff000011112222"]
    assert len(update.session_models) == 1
    after_poll = (list(session.entries), session.leaf_id, session.size, session.line_count)
    assert after_poll == before  # the poll made a batch; the opened session is unchanged
    update.apply_to(session)
    assert session.leaf_id == "ffff000011112222"
    assert session.size == target.stat().st_size
    assert session.line_count == before[3] + 2
    assert session.session_models[-1].record["modelId"] == "glm-5.3"
    reopened = open_session(target, warn=None)
    assert [entry.id for entry in session.entries] == [entry.id for entry in reopened.entries]
    assert session.leaf_id == reopened.leaf_id and session.line_count == reopened.line_count
    assert tail.poll().entries == []  # read once
