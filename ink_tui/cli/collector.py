"""The garbage-collector policy of an ``ink-tui`` process: the app and every command run under
it (``cli.entry`` applies it around what the command line names), the previous one after.

Python's cyclic collector looks at the youngest objects every 700 allocations by default, and
every tenth young collection looks further; a big read keeps what it builds alive, so most of
those collections find nothing. Showing a 100 MB session keeps about 570,000 container objects
alive: with the defaults, building them ran about ten full collections, each longer as the
heap grew (2-4 s of collection in the load, 1-2 s of it on the event loop), and ``context`` or
``check`` of a 100,000-record branch spent a fifth of their time in collections. Young
collections 14 times rarer make that one or two. The collector is never switched off and
nothing is frozen; no other module touches it (``tests/unit/cli/test_launch_collector.py``).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["GC_THRESHOLD", "process_collector"]

GC_THRESHOLD = 10_000
"""Allocations between two young collections in an ``ink-tui`` process (CPython's: 700)."""


@contextmanager
def process_collector() -> Iterator[None]:
    """Run the block under ``ink-tui``'s collector thresholds, then restore the previous ones."""
    previous = gc.get_threshold()
    gc.set_threshold(GC_THRESHOLD, *previous[1:])
    try:
        yield
    finally:
        gc.set_threshold(*previous)
