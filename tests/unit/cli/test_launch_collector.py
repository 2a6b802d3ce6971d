"""The app and every command run with ink-tui's garbage-collector thresholds, and leave the
previous ones after.

Nothing else in ink_tui touches the collector (no ``gc.disable``/``gc.freeze`` anywhere)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ink_tui.catalog import folders
from ink_tui.cli import main
from ink_tui.cli.collector import GC_THRESHOLD
from ink_tui.ui.app import InkApp

PACKAGE = Path(__file__).resolve().parents[3] / "ink_tui"
CPYTHON = (700, 10, 10)


@pytest.fixture(autouse=True)
def cpython_thresholds() -> Iterator[None]:
    """CPython's own thresholds for the test (the suite runs with its own), restored after."""
    suite = gc.get_threshold()
    gc.set_threshold(*CPYTHON)
    yield
    gc.set_threshold(*suite)


def test_the_app_runs_with_its_thresholds_then_restores_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    during: list[tuple[int, int, int]] = []
    monkeypatch.setattr(InkApp, "run", lambda self, *a, **k: during.append(gc.get_threshold()))
    assert main(["--sessions-dir", str(tmp_path), "--cwd", str(tmp_path)]) == 0
    assert during == [(GC_THRESHOLD, 10, 10)]
    assert gc.get_threshold() == CPYTHON
    assert gc.isenabled()


def test_a_command_runs_with_the_same_thresholds_then_restores_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    during: list[tuple[int, int, int]] = []

    def readable(*args: Any) -> None:  # asked by ``list`` before it reads the folder
        during.append(gc.get_threshold())

    monkeypatch.setattr(folders, "unreadable_folder", readable)
    assert main(["--sessions-dir", str(tmp_path), "--cwd", str(tmp_path), "list"]) == 0
    assert during == [(GC_THRESHOLD, 10, 10)]
    assert gc.get_threshold() == CPYTHON


def test_only_the_collector_policy_touches_the_collector() -> None:
    touching = sorted(
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if "import gc" in path.read_text("utf-8")
    )
    assert touching == ["cli/collector.py"]
    policy = (PACKAGE / "cli" / "collector.py").read_text("utf-8")
    assert "gc.freeze" not in policy and "gc.disable" not in policy
