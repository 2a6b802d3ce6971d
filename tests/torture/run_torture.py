"""The crash torture: writers SIGKILLed at random moments, and power cuts at every byte offset.

Run by hand for the full figures (they go in README)::

    python tests/torture/run_torture.py                 # 1,000 kills, files 4 KB .. 50 MB
    python tests/torture/run_torture.py --kills 30 --seed 7 --small

``tests/torture/test_torture.py`` runs a short version in CI (``INK_TUI_TORTURE_KILLS`` sets
the number of kills there too). Every assertion is about file contents: the random kill times
only decide where the writers die.
"""

from __future__ import annotations

import argparse
import math
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: helpers shared by suites

from torture_checks import Figures, check_crash
from torture_cuts import CREATION, LAST_RECORDS, cut_every_offset
from torture_new import check_new_session_crash
from torture_plan import dry_new_stream, dry_stream, grow_session
from torture_writers import WRITERS, WriterKind

from ink_tui.catalog.index import CatalogIndex
from ink_tui.humanize import human_size
from ink_tui.paths import cwd_folder_name
from ink_tui.session import SessionFile, SessionWriter, open_session

__all__ = ["FULL", "SMALL", "KillRun", "all_cuts", "report", "run_kills"]

CHILD = Path(__file__).with_name("torture_child.py")
KB, MB = 1024, 1024 * 1024
CWD = "/home/ada/proj"
NEW_SESSIONS = 0.1  # the share of writers that create a new session (the chat's first message)


@dataclass(frozen=True)
class Sizes:
    files: tuple[int, ...]  # the size classes of the files written to
    budget: int  # a writer appends at most about this much before it is done
    big: int  # the largest tool output it writes


FULL = Sizes(files=(4 * KB, 64 * KB, 1 * MB, 10 * MB, 50 * MB), budget=4 * MB, big=8 * MB)
SMALL = Sizes(files=(4 * KB, 64 * KB, 1 * MB), budget=256 * KB, big=512 * KB)


@dataclass
class KillRun:
    """A kill torture's own figures, beside the checks' :class:`Figures`."""

    seed: int
    sizes: Sizes
    figures: Figures = field(default_factory=Figures)
    kills: int = 0
    by_writer: dict[str, int] = field(default_factory=lambda: dict.fromkeys(WRITERS, 0))
    finished_first: int = 0  # writers done before their kill came: not counted as kills
    final_appends: int = 0  # after the run, one more append to each file: reopened clean
    seconds: float = 0.0


def run_kills(
    folder: Path,
    kills: int,
    seed: int,
    sizes: Sizes = SMALL,
    progress: Callable[[KillRun], None] | None = None,
) -> KillRun:
    """SIGKILL ``kills`` writer processes at random moments, checking the file after each."""
    started = time.monotonic()
    torture = _KillTorture(folder, KillRun(seed, sizes))
    with CatalogIndex.open(folder / "index.sqlite3") as torture.index:
        attempts = 0
        while torture.run.kills < kills and attempts < 3 * kills + 10:
            attempts += 1
            before = torture.run.kills
            torture.one_writer()
            torture.run.seconds = time.monotonic() - started
            if progress is not None and torture.run.kills != before:
                progress(torture.run)
        for _, session in torture.files.values():
            torture.run.final_appends += _append_reopens_clean(session, torture.run.figures)
    torture.run.seconds = time.monotonic() - started
    return torture.run


