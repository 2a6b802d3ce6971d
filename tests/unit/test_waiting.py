"""tests/waiting.py: a wait returns the predicate's value, or fails naming what it awaited."""

from __future__ import annotations

import pytest
from waiting import wait_for


async def test_wait_for_returns_the_value_once_the_predicate_holds() -> None:
    looks = iter([None, 0, "", "ready"])
    assert await wait_for(None, lambda: next(looks), "the fourth look") == "ready"


async def test_a_wait_that_times_out_says_what_it_was_waiting_for() -> None:
    with pytest.raises(AssertionError, match=r"^timed out after 0\.05 s waiting for the moon$"):
        await wait_for(None, lambda: False, "the moon", timeout=0.05)
