"""Every shared fixture, with a secret planted in each prompt, scrubbed: Ink rebuilds the same
context shape (or refuses it the same way), and no planted secret is left."""

from __future__ import annotations

from pathlib import Path

import pytest
from scrubcheck import check_scrub
from shared_fixtures import require_shared_fixtures

FIXTURES = require_shared_fixtures()
CASES = sorted(FIXTURES.glob("*.jsonl"))


@pytest.mark.parametrize("source", CASES, ids=[path.stem for path in CASES])
def test_a_scrubbed_fixture_keeps_its_context_shape(source: Path, tmp_path: Path) -> None:
    check_scrub(source, tmp_path)
