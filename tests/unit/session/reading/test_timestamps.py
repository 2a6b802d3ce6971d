"""The one reader of records' timestamps (issue 19, figures item 1): a date that cannot be is an
unknown time, never an error; what Ink writes, and the usual ISO forms, are read."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from ink_tui.session.reading.timestamps import parse_timestamp, timestamp_seconds, utc_day

IMPOSSIBLE = [
    "2026-02-30T10:00:00.000Z",  # February 30
    "2026-04-31T10:00:00.000Z",  # April 31
    "2026-13-01T10:00:00.000Z",  # month 13
    "9999-99-99T00:00:00.000Z",
    "0000-01-01T00:00:00.000Z",  # year 0
    "2026-10-00T10:00:00.000Z",  # day 0
    "2026-10-05T25:00:00.000Z",
    "2026-10-05T24:00:01.000Z",
    "2026-10-05T10:60:00.000Z",
    "2026-10-05T10:00:60.000Z",
    "2026-10-05T10:00:00+24:00",
    "9999-12-31T23:00:00-05:00",  # past year 9999 once in UTC
    "0001-01-01T00:00:00+01:00",  # before year 1 once in UTC
    "+275760-09-13T00:00:00.000Z",
    "yesterday",
    "",
    "2026-10-05T10:00:00.000Z trailing",
]


@pytest.mark.parametrize("text", IMPOSSIBLE)
def test_a_time_that_cannot_be_is_unknown(text: str) -> None:
    assert parse_timestamp(text) is None
    assert timestamp_seconds(text) is None and utc_day(text) is None


@pytest.mark.parametrize("value", [None, 5, 1.5, True, ["2026-10-05"], {"t": 1}, "9" * 10_000])
def test_what_is_not_a_string_is_unknown(value: object) -> None:
    assert parse_timestamp(value) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-10-05T12:34:56.789Z", datetime(2026, 10, 5, 12, 34, 56, 789000, tzinfo=UTC)),
        ("2026-10-05T12:34:56Z", datetime(2026, 10, 5, 12, 34, 56, tzinfo=UTC)),
        ("2026-10-05T12:34Z", datetime(2026, 10, 5, 12, 34, tzinfo=UTC)),
        ("2026-10-05 12:34:56Z", datetime(2026, 10, 5, 12, 34, 56, tzinfo=UTC)),
        ("2026-10-05T12:34:56.1234567Z", datetime(2026, 10, 5, 12, 34, 56, 123456, tzinfo=UTC)),
        ("2026-10-05T12:34:56+05:30", datetime(2026, 10, 5, 7, 4, 56, tzinfo=UTC)),
        ("2026-10-05T01:00:00-0300", datetime(2026, 10, 5, 4, 0, tzinfo=UTC)),
        ("2026-10-05T12:34:56", datetime(2026, 10, 5, 12, 34, 56, tzinfo=UTC)),  # taken as UTC
        ("2026-10-05", datetime(2026, 10, 5, tzinfo=UTC)),  # a date alone: UTC midnight
        ("2026-10-05T24:00:00.000Z", datetime(2026, 10, 6, tzinfo=UTC)),  # as JavaScript reads
        ("2028-02-29T00:00:00.000Z", datetime(2028, 2, 29, tzinfo=UTC)),  # a leap day
        ("0001-01-01T00:00:00.000Z", datetime(1, 1, 1, tzinfo=UTC)),
        ("9999-12-31T23:59:59.999Z", datetime(9999, 12, 31, 23, 59, 59, 999000, tzinfo=UTC)),
    ],
)
def test_the_forms_read(text: str, expected: datetime) -> None:
    assert parse_timestamp(text) == expected
    assert timestamp_seconds(text) == expected.timestamp()


def test_the_day_is_the_utc_date() -> None:
    assert utc_day("2026-10-05T23:30:00-02:00") == date(2026, 10, 6)
    assert utc_day("2026-10-05T00:30:00+02:00") == date(2026, 10, 4)
