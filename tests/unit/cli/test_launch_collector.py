"""The app runs with its own garbage-collector thresholds, and leaves the previous ones after.

Nothing else in ink_tui touches the collector (no ``gc.disable``/``gc.freeze`` anywhere)."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from ink_tui.cli import main
from ink_tui.cli.app import APP_GC_THRESHOLD
from ink_tui.ui.app import InkApp

PACKAGE = Path(__file__).resolve().parents[3] / "ink_tui"


def test_the_app_runs_with_its_thresholds_then_restores_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    during: list[tuple[int, int, int]] = []
    monkeypatch.setattr(InkApp, "run", lambda self, *a, **k: during.append(gc.get_threshold()))
    before = gc.get_threshold()
    assert main(["--sessions-dir", str(tmp_path), "--cwd", str(tmp_path)]) == 0
    assert during == [(APP_GC_THRESHOLD, *before[1:])]
    assert gc.get_threshold() == before
    assert gc.isenabled()


def test_only_the_launcher_touches_the_collector() -> None:
    touching = sorted(
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if "import gc" in path.read_text("utf-8")
    )
    assert touching == ["cli/app.py"]
    assert "gc.freeze" not in (PACKAGE / "cli" / "app.py").read_text("utf-8")
    assert "gc.disable" not in (PACKAGE / "cli" / "app.py").read_text("utf-8")
