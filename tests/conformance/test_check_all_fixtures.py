"""``ink-tui check --all --json`` over Ink's shared fixtures, read in place.

The fixtures folder is itself a project folder of its parent (``../shared``), and each folder
fixture (``child-session``, ``sessions-tree``, ``listing-titles``) is a sessions folder of its
own. Every session whose ``.pairs.json`` says Ink cannot open it, refuses to continue it, or
would repair it is listed, with ``check``'s exit code; no other session is.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from shared_fixtures import require_shared_fixtures

from ink_tui.cli import main

FIXTURES = require_shared_fixtures()


def _expected_exit(pairs: dict[str, Any]) -> int:
    """``check``'s exit code as Ink's answers give it."""
    if pairs.get("ok") is False:
        return 2  # Ink cannot open it
    continuation = pairs["continuation"]
    if not continuation["ok"]:
        return 2
    return 1 if continuation["repairs"] else 0


def _expected(root: Path) -> dict[Path, int]:
    """Each fixture session under ``root`` -> its expected exit code."""
    found: dict[Path, int] = {}
    for pairs_file in sorted(FIXTURES.glob("*.pairs.json")):
        name = pairs_file.name.removesuffix(".pairs.json")
        pairs = json.loads(pairs_file.read_text(encoding="utf-8"))
        if (FIXTURES / f"{name}.jsonl").is_file():
            found[FIXTURES / f"{name}.jsonl"] = _expected_exit(pairs)
        else:
            for relative, case in pairs.items():
                found[FIXTURES / relative] = _expected_exit(case)
    return {path: code for path, code in found.items() if path.is_relative_to(root)}


def _check_all(base: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[Any]]:
    code = main(["check", "--all", "--json", "--sessions-dir", str(base)])
    return code, json.loads(capsys.readouterr().out)


FOLDERS = sorted(path.name for path in FIXTURES.iterdir() if path.is_dir())


def test_the_single_file_fixtures(capsys: pytest.CaptureFixture[str]) -> None:
    expected = {path: code for path, code in _expected(FIXTURES).items() if path.parent == FIXTURES}
    assert len(expected) >= 30 and any(code == 2 for code in expected.values())
    code, found = _check_all(FIXTURES.parent, capsys)
    listed = {Path(item["file"]): item["exit"] for item in found}
    listed = {path: exit_code for path, exit_code in listed.items() if path.parent == FIXTURES}
    assert listed == {path: code for path, code in expected.items() if code}
    assert code == 2


@pytest.mark.parametrize("folder", FOLDERS)
def test_a_folder_fixture_as_a_sessions_folder(
    folder: str, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = _expected(FIXTURES / folder)
    code, found = _check_all(FIXTURES / folder, capsys)
    assert {Path(item["file"]): item["exit"] for item in found} == {
        path: exit_code for path, exit_code in expected.items() if exit_code
    }
    assert code == max(expected.values(), default=0)
