"""``is_plain_message``, the inlined check of a well-formed message entry that opening a file and
reading a dropped payload again make before Ink's full check: it never accepts a record the full
check refuses or classifies otherwise, and it accepts the ordinary message line."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ink_tui.session import SessionError
from ink_tui.session.reading.errors import RecordError
from ink_tui.session.reading.reader import open_session
from ink_tui.session.reading.records import LineKind, classify_record, is_plain_message

ODD = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=4),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
MESSAGE = st.fixed_dictionaries(
    {},
    optional={
        "role": st.one_of(st.sampled_from(["user", "assistant", "toolResult"]), ODD),
        "content": st.one_of(st.text(max_size=5), ODD),
    },
)
RECORD = st.fixed_dictionaries(
    {},
    optional={
        "type": st.one_of(st.sampled_from(["message", "compaction", "label", "position"]), ODD),
        "id": st.one_of(st.text(max_size=4), ODD),
        "parentId": st.one_of(st.none(), st.text(max_size=4), ODD),
        "timestamp": st.one_of(st.just("2026-12-05T10:00:00.000Z"), ODD),
        "message": st.one_of(MESSAGE, ODD),
    },
)


def _full(record: Any) -> LineKind | None:
    try:
        return classify_record(record)
    except RecordError:
        return None


@given(st.one_of(RECORD, ODD))
def test_the_fast_check_accepts_only_what_inks_full_check_calls_an_entry(record: Any) -> None:
    if is_plain_message(record):
        assert _full(record) is LineKind.ENTRY


def test_the_ordinary_message_line_takes_the_fast_path(sf: Any) -> None:
    record = sf.user("a1", None)  # a prompt as Ink writes it
    assert is_plain_message(record) and _full(record) is LineKind.ENTRY
    assert not is_plain_message({**record, "id": ""})  # Ink: "missing entry id"
    assert not is_plain_message({**record, "parentId": 7})
    assert not is_plain_message({**record, "message": {"role": 1}})


def test_a_payload_read_again_is_checked_again(sf: Any) -> None:
    """A dropped payload read back is the record ``open()`` checked, or a one-line error when
    the file changed under it (a record with the same id but no longer a valid entry)."""
    path = sf.write(sf.user("u1", None, "first prompt"), sf.assistant("a1", "u1"))
    session = open_session(path, warn=None)
    entry = session.by_id["u1"]
    entry.release()
    assert entry.message["content"] == "first prompt"  # read back through the fast path
    data = path.read_bytes()
    changed = data.replace(b'"role":"user"', b'"role":123456', 1)  # same length, same offsets
    assert len(changed) == len(data) and changed != data
    path.write_bytes(changed)
    entry.release()
    with pytest.raises(SessionError, match="changed on disk since it was opened"):
        _ = entry.record
