"""Keeping sessions in order, safely (issue 19): only session files are deleted, names and
labels hold no control or bidi characters, a label never moves Ink's leaf, a torn tail is waited
for rather than cut, the app's own writes do not make a session "live", and a full trash leaves
nothing behind.
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import tinydisk

from ink_tui.catalog.scan import list_sessions
from ink_tui.manage import trash
from ink_tui.manage.deleting import delete, plan_delete
from ink_tui.manage.naming import NamingError, label_entry, rename
from ink_tui.session import build_context, open_session
from ink_tui.session.conversation.tree import labels
from ink_tui.session.writing import writer as writer_module
from ink_tui.session.writing.ownwrites import last_foreign_write, own_writes
from ink_tui.session.writing.writer import SessionWriter
from ink_tui.ui.widgets.session_list import is_live

CWD = "/home/ada/code/keep"
OLD = time.time() - 3600
REAL_WRITE = os.write
tiny_disk = tinydisk.tiny_disk  # a fixture: a small tmpfs (root only, else skipped)


def _session(folder: Path, prompts: list[str], *, age: float = 3600) -> Path:
    writer = SessionWriter.new(folder, CWD)
    for prompt in prompts:
        writer.append_message({"role": "user", "content": prompt})
        writer.append_message(
            {
                "role": "assistant",
                "blocks": [{"type": "text", "text": f"answer to {prompt}"}],
                "usage": {"inputTokens": 1, "outputTokens": 1},
                "stopReason": "end_turn",
            }
        )
    stamp = time.time() - age
    os.utime(writer.path, (stamp, stamp))
    return writer.path


def _append(path: Path, *records: dict[str, Any], age: float = 3600) -> None:
    """Another program (Ink) appends whole records."""
    with path.open("ab") as stream:
        for record in records:
            stream.write(json.dumps(record, separators=(",", ":")).encode() + b"\n")
    stamp = time.time() - age
    os.utime(path, (stamp, stamp))


@pytest.fixture
def base(tmp_path: Path) -> Path:
    return tmp_path / "sessions"


@pytest.fixture
def project(base: Path) -> Path:
    return base / "home-ada-code-keep"


def fill(path: Path) -> None:
    """Write ``path`` until its file system is full."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while os.write(fd, b"\0" * 4096):
            pass
    except OSError as error:
        assert error.errno == errno.ENOSPC
    finally:
        os.close(fd)


def _trash_is_empty() -> bool:
    return trash.list_trash() == [] and not any(trash.trash_dir().glob("*"))


# -- delete: only session files inside the sessions folder ---------------------------------------


def test_a_plain_file_outside_the_sessions_folder_is_never_deleted(
    tmp_path: Path, base: Path, project: Path
) -> None:
    _session(project, ["a real session"])
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    os.utime(notes, (OLD, OLD))
    plan = plan_delete(notes, roots=(base,))
    assert plan.refusal is not None and "not inside the sessions folder" in plan.refusal
    with pytest.raises(trash.TrashError, match="not deleted"):
        delete(plan)
    assert notes.read_text() == "my notes\n" and _trash_is_empty()


def _fifo(path: Path) -> None:
    os.mkfifo(path)


