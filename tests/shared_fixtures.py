"""The one place that knows where Ink's shared fixtures are: ``../shared/fixtures``.

The conformance tests (``tests/conformance``) compare ink-tui with the answers in that folder,
read in place, never copied. The folder lives beside the repository, so a fresh clone may not
have it: then every conformance module is skipped with one reason, :data:`MISSING_REASON`.
CI sets ``INK_TUI_REQUIRE_SHARED_FIXTURES=1`` (in ``.ci/run``), which turns its absence into a
failure, so conformance is never silently skipped there.

Every other test uses the project's own data (``tests/testdata.py``). Importable from every
test folder as ``import shared_fixtures`` (``pythonpath`` in pyproject.toml).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

__all__ = ["MISSING_REASON", "REQUIRE_VARIABLE", "SHARED_FIXTURES", "require_shared_fixtures"]

SHARED_FIXTURES = Path(__file__).resolve().parents[2] / "shared" / "fixtures"
REQUIRE_VARIABLE = "INK_TUI_REQUIRE_SHARED_FIXTURES"
MISSING_REASON = "../shared/fixtures not found: conformance against Ink's shared fixtures skipped"


def required() -> bool:
    """Whether the environment demands the shared fixtures (``INK_TUI_REQUIRE_SHARED_FIXTURES``)."""
    return os.environ.get(REQUIRE_VARIABLE, "").strip() not in ("", "0")


def require_shared_fixtures() -> Path:
    """The shared fixtures folder. Call it at the top of a conformance module.

    Without the folder, the calling module is skipped with :data:`MISSING_REASON`; when
    ``INK_TUI_REQUIRE_SHARED_FIXTURES`` is set, collecting the module fails instead.
    """
    if SHARED_FIXTURES.is_dir():
        return SHARED_FIXTURES
    if required():
        pytest.fail(
            f"{SHARED_FIXTURES} not found, and {REQUIRE_VARIABLE} is set: the conformance "
            "tests must run here",
            pytrace=False,
        )
    pytest.skip(MISSING_REASON, allow_module_level=True)
