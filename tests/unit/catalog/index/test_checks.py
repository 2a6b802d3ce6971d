"""A search may trust a check of the files made seconds before, and then says so.

Where a check must be trusted, the tests trust it for an hour (:data:`HOUR`): they never depend
on how fast the machine runs them; the window itself is tested with explicit clock readings.
"""

from __future__ import annotations

import json
import sqlite3
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from inksessions import ink_session

from ink_tui.catalog.index import CatalogIndex, checks, ondisk, update_index
from ink_tui.catalog.index import update as update_module
from ink_tui.catalog.index.checks import checked_within, scope_keys
from ink_tui.catalog.index.fallback import SearchIndex
from ink_tui.catalog.search import search_index
from ink_tui.paths import project_dir

CWD = "/home/ada/code/retry"
OTHER = "/home/ada/code/other"
HOUR = 3600.0


def _write(base: Path, cwd: str, name: str, words: str) -> Path:
    return ink_session(base, cwd, name, [words])


def _append(path: Path, words: str) -> None:
    record = {
        "type": "message",
        "id": f"u{path.stat().st_size}",
        "parentId": "u1",
        "timestamp": "2026-11-20T10:00:02Z",
        "message": {"role": "user", "content": words},
    }
    with path.open("a") as handle:
        handle.write(json.dumps(record) + "\n")


@pytest.fixture
def base(tmp_path: Path) -> Path:
    base = tmp_path / "sessions"
    _write(base, CWD, "a", "the flaky retry test")
    _write(base, OTHER, "b", "a sidebar layout")
    return base


def _found(searched: SearchIndex, word: str) -> int:
    with searched.open() as index:
        return len(search_index(index, word, projects=None, limit=50))


