"""Rename, label, delete to the trash, restore and prune (issue 12), in the core.

Every write is read back by the spec's rules (``open_session``) and by the listing Ink's
``/sessions`` shows; every move is restored byte for byte with its modification times.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from ink_tui.catalog.scan import list_sessions
from ink_tui.manage import trash
from ink_tui.manage.children import children_of, lease_is_live, orphan_children
from ink_tui.manage.deleting import DeletePlan, delete
from ink_tui.manage.deleting import plan_delete as plan_in
from ink_tui.manage.naming import NamingError, label_entry, rename, resume_command
from ink_tui.manage.pruning import plan_prune, prune
from ink_tui.session import open_session
from ink_tui.session.conversation.tree import branch, labels, session_name
from ink_tui.session.writing.writer import SessionWriter

CWD = "/home/ada/code/keep"
OLD = time.time() - 3600


def _session(folder: Path, prompts: list[str], **header: object) -> Path:
    writer = SessionWriter.new(folder, CWD)
    writer.header.update(header)
    for prompt in prompts:
        writer.append_message({"role": "user", "content": prompt})
    os.utime(writer.path, (OLD, OLD))
    return writer.path


def _child(project: Path, parent_id: str, name: str, *, age: float = 3600) -> Path:
    launch = {"version": 1, "parentSessionId": parent_id, "childId": name}
    path = _session(project / "children", [f"child {name}"], parent=parent_id, launch=launch)
    stamp = time.time() - age
    os.utime(path, (stamp, stamp))
    return path


def _snapshot(paths: list[Path]) -> dict[Path, tuple[bytes, int]]:
    return {path: (path.read_bytes(), path.stat().st_mtime_ns) for path in paths}


def plan_delete(path: Path, **options: object) -> DeletePlan:
    """The plan for a session of the test's sessions folder (``<tmp>/sessions``)."""
    root = next(parent for parent in path.parents if parent.name == "sessions")
    return plan_in(path, roots=(root,), **options)  # type: ignore[arg-type]


