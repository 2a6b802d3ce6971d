"""The rule every test of a real server follows when its engine is missing: skipped with one
reason on a machine without it, a failure in CI (which installs it and sets the variable)."""

from __future__ import annotations

import os

import pytest


def need(reason: str | None, variable: str) -> None:
    """Skip the test for ``reason`` (or fail it when ``$variable`` is ``1``); nothing when the
    reason is ``None`` (the engine is there)."""
    if reason is None:
        return
    if os.environ.get(variable) == "1":
        pytest.fail(f"{variable}=1 but {reason}")
    pytest.skip(reason)