def test_a_search_seconds_after_a_check_trusts_it_and_says_when_it_was(
    tmp_path: Path, base: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    searched = SearchIndex(tmp_path / "index.sqlite3")
    first = searched.update(base, None, trust=HOUR)
    assert not first.trusted and first.added == 2
    path = project_dir(base, CWD) / "2026-11-20T10-00-00-000Z-a.jsonl"
    _append(path, "a new word: quokka")

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the files were looked at")

    monkeypatch.setattr(update_module, "files_on_disk", refuse)
    trusted = searched.update(base, None, trust=HOUR)
    assert trusted.trusted and trusted.checked_ns == first.checked_ns
    assert "checked moments ago" in trusted.sentence()
    assert _found(searched, "quokka") == 0  # stale, and the report said so
    monkeypatch.setattr(update_module, "files_on_disk", ondisk.files_on_disk)
    fresh = searched.update(base, None)  # no trust: --fresh
    assert not fresh.trusted and fresh.appended == 1 and fresh.checked_ns > first.checked_ns
    assert _found(searched, "quokka") == 1


def test_a_check_is_trusted_only_within_the_window_and_never_from_the_future(
    tmp_path: Path, base: Path
) -> None:
    with CatalogIndex.open(tmp_path / "index.sqlite3") as index:
        report = update_index(index, base, None)
        keys = scope_keys(base, None)
        at = report.checked_ns
        assert checked_within(index, keys, 5.0, now_ns=at + 4_900_000_000) == at
        assert checked_within(index, keys, 5.0, now_ns=at + 5_100_000_000) is None
        assert checked_within(index, keys, 5.0, now_ns=at - 1_000_000) is None  # clock set back


def test_a_check_covers_its_own_project_or_all_of_them_in_the_same_sessions_dir(
    tmp_path: Path, base: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    _write(elsewhere, CWD, "c", "another tree")
    with CatalogIndex.open(tmp_path / "index.sqlite3") as index:
        update_index(index, base, CWD)  # one project only
        assert checked_within(index, scope_keys(base, project_dir(base, CWD)), HOUR) is not None
        assert checked_within(index, scope_keys(base, project_dir(base, OTHER)), HOUR) is None
        assert checked_within(index, scope_keys(base, None), HOUR) is None
        update_index(index, base, None)  # every project: covers each one
        assert checked_within(index, scope_keys(base, project_dir(base, OTHER)), HOUR) is not None
        assert checked_within(index, scope_keys(elsewhere, None), HOUR) is None
        folder = project_dir(elsewhere, CWD)
        assert checked_within(index, scope_keys(elsewhere, folder), HOUR) is None


def test_a_stopped_update_is_no_check_to_trust(tmp_path: Path, base: Path) -> None:
    import threading

    stop = threading.Event()
    stop.set()
    with CatalogIndex.open(tmp_path / "index.sqlite3") as index:
        report = update_index(index, base, None, cancelled=stop)
        assert report.cancelled
        assert checked_within(index, scope_keys(base, None), HOUR) is None


def test_an_index_from_before_the_checks_is_simply_checked(tmp_path: Path, base: Path) -> None:
    where = tmp_path / "index.sqlite3"
    with CatalogIndex.open(where) as index:
        update_index(index, base, None)
    connection = sqlite3.connect(where)
    connection.execute("DROP TABLE checks")
    connection.close()
    searched = SearchIndex(where)
    report = searched.update(base, None, trust=HOUR)
    assert not report.trusted and report.unchanged == 2
    assert searched.update(base, None, trust=HOUR).trusted  # the table made again


def test_the_cli_says_when_it_trusted_a_check_and_fresh_looks_again(
    cli: Any, base: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(checks, "TRUST_SECONDS", HOUR)
    argv = ("search", "--sessions-dir", str(base), "--all")
    code, out, err = cli.run(*argv, "--json", "retry")
    assert code == 0 and err == "" and json.loads(out)["checkedNow"] is True
    _append(project_dir(base, CWD) / "2026-11-20T10-00-00-000Z-a.jsonl", "quokka at last")
    code, out, err = cli.run(*argv, "quokka")  # as a person reads it: said on stderr
    assert code == 1 and out == ""
    line = cli.one_error_line(err, naming="no record in any project matches quokka; every file")
    assert line.endswith(" ago, not again (--fresh checks them now)")
    code, out, err = cli.run(*argv, "retry")
    assert code == 0 and "flaky retry" in out
    note = cli.one_error_line(err, naming="ink-tui: every file was checked ")
    assert note.endswith(" ago, not again (--fresh checks them now)")
    code, out, err = cli.run(*argv, "--json", "quokka")  # as a program reads it: in the JSON
    answer = json.loads(out)
    assert code == 1 and answer["totalHits"] == 0 and answer["checkedNow"] is False
    when = datetime.strptime(answer["checkedAt"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
    assert abs(when.timestamp() - time.time()) < HOUR
    code, out, err = cli.run(*argv, "--fresh", "--json", "quokka")
    answer = json.loads(out)
    assert code == 0 and answer["totalHits"] == 1 and answer["checkedNow"] is True


def test_a_file_another_process_indexed_meanwhile_is_no_check_to_trust(
    tmp_path: Path, base: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """That process may have read an older version of it: the next search must look again."""
    with CatalogIndex.open(tmp_path / "index.sqlite3") as index:
        monkeypatch.setattr(update_module, "_same_row", lambda *args: False)
        report = update_index(index, base, None)
        assert report.raced == 2 and report.not_indexed == 2 and not report.complete
        assert "left as another process indexed them" in report.sentence()
        assert checked_within(index, scope_keys(base, None), HOUR) is None


def test_indexing_another_sessions_dir_forgets_the_checks_of_this_one(
    tmp_path: Path, base: Path
) -> None:
    """One index serves every sessions dir and holds the files of the one updated last."""
    elsewhere = tmp_path / "elsewhere"
    _write(elsewhere, CWD, "c", "another tree")
    with CatalogIndex.open(tmp_path / "index.sqlite3") as index:
        update_index(index, base, None)
        update_index(index, elsewhere, None)  # drops base's files
        assert checked_within(index, scope_keys(base, None), HOUR) is None
        assert checked_within(index, scope_keys(elsewhere, None), HOUR) is not None


def test_a_relative_sessions_dir_is_the_same_scope_from_anywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    monkeypatch.chdir(tmp_path / "one")
    here = scope_keys(Path("sessions"), None)
    assert here == scope_keys(tmp_path / "one" / "sessions", None)
    monkeypatch.chdir(tmp_path / "two")
    assert scope_keys(Path("sessions"), None) != here


def test_a_check_is_not_recorded_while_another_process_writes_and_nothing_waits(
    tmp_path: Path, base: Path
) -> None:
    where = tmp_path / "index.sqlite3"
    with CatalogIndex.open(where) as index:
        update_index(index, base, None)
        index.connection.execute("DELETE FROM checks")
        other = sqlite3.connect(where, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another process's long write
        try:
            report = update_index(index, base, None)  # nothing changed: only the check writes
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert report.unchanged == 2
        assert checked_within(index, scope_keys(base, None), HOUR) is None
        timeout = index.connection.execute("PRAGMA busy_timeout").fetchone()[0]
        assert timeout == 5000  # the index's own writes wait as before


def test_the_cli_says_when_changed_files_were_not_searched(
    cli: Any, base: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(update_module, "_same_row", lambda *args: False)
    argv = ("search", "--sessions-dir", str(base), "--all", "--fresh")
    code, out, err = cli.run(*argv, "--json", "retry")
    assert code == 1 and json.loads(out)["filesNotIndexed"] == 2 and err == ""
    code, out, err = cli.run(*argv, "retry")
    assert code == 1
    assert err.splitlines()[0] == (
        "ink-tui: 2 changed session files not searched (another process was indexing them, "
        "or they went): search again"
    )
