"""The last turns read from the end of a file are the ones a whole open shows.

Compared on the project's demo sessions and on hand-made edge files; the scan stops when its
cancel event is set, by the bytes it read.
"""

from __future__ import annotations

import io
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ink_tui.demo import generate_demo
from ink_tui.session import SessionError, open_session
from ink_tui.session.conversation import lastturns
from ink_tui.session.conversation.branchview import load_branch
from ink_tui.session.conversation.lastturns import LastTurns, ScanCancelled, read_last_turns
from ink_tui.session.conversation.view import Turn
from ink_tui.session.reading.lines import iter_line_blocks_backward, iter_lines

COUNT = 3


def shape(turns: list[Turn]) -> list[Any]:
    """What the preview draws of each turn: the prompt, then every row with its text."""
    return [
        (
            turn.user.id if turn.user is not None else None,
            turn.prompt,
            [
                (
                    item.kind,
                    item.entry.id,
                    item.index,
                    item.text,
                    None if item.tool is None else (item.tool.status, item.tool.output),
                )
                for item in turn.items
            ],
        )
        for turn in turns
    ]


def whole(path: Path) -> tuple[list[Any], int]:
    """The last turns and the number of prompts, from a whole open (what the preview did)."""
    session = open_session(path, warn=None)
    turns = load_branch(session, session.leaf_id).turns
    return shape(turns[-COUNT:]), sum(1 for turn in turns if turn.user is not None)


def same_as_whole(path: Path) -> LastTurns:
    last = read_last_turns(path, COUNT)
    expected, total = whole(path)
    assert shape(last.turns) == expected
    assert last.total in (None, total)
    if last.total is not None:
        assert last.first_number == total - sum(1 for t in last.turns if t.user) + 1
    return last


def test_demo_sessions(tmp_path: Path) -> None:
    paths = generate_demo(tmp_path / "sessions", now=datetime(2026, 12, 1, tzinfo=UTC))
    assert paths
    for path in sorted((tmp_path / "sessions").rglob("*.jsonl")):
        last = same_as_whole(path)
        assert last.from_tail, path
        assert last.total is not None  # small files are read to their start


def _conversation(sf: Any, prompts: int, parent: str | None = None, tag: str = "") -> list[Any]:
    records: list[Any] = []
    for number in range(prompts):
        user, answer, result = f"u{tag}{number}", f"a{tag}{number}", f"r{tag}{number}"
        call = (f"c{tag}{number}", "read")
        records += [
            sf.user(user, parent, f"prompt {tag}{number}"),
            sf.assistant(answer, user, f"answer {tag}{number}", calls=(call,)),
            sf.results(result, answer, call),
        ]
        parent = result
    return records


def test_torn_final_lines_are_dropped_as_open_drops_them(sf: Any) -> None:
    records = _conversation(sf, 5)
    unterminated = sf.write(*records, b'{"type":"message","id":"x', newline=False)
    assert same_as_whole(unterminated).from_tail
    bad_json = sf.write(*records, b'{"type":"message",')
    assert same_as_whole(bad_json).from_tail
    no_newline = sf.write(*records, newline=False)  # a whole record without its newline: kept
    last = same_as_whole(no_newline)
    assert last.turns[-1].user is not None and last.turns[-1].user.id == "u4"


def test_position_markers_move_the_leaf(sf: Any) -> None:
    records = _conversation(sf, 5)
    back = sf.write(*records, sf.position("r1"))  # /tree back to the second turn
    last = same_as_whole(back)
    assert [t.user.id for t in last.turns if t.user] == ["u0", "u1"]
    forked = sf.write(*records, sf.position("r1"), *_conversation(sf, 2, "r1", tag="f"))
    last = same_as_whole(forked)
    assert [t.user.id for t in last.turns if t.user] == ["u1", "uf0", "uf1"]
    cleared = sf.write(*records, sf.position(None))
    assert same_as_whole(cleared).turns == []
    unknown = sf.write(*records, sf.position("nowhere"))  # Ink ignores it: the last entry leads
    assert [t.user.id for t in same_as_whole(unknown).turns if t.user] == ["u2", "u3", "u4"]
    earlier = sf.write(*records[:6], sf.position("r0"), *records[6:])  # before the last entry
    assert [t.user.id for t in same_as_whole(earlier).turns if t.user] == ["u2", "u3", "u4"]
    labelled = sf.write(*records, sf.entry("label", "l1", "r4", targetId="a4", label="v1"))
    assert same_as_whole(labelled).from_tail


def test_compaction_and_summaries_in_the_last_turns(sf: Any) -> None:
    records = _conversation(sf, 3)
    compaction = sf.entry(
        "compaction",
        "k1",
        "r2",
        summary="what happened",
        tokensBefore=50_000,
        firstKeptEntryId="u2",
    )
    after = _conversation(sf, 2, "k1", tag="k")
    summary = sf.entry("branchSummary", "b1", "rk1", summary="a branch left", fromId="r0")
    last = same_as_whole(sf.write(*records, compaction, *after, summary))
    kinds = [item.kind for turn in last.turns for item in turn.items]
    assert "compaction" in kinds and "branch_summary" in kinds


