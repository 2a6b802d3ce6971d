"""Chains and forks 100,000 deep (issue 11, item 4): no code walks them by recursion.

Each walk of the core runs with Python's recursion limit cut to :data:`SHALLOW` frames, so any
recursion whose depth follows the chain's fails at once (at 100,000 entries it would fail at any
limit): the branch, the leaves, the labels, the forks of the branches screen, the context, the
check's report, the view's rows, the resume point, a listing row and the catalog index.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import hostile
import pytest

from ink_tui.catalog.index import CatalogIndex, update_index
from ink_tui.catalog.summary import summarize_file
from ink_tui.session import build_context, open_session, report_session
from ink_tui.session.conversation.branchview import load_branch
from ink_tui.session.conversation.forks import SessionSnapshot, build_branch_list
from ink_tui.session.conversation.lastturns import read_last_turns
from ink_tui.session.conversation.tree import branch, children_map, labels, leaves

pytestmark = pytest.mark.slow  # every case reads 100,000 entries (4-11 s each)

SHALLOW = 250  # frames: pytest's own and the calls' fixed depth, far below 100,000
T = TypeVar("T")

# kind -> (entries on the current branch, leaves)
SHAPES = {
    "parent-chain": (hostile.CI.chain, 1),
    "fork-star": (2, hostile.CI.chain),
    "fork-chain": (hostile.CI.chain // 2 + 1, hostile.CI.chain // 2),
    "tiny-records": (hostile.CI.records, 1),
}


def shallow(action: Callable[[], T]) -> T:
    """``action()`` with at most :data:`SHALLOW` more frames than this one."""
    depth = len(_frames())
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + SHALLOW)
    try:
        return action()
    finally:
        sys.setrecursionlimit(limit)


def _frames() -> list[Any]:
    frames, frame = [], sys._getframe()
    while frame is not None:
        frames.append(frame)
        frame = frame.f_back  # type: ignore[assignment]
    return frames


@pytest.fixture
def built(hostile_files: hostile.Built) -> hostile.Built:
    return hostile_files


@pytest.mark.parametrize("kind", sorted(SHAPES))
def test_the_core_walks_without_recursion(built: dict[str, hostile.Hostile], kind: str) -> None:
    path = built[kind].path
    on_branch, leaf_count = SHAPES[kind]
    session = shallow(lambda: open_session(path, warn=None))
    entries = shallow(lambda: branch(session))
    assert len(entries) == on_branch and entries[-1].id == "end"
    assert len(shallow(lambda: leaves(session))) == leaf_count
    assert len(shallow(lambda: children_map(session))) >= 1
    assert shallow(lambda: labels(session)) == {}
    context = shallow(lambda: build_context(session))
    assert context.messages[-1]["blocks"][0]["text"] == f"All done: {hostile.MARKER}."
    assert shallow(lambda: report_session(session)).pairing is not None
    loaded = shallow(lambda: load_branch(session, session.leaf_id, models=True))
    assert hostile.MARKER in loaded.turns[-1].items[-1].text
    listing = shallow(lambda: build_branch_list(SessionSnapshot.of(session), session.leaf_id))
    assert listing is not None and len(listing.rows) == leaf_count
    assert listing.current_row is not None and listing.current_row.entry.id == "end"
    last = shallow(lambda: read_last_turns(path, 3))
    assert hostile.MARKER in last.turns[-1].items[-1].text


@pytest.mark.parametrize("kind", sorted(SHAPES))
def test_the_catalog_reads_without_recursion(
    built: dict[str, hostile.Hostile], kind: str, tmp_path: Path
) -> None:
    item = built[kind]
    _, leaf_count = SHAPES[kind]
    info = item.path.stat()
    row = shallow(lambda: summarize_file(item.path, mtime=info.st_mtime, size=info.st_size))
    assert row.id == hostile.SESSION_ID and row.leaf_count == leaf_count
    with CatalogIndex.open(tmp_path / "index.sqlite3") as index:
        report = shallow(lambda: update_index(index, item.path.parent.parent, None))
        assert report.added == 1