@pytest.mark.parametrize(
    ("case", "why"),
    [
        ("outside", "not inside the sessions folder"),
        ("text", "not an Ink session"),
        ("bad version", "not an Ink session"),
        ("wrong name", "does not end in .jsonl"),
        ("link to outside", "symbolic link"),
        ("link to a session", "symbolic link"),
        ("folder linked outside", "not inside the sessions folder"),
        ("a folder", "a directory"),
        ("a fifo", "FIFO"),
    ],
)
def test_only_a_session_file_inside_the_root_is_deletable(
    tmp_path: Path, base: Path, project: Path, case: str, why: str
) -> None:
    elsewhere = tmp_path / "elsewhere"
    real = _session(elsewhere, ["a session outside the sessions folder"])
    inside = _session(project, ["a session inside"])
    target = project / "x.jsonl"
    if case == "outside":
        target = real
    elif case == "text":
        target.write_text("just some text\n")
    elif case == "bad version":
        header = {"type": "session", "version": 2, "id": "abc", "timestamp": "t", "cwd": "/"}
        target.write_text(json.dumps(header) + "\n")
    elif case == "wrong name":
        target = project / "copy.txt"
        target.write_bytes(inside.read_bytes())
    elif case == "link to outside":
        target.symlink_to(real)
    elif case == "link to a session":
        target.symlink_to(inside)
    elif case == "folder linked outside":
        (base / "linked").symlink_to(elsewhere, target_is_directory=True)
        target = base / "linked" / real.name
    elif case == "a folder":
        target.mkdir()
    else:
        _fifo(target)
    before = {p: p.read_bytes() for p in (real, inside)}
    plan = plan_delete(target, roots=(base,))
    assert plan.refusal is not None and why in plan.refusal, plan.refusal
    with pytest.raises(trash.TrashError, match="not deleted"):
        delete(plan)
    assert {p: p.read_bytes() for p in before} == before
    assert os.path.lexists(target) and _trash_is_empty()


def test_a_child_that_is_not_a_session_file_here_stops_the_delete(
    tmp_path: Path, base: Path, project: Path
) -> None:
    parent = _session(project, ["parent"])
    parent_id = open_session(parent, warn=None).session_id
    writer = SessionWriter.new(tmp_path / "outside", CWD)
    writer.header["launch"] = {"version": 1, "parentSessionId": parent_id, "childId": "c"}
    writer.append_message({"role": "user", "content": "a child kept elsewhere"})
    os.utime(writer.path, (OLD, OLD))
    (project / "children").mkdir()
    (project / "children" / writer.path.name).symlink_to(writer.path)
    plan = plan_delete(parent, roots=(base,))
    assert plan.refusal is not None and "its child" in plan.refusal
    assert "symbolic link" in plan.refusal
    assert parent.exists() and writer.path.exists() and _trash_is_empty()


# -- names and labels: the characters Ink's editor never takes -----------------------------------


REFUSED = {
    "ESC (OSC title)": "N\x1b]0;X\x07",
    "BEL": "ring\x07",
    "TAB": "a\tb",
    "DEL": "x\x7fy",
    "C1 NEL": "next\x85line",
    "C1 CSI": "x\x9b2J",
    "RLO": "abc\u202etxt.exe",
    "LRI isolate": "\u2066left",
    "RLM": "mark\u200f",
    "line separator": "a\u2028b",
}


@pytest.mark.parametrize("text", REFUSED.values(), ids=REFUSED.keys())
def test_names_and_labels_refuse_the_same_characters_with_the_same_line(
    project: Path, text: str
) -> None:
    path = _session(project, ["one"])
    target = open_session(path, warn=None).entries[0].id
    before = path.read_bytes()
    with pytest.raises(NamingError) as named:
        rename(path, text)
    with pytest.raises(NamingError) as labelled:
        label_entry(path, target, text)
    assert path.read_bytes() == before
    said = str(named.value)
    assert "control characters or bidirectional controls" in said
    assert said.endswith("nothing was written") and "\n" not in said
    assert str(labelled.value) == said.replace("a name", "a label")


def test_line_breaks_become_one_space_in_names_and_labels(project: Path) -> None:
    path = _session(project, ["one"])
    target = open_session(path, warn=None).entries[0].id
    assert rename(path, " two\r\n\nlines ").text == "two lines"
    assert label_entry(path, target, "a\rb\nc").text == "a b c"
    assert labels(open_session(path, warn=None)) == {target: "a b c"}


# -- a label never moves Ink's leaf ---------------------------------------------------------------


