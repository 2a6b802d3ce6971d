"""Written records read back identically; every line of the project's data re-encodes to its bytes.

(The same for every line of Ink's shared fixtures is a conformance test:
``tests/conformance/test_fixture_lines.py``.)
"""

from __future__ import annotations

import itertools
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import testdata
from hypothesis import given, settings
from hypothesis import strategies as st

from ink_tui.session import SessionWriter, open_session
from ink_tui.session.reading.jsoncodec import JsonDecodeError, decode_line, encode_json


def shape(value: Any) -> Any:
    """The value with key order made visible; numbers compared as the doubles JS would hold."""
    if isinstance(value, dict):
        return [(key, shape(item)) for key, item in value.items()]
    if isinstance(value, list):
        return [shape(item) for item in value]
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return value


def _no_split_pair(text: str) -> bool:
    """Python can hold a high and a low surrogate side by side; JSON text reads them as one."""
    return not any(
        "\ud800" <= a <= "\udbff" and "\udc00" <= b <= "\udfff" for a, b in itertools.pairwise(text)
    )


TEXT = st.text(
    alphabet=st.characters(exclude_categories=()) | st.sampled_from('\u2028\u2029\n"\\中😀'),
    max_size=30,
).filter(_no_split_pair)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53), max_value=2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | TEXT
)
ARGUMENTS = st.recursive(
    SCALARS,
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3)
    ),
    max_leaves=10,
)
MESSAGES = st.one_of(
    st.builds(lambda text: {"role": "user", "content": text}, TEXT),
    st.builds(
        lambda text, args: {
            "role": "assistant",
            "blocks": [
                {"type": "text", "text": text},
                {"type": "toolCall", "id": "call", "name": "bash", "arguments": args},
            ],
            "usage": {"inputTokens": 1, "outputTokens": 2},
            "stopReason": "tool_use",
        },
        TEXT,
        ARGUMENTS,
    ),
)


@settings(max_examples=40, deadline=None)
@given(st.lists(MESSAGES, min_size=1, max_size=5))
def test_written_records_read_back_identically(messages: list[dict[str, Any]]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        writer = SessionWriter.new(
            Path(folder), "/p", clock=lambda: datetime(2026, 1, 1, tzinfo=UTC)
        )
        written = [writer.append_message(message) for message in messages]
        session = open_session(writer.path, warn=None)
        assert not session.torn_final_line
        assert session.header == writer.header
        assert [shape(e.record) for e in session.entries] == [shape(r) for r in written]
        assert session.leaf_id == written[-1]["id"]
        # reading then writing again gives the same bytes
        lines = writer.path.read_bytes().split(b"\n")[1:-1]
        assert [encode_json(e.record) for e in session.entries] == lines


def test_every_data_line_re_encodes_to_its_bytes() -> None:
    """The project's own sessions are written as Ink writes: decoding then encoding each line
    gives its bytes back (the deliberately malformed lines aside)."""
    decoded, different = 0, []
    for path in sorted(testdata.DATA.rglob("*.jsonl")):
        for number, line in enumerate(path.read_bytes().split(b"\n"), start=1):
            if not line.strip():
                continue
            assert not line.endswith(b"\r") and not line.startswith(b"\xef\xbb\xbf"), (path, number)
            try:
                value = decode_line(line)
            except JsonDecodeError:
                continue  # torn halves, interleaved writers
            decoded += 1
            if encode_json(value) != line:
                different.append((path.name, number))
    assert decoded > 150
    assert different == []
