"""Every test session, with a secret planted in each of its prompts, scrubbed: Ink rebuilds the
same context shape from it (the same leaf, floor and roles), no planted secret is left, and a
session Ink refuses is refused the same way after (the issue's goal: 100 % of scrubbed sessions
open with the same context shape). Ink's shared fixtures: ``tests/conformance``."""

from __future__ import annotations

from pathlib import Path

import pytest
import testdata
from scrubcheck import check_scrub

SESSIONS = testdata.all_session_files()


@pytest.mark.parametrize("source", SESSIONS, ids=[path.stem for path in SESSIONS])
def test_a_scrubbed_session_keeps_its_context_shape(source: Path, tmp_path: Path) -> None:
    check_scrub(source, tmp_path)
