"""The index file is never opened through a symlink, as a non-file, or read-only: ink-tui says why
in one line and searches the files without it (issue 19: a symlinked index, a read-only index)."""

from __future__ import annotations

import hashlib
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from searchtree import NOW, SPREAD_CWDS, read_only, sqlite_read_only, write_session

from ink_tui.catalog.index import CatalogIndex, IndexUnavailable, default_index_path

CWD = SPREAD_CWDS[0]
WORD = "quokkastride"


def _tree(base: Path) -> Path:
    return write_session(
        base, CWD, "one", when=NOW, exchanges=[(f"where is {WORD} set", f"{WORD} is in ui.py")]
    )


def _another_session(base: Path) -> None:
    """A new session since the index was made: bringing it up to date needs a write."""
    write_session(base, CWD, "two", when=NOW, exchanges=[(f"and {WORD} again", "yes")])


def _foreign_database(path: Path) -> str:
    """Someone else's SQLite database (rollback journal, one table); returns its bytes' hash."""
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE notes(text TEXT)")
    connection.execute("INSERT INTO notes VALUES ('mine')")
    connection.commit()
    connection.close()
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _journal_mode(path: Path) -> str:
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return str(connection.execute("PRAGMA journal_mode").fetchone()[0])
    finally:
        connection.close()


def _search(cli: Any, base: Path, *words: str) -> tuple[int, str, str]:
    return cli.run("search", "--sessions-dir", str(base), "--cwd", CWD, *words)


def _searches_without_it(cli: Any, base: Path, why: str) -> None:
    """``search`` finds the hits from the files and says why the index was not used."""
    code, out, err = _search(cli, base, WORD)
    assert code == 0, err
    assert f"{WORD} is in ui.py" in out
    line = cli.one_error_line(err, naming=str(default_index_path()))
    assert line.endswith(f"{why}: searching the files without it"), line
    code, out, err = cli.run("index", "--sessions-dir", str(base), "--cwd", CWD)
    assert code == 2 and out == ""
    assert cli.one_error_line(err, naming=why).endswith(": not updated")


def test_a_symlinked_index_leaves_the_database_it_points_to_untouched(
    tmp_path: Path, cli: Any
) -> None:
    base = tmp_path / "sessions"
    _tree(base)
    foreign = tmp_path / "elsewhere" / "app.db"
    foreign.parent.mkdir()
    before = _foreign_database(foreign)
    index = default_index_path()
    index.parent.mkdir(parents=True)
    index.symlink_to(foreign)
    with pytest.raises(IndexUnavailable, match="is a symlink"):
        CatalogIndex.open()
    _searches_without_it(cli, base, "is a symlink")
    code, _, err = cli.run("index", "--rebuild", "--sessions-dir", str(base), "--cwd", CWD)
    assert code == 2 and cli.one_error_line(err, naming="is a symlink: not updated")
    assert _journal_mode(foreign) == "delete"  # never switched to WAL
    assert hashlib.sha256(foreign.read_bytes()).hexdigest() == before
    assert sorted(path.name for path in foreign.parent.iterdir()) == ["app.db"]
    assert index.is_symlink()  # left as it was


def test_a_dangling_index_symlink_never_creates_its_target(tmp_path: Path, cli: Any) -> None:
    base = tmp_path / "sessions"
    _tree(base)
    target = tmp_path / "elsewhere" / "made-by-ink-tui.sqlite3"
    target.parent.mkdir()
    index = default_index_path()
    index.parent.mkdir(parents=True)
    index.symlink_to(target)
    _searches_without_it(cli, base, "is a symlink")
    assert not target.exists() and list(target.parent.iterdir()) == []


@pytest.mark.parametrize("companion", ["-wal", "-shm"])
def test_a_symlinked_wal_or_shm_file_is_refused(tmp_path: Path, cli: Any, companion: str) -> None:
    base = tmp_path / "sessions"
    _tree(base)
    CatalogIndex.open().close()
    index = default_index_path()
    link = Path(f"{index}{companion}")
    link.unlink(missing_ok=True)
    target = tmp_path / "victim"
    target.write_bytes(b"precious")
    link.symlink_to(target)
    _searches_without_it(cli, base, f"index.sqlite3{companion} file {link} is a symlink")
    assert target.read_bytes() == b"precious"


def test_a_symlinked_cache_folder_is_refused(tmp_path: Path, cli: Any) -> None:
    base = tmp_path / "sessions"
    _tree(base)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    folder = default_index_path().parent
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.symlink_to(elsewhere, target_is_directory=True)
    code, out, err = _search(cli, base, WORD)
    assert code == 0 and f"{WORD} is in ui.py" in out
    line = cli.one_error_line(err, naming=f"the index folder {folder} is a symlink")
    assert line.endswith("searching the files without it")
    assert list(elsewhere.iterdir()) == []


@pytest.mark.parametrize("kind", ["directory", "fifo"])
def test_an_index_that_is_not_a_file_is_refused(tmp_path: Path, cli: Any, kind: str) -> None:
    base = tmp_path / "sessions"
    _tree(base)
    index = default_index_path()
    index.parent.mkdir(parents=True)
    if kind == "directory":
        index.mkdir()
        (index / "keep").write_text("mine")
        why = "is a directory, not a file"
    else:
        os.mkfifo(index)  # opening it to read would wait for a writer forever
        why = "is a FIFO (named pipe), not a file"
    _searches_without_it(cli, base, why)
    if kind == "directory":
        assert (index / "keep").read_text() == "mine"


def _indexed(cli: Any, base: Path) -> Path:
    code, _, err = cli.run("index", "--sessions-dir", str(base), "--cwd", CWD)
    assert code == 0, err
    return default_index_path()


def test_a_read_only_index_is_said_and_the_files_searched_without_it(
    tmp_path: Path, cli: Any
) -> None:
    base = tmp_path / "sessions"
    _tree(base)
    index = _indexed(cli, base)
    before = index.read_bytes()
    _another_session(base)  # bringing the index up to date would have to write
    with read_only(index):
        _searches_without_it(cli, base, "is read-only")
        code, out, _ = _search(cli, base, WORD, "--json")
        assert code == 0 and '"totalHits": 3' in out  # the new session's hit too
    assert index.read_bytes() == before


def test_a_write_refused_by_sqlite_is_said_in_one_line_never_an_internal_error(
    tmp_path: Path, cli: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = tmp_path / "sessions"
    _tree(base)
    _indexed(cli, base)
    _another_session(base)
    sqlite_read_only(monkeypatch)
    code, out, err = _search(cli, base, WORD, "--fresh")  # the update must write
    assert code == 0, err
    assert "and quokkastride again" in out  # found in the new session, which the index lacks
    line = cli.one_error_line(err, naming="is read-only: searching the files without it")
    assert "internal error" not in line
    code, _, err = cli.run("index", "--sessions-dir", str(base), "--cwd", CWD)
    assert code == 2
    assert cli.one_error_line(err).endswith("is read-only: not updated")
