"""``ink-tui rename|label|delete|trash|prune`` as a user types them (issue 12)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from ink_tui.session import open_session
from ink_tui.session.writing.writer import SessionWriter

CWD = "/home/ada/code/keep"
OLD = time.time() - 3600


def _session(base: Path, prompt: str, *, folder: str = "home-ada-code-keep") -> Path:
    writer = SessionWriter.new(base / folder, CWD)
    writer.append_message({"role": "user", "content": prompt})
    os.utime(writer.path, (OLD, OLD))
    return writer.path


def test_rename_by_id_prefix_then_list_shows_the_name(cli: Any) -> None:
    path = _session(cli.sessions, "first prompt")
    session_id = open_session(path, warn=None).header["id"]
    code, out, err = cli.run("rename", session_id[:8], "a better name", "--cwd", CWD)
    assert (code, err) == (0, "")
    entry_id = json.loads(path.read_text().splitlines()[-1])["id"]
    assert out == f'{path}: named "a better name" (entry {entry_id})\n'
    code, out, _ = cli.run("list", "--cwd", CWD)
    assert "a better name" in out


def test_rename_of_a_live_session_is_one_line_and_writes_nothing(cli: Any) -> None:
    path = _session(cli.sessions, "busy")
    os.utime(path, None)
    before = path.read_bytes()
    code, out, err = cli.run("rename", str(path), "x")
    assert code == 2 and out == ""
    cli.one_error_line(err, naming=str(path))
    assert path.read_bytes() == before


def test_hostile_names_and_labels_never_reach_the_terminal(cli: Any) -> None:
    path = _session(cli.sessions, "hostile")
    before = path.read_bytes()
    code, out, err = cli.run("rename", str(path), "evil \x1b]0;pwned\x07 \x1b[2J name")
    assert code == 2 and out == "" and "\x1b" not in err and "\x07" not in err
    code, out, err = cli.run("label", str(path), "missing\x1b[2J", "x")
    assert code == 2 and "\x1b" not in err
    assert path.read_bytes() == before


def test_label_and_remove_it(cli: Any) -> None:
    path = _session(cli.sessions, "label me")
    target = open_session(path, warn=None).entries[0].id
    assert cli.run("label", str(path), target, "here")[0] == 0
    code, out, _ = cli.run("label", str(path), target)
    assert code == 0 and out.endswith(
        "label removed (entry " + open_session(path, warn=None).entries[-1].id + ")\n"
    )


def test_delete_needs_yes_without_a_terminal_then_trash_restore_puts_it_back(cli: Any) -> None:
    path = _session(cli.sessions, "to delete")
    before = path.read_bytes()
    code, out, err = cli.run("delete", str(path))
    assert code == 2 and "pass --yes" in err and path.exists()
    code, out, err = cli.run("delete", str(path), "--yes")
    assert code == 0 and not path.exists()
    entry_id = out.splitlines()[-1].split()[3].strip("`")
    code, out, _ = cli.run("trash", "list")
    assert out.startswith(entry_id) and '"to delete"' in out
    code, out, _ = cli.run("trash", "list", "--json")
    assert json.loads(out)[0]["items"][0]["original"] == str(path)
    code, out, _ = cli.run("trash", "restore", entry_id)
    assert code == 0 and out == f"restored {path}\n"
    assert path.read_bytes() == before
    assert cli.run("trash")[1].startswith("the trash is empty")


def test_trash_restore_of_an_unknown_id_and_empty(cli: Any) -> None:
    code, _, err = cli.run("trash", "restore", "nothing")
    assert code == 2
    cli.one_error_line(err, naming='"nothing"')
    path = _session(cli.sessions, "gone for good")
    cli.run("delete", str(path), "--yes")
    assert cli.run("trash", "empty")[0] == 2  # no terminal: needs --yes
    code, out, _ = cli.run("trash", "empty", "--yes")
    assert (code, out) == (0, "deleted 1 trash entry for good\n")


def test_prune_lists_then_moves_orphans(cli: Any) -> None:
    base = cli.sessions
    writer = SessionWriter.new(base / "home-ada-code-keep" / "children", CWD)
    writer.header["launch"] = {"version": 1, "parentSessionId": "gone", "childId": "c"}
    writer.append_message({"role": "user", "content": "orphan"})
    code, out, _ = cli.run("prune", "--dry-run")
    assert code == 0 and out.splitlines()[0] == f"orphan {writer.path} (its parent gone is gone)"
    assert writer.path.exists()
    code, out, _ = cli.run("prune", "--yes")
    assert code == 0 and "pruned 1 orphaned child session(s)" in out and not writer.path.exists()
    assert cli.run("prune")[1] == (
        f"no orphaned child sessions found (looked in every project folder under {base})\n"
    )


def test_context_and_check_find_a_subagent_session_by_its_id(cli: Any) -> None:
    parent = _session(cli.sessions, "the parent")
    parent_id = open_session(parent, warn=None).header["id"]
    writer = SessionWriter.new(cli.sessions / "home-ada-code-keep" / "children", CWD)
    writer.header["parent"] = parent_id
    writer.header["launch"] = {"version": 1, "parentSessionId": parent_id, "childId": "c"}
    writer.append_message({"role": "user", "content": "the child's own prompt"})
    child_id = writer.session_id
    code, out, _ = cli.run("context", child_id[:8], "--cwd", "/elsewhere")
    assert code == 0 and "the child's own prompt" in out
    code, out, _ = cli.run("check", child_id, "--cwd", CWD)
    assert code == 0 and out.startswith(f"{writer.path}\n")
    code, _, err = cli.run("context", "nothing-like-it")
    assert code == 2 and "children/" in err