def _records(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return tmp_path / "sessions" / "home-ada-code-keep"


# -- rename ------------------------------------------------------------------------------------


def test_rename_appends_a_session_info_as_ink_does_and_the_listing_shows_it(
    project: Path,
) -> None:
    path = _session(project, ["first prompt"])
    leaf_before = open_session(path, warn=None).leaf_id
    written = rename(path, "  retry\nlogic \r\n generic  ")
    record = _records(path)[-1]
    assert list(record) == ["type", "id", "parentId", "timestamp", "name"]
    assert record["type"] == "session_info" and record["name"] == "retry logic   generic"
    assert record["parentId"] == leaf_before and written.entry_id == record["id"]
    session = open_session(path, warn=None)
    assert session.leaf_id == record["id"]  # a name is an entry: it becomes the leaf, as in Ink
    assert session_name(branch(session)) == "retry logic   generic"
    assert list_sessions(project.parent, CWD)[0].title == "retry logic   generic"


@pytest.mark.parametrize("clearing", ["", "   ", "-", " - "])
def test_an_empty_name_or_inks_dash_clears_it(project: Path, clearing: str) -> None:
    path = _session(project, ["the first prompt"])
    rename(path, "named")
    os.utime(path, (OLD, OLD))
    rename(path, clearing)
    assert _records(path)[-1]["name"] == ""
    assert session_name(branch(open_session(path, warn=None))) is None
    assert list_sessions(project.parent, CWD)[0].title == "the first prompt"


def test_a_session_written_a_moment_ago_is_not_renamed(project: Path) -> None:
    path = _session(project, ["busy"])
    os.utime(path, None)  # Ink just wrote it
    before = path.read_bytes()
    with pytest.raises(NamingError, match="Ink may be running it"):
        rename(path, "later")
    assert path.read_bytes() == before


def test_a_torn_tail_is_refused_before_anything_is_written(project: Path) -> None:
    path = _session(project, ["torn"])
    with path.open("ab") as stream:
        stream.write(b'{"type":"message","id":"half')
    os.utime(path, (OLD, OLD))
    before = path.read_bytes()
    with pytest.raises(NamingError, match="repair"):
        rename(path, "x")
    assert path.read_bytes() == before


# -- label ---------------------------------------------------------------------------------------


def test_a_label_is_appended_without_moving_the_leaf_and_empty_removes_it(project: Path) -> None:
    path = _session(project, ["one", "two"])
    session = open_session(path, warn=None)
    target, leaf = session.entries[0].id, session.leaf_id
    label_entry(path, target, "  start\nhere ")
    record = _records(path)[-1]
    assert list(record) == ["type", "id", "parentId", "timestamp", "targetId", "label"]
    assert record["parentId"] == leaf and record["targetId"] == target
    reopened = open_session(path, warn=None)
    assert reopened.leaf_id == leaf  # labels never move the leaf
    assert labels(reopened) == {target: "start here"}
    label_entry(path, target, "")
    assert labels(open_session(path, warn=None)) == {}


def test_labels_name_real_entries_only_and_hold_no_control_characters(project: Path) -> None:
    path = _session(project, ["one"])
    target = open_session(path, warn=None).entries[0].id
    label_entry(path, target, "ok")
    label_id = str(_records(path)[-1]["id"])
    before = path.read_bytes()
    with pytest.raises(NamingError, match="entry not found"):
        label_entry(path, "nope", "x")
    with pytest.raises(NamingError, match="a label record"):
        label_entry(path, label_id, "x")
    with pytest.raises(NamingError, match="control characters"):
        label_entry(path, target, "bad \x1b[2J")
    assert path.read_bytes() == before


def test_resume_command_is_inks() -> None:
    assert resume_command("0f9a") == "ink -r 0f9a"


# -- delete and restore ----------------------------------------------------------------------


def test_delete_moves_the_session_its_children_and_leases_and_restore_is_exact(
    project: Path,
) -> None:
    path = _session(project, ["parent"])
    parent_id = open_session(path, warn=None).header["id"]
    child = _child(project, parent_id, "a")
    grandchild = _child(project, open_session(child, warn=None).header["id"], "b")
    other = _child(project, "someone-else", "c")
    lease = child.with_name(child.name + ".lease")
    lease.mkdir()
    (lease / "lease-1-abcdefgh-x").write_text('{"pid": 999999999}')
    os.utime(lease / "lease-1-abcdefgh-x", (OLD, OLD))
    assert children_of(path, parent_id) == [child, grandchild]
    before = _snapshot([path, child, grandchild, lease / "lease-1-abcdefgh-x"])
    plan = plan_delete(path, title="parent")
    assert plan.refusal is None and plan.describe().endswith("and its 2 child sessions")
    entry = delete(plan)
    assert not path.exists() and not child.exists() and not lease.exists()
    assert other.exists()  # not this session's
    assert trash.list_trash()[0].id == entry.id
    restored = trash.restore(trash.find_entry(entry.id[:10]))
    assert set(restored) == {path, child, grandchild, lease}
    assert _snapshot(list(before)) == before
    assert trash.list_trash() == []


@pytest.mark.parametrize("what", ["session", "child", "lease"])
def test_a_session_being_written_is_never_deleted(project: Path, what: str) -> None:
    path = _session(project, ["parent"])
    child = _child(project, open_session(path, warn=None).header["id"], "a")
    if what == "session":
        os.utime(path, None)
    elif what == "child":
        os.utime(child, None)
    else:
        lease = child.with_name(child.name + ".lease")
        lease.mkdir()
        (lease / "lease-1-abcdefgh-x").write_text(json.dumps({"pid": os.getpid()}))
        os.utime(lease / "lease-1-abcdefgh-x", (OLD, OLD))
        assert lease_is_live(child)
    plan = plan_delete(path)
    assert plan.refusal is not None
    with pytest.raises(trash.TrashError, match="not deleted"):
        delete(plan)
    assert path.exists() and child.exists()


def test_restore_never_overwrites(project: Path) -> None:
    path = _session(project, ["gone"])
    entry = delete(plan_delete(path))
    path.write_text("a new file where the old one was\n")
    with pytest.raises(trash.TrashError, match="exists again"):
        trash.restore(entry)
    assert path.read_text() == "a new file where the old one was\n"
    assert trash.list_trash()[0].id == entry.id  # still in the trash


def test_empty_removes_entries_for_good(project: Path) -> None:
    delete(plan_delete(_session(project, ["a"])))
    assert trash.empty_trash() == 1 and trash.list_trash() == []


# -- prune -----------------------------------------------------------------------------------


def test_prune_finds_orphans_by_inks_rules_and_moves_them_to_the_trash(project: Path) -> None:
    parent = _session(project, ["parent"])
    kept = _child(project, open_session(parent, warn=None).header["id"], "kept")
    orphan = _child(project, "gone-parent", "orphan")
    leased = _child(project, "gone-too", "leased")
    lease = leased.with_name(leased.name + ".lease")
    lease.mkdir()
    (lease / "lease-7-abcdefgh-y").write_text("{}")  # fresh: touched now
    (lease / ".staging-7-x").write_text("{}")
    blank_first = _session(project, ["a parent Ink's prune cannot read"])
    blank_id = open_session(blank_first, warn=None).header["id"]
    blank_first.write_bytes(b"\n" + blank_first.read_bytes())  # Ink's prune reads line 1 only
    unseen = _child(project, blank_id, "unseen")
    found = {item.path: item.leased for item in orphan_children(project.parent)}
    assert found == {orphan: False, leased: True, unseen: False}
    assert kept.exists()
    plan = plan_prune(project.parent)
    entry, done = prune(plan)
    assert entry is not None and {o.path for o in done.removable} == {orphan, unseen}
    assert not orphan.exists() and leased.exists() and lease.exists()
    trash.restore(entry)
    assert orphan.exists()


def test_the_trash_is_private(project: Path) -> None:
    entry = delete(plan_delete(_session(project, ["private"])))
    data = trash.trash_dir().parent
    for folder in (data, trash.trash_dir(), entry.folder, entry.folder / "files"):
        assert folder.stat().st_mode & 0o777 == 0o700, folder
    assert (entry.folder / "entry.json").stat().st_mode & 0o777 == 0o600