def test_a_label_after_a_trailing_null_position_keeps_the_empty_branch(project: Path) -> None:
    path = _session(project, [f"prompt {n}" for n in range(6)])
    _append(path, {"type": "position", "leafId": None})
    session = open_session(path, warn=None)
    assert session.leaf_id is None and build_context(session).messages == []
    label_entry(path, session.entries[3].id, "look here")
    reopened = open_session(path, warn=None)
    assert reopened.leaf_id is None
    assert build_context(reopened).messages == []  # not 12 messages
    lines = path.read_text().splitlines()
    assert json.loads(lines[-2])["type"] == "label"
    assert json.loads(lines[-1]) == {"type": "position", "leafId": None}
    assert list_sessions(project.parent, CWD)[0].message_count == 0


def test_a_label_after_a_marker_moving_back_keeps_that_leaf(project: Path) -> None:
    path = _session(project, ["one", "two", "three"])
    session = open_session(path, warn=None)
    back = session.entries[1].id  # /tree moved the leaf back to the first answer
    _append(path, {"type": "position", "leafId": back})
    _append(
        path, {"type": "session_model", "provider": "zai", "modelId": "glm-5", "explicit": True}
    )
    label_entry(path, session.entries[4].id, "later")
    label_entry(path, session.entries[0].id, "first")
    reopened = open_session(path, warn=None)
    assert reopened.leaf_id == back and len(build_context(reopened).messages) == 2


def test_no_marker_is_written_when_none_decides_the_leaf(project: Path) -> None:
    path = _session(project, ["one", "two"])
    target = open_session(path, warn=None).entries[0].id
    _append(path, {"type": "position", "leafId": "no-such-entry"})  # ignored by Ink
    leaf = open_session(path, warn=None).leaf_id
    label_entry(path, target, "x")
    assert json.loads(path.read_text().splitlines()[-1])["type"] == "label"
    assert open_session(path, warn=None).leaf_id == leaf


