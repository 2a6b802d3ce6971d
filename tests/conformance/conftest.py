"""The shared fixtures are read in place from ``../shared/fixtures`` (never copied)."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures"


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    """The shared fixtures folder; a missing folder fails the run instead of skipping it."""
    if not FIXTURES.is_dir():
        pytest.fail(f"shared fixtures not found at {FIXTURES}")
    return FIXTURES
