"""Every line of Ink's shared fixtures re-encodes to its bytes (no BOM, no CRLF).

Reads ``../shared/fixtures`` in place (see ``tests/shared_fixtures.py``: without the folder
this module is skipped, or fails under CI).
"""

from __future__ import annotations

import pytest
from shared_fixtures import require_shared_fixtures

from ink_tui.session.reading.jsoncodec import JsonDecodeError, decode_line, encode_json

FIXTURES = require_shared_fixtures()


def _fixture_lines() -> list[tuple[str, int, bytes]]:
    found = []
    for path in sorted(FIXTURES.rglob("*.jsonl")):
        if not path.is_file():
            continue
        name = str(path.relative_to(FIXTURES))
        for number, line in enumerate(path.read_bytes().split(b"\n"), start=1):
            if line.strip():
                found.append((name, number, line))
    return found


@pytest.fixture(scope="module")
def fixture_lines() -> list[tuple[str, int, bytes]]:
    lines = _fixture_lines()
    assert len(lines) > 300
    return lines


def test_fixtures_hold_no_bom_or_crlf(fixture_lines: list[tuple[str, int, bytes]]) -> None:
    assert [(n, i) for n, i, line in fixture_lines if line.endswith(b"\r")] == []
    assert [(n, i) for n, i, line in fixture_lines if line.startswith(b"\xef\xbb\xbf")] == []


def test_every_fixture_line_re_encodes_to_its_bytes(
    fixture_lines: list[tuple[str, int, bytes]],
) -> None:
    different = []
    decoded = 0
    for name, number, line in fixture_lines:
        try:
            value = decode_line(line)
        except JsonDecodeError:
            continue  # deliberately malformed (torn halves, interleaved writers)
        decoded += 1
        if encode_json(value) != line:
            different.append((name, number))
    assert decoded > 300
    assert different == []
