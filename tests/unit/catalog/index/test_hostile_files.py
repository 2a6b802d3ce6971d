"""Paths named ``*.jsonl`` that are not session files: a FIFO, a directory, a symlink to
``/dev/zero``, a symlink loop, a dangling symlink. Never a block, never an endless read: one
line naming the file and what it is, and nothing written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hostile import within

from ink_tui.catalog.index import CatalogIndex, update_index
from ink_tui.catalog.scan import list_sessions
from ink_tui.cli import main
from ink_tui.session.reading.files import NotARegularFile, open_regular

KINDS = {
    "fifo": "a FIFO (named pipe), not a session file",
    "directory": "a directory, not a session file",
    "zero": "a character device, not a session file",
    "loop": "Too many levels of symbolic links",
    "dangling": "a symlink to nothing, not a session file",
}


def _make(folder: Path, kind: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{kind}.jsonl"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "directory":
        path.mkdir()
    elif kind == "zero":
        path.symlink_to("/dev/zero")
    elif kind == "loop":
        path.symlink_to(path.name)
    else:
        path.symlink_to(folder / "nothing-here")
    return path


@pytest.mark.parametrize("kind", ["fifo", "directory", "zero"])
def test_opening_anything_but_a_regular_file_is_refused_at_once(tmp_path: Path, kind: str) -> None:
    path = _make(tmp_path, kind)
    with pytest.raises(NotARegularFile) as raised:
        within(5, lambda: open_regular(path))
    assert raised.value.strerror == KINDS[kind]


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("command", [["context"], ["check", "--json"], ["repair"]])
def test_every_command_refuses_it_in_one_line_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, command: list[str]
) -> None:
    path = _make(tmp_path, kind)
    code = within(5, lambda: main([*command, str(path)]))
    out, err = capsys.readouterr()
    assert code == 2 and not out
    assert err.strip() == f"ink-tui: {path}: {KINDS[kind]}"


def test_the_listing_and_the_index_pass_them_over(tmp_path: Path) -> None:
    base = tmp_path / "sessions"
    folder = base / "proj"
    for kind in KINDS:
        _make(folder, kind)
    rows = within(5, lambda: list_sessions(base, None))
    # A symlink loop is listed as a file that cannot be read (its reason said); the rest are
    # not files at all and are passed over.
    assert [
        (row.file_name, "Too many levels of symbolic links" in str(row.hidden_reason))
        for row in rows
    ] == [("loop.jsonl", True)]
    with CatalogIndex.open(tmp_path / "index.sqlite3") as index:
        report = within(5, lambda: update_index(index, base, None))
        assert report.added == 0
