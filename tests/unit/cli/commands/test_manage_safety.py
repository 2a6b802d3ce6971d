"""``ink-tui delete|rename|label|trash|list`` as a user types them, safely (issue 19): only
sessions are deleted, a file name cannot fake a line of output, labels take the ids the app
shows, and the tables line up."""

from __future__ import annotations

import errno
import json
import os
import time
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from testdata import copy_tree

from ink_tui.manage.trash import list_trash
from ink_tui.session import open_session
from ink_tui.session.writing.writer import SessionWriter

CWD = "/home/ada/code/keep"
FOLDER = "home-ada-code-keep"
OLD = time.time() - 3600
FAKE = "x\nink-tui: restored notes\n"  # a file name that would fake output lines


def _session(base: Path, prompt: str, *, folder: str = FOLDER, name: str | None = None) -> Path:
    writer = SessionWriter.new(base / folder, CWD)
    writer.append_message({"role": "user", "content": prompt})
    path = writer.path
    if name is not None:
        path = path.rename(path.with_name(name))
    os.utime(path, (OLD, OLD))
    return path


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


# -- delete: only session files --------------------------------------------------------------------


def test_delete_of_a_text_file_in_the_home_folder_moves_nothing(
    cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    notes = home / "notes.txt"
    notes.write_text("my notes\n")
    os.utime(notes, (OLD, OLD))
    code, out, err = cli.run("delete", "~/notes.txt", "--yes")
    assert code == 2 and out == ""
    line = cli.one_error_line(err, naming=str(notes))
    assert f"not deleted: it is not inside the sessions folder {cli.sessions}" in line
    assert notes.read_text() == "my notes\n" and list_trash() == []


def test_delete_says_how_many_items_in_words(cli: Any) -> None:
    path = _session(cli.sessions, "one item")
    code, out, _ = cli.run("delete", str(path), "--yes")
    assert code == 0 and "to the trash (1 item)\n" in out


# -- a file name cannot fake a line of output --------------------------------------------------


def test_trash_restore_prints_each_path_on_one_line(cli: Any) -> None:
    path = _session(cli.sessions, "odd name", name=f"{FAKE}.jsonl")
    code, out, err = cli.run("delete", str(path), "--yes")
    assert code == 0, err
    assert out.count("\n") == 2 and "ink-tui: restored notes" not in out.splitlines()
    entry = list_trash()[0].id
    code, out, err = cli.run("trash", "restore", entry)
    assert (code, err) == (0, "") and path.exists()
    assert out.count("\n") == 1
    assert out == f"restored {path.parent}/x␊ink-tui: restored notes␊.jsonl\n"


def test_error_lines_show_a_line_break_in_a_file_name(cli: Any) -> None:
    path = _session(cli.sessions, "busy", name=f"{FAKE}.jsonl")
    os.utime(path, None)  # just written: the rename is refused, naming the file
    code, out, err = cli.run("rename", str(path), "x")
    assert code == 2 and out == ""
    line = cli.one_error_line(err, naming="x␊ink-tui: restored notes␊.jsonl")
    assert "Ink may be running it" in line


def test_an_os_error_names_its_paths_on_one_line(cli: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    def failing(*_: Any) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), FAKE, None, "b\nc")

    monkeypatch.setattr("ink_tui.manage.trash.list_trash", failing)  # what `trash list` reads
    code, out, err = cli.run("trash", "list")
    assert code == 2 and out == ""
    line = cli.one_error_line(err)
    assert line == ("ink-tui: x␊ink-tui: restored notes␊ -> b␊c: No space left on device")


def test_an_os_error_without_a_path_is_not_an_empty_name(
    cli: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def failing(*_: Any) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr("ink_tui.manage.trash.list_trash", failing)
    code, _, err = cli.run("trash", "list")
    assert code == 2 and cli.one_error_line(err) == "ink-tui: No space left on device"


# -- labels take the 8-character ids the app shows ---------------------------------------------


def test_label_by_the_short_id_the_app_shows(cli: Any) -> None:
    path = _session(cli.sessions, "label me")
    target = open_session(path, warn=None).entries[0].id
    code, out, err = cli.run("label", str(path), target[:8], "short id")
    assert (code, err) == (0, "")
    label_id = json.loads(path.read_text().splitlines()[-1])["id"]
    assert out == f'{path}: entry {target} labelled "short id" (entry {label_id})\n'


def test_label_refuses_bidi_overrides_like_rename(cli: Any) -> None:
    path = _session(cli.sessions, "label me")
    target = open_session(path, warn=None).entries[0].id
    before = path.read_bytes()
    _, _, label_err = cli.run("label", str(path), target, "abc\u202etxt.exe")
    _, _, name_err = cli.run("rename", str(path), "abc\u202etxt.exe")
    assert label_err.replace("a label", "a name") == name_err
    assert "U+202E" in name_err and path.read_bytes() == before


# -- list: aligned columns, cut titles ---------------------------------------------------------


def test_list_all_pads_the_project_column(cli: Any, tmp_path: Path) -> None:
    tree = copy_tree(tmp_path / "sessions")
    code, out, err = cli.run("--sessions-dir", str(tree), "list", "--all")
    assert code == 0, err
    lines = [line for line in out.splitlines() if "Users-mei" in line or "C--Users" in line]
    assert len(lines) >= 3
    folders = ("Users-mei-work-web--client", "C--Users-dev-proj", "Users-mei-文档-数据分析")
    starts = set()
    for line in lines:
        folder = next(name for name in folders if name in line)
        after = line.index(folder) + len(folder)
        title_at = after + len(line[after:]) - len(line[after:].lstrip(" "))
        starts.add(_width(line[:title_at]))
    assert len(starts) == 1, out  # every title starts in the same terminal column


@pytest.mark.parametrize(
    "prompt",
    [
        "Implement the retry logic for the uploader so that failed chunks are resent " * 2,
        "实现上传器的重试逻辑 使失败的分块能够在短暂的等待之后重新发送 并且记录每一次重试的原因"
        * 2,
    ],
    ids=["latin", "chinese"],
)
def test_list_cuts_a_long_title_at_its_width_with_an_ellipsis(cli: Any, prompt: str) -> None:
    _session(cli.sessions, prompt)
    code, out, _ = cli.run("list", "--cwd", CWD)
    assert code == 0
    (line,) = out.splitlines()
    title = line.split("  ")[-1].strip()
    assert title.endswith("…") and not title.endswith(" …")
    assert _width(title) <= 60
    assert prompt.startswith(title[:-1])
