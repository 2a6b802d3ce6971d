"""``SessionWriter``: appending exactly as Ink appends (spec §5, §9; ink-source §5)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from ink_tui.session import ConcurrentWriteError, ModelRef, SessionWriter, open_session
from ink_tui.session.writing import appends as appends_module
from ink_tui.session.writing.writer import WriteBlockedError, new_entry_id

NOW = datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=UTC)
NOW_TEXT = "2026-01-02T03:04:05.678Z"
SESSION_ID = "5f0c6a52-5a43-4a8e-9a55-0c6f6c3c2f11"
FILE_UUID = "11111111-2222-4333-8444-555555555555"
HEX16 = re.compile(r"[0-9a-f]{16}")


def fixed_clock() -> datetime:
    return NOW


def counter_hex() -> Callable[[], str]:
    numbers: Iterator[int] = iter(range(1, 10_000))
    return lambda: f"{next(numbers):016x}"


def new_writer(tmp_path: Path, **options: Any) -> SessionWriter:
    options.setdefault("clock", fixed_clock)
    options.setdefault("random_hex", counter_hex())
    return SessionWriter.new(
        tmp_path / "proj", "/home/ada/proj", session_id=SESSION_ID, file_uuid=FILE_UUID, **options
    )


def header_bytes(**extra: Any) -> bytes:
    header = {
        "type": "session",
        "version": 1,
        "id": SESSION_ID,
        "timestamp": NOW_TEXT,
        "cwd": "/home/ada/proj",
        **extra,
    }
    return json.dumps(header, separators=(",", ":")).encode()


def lines(path: Path) -> list[bytes]:
    data = path.read_bytes()
    assert data.endswith(b"\n")
    return data[:-1].split(b"\n")


USER = {"role": "user", "content": "hi"}


# -- lazy, exclusive creation ----------------------------------------------------------------


def test_nothing_on_disk_before_the_first_record(tmp_path: Path) -> None:
    writer = new_writer(tmp_path)
    assert writer.path == tmp_path / "proj" / f"2026-01-02T03-04-05-678Z-{FILE_UUID}.jsonl"
    assert not writer.path.exists()
    writer.append_position(None)  # /tree before anything was written: memory only
    assert not writer.path.exists()


def test_header_and_first_record_go_out_in_one_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    writes: list[bytes] = []
    real = appends_module.write_all

    def spy(fd: int, payload: bytes) -> None:
        writes.append(payload)
        real(fd, payload)

    monkeypatch.setattr(appends_module, "write_all", spy)
    writer = new_writer(tmp_path)
    record = writer.append_message(USER)
    expected = (
        header_bytes()
        + b"\n"
        + b'{"type":"message","id":"0000000000000001","parentId":null,'
        + b'"timestamp":"2026-01-02T03:04:05.678Z","message":{"role":"user","content":"hi"}}\n'
    )
    assert writer.path.read_bytes() == expected
    assert writes == [expected]
    assert record["id"] == "0000000000000001"


def test_staged_model_goes_into_the_header(tmp_path: Path) -> None:
    writer = new_writer(tmp_path, model=ModelRef("zai", "glm-5.3"))
    writer.append_message(USER)
    assert lines(writer.path)[0] == header_bytes(model={"provider": "zai", "modelId": "glm-5.3"})


def test_explicit_model_change_creates_the_file(tmp_path: Path) -> None:
    writer = new_writer(tmp_path)
    writer.append_session_model(ModelRef("zai", "glm-5.3"))
    assert lines(writer.path) == [
        header_bytes(),
        b'{"type":"session_model","provider":"zai","modelId":"glm-5.3","explicit":true}',
    ]
    session = open_session(writer.path, warn=None)
    assert session.leaf_id is None
    assert len(session.session_models) == 1


def test_exclusive_create_refuses_an_existing_file(tmp_path: Path) -> None:
    writer = new_writer(tmp_path)
    writer.path.parent.mkdir(parents=True)
    writer.path.write_bytes(b"someone else's\n")
    with pytest.raises(FileExistsError):
        writer.append_message(USER)
    assert writer.path.read_bytes() == b"someone else's\n"
    assert writer.leaf_id is None
    # not an initialisation failure: once the file is gone the write can be retried
    writer.path.unlink()
    writer.append_message(USER)
    assert open_session(writer.path, warn=None).leaf_id == writer.leaf_id


def test_failed_create_leaves_state_unchanged(tmp_path: Path) -> None:
    writer = new_writer(tmp_path)
    (tmp_path / "proj").write_bytes(b"")  # the cwd folder is a file: mkdir/open fail
    with pytest.raises(OSError):
        writer.append_message(USER)
    assert writer.leaf_id is None
    assert not writer.exists
    (tmp_path / "proj").unlink()
    record = writer.append_message(USER)
    assert record["parentId"] is None
    assert lines(writer.path)[0] == header_bytes()


def test_writes_after_a_failed_initialisation_are_blocked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def disk_full(fd: int, payload: bytes) -> None:
        raise OSError(28, "No space left on device")

    writer = new_writer(tmp_path)
    monkeypatch.setattr(appends_module, "write_all", disk_full)
    with pytest.raises(OSError, match="the disk is full: the session file was not created"):
        writer.append_message(USER)
    monkeypatch.undo()
    text = f"session initialization previously failed: {writer.path} — start a new session"
    with pytest.raises(WriteBlockedError) as caught:
        writer.append_message(USER)
    assert str(caught.value) == text
    with pytest.raises(WriteBlockedError):
        writer.append_session_model(ModelRef("zai", "glm"))
    assert not writer.path.exists()  # the file it was creating is removed, not left empty
    assert writer.leaf_id is None


# -- ids, timestamps, key order --------------------------------------------------------------


def test_ids_are_16_lowercase_hex_and_unique(tmp_path: Path) -> None:
    writer = SessionWriter.new(tmp_path, "/p", clock=fixed_clock)
    ids = [writer.append_message(USER)["id"] for _ in range(60)]
    assert all(HEX16.fullmatch(i) for i in ids)
    assert len(set(ids)) == 60


def test_ids_already_in_the_file_are_skipped(sf: Any) -> None:
    path = sf.write(
        sf.user("0000000000000001", None), sf.user("0000000000000002", "0000000000000001")
    )
    writer = SessionWriter.for_session(open_session(path, warn=None), random_hex=counter_hex())
    assert writer.append_message(USER)["id"] == "0000000000000003"


def test_new_entry_id_retries_then_falls_back_to_a_uuid_prefix() -> None:
    draws: list[str] = []

    def colliding() -> str:
        draws.append("abcdabcdabcdabcd")
        return "abcdabcdabcdabcd"

    fallback = new_entry_id(lambda candidate: True, colliding)
    assert len(draws) == 100
    assert re.fullmatch(r"[0-9a-f]{8}", fallback)


def test_new_entry_id_takes_the_first_free_draw() -> None:
    candidates = iter(["a" * 16] * 99 + ["b" * 16])
    assert new_entry_id(lambda c: c == "a" * 16, lambda: next(candidates)) == "b" * 16


def test_new_entry_id_default_draw() -> None:
    drawn = {new_entry_id(lambda c: False) for _ in range(50)}
    assert all(HEX16.fullmatch(i) for i in drawn)
    assert len(drawn) == 50


def test_timestamps_have_milliseconds_and_z(tmp_path: Path) -> None:
    moments = iter(
        [
            NOW,  # the header
            datetime(2026, 1, 2, 3, 4, 5, 0, tzinfo=UTC),
            datetime(2026, 1, 2, 3, 4, 5, 999999, tzinfo=UTC),
            datetime(2026, 1, 2, 5, 4, 5, 1000, tzinfo=timezone(timedelta(hours=2))),
        ]
    )
    writer = new_writer(tmp_path, clock=lambda: next(moments, NOW))
    stamps = [writer.append_message(USER)["timestamp"] for _ in range(3)]
    assert stamps == [
        "2026-01-02T03:04:05.000Z",
        "2026-01-02T03:04:05.999Z",
        "2026-01-02T03:04:05.001Z",
    ]


def test_entry_key_order_and_parent_is_the_leaf(tmp_path: Path) -> None:
    writer = new_writer(tmp_path)
    first = writer.append_message(USER)
    second = writer.append_entry("thinkingLevelChange", {"thinkingLevel": "high"})
    third = writer.append_entry("label", {"targetId": first["id"], "label": "start"})
    records = [json.loads(line) for line in lines(writer.path)[1:]]
    assert [list(r) for r in records] == [
        ["type", "id", "parentId", "timestamp", "message"],
        ["type", "id", "parentId", "timestamp", "thinkingLevel"],
        ["type", "id", "parentId", "timestamp", "targetId", "label"],
    ]
    assert records[0]["parentId"] is None
    assert records[1]["parentId"] == first["id"]
    assert records[2]["parentId"] == second["id"]
    assert records == [first, second, third]
    # a label never moves the leaf (Ink's indexEntry), in the writer as on reopening
    assert writer.leaf_id == second["id"]
    assert open_session(writer.path, warn=None).leaf_id == second["id"]
    fourth = writer.append_message(USER)
    assert fourth["parentId"] == second["id"]


def test_compaction_fields_keep_the_given_order(tmp_path: Path) -> None:
    writer = new_writer(tmp_path)
    fields = {"summary": "s", "retainedTail": [], "tokensBefore": 5, "model": "glm-5.3"}
    writer.append_entry("compaction", fields)
    assert lines(writer.path)[1].endswith(
        b'"timestamp":"2026-01-02T03:04:05.678Z","summary":"s","retainedTail":[],'
        b'"tokensBefore":5,"model":"glm-5.3"}'
    )


def test_reserved_field_is_refused_and_nothing_written(tmp_path: Path) -> None:
    writer = new_writer(tmp_path)
    writer.append_message(USER)
    before = writer.path.read_bytes()
    with pytest.raises(ValueError):
        writer.append_entry("message", {"id": "mine", "message": USER})
    assert writer.path.read_bytes() == before


def test_parent_id_override(tmp_path: Path) -> None:
    writer = new_writer(tmp_path)
    first = writer.append_message(USER)
    writer.append_message(USER)
    fork = writer.append_message({"role": "user", "content": "again"}, parent_id=first["id"])
    assert fork["parentId"] == first["id"]
    session = open_session(writer.path, warn=None)
    assert session.leaf_id == fork["id"]


def test_append_after_a_reopen_continues_from_the_leaf(sf: Any) -> None:
    path = sf.write(sf.user("a", None), sf.user("b", "a"), sf.position("a"))
    writer = SessionWriter.for_session(open_session(path, warn=None), clock=fixed_clock)
    record = writer.append_message(USER)
    assert record["parentId"] == "a"
    assert open_session(path, warn=None).leaf_id == record["id"]


def test_for_session_refuses_a_torn_file(sf: Any) -> None:
    for path in (sf.write(sf.user("a", None), newline=False), sf.write(sf.user("a", None), "{")):
        before = path.read_bytes()
        with pytest.raises(ValueError, match="repair the torn final line"):
            SessionWriter.for_session(open_session(path, warn=None))
        assert path.read_bytes() == before


# -- markers ---------------------------------------------------------------------------------


def test_position_marker_shape(tmp_path: Path) -> None:
    writer = new_writer(tmp_path)
    first = writer.append_message(USER)
    writer.append_message(USER)
    writer.append_position(first["id"])
    writer.append_position(None)
    assert lines(writer.path)[3:] == [
        b'{"type":"position","leafId":"0000000000000001"}',
        b'{"type":"position","leafId":null}',
    ]
    assert writer.leaf_id is None
    assert open_session(writer.path, warn=None).leaf_id is None


def test_session_model_marker_shape(tmp_path: Path) -> None:
    writer = new_writer(tmp_path)
    writer.append_message(USER)
    writer.append_session_model(ModelRef("moonshotai-cn", "kimi-k2"), explicit=False)
    assert lines(writer.path)[2] == (
        b'{"type":"session_model","provider":"moonshotai-cn","modelId":"kimi-k2","explicit":false}'
    )
    assert writer.leaf_id == "0000000000000001"


# -- bytes -----------------------------------------------------------------------------------


def test_non_ascii_and_line_separators_are_written_raw(tmp_path: Path) -> None:
    writer = new_writer(tmp_path)
    text = "héllo 中文 😀 a\u2028b\u2029c"
    writer.append_message({"role": "user", "content": text})
    line = lines(writer.path)[1]
    assert text.encode() in line
    assert b"\\u2028" not in line
    assert len(lines(writer.path)) == 2
    assert open_session(writer.path, warn=None).entries[0].record["message"]["content"] == text


def test_control_characters_are_escaped(tmp_path: Path) -> None:
    writer = new_writer(tmp_path)
    writer.append_message({"role": "user", "content": "a\nb\x1b[0m\x00"})
    assert b'"content":"a\\nb\\u001b[0m\\u0000"' in lines(writer.path)[1]


def test_lone_surrogate_is_written_as_a_lowercase_escape(tmp_path: Path) -> None:
    writer = new_writer(tmp_path)
    writer.append_message({"role": "user", "content": "x\udeady é"})
    line = lines(writer.path)[1]
    assert '"content":"x\\udeady é"'.encode() in line
    assert open_session(writer.path, warn=None).entries[0].record["message"]["content"] == (
        "x\udeady é"
    )


def test_floats_are_written_as_javascript_writes_them(tmp_path: Path) -> None:
    writer = new_writer(tmp_path)
    args = {"a": 1.0, "b": 1e21, "c": 1e-7, "d": 0.000001, "e": 1e16, "f": -0.0, "g": 2.5}
    writer.append_entry("message", {"message": {"role": "user", "content": "x", "args": args}})
    assert lines(writer.path)[1].endswith(
        b'"args":{"a":1,"b":1e+21,"c":1e-7,"d":0.000001,"e":10000000000000000,"f":0,"g":2.5}}}'
    )


# -- failures and concurrency ----------------------------------------------------------------


def test_state_unchanged_after_a_failed_append(tmp_path: Path) -> None:
    writer = new_writer(tmp_path)
    first = writer.append_message(USER)
    saved = writer.path.read_bytes()
    writer.path.unlink()
    with pytest.raises(FileNotFoundError):
        writer.append_message({"role": "user", "content": "lost"})
    assert writer.leaf_id == first["id"]
    assert not writer.path.exists()
    writer.path.write_bytes(saved)
    record = writer.append_message({"role": "user", "content": "retry"})
    assert record["parentId"] == first["id"]
    assert len(lines(writer.path)) == 3


def test_concurrent_append_is_detected(tmp_path: Path) -> None:
    writer = new_writer(tmp_path)
    first = writer.append_message(USER)
    foreign = (
        b'{"type":"message","id":"ink1","parentId":null,"timestamp":"t",'
        b'"message":{"role":"user","content":"x"}}\n'
    )
    with writer.path.open("ab") as stream:
        stream.write(foreign)
    behind_our_back = writer.path.read_bytes()
    with pytest.raises(ConcurrentWriteError):
        writer.append_message(USER)
    assert writer.path.read_bytes() == behind_our_back
    assert writer.leaf_id == first["id"]
    with pytest.raises(ConcurrentWriteError):
        writer.append_position(None)
    assert writer.path.read_bytes() == behind_our_back


def test_for_session_detects_a_change_after_opening(sf: Any) -> None:
    path = sf.write(sf.user("a", None))
    writer = SessionWriter.for_session(open_session(path, warn=None))
    with path.open("ab") as stream:
        stream.write(sf.line(sf.user("b", "a")) + b"\n")
    with pytest.raises(ConcurrentWriteError):
        writer.append_message(USER)
    assert [e.id for e in open_session(path, warn=None).entries] == ["a", "b"]
