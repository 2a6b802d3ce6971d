"""A big session that the session view opens tail first, and a hold on its full load.

Big sessions paint their last turns first (``session_load.QUICK_ENTRIES``), then the whole
branch; tests that act in between hold the full load until they release it. Importable from
every test folder as ``import bigload`` (``pythonpath`` in pyproject.toml).
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from waiting import DEFAULT_TIMEOUT

__all__ = ["big_session", "hold_the_full_load", "tail_first"]

CWD = "/home/ada/code/calc-kit"


def tail_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sessions of more than 40 entries open tail first."""
    import ink_tui.ui.session_view.loader as session_load

    monkeypatch.setattr(session_load, "QUICK_ENTRIES", 40)


def hold_the_full_load(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """Open tail first, and read the whole branch only once the returned event is set."""
    import ink_tui.ui.session_view.loader as session_load

    tail_first(monkeypatch)
    release = threading.Event()
    original = session_load.load_branch

    def held(session: Any, leaf: Any, *, last: int | None = None, **options: Any) -> Any:
        if last is None:
            assert release.wait(DEFAULT_TIMEOUT), "the test never released the full load"
        return original(session, leaf, last=last, **options)

    monkeypatch.setattr(session_load, "load_branch", held)
    return release


def big_session(folder: Path, entries: int = 300) -> Path:
    """A generated session of ``entries`` entries in ``folder`` (no compaction, no forks)."""
    from ink_tui.demo import generate_session

    return generate_session(
        folder,
        CWD,
        seed=4,
        entries=entries,
        clock_start=datetime(2026, 11, 1, tzinfo=UTC),
        compact=False,
        fork=False,
    )
