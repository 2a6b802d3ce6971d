"""Benchmark: issue 22's sync goals over SSH, beside plain ``rsync -a`` in the same run.

Run by hand (never in CI, never asserts on time): ``python tests/bench/bench_sync.py``
(``--quick`` for the 0.13 GB tree). Needs ``sshd`` and ``rsync`` (Debian: openssh-server, rsync)
and root, as the archive's tests do: a real ``sshd`` on 127.0.0.1 (``tests/sshserver.py``) serves
the generated tree of ``bench_index.py`` (2,052 sessions, 1.32 GB, one of 100 MB) as the other
machine's sessions folder.

- **first sync**: ``ink-tui sync`` into an empty mirror, wall time and MB/s, beside ``rsync -a``
  of the same tree over the same ``ssh`` into an empty folder (alternately, medians of
  ``--runs``);
- **again, nothing changed, 10 machines**: ten machines set up on the same server (ten paths
  to the same tree, each with its own mirror, all synced once), then ``ink-tui sync`` of all
  ten: the wall time of that command;
- **one 100 MB session grew by 1 MB**: the bytes rsync received for that sync
  (``--stats``-free: the mirror's growth and the report's ``bytes``), and its wall time.

Each ``ink-tui`` figure is a fresh ``python -m ink_tui`` process, bytecode cached.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = Path(__file__).resolve().parent
for _path in (ROOT, BENCH, ROOT / "tests"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

import sshserver  # noqa: E402
from bench_index import FULL, QUICK, cached_tree, read_all  # noqa: E402

from ink_tui.session import open_session  # noqa: E402
from ink_tui.session.writing.writer import SessionWriter  # noqa: E402

GROWTH = 1_000_000


def _run(argv: list[str], env: dict[str, str]) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    took = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.strip()}")
    return took, done.stdout


def _ink(*args: str) -> list[str]:
    return [sys.executable, "-m", "ink_tui", *args]


def _size(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*.jsonl"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the 0.13 GB tree")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    reason = sshserver.missing()
    if reason is not None:
        raise SystemExit(f"cannot run: {reason}")
    tree = cached_tree(QUICK if args.quick else FULL)
    read_all(tree.path)
    total = _size(tree.path)
    print(f"tree: {tree.path}: {tree.sessions:,} sessions, {total / 1e6:,.1f} MB")
    work = Path(tempfile.mkdtemp(prefix="ink-tui-bench-sync-"))
    try:
        with sshserver.ssh_server(work / "sshd") as server:
            env = {
                **os.environ,
                "RSYNC_RSH": server.rsh,
                "XDG_CONFIG_HOME": str(work / "config"),
                "XDG_DATA_HOME": str(work / "data"),
                "XDG_CACHE_HOME": str(work / "cache"),
                "PYTHONPATH": str(ROOT),
            }
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            source = work / "source"
            shutil.copytree(tree.path, source, ignore=shutil.ignore_patterns(".complete.json"))
            read_all(source)
            first_sync(server, source, env, work, total, args.runs)
            many_unchanged(server, source, env, work)
            growth(server, source, env, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def first_sync(
    server: sshserver.SshServer,
    source: Path,
    env: dict[str, str],
    work: Path,
    total: int,
    runs: int,
) -> None:
    ours, theirs = [], []
    for run in range(runs):
        plain = work / f"plain-{run}"
        took, _ = _run(
            [
                "rsync",
                "-a",
                "-e",
                f"{server.rsh} -p {server.port}",
                f"127.0.0.1:{source}/",
                f"{plain}/",
            ],
            env,
        )
        theirs.append(took)
        shutil.rmtree(plain)
        name = f"first{run}"
        _run(_ink("machines", "add", name, server.url(source)), env)
        took, out = _run(_ink("sync", name, "--json"), env)
        ours.append(took)
        report = json.loads(out)[0]
        assert report["error"] is None and report["bytes"] == total, report
        mirror = work / "data" / "ink-tui" / "machines" / name
        shutil.rmtree(mirror)
        _run(_ink("machines", "remove", name, "--keep-mirror"), env)
    ink, rsync = statistics.median(ours), statistics.median(theirs)
    print(
        f"first sync, {total / 1e6:,.0f} MB: "
        f"ink-tui sync {ink:.2f} s ({total / 1e6 / ink:.0f} MB/s), "
        f"rsync -a {rsync:.2f} s ({total / 1e6 / rsync:.0f} MB/s): {ink / rsync:.2f}x "
        f"(runs: ink-tui {[round(t, 2) for t in ours]}, rsync {[round(t, 2) for t in theirs]})"
    )


def many_unchanged(
    server: sshserver.SshServer, source: Path, env: dict[str, str], work: Path
) -> None:
    names = [f"box{n}" for n in range(10)]
    for name in names:  # ten paths to the same tree: ten listings, ten mirrors
        link = work / f"path-{name}"
        link.symlink_to(source)
        _run(_ink("machines", "add", name, server.url(link)), env)
    _run(_ink("sync", *names), env)
    times = [_run(_ink("sync", *names, "--json"), env)[0] for _ in range(3)]
    print(
        f"sync again, nothing changed, 10 machines: {statistics.median(times):.2f} s "
        f"(runs {[round(t, 2) for t in times]})"
    )


def _loopback_bytes() -> int:
    """Bytes received on the loopback interface so far (``/proc/net/dev``): what crossed it."""
    for line in Path("/proc/net/dev").read_text().splitlines():
        name, _, counters = line.partition(":")
        if name.strip() == "lo":
            return int(counters.split()[0])
    raise SystemExit("no loopback interface in /proc/net/dev")


def growth(server: sshserver.SshServer, source: Path, env: dict[str, str], work: Path) -> None:
    biggest = max(source.rglob("*.jsonl"), key=lambda path: path.stat().st_size)
    _run(_ink("machines", "add", "grow", server.url(source)), env)
    _run(_ink("sync", "grow"), env)
    mirror = work / "data" / "ink-tui" / "machines" / "grow" / biggest.relative_to(source)
    before = mirror.stat().st_size
    writer = SessionWriter.for_session(open_session(biggest, warn=None))
    while biggest.stat().st_size < before + GROWTH:
        writer.append_message({"role": "user", "content": "one more: " + "x" * 2000})
    wire = _loopback_bytes()
    took, out = _run(_ink("sync", "grow", "--json"), env)
    wire = _loopback_bytes() - wire
    report = json.loads(out)[0]
    grew = biggest.stat().st_size - before
    print(
        f"a {before / 1e6:.0f} MB session grew by {grew / 1e6:.2f} MB: sync {took:.2f} s, "
        f"{report['bytes'] / 1e6:.2f} MB of session brought over ({report['grown']} grown), "
        f"{wire / 1e6:.2f} MB crossed the loopback (both ways, all 2,052 files listed), "
        f"mirror equal: {mirror.read_bytes() == biggest.read_bytes()}"
    )


if __name__ == "__main__":
    main()
