"""A big session's first screen read from the end (session/conversation/tailbranch.py): given
up, for the whole load to show, when its last turns need more than a share of the file."""

from __future__ import annotations

from pathlib import Path

import hostile
import pytest

from ink_tui.paths import project_dir
from ink_tui.session.conversation import tailbranch
from ink_tui.session.conversation.tailbranch import read_tail_branch

SMALL = hostile.Sizes(long_line=10, records=10, chain=10_000, nesting=10, image=10)


@pytest.fixture(autouse=True)
def no_floor(monkeypatch: pytest.MonkeyPatch) -> None:
    """A quarter of these files (2 MB or so; the end is read 256 KB at a time) is the whole
    budget: no 2 MB floor."""
    monkeypatch.setattr(tailbranch, "TAIL_FLOOR_BYTES", 0)


def test_last_turns_in_the_last_quarter_are_read_from_the_end(tmp_path: Path) -> None:
    item = hostile.build(project_dir(tmp_path, hostile.CWD), "parent-chain", SMALL)
    loaded = read_tail_branch(item.path, 3)
    assert loaded is not None and loaded.partial
    assert hostile.MARKER in loaded.turns[-1].items[-1].text


def test_a_branch_forking_off_near_the_start_is_left_to_the_whole_load(tmp_path: Path) -> None:
    """10,000 forks between the last reply and its prompt: the end of the file cannot show the
    last turn without reading all of it."""
    item = hostile.build(project_dir(tmp_path, hostile.CWD), "fork-star", SMALL)
    assert read_tail_branch(item.path, 3) is None
