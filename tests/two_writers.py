"""Two writers on one session: ink-tui's writer appending while another process appends the way
Ink does, at random (whole records, records split across writes, a torn tail left for a while).

:func:`provoke` runs one such race and returns what happened; the reliability test runs a few
short races, ``python tests/two_writers.py --rounds N`` the full one with figures.
The file is then read line by line: every line must be one whole record of one writer (the last
may be the other writer's torn tail), never bytes of both.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ink_tui.session import (  # noqa: E402
    ConcurrentWriteError,
    SessionError,
    SessionWriter,
    open_session,
)

STAMP = "2026-10-05T12:34:56.789Z"
OTHER = r"""
import json, os, random, sys, time
path, seed, count, split = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
rng = random.Random(seed)
fd = os.open(path, os.O_WRONLY | os.O_APPEND)
for n in range(count):
    record = {"type": "message", "id": f"other-{n}", "parentId": None,
              "timestamp": "2026-10-05T12:34:56.789Z",
              "message": {"role": "user", "content": f"other {n} " + "x" * rng.randrange(400)}}
    data = (json.dumps(record) + "\n").encode()
    shape = rng.random()
    if shape >= split:  # one write, as Ink appends
        os.write(fd, data)
    else:  # split across two or three writes, as a slow or interrupted writer leaves it
        cuts = sorted(rng.sample(range(1, len(data)), rng.choice([1, 2])))
        parts = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)])]
        for part in parts:
            os.write(fd, part)
            time.sleep(rng.choice([0.0, 0.0005, 0.002, 0.02 if shape < split / 8 else 0.0]))
    time.sleep(rng.random() * 0.004)
if rng.random() < 0.5:  # a torn tail left behind
    os.write(fd, b'{"type":"message","id":"other-torn","parentId":null,')
os.close(fd)
"""


@dataclass
class Race:
    """What one race did, and what the file holds after it."""

    ours_attempted: int = 0
    ours_written: int = 0
    conflicts_caught: int = 0  # refused before writing: the file had changed or was mid-record
    mixed_lines: list[int] = field(default_factory=list)  # lines holding bytes of both writers
    bad_lines: list[int] = field(default_factory=list)  # other lines that are not one record
    ours_found: int = 0
    others_found: int = 0


def _header(cwd: str) -> dict[str, object]:
    return {"type": "session", "version": 1, "id": "2w", "timestamp": STAMP, "cwd": cwd}


def _check_file(path: Path, race: Race) -> None:
    lines = path.read_bytes().split(b"\n")
    last = len(lines) - 1  # the segment after the final newline ("" when the file ends in one)
    for number, line in enumerate(lines[1:], start=2):
        if not line:
            continue
        ours, theirs = b'"ours-' in line, b'"other-' in line
        try:
            record = json.loads(line)
        except ValueError:
            record = None
        if isinstance(record, dict) and record.get("type") == "message":
            race.others_found += str(record.get("id")).startswith("other-")
            race.ours_found += str(record["message"].get("content")).startswith("ours-")
        elif ours and theirs:
            race.mixed_lines.append(number)
        elif not (number - 1 == last and theirs):
            race.bad_lines.append(number)


def provoke(folder: Path, seed: int, records: int = 60, split: float = 0.4) -> Race:
    """One race: another process appends ``records`` records (a ``split`` share of them in two or
    three writes, the rest in one write as Ink appends) while ink-tui's writer appends as many,
    each side at random; ink-tui re-reads the file after each conflict, as the chat does."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    writer = SessionWriter.new(folder, "/home/ada/code/two")
    writer.append_message({"role": "user", "content": "first"})
    path = writer.path
    other = subprocess.Popen(
        [sys.executable, "-c", OTHER, str(path), str(seed), str(records), str(split)]
    )
    race = Race()
    try:
        for n in range(records):
            race.ours_attempted += 1
            try:
                writer.append_message({"role": "user", "content": f"ours-{n}"})
                race.ours_written += 1
            except ConcurrentWriteError:
                race.conflicts_caught += 1
                writer = _reread(path) or writer
            time.sleep(rng.random() * 0.004)
    finally:
        other.wait(timeout=60)
    _check_file(path, race)
    return race


def _reread(path: Path) -> SessionWriter | None:
    """A writer for the file as it is now, if its end is a whole record (else try later)."""
    try:
        session = open_session(path, warn=None, complete_only=True)
    except SessionError:
        return None  # broken by an interleaving: the check of the file says where
    if session.size != path.stat().st_size:
        return None  # a record is being written: wait for its newline
    try:
        return SessionWriter.for_session(session)
    except ValueError:
        return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--records", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--split", type=float, default=0.4, help="share of split records")
    options = parser.parse_args()
    import tempfile

    totals = Race()
    with tempfile.TemporaryDirectory() as scratch:
        for round_number in range(options.rounds):
            race = provoke(
                Path(scratch) / str(round_number), options.seed + round_number, options.records
            )
            for name in (
                "ours_attempted",
                "ours_written",
                "conflicts_caught",
                "ours_found",
                "others_found",
            ):
                setattr(totals, name, getattr(totals, name) + getattr(race, name))
            totals.mixed_lines += race.mixed_lines
            totals.bad_lines += race.bad_lines
    print(
        f"rounds {options.rounds}, seed {options.seed}: ink-tui tried {totals.ours_attempted} "
        f"appends, wrote {totals.ours_written}, refused {totals.conflicts_caught} "
        f"(the file had changed or held a record in writing); the other process wrote "
        f"{totals.others_found} whole records; lines mixing both writers: "
        f"{len(totals.mixed_lines)}; other broken lines: {len(totals.bad_lines)}"
    )
    return 1 if totals.mixed_lines or totals.bad_lines else 0


if __name__ == "__main__":
    raise SystemExit(main())
