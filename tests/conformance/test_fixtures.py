"""Every shared fixture gives exactly its expected context and pairing report.

Through the Python API and through ``ink-tui context --json``. The fixtures are Ink's answers in
``../shared/fixtures`` (see ``tests/shared_fixtures.py``: without the folder this module is
skipped, or fails under CI).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from shared_fixtures import require_shared_fixtures

from ink_tui.session import SessionError, build_context, open_session, report_session

FIXTURES = require_shared_fixtures()


def _cases() -> list[tuple[str, Path, dict[str, Any], dict[str, Any]]]:
    """(name, session path, expected context, expected pairs) for single files and folders."""
    cases = []
    for expected_file in sorted(FIXTURES.glob("*.expected.json")):
        name = expected_file.name.removesuffix(".expected.json")
        expected = json.loads(expected_file.read_text(encoding="utf-8"))
        pairs = json.loads((FIXTURES / f"{name}.pairs.json").read_text(encoding="utf-8"))
        if "contexts" in expected:
            for relative, context in expected["contexts"].items():
                cases.append((relative, FIXTURES / relative, context, pairs[relative]))
        else:
            cases.append((name, FIXTURES / f"{name}.jsonl", expected, pairs))
    return cases


CASES = _cases()
assert len(CASES) >= 40, f"expected the shared fixtures' cases in {FIXTURES}"
IDS = [case[0] for case in CASES]


def _with_placeholder(value: Any, path: Path) -> Any:
    """Error texts in the fixtures write the file path as ``<path>``."""
    return json.loads(json.dumps(value).replace(json.dumps(str(path))[1:-1], "<path>"))


def _same_error(got: str, expected: str) -> bool:
    """``invalid JSON (reason)``: only the text before `` (`` is Ink's own wording."""
    if "invalid JSON (" in expected:
        return got.split(" (")[0] == expected.split(" (")[0]
    return got == expected


def _api_context(path: Path) -> dict[str, Any]:
    try:
        return build_context(open_session(path, warn=None)).to_json()
    except SessionError as error:
        return {"ok": False, "error": error.message}


def _api_report(path: Path) -> dict[str, Any]:
    try:
        return report_session(open_session(path, warn=None)).to_json()
    except SessionError as error:
        return {"ok": False, "error": error.message}


def _assert_matches(got: dict[str, Any], expected: dict[str, Any], path: Path) -> None:
    got = _with_placeholder(got, path)
    if expected.get("ok") is False:
        assert got.get("ok") is False, got
        assert _same_error(got["error"], expected["error"]), (got["error"], expected["error"])
    else:
        assert got == expected


@pytest.mark.parametrize(("name", "path", "expected", "pairs"), CASES, ids=IDS)
def test_context_through_the_api(
    name: str, path: Path, expected: dict[str, Any], pairs: dict[str, Any]
) -> None:
    _assert_matches(_api_context(path), expected, path)


@pytest.mark.parametrize(("name", "path", "expected", "pairs"), CASES, ids=IDS)
def test_pairing_report_through_the_api(
    name: str, path: Path, expected: dict[str, Any], pairs: dict[str, Any]
) -> None:
    _assert_matches(_api_report(path), pairs, path)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ink_tui", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )


@pytest.mark.parametrize(("name", "path", "expected", "pairs"), CASES, ids=IDS)
def test_context_through_the_command_line(
    name: str, path: Path, expected: dict[str, Any], pairs: dict[str, Any]
) -> None:
    result = _cli("context", str(path), "--json")
    assert result.returncode == (0 if expected["ok"] else 2), result.stderr
    assert "Traceback" not in result.stderr
    _assert_matches(json.loads(result.stdout), expected, path)
