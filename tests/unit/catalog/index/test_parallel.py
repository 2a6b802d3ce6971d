"""A big first index read by worker processes is the very index one process would have made."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from ink_tui.catalog.index import CatalogIndex, load_rows, parallel, update_index
from ink_tui.catalog.index import update as update_module
from ink_tui.catalog.index.checks import checked_within, scope_keys
from ink_tui.catalog.search import search_index
from ink_tui.demo import generate_demo

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
WORDS = ("retry", "exception", "sidebar", "报表", "fetch_json", "role:user test")


@pytest.fixture(scope="module")
def demo_base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("parallel") / "sessions"
    generate_demo(base, seed=5, sessions=24, now=NOW)
    return base


def _everything(index: CatalogIndex) -> dict[str, Any]:
    """What the index holds, file ids replaced by paths (they may be numbered differently)."""
    connection = index.connection
    path_of = dict(connection.execute("SELECT id, path FROM files"))
    files = connection.execute(
        "SELECT path, project, child, session_id, parent, size, mtime_ns, inode, indexed_to, "
        "fingerprint, scan, row, texts FROM files ORDER BY path"
    ).fetchall()
    tables = {}
    for table in ("entries", "markers"):
        rows = connection.execute(f"SELECT * FROM {table}").fetchall()
        tables[table] = sorted((path_of[row[0]], *row[1:]) for row in rows)
    texts = connection.execute(
        "SELECT t.file_id, t.seq, t.offset, t.role, t.timestamp, t.length, b.body "
        "FROM texts t JOIN bodies b ON b.rowid = t.rowid"
    ).fetchall()
    tables["texts"] = sorted((path_of[row[0]], *row[1:]) for row in texts)
    hits = {
        word: sorted((hit.file, hit.entry_id) for hit in search_index(index, word, limit=500))
        for word in WORDS
    }
    return {"files": files, **tables, "hits": hits, "rows": load_rows(index, None)}


def _serial_and_parallel(
    tmp_path: Path, base: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[dict[str, Any], dict[str, Any], Any]:
    with CatalogIndex.open(tmp_path / "serial" / "index.sqlite3") as index:
        serial = update_index(index, base, None)
        one = _everything(index)
    monkeypatch.setattr(update_module, "PARALLEL_FROM", 0)
    monkeypatch.setattr(parallel, "SHARD_BYTES", 64 * 1024)  # several shards, even here
    monkeypatch.setattr(parallel, "workers", lambda: 2)
    with CatalogIndex.open(tmp_path / "parallel" / "index.sqlite3") as index:
        report = update_index(index, base, None)
        many = _everything(index)
        assert checked_within(index, scope_keys(base, None), 3600.0) is not None
        assert not list((tmp_path / "parallel").glob(".shards-*"))  # cleaned up
    assert (report.added, report.files, report.bytes_read) == (
        serial.added,
        serial.files,
        serial.bytes_read,
    )
    return one, many, report


def test_workers_make_the_same_index_as_one_process(
    tmp_path: Path, demo_base: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    one, many, report = _serial_and_parallel(tmp_path, demo_base, monkeypatch)
    assert report.added > 20
    assert one["hits"]["retry"], "the words searched must be found"
    for part in one:
        assert many[part] == one[part], part


def test_a_file_indexed_meanwhile_by_another_process_is_left_as_it_wrote_it(
    tmp_path: Path, demo_base: Path
) -> None:
    files = sorted(demo_base.rglob("*.jsonl"))[:3]
    database = str(tmp_path / "shard.sqlite3")
    parallel.write_shard((database, [(str(path), False) for path in files]))
    with CatalogIndex.open(tmp_path / "index.sqlite3") as index:
        update_index(index, demo_base, None)  # this process's, or another one's
        before = _everything(index)
        assert parallel._merge(index, database) == (3, 0)  # all three indexed meanwhile
        assert _everything(index) == before


def test_a_file_gone_before_its_worker_reads_it_is_left_for_the_next_update(
    tmp_path: Path, demo_base: Path
) -> None:
    present = sorted(demo_base.rglob("*.jsonl"))[0]
    database = str(tmp_path / "shard.sqlite3")
    _, read = parallel.write_shard(
        (database, [(str(tmp_path / "gone.jsonl"), False), (str(present), False)])
    )
    assert read == present.stat().st_size
    assert sqlite3.connect(database).execute("SELECT count(*) FROM wfiles").fetchone() == (1,)


def test_a_cancelled_parallel_index_stops_and_is_no_check_to_trust(
    tmp_path: Path, demo_base: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(update_module, "PARALLEL_FROM", 0)
    monkeypatch.setattr(parallel, "SHARD_BYTES", 64 * 1024)
    monkeypatch.setattr(parallel, "workers", lambda: 2)
    stop = threading.Event()
    seen: list[int] = []

    def progress(done: int, total: int) -> None:
        seen.append(done)
        stop.set()  # after the first shard

    with CatalogIndex.open(tmp_path / "index.sqlite3") as index:
        report = update_index(index, demo_base, None, progress=progress, cancelled=stop)
        assert report.cancelled and len(seen) == 1
        assert 0 < report.added < report.files
        assert checked_within(index, scope_keys(demo_base, None), 3600.0) is None
        again = update_index(index, demo_base, None)  # the next update finishes the work
        assert again.added == report.files - report.added


def test_shards_keep_the_files_order_and_hold_about_the_bytes_asked() -> None:
    files = [(Path(f"/s/{n}.jsonl"), False, size) for n, size in enumerate([5, 5, 5, 20, 1, 1])]
    cut = parallel.shards(files, limit=10)
    assert [[path.name for path, _, _ in shard] for shard in cut] == [
        ["0.jsonl", "1.jsonl"],
        ["2.jsonl", "3.jsonl"],
        ["4.jsonl", "5.jsonl"],
    ]


def _die(job: Any) -> Any:
    """A worker killed while it reads (out of memory, say)."""
    os._exit(9)


def test_when_a_worker_dies_this_process_reads_its_files_itself(
    tmp_path: Path, demo_base: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(update_module, "PARALLEL_FROM", 0)
    monkeypatch.setattr(parallel, "workers", lambda: 2)
    monkeypatch.setattr(parallel, "write_shard", _die)
    with CatalogIndex.open(tmp_path / "index.sqlite3") as index:
        report = update_index(index, demo_base, None)
        assert report.added == report.files and not report.cancelled
        assert checked_within(index, scope_keys(demo_base, None), 3600.0) is not None


def _fail_on_disk(job: Any) -> Any:
    """A worker whose shard database cannot be written (the cache dir's disk full)."""
    raise sqlite3.OperationalError("database or disk is full")


@pytest.mark.parametrize("failure", ["worker", "folder"])
def test_when_shards_cannot_be_written_this_process_reads_the_files_itself(
    tmp_path: Path, demo_base: Path, monkeypatch: pytest.MonkeyPatch, failure: str
) -> None:
    monkeypatch.setattr(update_module, "PARALLEL_FROM", 0)
    monkeypatch.setattr(parallel, "workers", lambda: 2)
    if failure == "worker":
        monkeypatch.setattr(parallel, "write_shard", _fail_on_disk)
    else:

        def no_folder(index: Any) -> Any:
            raise PermissionError(13, "Permission denied")

        monkeypatch.setattr(parallel, "_shard_folder", no_folder)
    with CatalogIndex.open(tmp_path / "index.sqlite3") as index:
        report = update_index(index, demo_base, None)
        assert report.added == report.files and report.complete


def test_the_shards_of_a_killed_index_process_are_removed_by_the_next(
    tmp_path: Path, demo_base: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(update_module, "PARALLEL_FROM", 0)
    monkeypatch.setattr(parallel, "workers", lambda: 2)
    where = tmp_path / "cache"
    dead = subprocess.Popen(["true"])  # a process id no process has any more
    dead.wait()
    orphan = where / f".shards-{dead.pid}-abc123"
    mine = where / f".shards-{os.getpid()}-def456"  # a live process's (this one's): kept
    for folder in (orphan, mine):
        folder.mkdir(parents=True)
        (folder / "0.sqlite3").write_bytes(b"half a shard")
    with CatalogIndex.open(where / "index.sqlite3") as index:
        update_index(index, demo_base, None)
    assert not orphan.exists() and mine.exists()