class _KillTorture:
    """The files written to (one per size class) and one writer's life and death at a time."""

    index: CatalogIndex

    def __init__(self, folder: Path, run: KillRun) -> None:
        self.run = run
        self.rng = random.Random(run.seed)
        self.base = folder / "sessions"
        self.project = self.base / cwd_folder_name(CWD)
        self.project.mkdir(parents=True)
        self.files = {target: self._fresh(target) for target in run.sizes.files}

    def _fresh(self, target: int) -> tuple[Path, SessionFile]:
        path = grow_session(self.project, target, self.rng.getrandbits(32))
        return path, open_session(path, warn=None)

    def _most(self, target: int) -> tuple[int, int]:
        """The most a writer appends to a file of size class ``target`` and its biggest tool
        output: about the file's own size (16 KB at least), so a small file stays small."""
        most = min(self.run.sizes.budget, max(target, 16 * KB))
        return most, min(self.run.sizes.big, 2 * most)

    def one_writer(self) -> None:
        """A writer appends to one of the files (or creates a new session) and is killed."""
        rng, sizes, figures = self.rng, self.run.sizes, self.run.figures
        kind = rng.choice(WRITERS)
        seed = rng.getrandbits(32)
        new_session = rng.random() < NEW_SESSIONS  # the first records of a new session
        target = min(sizes.files) if new_session else rng.choice(sizes.files)
        most, big = self._most(target)
        budget = int(2 ** rng.uniform(8, math.log2(most)))
        numbers = (seed, budget, big)
        started = time.monotonic()
        if new_session:
            path, written = dry_new_stream(kind, self.project, seed, budget=budget, big=big)
            self._kill(kind, self.project, numbers, time.monotonic() - started)
            session = check_new_session_crash(
                path, written, figures, index=self.index, base=self.base
            )
            if session is not None:  # it takes the place of the smallest file
                smallest = min(sizes.files)
                self.files[smallest][0].unlink()
                self.files[smallest] = (path, session)
            return
        path, before = self.files[target]
        if before.size > 2 * target + 2 * most:  # grown out of its class: a new one
            path.unlink()
            path, before = self.files[target] = self._fresh(target)
        written = dry_stream(kind, before, seed, budget=budget, big=big)
        self._kill(kind, path, numbers, time.monotonic() - started)
        repaired = check_crash(path, before, written, figures, index=self.index, base=self.base)
        self.files[target] = (path, repaired) if repaired else self._fresh(target)

    def _kill(self, kind: str, target: Path, numbers: tuple[int, int, int], pace: float) -> None:
        """Start the writer, SIGKILL it after a random delay of about as long as it needs for
        all it writes (``pace``: the dry run's time; it also waits on the disk)."""
        run = self.run
        arguments = [sys.executable, str(CHILD), kind, str(target), *map(str, numbers)]
        process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert process.stdout is not None and process.stderr is not None
        ready = process.stdout.readline()
        if ready == b"ready\n":
            time.sleep(self.rng.uniform(0, 2 * pace + 0.002))
        process.send_signal(signal.SIGKILL)
        process.wait()
        errors = process.stderr.read().decode(errors="replace").strip()
        process.stdout.close()
        process.stderr.close()
        if ready != b"ready\n" or process.returncode not in (0, -signal.SIGKILL):
            run.figures.fail(f"the {kind} writer failed ({process.returncode}): {errors[-300:]}")
        if process.returncode == 0:
            run.finished_first += 1
        elif process.returncode == -signal.SIGKILL:
            run.kills += 1
            run.by_writer[kind] += 1


def _append_reopens_clean(session: SessionFile, figures: Figures) -> int:
    writer = SessionWriter.for_session(session)
    record = writer.append_message({"role": "user", "content": "after the torture ✓"})
    reopened = open_session(session.path, warn=None)
    if reopened.torn_final_line or reopened.leaf_id != record["id"]:
        figures.fail(f"{session.path.name}: an append after the last repair did not reopen clean")
        return 0
    return 1


Cut = tuple[WriterKind, str, bool]  # writer, kind of the last record, NUL-filled tail
ALL_CUTS: tuple[Cut, ...] = tuple(
    (kind, last, zeros)
    for kind in WRITERS
    for last in (*LAST_RECORDS, CREATION)
    for zeros in (False, True)
)


def all_cuts(
    folder: Path,
    seed: int,
    figures: Figures,
    cuts: Iterable[Cut] = ALL_CUTS,
    max_record: int = 8 * KB,
) -> int:
    """:func:`torture_cuts.cut_every_offset` for each of ``cuts``; the number of offsets cut."""
    total = 0
    for number, (kind, last, zeros) in enumerate(cuts):
        where = folder / f"cut-{number}"
        total += cut_every_offset(
            where, kind, last, seed + number, zeros=zeros, figures=figures, max_record=max_record
        )
    return total