def test_a_chain_that_leaves_the_tail_is_read_further_back(
    sf: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The leaf's parents sit before a long side branch: the scan reads on until it has them."""
    monkeypatch.setattr(lastturns, "BLOCK_BYTES", 4096)
    monkeypatch.setattr(lastturns, "COUNT_BELOW", 0)  # do not read small files whole
    main = _conversation(sf, 3)
    side = _conversation(sf, 200, "r0", tag="s")  # about 60 KB written after the fork point
    path = sf.write(*main[:3], *side, *main[3:])
    last = same_as_whole(path)
    assert last.from_tail and last.total == 3  # it walked to the root
    assert last.bytes_read > 4096
    assert [t.user.id for t in last.turns if t.user] == ["u0", "u1", "u2"]
    long = sf.write(*_conversation(sf, 100))
    last = same_as_whole(long)
    assert last.from_tail and last.total is None  # the root was not needed
    assert last.bytes_read < long.stat().st_size // 4


@pytest.mark.parametrize(
    "damage",
    ["corrupt interior line", "broken chain", "cycle", "null record", "earlier call"],
)
def test_what_the_tail_cannot_tell_goes_to_a_whole_open(
    sf: Any, damage: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lastturns, "COUNT_BELOW", 0)  # small files too stop at the last turns
    monkeypatch.setattr(lastturns, "BLOCK_BYTES", 256)  # and the first block is not the file
    records = _conversation(sf, 4)
    if damage == "corrupt interior line":
        records.insert(len(records) - 2, b'{"type":"message" oops}')
    elif damage == "broken chain":
        records[6] = sf.user("u2", "missing", "prompt 2")
    elif damage == "cycle":  # in the last turns (one before them is not seen: docstring)
        records[9] = sf.user("u3", "a3", "prompt 3")
    elif damage == "null record":
        records.insert(len(records) - 2, b"null")
    else:  # a result whose call is in a turn before the last three: Ink pairs it there
        records.append(sf.results("late", records[-1]["id"], ("c0", "read")))
    path = sf.write(*records)
    try:
        expected = whole(path)
    except SessionError as error:
        with pytest.raises(SessionError) as raised:
            read_last_turns(path, COUNT)
        assert (type(raised.value), str(raised.value)) == (type(error), str(error))
        return
    last = read_last_turns(path, COUNT)
    assert not last.from_tail
    assert (shape(last.turns), last.total) == expected


def test_a_cancelled_scan_stops_at_the_next_block(sf: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lastturns, "BLOCK_BYTES", 4096)
    monkeypatch.setattr(lastturns, "COUNT_BELOW", 1 << 30)  # would read the whole file
    path = sf.write(*_conversation(sf, 300))
    cancel = threading.Event()
    seen: list[int] = []

    def progress(done: int) -> None:
        seen.append(done)
        if done > 0:
            cancel.set()  # the cursor moved on while the first block was read

    with pytest.raises(ScanCancelled):
        read_last_turns(path, COUNT, cancel=cancel, progress=progress)
    assert max(seen) <= 4096 < path.stat().st_size


def test_a_cancelled_whole_open_stops_early(sf: Any) -> None:
    """The fallback open takes the cancel event too: it stops after its first chunk."""
    filler = "x" * 4000
    records = [sf.user(f"u{n}", f"u{n - 1}" if n else None, filler) for n in range(4000)]
    records.insert(-2, b"not json")  # only a whole open can word this error
    path = sf.write(*records)
    assert path.stat().st_size > 12_000_000
    cancel = threading.Event()
    seen: list[int] = []

    def progress(done: int) -> None:
        seen.append(done)
        if done > 300_000:  # past the tail: the whole open has started
            cancel.set()

    with pytest.raises(ScanCancelled):
        read_last_turns(path, COUNT, cancel=cancel, progress=progress)
    assert max(seen) < path.stat().st_size


def test_an_already_cancelled_scan_reads_nothing(sf: Any) -> None:
    cancel = threading.Event()
    cancel.set()
    seen: list[int] = []
    with pytest.raises(ScanCancelled):
        read_last_turns(sf.write(*_conversation(sf, 2)), COUNT, cancel=cancel, progress=seen.append)
    assert seen == [0]


def test_unreadable_files_raise_as_open_does(sf: Any, tmp_path: Path) -> None:
    for path in (
        sf.write_bytes(b""),
        sf.write_bytes(b"not a header\n"),
        sf.write(*_conversation(sf, 1), header=False),
        tmp_path / "gone.jsonl",
    ):
        with pytest.raises(SessionError) as expected:
            open_session(path, warn=None)
        with pytest.raises(SessionError) as got:
            read_last_turns(path, COUNT)
        assert str(got.value) == str(expected.value)


@given(
    st.binary(max_size=60).map(lambda data: data.replace(b"\x00", b"\n")),
    st.integers(min_value=1, max_value=9),
    st.booleans(),
)
def test_backward_lines_are_the_forward_lines_reversed(
    data: bytes, chunk: int, from_second_line: bool
) -> None:
    start = data.index(b"\n") + 1 if from_second_line and b"\n" in data else 0
    forward = list(iter_lines(io.BytesIO(data), start, chunk_size=chunk))
    blocks = iter_line_blocks_backward(io.BytesIO(data), start, len(data), chunk_size=chunk)
    backward = [line for block in blocks for line in block]
    assert backward == forward[::-1]
