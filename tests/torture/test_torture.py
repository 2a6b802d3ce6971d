"""Crash torture (issue 11): writers SIGKILLed at random moments, power cuts at every byte.

CI runs a short version (30 kills over files up to 1 MB, five last-record cuts). The full run:
``INK_TUI_TORTURE_KILLS=1000 pytest -m torture -s`` (files up to 50 MB, every kind of last
record, both writers, with and without NUL-filled tails), or ``tests/torture/run_torture.py``,
which prints the figures README quotes. ``INK_TUI_TORTURE_SEED`` repeats a run's choices (the
kill moments stay random). Every assertion is about file contents, never about time.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from run_torture import ALL_CUTS, FULL, SMALL, Cut, all_cuts, report, run_kills
from torture_checks import Figures, check_crash
from torture_plan import Written, dry_stream, grow_session

from ink_tui.session import SessionFile, open_session
from ink_tui.session.writing.repair import TornRepair

pytestmark = pytest.mark.torture

FULL_KILLS = os.environ.get("INK_TUI_TORTURE_KILLS")
SEED = int(os.environ.get("INK_TUI_TORTURE_SEED") or random.randrange(2**32))
CI_CUTS: tuple[Cut, ...] = (
    ("ink-tui", "calls", False),
    ("raw", "results", False),
    ("raw", "other", False),
    ("ink-tui", "answer", True),
    ("raw", "user", True),
    ("ink-tui", "creation", False),
    ("raw", "creation", True),
)


def _assert_clean(figures: Figures, what: str) -> None:
    assert figures.failures == [], f"{what} (seed {SEED})"
    assert (figures.reader_crashes, figures.records_lost) == (0, 0), f"seed {SEED}"
    assert (figures.not_a_prefix, figures.index_disagreements) == (0, 0), f"seed {SEED}"
    assert figures.records_checked > 0


@pytest.mark.slow
def test_sigkilled_writers_never_lose_a_complete_record(tmp_path: Path) -> None:
    kills = int(FULL_KILLS or 30)
    print(f"torture seed {SEED}")
    run = run_kills(tmp_path, kills, SEED, FULL if FULL_KILLS else SMALL)
    print(report(run, 0, None, run.seconds))
    _assert_clean(run.figures, "kill torture")
    assert run.kills == kills
    assert run.by_writer["ink-tui"] > 0 and run.by_writer["raw"] > 0
    # after every crash the file was repaired and reopened clean; the next writer went on. A
    # writer killed while creating its session before its header was whole leaves a file Ink
    # refuses (checked, then removed) and one whose header only lacks its newline is terminated:
    # crashes both, with no appended records to reopen.
    new = run.figures.new_sessions
    unopened = new["empty"] + new["torn header"] + new["header without newline"]
    assert run.figures.reopened_clean == run.figures.crashes - unopened
    assert run.final_appends == len(run.sizes.files)


@pytest.mark.parametrize(
    "cut", ALL_CUTS if FULL_KILLS else CI_CUTS, ids=lambda c: "-".join(map(str, c))
)
def test_a_power_cut_at_every_byte_of_the_last_record(tmp_path: Path, cut: Cut) -> None:
    figures = Figures()
    offsets = all_cuts(tmp_path, SEED, figures, [cut], max_record=8192 if FULL_KILLS else 600)
    _assert_clean(figures, f"cuts {cut}")
    assert figures.crashes == offsets
    if cut[1] == "creation":  # a torn header is refused (nothing complete was written)
        if not cut[2]:
            new = figures.new_sessions
            assert new["header without newline"] == 1 and new["torn header"] > 1
            assert new["empty"] == 1  # the cut at byte 0: created, nothing written yet
            assert figures.reopened_clean == new["created"] > 1
        return
    assert figures.reopened_clean == offsets  # repaired, then clean, at every offset
    if not cut[2]:  # the index was checked at every offset, before and after the repair
        assert figures.index_checks == 2 * offsets


# -- the checks catch what they look for ----------------------------------------------------


def _crashed_file(tmp_path: Path) -> tuple[Path, SessionFile, Written]:
    folder = tmp_path / "sessions" / "home-ada-proj"
    folder.mkdir(parents=True)
    path = grow_session(folder, 3000, 5)
    before = open_session(path, warn=None)
    written = dry_stream("ink-tui", before, 6, budget=2000, big=0)
    return path, before, written


def test_the_checks_see_a_lost_record(tmp_path: Path) -> None:
    path, before, written = _crashed_file(tmp_path)
    data, ends = bytes(written.data), written.ends
    with path.open("ab") as stream:  # the second record is missing: not what was written
        stream.write(data[: ends[0]] + data[ends[1] : ends[2]])
    figures = Figures()
    check_crash(path, before, written, figures)
    assert figures.not_a_prefix == 1 and figures.failed


def test_the_checks_see_a_repair_that_cuts_a_whole_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ink_tui.session.writing import repair as repair_module

    path, before, written = _crashed_file(tmp_path)
    ends = written.ends
    with path.open("ab") as stream:
        stream.write(bytes(written.data[: ends[1] + 5]))
    cutting_one_more = repair_module.apply_torn_repair
    whole = ends[1] - ends[0]

    def careless(session: SessionFile, repair: TornRepair) -> Path | None:
        repair = TornRepair(repair.action, repair.bytes, repair.offset - whole, repair.line)
        return cutting_one_more(session, repair)

    monkeypatch.setattr(repair_module, "apply_torn_repair", careless)
    figures = Figures()
    check_crash(path, before, written, figures)
    assert figures.records_lost == 1 and figures.failed