def report(run: KillRun, cuts: int, cut_figures: Figures | None, seconds: float) -> str:
    """The figures, as README shows them."""
    f = run.figures
    sizes = f.sizes or [0]
    classes = ", ".join(human_size(size) for size in run.sizes.files)
    lines = [
        f"crash torture, seed {run.seed}",
        f"  kills            {run.kills:,} SIGKILLs (ink-tui writer {run.by_writer['ink-tui']:,},"
        f" raw Ink-like writer {run.by_writer['raw']:,}); {run.finished_first} more writers "
        "finished before their kill (checked, not counted)",
        f"  file sizes       {human_size(min(sizes))} .. {human_size(max(sizes))} at the kills "
        f"(files grown from {classes}): {_histogram(sizes)}",
        f"  new sessions     {sum(f.new_sessions.values())} writers creating one: "
        f"{f.new_sessions['created']} created, {f.new_sessions['not created']} not yet, "
        f"{f.new_sessions['empty']} empty (killed between create and write), "
        f"{f.new_sessions['torn header']} torn headers (open refuses both in one line, as "
        f"Ink's does), {f.new_sessions['header without newline']} headers without newline",
        f"  torn tails       {f.torn_tails} partial last records, {f.unterminated} whole records "
        "missing only their newline",
        f"  reader crashes   {f.reader_crashes}",
        f"  records          {f.records_checked:,} complete records checked, {f.records_lost} "
        f"lost; {f.not_a_prefix} files not an exact prefix of what was written",
        f"  repairs          {f.repairs['truncated']} truncated ({f.backups_checked} backups "
        f"checked), {f.repairs['terminated']} terminated, {f.repairs['closed']} dangling-call "
        "closures",
        f"  index            {f.index_checks:,} checks, {f.index_opened:,} opened from the "
        f"index, {f.index_disagreements} disagreements",
        f"  appends          {f.reopened_clean:,} clean reopens after repair, "
        f"{run.final_appends} final appends clean",
        f"  kill run         {run.seconds:.0f} s",
    ]
    if cut_figures is not None:
        c = cut_figures
        lines.append(
            f"  power cuts       {cuts:,} byte offsets: every offset of the last record (both "
            "writers; calls, results, user, answer, other records, a new session's first "
            "write; with and without a NUL-filled tail): "
            f"{c.reader_crashes} reader crashes, {c.records_lost} records lost, "
            f"{c.index_disagreements} index disagreements, {c.backups_checked:,} backups checked"
        )
    failures = f.failures + (cut_figures.failures if cut_figures else [])
    lines.append(f"  failures         {len(failures) or 'none'}")
    lines.extend(f"    {failure}" for failure in failures)
    lines.append(f"  duration         {seconds:.0f} s")
    return "\n".join(lines)


def _histogram(sizes: list[int]) -> str:
    bounds = (16 * KB, 256 * KB, 4 * MB, 32 * MB)
    counts = [sum(1 for size in sizes if size < bound) for bound in bounds]
    parts = [f"{counts[0]} under {human_size(bounds[0])}"]
    parts += [
        f"{counts[n] - counts[n - 1]} under {human_size(bounds[n])}" for n in range(1, len(bounds))
    ]
    parts.append(f"{len(sizes) - counts[-1]} from {human_size(bounds[-1])}")
    return ", ".join(parts)


def _progress(run: KillRun) -> None:
    if run.kills % 50 == 0:
        f = run.figures
        print(
            f"  ... {run.kills} kills, {run.seconds:.0f} s, failures {len(f.failures)}",
            file=sys.stderr,
            flush=True,
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--small", action="store_true", help="files up to 1 MB (CI's sizes)")
    parser.add_argument("--no-cuts", action="store_true", help="skip the byte-offset cuts")
    args = parser.parse_args(argv)
    seed = random.randrange(2**32) if args.seed is None else args.seed
    print(f"seed {seed}", flush=True)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="ink-torture-") as folder:
        sizes = SMALL if args.small else FULL
        run = run_kills(Path(folder) / "kills", args.kills, seed, sizes, _progress)
        cuts, cut_figures = 0, None
        if not args.no_cuts:
            cut_figures = Figures()
            cuts = all_cuts(Path(folder) / "cuts", seed, cut_figures)
    print(report(run, cuts, cut_figures, time.monotonic() - started))
    failed = run.figures.failed + (cut_figures.failed if cut_figures else 0)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
