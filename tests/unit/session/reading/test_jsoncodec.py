"""``jsoncodec``: JSON exactly as ``JSON.parse`` reads it and ``JSON.stringify`` writes it."""

from __future__ import annotations

import itertools
import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ink_tui.session.reading.jsoncodec import JsonDecodeError, decode_line, encode_json, js_number

PROPERTY = settings(max_examples=80, deadline=None)

# Number.prototype.toString outputs, as Node prints them.
JS_NUMBERS = [
    (0.0, "0"),
    (-0.0, "0"),
    (1.0, "1"),
    (-1.0, "-1"),
    (1.5, "1.5"),
    (0.1, "0.1"),
    (0.1 + 0.2, "0.30000000000000004"),
    (100.0, "100"),
    (1e16, "10000000000000000"),
    (1e20, "100000000000000000000"),
    (1e21, "1e+21"),
    (1.5e21, "1.5e+21"),
    (-1e21, "-1e+21"),
    (1e-7, "1e-7"),
    (-2.5e-7, "-2.5e-7"),
    (123456789012345680000.0, "123456789012345680000"),
    (5e-324, "5e-324"),
    (1.7976931348623157e308, "1.7976931348623157e+308"),
    (0.000001, "0.000001"),
    (1e-6 * 1.5, "0.0000015"),
    (0.001, "0.001"),
    (1.23e-18, "1.23e-18"),
    (2.0**53, "9007199254740992"),
    (123.456, "123.456"),
    (float("inf"), "null"),
    (float("-inf"), "null"),
    (float("nan"), "null"),
]


@pytest.mark.parametrize(("value", "text"), JS_NUMBERS, ids=[t for _, t in JS_NUMBERS])
def test_js_number_table(value: float, text: str) -> None:
    if math.isfinite(value) or text == "null":
        assert js_number(value) == text


@PROPERTY
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_js_number_round_trips(value: float) -> None:
    text = js_number(value)
    assert float(text) == value
    assert text == js_number(float(text))


@PROPERTY
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_js_number_uses_exponent_exactly_where_javascript_does(value: float) -> None:
    # Number::toString: plain decimals for 1e-6 <= |x| < 1e21, else d.ddde±n
    text = js_number(value)
    magnitude = abs(value)
    assert ("e" in text) == (magnitude != 0 and not 1e-6 <= magnitude < 1e21)
    if magnitude >= 1e21:
        assert "e+" in text
    assert not text.endswith(".0")
    assert "." not in text or not text.split("e")[0].endswith("0")


# -- decoding --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        (b"1e400", math.inf),
        (b"-1e400", -math.inf),
        (b"1.0", 1.0),
        (b'"\\ud83d"', "\ud83d"),
        (b'"\\ud83d\\ude00"', "😀"),
        (b'"caf\xe9"', "caf\ufffd"),
        (b'{"a":1}\r', {"a": 1}),
        (b' \t{"a":[]} ', {"a": []}),
        ('"a\u2028b"'.encode(), "a\u2028b"),
        (b"123456789012345678901234567890", 1.2345678901234568e29),
    ],
)
def test_decode_line_accepts_what_json_parse_accepts(raw: bytes, value: Any) -> None:
    assert decode_line(raw) == value


@pytest.mark.parametrize(
    "raw",
    [
        b"NaN",
        b'{"n":Infinity}',
        b"-Infinity",
        b"\xef\xbb\xbf{}",  # JSON.parse refuses a BOM
        b"{'a':1}",
        b'{"a":1,}',
        b"[1,]",
        b'"raw\ttab"',
        b"",
        b"\xa0{}",
        b"{} x",
        b"01",
    ],
)
def test_decode_line_refuses_what_json_parse_refuses(raw: bytes) -> None:
    with pytest.raises(JsonDecodeError):
        decode_line(raw)


def test_decode_error_reason_is_the_stdlib_wording() -> None:
    with pytest.raises(JsonDecodeError) as caught:
        decode_line(b'{"a" 1}')
    assert caught.value.reason == "Expecting ':' delimiter: line 1 column 6 (char 5)"


# -- encoding --------------------------------------------------------------------------------


def test_encode_is_compact_raw_utf8_in_key_order() -> None:
    value = {"z": 1, "a": [True, False, None], "é": "中文 😀 \u2028\u2029 /"}
    assert (
        encode_json(value) == '{"z":1,"a":[true,false,null],"é":"中文 😀 \u2028\u2029 /"}'.encode()
    )


def test_encode_escapes_controls_like_json_stringify() -> None:
    assert encode_json('\b\f\n\r\t\x00\x1f\x7f"\\') == b'"\\b\\f\\n\\r\\t\\u0000\\u001f\x7f\\"\\\\"'


def test_encode_lone_surrogates_as_lowercase_escapes() -> None:
    assert encode_json({"s": "a\udabcb\udfff"}) == b'{"s":"a\\udabcb\\udfff"}'
    assert encode_json(["\ud83d", 1.0]) == b'["\\ud83d",1]'


def test_encode_non_finite_as_null() -> None:
    assert encode_json([math.inf, -math.inf, math.nan]) == b"[null,null,null]"


def test_encode_integers_beyond_int64_as_javascript_numbers() -> None:
    assert encode_json(2**70) == b"1.1805916207174113e+21"
    assert encode_json(2**53) == b"9007199254740992"


JSON_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53), max_value=2**53)
    | st.text(max_size=20)
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)


@PROPERTY
@given(JSON_VALUES)
def test_decode_of_encode_is_identity(value: Any) -> None:
    assert decode_line(encode_json(value)) == value


@PROPERTY
@given(JSON_VALUES)
def test_encode_matches_json_dumps_without_floats_or_surrogates(value: Any) -> None:
    expected = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    assert encode_json(value) == expected


@PROPERTY
@given(st.dictionaries(st.text(max_size=5), st.integers() | st.text(max_size=5), max_size=6))
def test_decoded_key_order_is_the_written_order(value: dict[str, Any]) -> None:
    decoded = decode_line(encode_json(value))
    assert list(decoded) == list(value)


@PROPERTY
@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), max_size=5))
def test_floats_survive_encode_decode(values: list[float]) -> None:
    decoded = decode_line(encode_json(values))
    assert [float(item) for item in decoded] == values  # big ints decode exactly in Python


def _no_split_pair(text: str) -> bool:
    """Python can hold a high and a low surrogate side by side; JSON text reads them as one."""
    return not any(
        "\ud800" <= a <= "\udbff" and "\udc00" <= b <= "\udfff" for a, b in itertools.pairwise(text)
    )


SURROGATE_TEXT = st.text(
    alphabet=st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF) | st.characters(),
    max_size=10,
).filter(_no_split_pair)


@PROPERTY
@given(SURROGATE_TEXT)
def test_strings_with_surrogates_survive_encode_decode(text: str) -> None:
    encoded = encode_json({"s": text})
    encoded.decode("utf-8")  # always valid UTF-8
    assert decode_line(encoded) == {"s": text}