def test_the_label_and_its_marker_go_out_in_one_write(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _session(project, ["one", "two"])
    _append(path, {"type": "position", "leafId": None})
    target = open_session(path, warn=None).entries[0].id
    writes: list[bytes] = []

    def write(fd: int, data: Any) -> int:
        writes.append(bytes(data))
        return REAL_WRITE(fd, data)

    monkeypatch.setattr(writer_module.os, "write", write)
    label_entry(path, target, "one write")
    monkeypatch.undo()
    ours = [data for data in writes if b'"label"' in data]
    assert len(ours) == 1 and ours[0].count(b"\n") == 2
    assert ours[0].endswith(b'{"type":"position","leafId":null}\n')


# -- labels by the ids the app shows ---------------------------------------------------------------


def test_a_label_takes_a_unique_id_prefix(project: Path) -> None:
    path = _session(project, ["one"])
    session = open_session(path, warn=None)
    target = session.entries[0].id
    written = label_entry(path, target[:8], "by prefix")
    assert written.target == target
    assert labels(open_session(path, warn=None)) == {target: "by prefix"}


def test_an_ambiguous_prefix_is_refused(project: Path) -> None:
    path = project / "2026-01-01T00-00-00-000Z-x.jsonl"
    project.mkdir(parents=True)
    header = {"type": "session", "version": 1, "id": "s", "timestamp": "t", "cwd": CWD}
    first = {"type": "message", "id": "89b09eba11", "parentId": None, "timestamp": "t"}
    second = {"type": "message", "id": "89b09eba22", "parentId": "89b09eba11", "timestamp": "t"}
    message = {"role": "user", "content": "x"}
    path.write_text(
        "".join(json.dumps(r) + "\n" for r in (header, {**first, "message": message}))
        + json.dumps({**second, "message": message})
        + "\n"
    )
    os.utime(path, (OLD, OLD))
    with pytest.raises(NamingError, match="2 entries start with it"):
        label_entry(path, "89b09eba", "x")
    assert label_entry(path, "89b09eba2", "y").target == "89b09eba22"


# -- a torn tail: wait for the writer, repair only a crash remnant ---------------------------------


@pytest.mark.parametrize("age", [2, 3600])
def test_a_torn_tail_says_wait_while_fresh_and_repair_once_idle(project: Path, age: int) -> None:
    path = _session(project, ["one"])
    target = open_session(path, warn=None).entries[0].id
    with path.open("ab") as stream:
        stream.write(b'{"type":"message","id":"half')
    stamp = time.time() - age
    os.utime(path, (stamp, stamp))
    before = path.read_bytes()
    with pytest.raises(NamingError) as refused:
        label_entry(path, target, "x")
    said = str(refused.value)
    if age < 60:
        assert "Wait until it is" in said and "repair" not in said
    else:
        assert "`ink-tui repair` cuts it" in said and "crash" in said
    assert path.read_bytes() == before


# -- ink-tui's own writes do not make a session live -----------------------------------------------


def test_a_rename_then_another_rename_label_and_delete_are_not_refused(project: Path) -> None:
    path = _session(project, ["one"], age=600)
    rename(path, "first name")
    assert time.time() - path.stat().st_mtime < 5  # the file was just written…
    assert time.time() - last_foreign_write(path) > 500  # …but only by ink-tui
    rename(path, "second name")
    label_entry(path, open_session(path, warn=None).entries[0].id, "a label")
    assert time.time() - last_foreign_write(path) > 500
    plan = plan_delete(path, roots=(project.parent,))
    assert plan.refusal is None
    delete(plan)
    assert not path.exists()


def test_a_write_by_another_program_after_ours_makes_it_live_again(project: Path) -> None:
    path = _session(project, ["one"], age=600)
    rename(path, "ours")
    entry = open_session(path, warn=None).leaf_id
    record = {"type": "message", "id": "ink1", "parentId": entry, "timestamp": "t"}
    _append(path, {**record, "message": {"role": "user", "content": "Ink writes"}}, age=1)
    with pytest.raises(NamingError, match="Ink may be running it"):
        rename(path, "refused")
    assert plan_delete(path, roots=(project.parent,)).refusal is not None


def test_the_ledger_trusts_only_the_very_file_it_noted(project: Path) -> None:
    path = _session(project, ["one"], age=600)
    rename(path, "ours")
    info = path.stat()
    copy = path.with_name("copy.tmp")
    copy.write_bytes(path.read_bytes())
    os.utime(copy, ns=(info.st_atime_ns, info.st_mtime_ns))
    os.replace(copy, path)  # same size and mtime, another file: someone else wrote it
    assert abs(last_foreign_write(path) - path.stat().st_mtime) < 1e-6


def test_a_rename_by_another_process_is_seen_here(project: Path, tmp_path: Path) -> None:
    path = _session(project, ["one"], age=600)
    done = subprocess.run(
        [sys.executable, "-m", "ink_tui", "rename", str(path), "from the command line"],
        capture_output=True,
        env={**os.environ, "INK_SESSIONS_DIR": str(project.parent)},
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    own_writes.refresh()  # what the picker's row workers do
    summary = list_sessions(project.parent, CWD)[0]
    assert summary.title == "from the command line"
    assert not is_live(summary, time.time())
    assert plan_delete(path, roots=(project.parent,)).refusal is None


# -- a full trash leaves nothing behind --------------------------------------------------------


def test_a_full_trash_names_the_path_and_leaves_no_entry_folder(
    project: Path, tiny_disk: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tiny_disk(256 * 1024)
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    trash.trash_dir().mkdir(parents=True)
    fill(data / "filler")  # the trash's file system, 100 % full
    path = _session(project, ["to delete"])
    before = path.read_bytes()
    with pytest.raises(trash.TrashError) as failed:
        delete(plan_delete(path, roots=(project.parent,)))
    said = str(failed.value)
    assert "No space left on device" in said and str(trash.trash_dir()) in said
    assert ": :" not in said and said.endswith("(nothing was moved)")
    assert list(trash.trash_dir().iterdir()) == []
    assert path.read_bytes() == before
