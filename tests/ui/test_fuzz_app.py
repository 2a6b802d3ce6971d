"""Fuzz the app: any session file opens to the session view or the error view, keys keep working,
and nothing unforeseen happens (no traceback in the log, the app still running).

Fewer sessions than the core fuzz (each is a real app run): ``FUZZ_EXAMPLES // 25`` (20 in CI,
400 in the full run of 10,000), split over ``SHARDS`` cases (marked ``slow``) that the parallel
runner spreads. The walk: open the file, wait for the view, then ``G``, ``g``, ``j``, ``]``,
``o``, ``t``, Space, ``b`` and Escape, as a reader would.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from fuzzshapes import FUZZ_EXAMPLES, session_bytes
from hypothesis import HealthCheck, given, settings
from sharding import shard_examples, shard_ids
from waiting import wait_for, workers_finished

from ink_tui.logs import log_file
from ink_tui.ui.screens.error import ErrorScreen
from ink_tui.ui.session_view.screen import SessionScreen

APP_EXAMPLES = max(10, FUZZ_EXAMPLES // 25)
SHARDS = 4  # the examples run as this many cases (tests/sharding.py)
KEYS = ["G", "g", "j", "right_square_bracket", "o", "t", "space", "b", "escape", "j"]


def _settled(app: Any) -> bool:
    screen = app.screen
    if isinstance(screen, ErrorScreen):
        return True
    return isinstance(screen, SessionScreen) and screen.loaded is not None


async def _walk(make_app: Any, path: Path) -> None:
    app = make_app(cwd="/nowhere", open_path=path)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: _settled(app), "the session view or the error view")
        await wait_for(pilot, workers_finished(app), "the load to end")
        for key in KEYS:
            await pilot.press(key)
        await pilot.pause()
        assert app.is_running


@pytest.mark.slow
@pytest.mark.parametrize("shard", shard_ids(SHARDS))
@settings(
    max_examples=shard_examples(APP_EXAMPLES, SHARDS),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=session_bytes())
def test_the_app_opens_any_session_to_a_view_and_keeps_answering_keys(
    make_app: Any,
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    shard: str,
    data: bytes,
) -> None:
    state = tmp_path_factory.mktemp("state")
    monkeypatch.setenv("XDG_STATE_HOME", str(state))  # this run's own log file
    path = tmp_path_factory.mktemp("fuzz") / "session.jsonl"
    path.write_bytes(data)
    asyncio.run(_walk(make_app, path))
    assert not log_file().exists(), log_file().read_text()[-3000:]
    assert path.read_bytes() == data  # reading never writes
