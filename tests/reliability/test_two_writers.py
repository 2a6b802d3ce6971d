"""Two writers on one session (issue 11): ink-tui's writer never mixes its bytes with another
process's record, and says so whenever the other process got in the way.

The race itself is in ``two_writers.py`` (``python tests/two_writers.py --rounds 50
--records 200`` for the full run's figures); here a few short races, and the two moments a
race can hit, made to happen on purpose.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from two_writers import provoke

import ink_tui.session.writing.writer as writer_module
from ink_tui.session import ConcurrentWriteError, SessionWriter, open_session

THEIR_RECORD = (
    b'{"type":"message","id":"theirs","parentId":null,"timestamp":"2026-10-05T12:34:56.789Z",'
    b'"message":{"role":"user","content":"from the other process"}}\n'
)


def _writer(tmp_path: Path) -> SessionWriter:
    writer = SessionWriter.new(tmp_path / "proj", "/home/ada/code/two")
    writer.append_message({"role": "user", "content": "first"})
    return writer


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_a_race_with_another_writer_never_mixes_two_records(tmp_path: Path, seed: int) -> None:
    race = provoke(tmp_path / str(seed), seed, records=60)
    assert race.mixed_lines == [] and race.bad_lines == []
    assert race.ours_found == race.ours_written  # every record it said it wrote is whole
    assert race.ours_written + race.conflicts_caught == race.ours_attempted


def test_a_record_being_written_by_another_process_is_waited_for(tmp_path: Path) -> None:
    writer = _writer(tmp_path)
    half = THEIR_RECORD[:50]
    with writer.path.open("ab") as stream:
        stream.write(half)
    before = writer.path.read_bytes()
    writer._size = len(before)  # as if it had seen the half line: only the newline check stops it
    with pytest.raises(ConcurrentWriteError, match="another process is writing a record"):
        writer.append_message({"role": "user", "content": "mine"})
    assert writer.path.read_bytes() == before


def test_another_process_starting_a_record_between_the_check_and_the_write_is_undone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    writer = _writer(tmp_path)
    before = writer.path.read_bytes()
    real_write = os.write
    cut = 70

    def their_half_first(fd: int, data: Any) -> int:
        with writer.path.open("ab") as other:  # the other process, in the window
            other.write(THEIR_RECORD[:cut])
        monkeypatch.setattr(writer_module.os, "write", real_write)
        return real_write(fd, data)

    monkeypatch.setattr(writer_module.os, "write", their_half_first)
    with pytest.raises(ConcurrentWriteError, match="this record was taken back out"):
        writer.append_message({"role": "user", "content": "mine"})
    assert writer.path.read_bytes() == before + THEIR_RECORD[:cut]
    with writer.path.open("ab") as other:  # the other process finishes its record
        other.write(THEIR_RECORD[cut:])
    session = open_session(writer.path, warn=None)
    assert session.leaf_id == "theirs" and session.dropped_final_line is None
    again = SessionWriter.for_session(session)
    again.append_message({"role": "user", "content": "mine, after theirs"})
    assert open_session(again.path, warn=None).leaf_id == again.leaf_id
