"""Moving sessions into the trash and back is all or nothing (issue 19).

- Every system call of a restore or a delete fails in turn (``ENOSPC`` at the Nth call, N over
  every call it makes), on one file system (renames) and across two (copies): after each
  failure the sessions folder is exactly as before and the trash entry whole.
- A real full disk (a small tmpfs, when the tests may mount one): a restore that does not fit
  leaves no fragment and keeps the entry whole; so does a ``children/`` that became a file.
- Two processes restoring at the same instant (the same entry, or two entries of the same
  paths) never both succeed and never leave files of both.
"""

from __future__ import annotations

import contextlib
import errno
import multiprocessing
import os
import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import tinydisk

from ink_tui.manage import moving, trash
from ink_tui.manage.deleting import delete, plan_delete
from ink_tui.session import open_session
from ink_tui.session.writing.writer import SessionWriter

CWD = "/home/ada/code/keep"
OLD = time.time() - 3600
tiny_disk = tinydisk.tiny_disk  # a fixture: a small tmpfs (root only, else skipped)
FAULTED = (
    "open",
    "write",
    "fsync",
    "mkdir",
    "rmdir",
    "link",
    "unlink",
    "rename",
    "replace",
    "utime",
    "chmod",
    "fchmod",
    "symlink",
)


def _session(folder: Path, text: str, size: int, **header: Any) -> Path:
    writer = SessionWriter.new(folder, CWD)
    writer.header.update(header)
    writer.append_message({"role": "user", "content": text + " " + "x" * size})
    os.utime(writer.path, (OLD, OLD))
    return writer.path


def _family(base: Path, text: str = "parent", size: int = 200_000) -> list[Path]:
    """A session, its two children (one big) and a lease folder: what a delete moves."""
    project = base / "home-ada-code-keep"
    parent = _session(project, text, size)
    parent_id = open_session(parent, warn=None).session_id
    launch = {"version": 1, "parentSessionId": parent_id, "childId": "c"}
    big = _session(project / "children", f"{text} child 1", 3 * size, launch=launch)
    small = _session(project / "children", f"{text} child 2", 100, parent=parent_id)
    lease = big.with_name(big.name + ".lease")
    lease.mkdir()
    (lease / "lease-1-abcdefgh-x").write_text('{"pid": 999999999}')
    os.utime(lease / "lease-1-abcdefgh-x", (OLD, OLD))
    return [parent, big, small, lease]


def _contents(paths: list[Path]) -> dict[str, bytes]:
    """The bytes of every file of ``paths`` (a folder: the files in it)."""
    found: dict[str, bytes] = {}
    for path in paths:
        files = sorted(path.iterdir()) if path.is_dir() else [path]
        found.update({str(file): file.read_bytes() for file in files})
    return found


def _snapshot(root: Path) -> dict[str, tuple[bytes, int] | None]:
    """Every file and folder under ``root``: bytes and mtime of files, ``None`` for folders."""
    found: dict[str, tuple[bytes, int] | None] = {}
    for folder, names, files in os.walk(root):
        for name in names:
            found[os.path.join(folder, name)] = None
        for name in files:
            path = os.path.join(folder, name)
            found[path] = (Path(path).read_bytes(), os.lstat(path).st_mtime_ns)
    return found


def _entry_files(entry: trash.TrashEntry) -> dict[str, tuple[bytes, int] | None]:
    return {
        key: value
        for key, value in _snapshot(entry.folder / "files").items()
        if not key.endswith(moving.LOCK_FILE)
    }


class Faults:
    """Replaces the ``os`` calls that write (and the no-replace rename) by ones that raise
    ``ENOSPC`` at the ``fail_at``-th call touching ``root``; every other call goes through."""

    def __init__(self, root: Path, fail_at: int) -> None:
        self.root = str(root)
        self.fail_at = fail_at
        self.calls = 0
        self.fired = False

    def _touches(self, name: str, args: tuple[Any, ...]) -> bool:
        if name == "open" and not args[1] & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            return False  # reading never runs out of space
        for arg in args[:1] if name in ("open", "mkdir", "utime", "chmod") else args[:2]:
            if isinstance(arg, int) and not isinstance(arg, bool):
                try:
                    if os.readlink(f"/proc/self/fd/{arg}").startswith(self.root):
                        return True
                except OSError:
                    continue
            elif isinstance(arg, str | bytes | os.PathLike) and os.fsdecode(arg).startswith(
                self.root
            ):
                return True
        return False

    def wrap(self, name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            if not self.fired and self._touches(name, args):
                self.calls += 1
                if self.calls == self.fail_at:
                    self.fired = True
                    where = args[0] if not isinstance(args[0], int) else None
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), where)
            return real(*args, **kwargs)

        call.__name__ = name
        return call

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        for name in FAULTED:
            monkeypatch.setattr(os, name, self.wrap(name, getattr(os, name)))
        monkeypatch.setattr(moving, "_renameat2", self.wrap("renameat2", moving._renameat2))


@pytest.fixture(autouse=True)
def trash_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The trash under the test's folder too: its calls fail in turn as well."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


@pytest.fixture(params=["one file system", "two file systems"])
def crossing(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run on one file system (renames), or as if the trash were on another one (copies)."""
    if request.param == "two file systems":
        monkeypatch.setattr(moving, "same_file_system", lambda *_: False)
    return str(request.param)


def test_a_restore_failing_at_any_call_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, crossing: str
) -> None:
    base = tmp_path / "sessions"
    originals = _family(base)
    before = _snapshot(base)

    def deleted() -> trash.TrashEntry:
        entry = delete(plan_delete(originals[0], roots=(base,)))
        (base / "home-ada-code-keep" / "children").rmdir()  # a restore makes folders too
        (base / "home-ada-code-keep").rmdir()
        return entry

    entry = deleted()
    emptied = _snapshot(base)
    kept = _entry_files(entry)
    fail_at = 0
    while True:
        fail_at += 1
        faults = Faults(tmp_path, fail_at)
        with monkeypatch.context() as patch:
            faults.install(patch)
            try:
                trash.restore(entry)
            except trash.TrashError as error:
                said = str(error)
            else:
                said = ""
        if said:
            assert "No space left on device" in said and "nothing was moved" in said, said
            assert _snapshot(base) == emptied, f"call {fail_at}: the sessions folder changed"
            assert trash.list_trash() == [entry] and _entry_files(entry) == kept
            continue
        # Restored (the failed call came after every file was back): all of it, exactly.
        assert _snapshot(base) == before, f"call {fail_at}: not restored as it was"
        assert trash.list_trash() == [], f"call {fail_at}: the entry is still listed"
        if not faults.fired:
            break
        entry = deleted()
        kept = _entry_files(entry)
    assert fail_at > 5


def _entry_folders() -> list[Path]:
    folder = trash.trash_dir()
    return list(folder.iterdir()) if folder.exists() else []


def _hidden(root: Path) -> list[Path]:
    return [Path(key) for key in _snapshot(root) if Path(key).name.startswith(".")]


def test_a_delete_failing_at_any_call_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, crossing: str
) -> None:
    base = tmp_path / "sessions"
    originals = _family(base)
    before = _snapshot(base)
    fail_at = 0
    while True:
        fail_at += 1
        faults = Faults(tmp_path, fail_at)
        with monkeypatch.context() as patch:
            faults.install(patch)
            try:
                delete(plan_delete(originals[0], roots=(base,)))
            except trash.TrashError as error:
                said = str(error)
            else:
                said = ""
        if said:
            assert "No space left on device" in said and "(nothing was moved)" in said, said
            assert _snapshot(base) == before, f"call {fail_at}: the sessions folder changed"
            assert trash.list_trash() == [] and _entry_folders() == []
            continue
        # Moved (the failed call came after the move was complete): every file is in the
        # entry, nothing of the family is left but, at most, a hidden copy never listed.
        assert not any(os.path.lexists(path) for path in originals), f"call {fail_at}"
        (entry,) = trash.list_trash()
        for leftover in _hidden(base):
            assert ".ink-tui-moved-" in leftover.name, leftover
            shutil.rmtree(leftover) if leftover.is_dir() else leftover.unlink()
        trash.restore(entry)
        assert _snapshot(base) == before, f"call {fail_at}: not restored as it was"
        if not faults.fired:
            break
    assert fail_at > 5


def _fill_but(folder: Path, spare: int) -> None:
    """Fill ``folder``'s file system but ``spare`` bytes."""
    info = os.statvfs(folder)
    free = info.f_bavail * info.f_frsize
    with open(folder / "filler", "wb") as filler:
        filler.write(b"\0" * max(0, free - spare))


def test_a_restore_onto_a_full_disk_keeps_the_entry_whole(
    tmp_path: Path, tiny_disk: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    disk = tiny_disk(4 * 1024 * 1024)  # the sessions; the trash stays on the test's disk
    base = disk / "sessions"
    originals = _family(base, size=200_000)  # the parent ~200 KB, child 1 ~600 KB
    before = _snapshot(base)
    entry = delete(plan_delete(originals[0], roots=(base,)))
    kept = _entry_files(entry)
    emptied = _snapshot(base)
    _fill_but(disk, 400_000)  # the parent fits, child 1 does not
    with pytest.raises(trash.TrashError, match="No space left on device") as failed:
        trash.restore(entry)
    assert "nothing was moved" in str(failed.value)
    assert _snapshot(base) == emptied  # no parent put back, no 192 KB fragment of child 1
    assert trash.list_trash() == [entry] and _entry_files(entry) == kept
    assert len(trash.list_trash()[0].sessions) == 3
    (disk / "filler").unlink()
    trash.restore(entry)
    assert _snapshot(base) == before and trash.list_trash() == []


def test_a_children_folder_that_became_a_file_keeps_the_entry_whole(tmp_path: Path) -> None:
    base = tmp_path / "sessions"
    originals = _family(base)
    before = _snapshot(base)
    entry = delete(plan_delete(originals[0], roots=(base,)))
    children = base / "home-ada-code-keep" / "children"
    children.rmdir()
    children.write_text("not a folder\n")
    kept = _entry_files(entry)
    with pytest.raises(trash.TrashError, match="nothing was moved"):
        trash.restore(entry)
    assert not originals[0].exists() and children.read_text() == "not a folder\n"
    assert trash.list_trash() == [entry] and _entry_files(entry) == kept
    children.unlink()
    trash.restore(entry)
    assert _snapshot(base) == before


# -- two restores at the same instant ---------------------------------------------------------


MOVE_WAIT = 3.0  # seconds a restore waits at most for the other one to reach its moves


def _restore_at_once(entry_id: str, start: Any, moving_now: Any, results: Any) -> None:
    """In a process of its own: restore ``entry_id`` once every racer is ready, its moves
    starting together with the other's, checks done (the instant two restores overlap the
    most); a racer that cannot get there (it waits for the entry's lock) is not waited for
    longer than :data:`MOVE_WAIT`."""
    real = trash.transfer

    def together(*args: Any, **kwargs: Any) -> None:
        with contextlib.suppress(threading.BrokenBarrierError):
            moving_now.wait(MOVE_WAIT)
        real(*args, **kwargs)

    trash.transfer = together  # this process only
    start.wait()
    try:
        trash.restore(trash.find_entry(entry_id))
    except trash.TrashError as error:
        results.put((entry_id, str(error)))
    else:
        results.put((entry_id, "ok"))


def _race(entry_ids: list[str]) -> list[tuple[str, str]]:
    """Each entry restored by a process of its own, at the same instant: what each said."""
    context = multiprocessing.get_context("fork")
    start, moving_now = context.Barrier(len(entry_ids)), context.Barrier(len(entry_ids))
    results = context.Queue()
    workers = [
        context.Process(target=_restore_at_once, args=(entry_id, start, moving_now, results))
        for entry_id in entry_ids
    ]
    for worker in workers:
        worker.start()
    said = [results.get(timeout=60) for _ in workers]
    for worker in workers:
        worker.join(timeout=60)
    return said


ROUNDS = 25


def test_two_entries_of_the_same_paths_restored_at_once_never_mix(tmp_path: Path) -> None:
    base = tmp_path / "sessions"
    for round_number in range(ROUNDS):
        first = _family(base, text=f"round {round_number} A", size=2000)
        contents = {"A": _contents(first)}
        entries = [delete(plan_delete(first[0], roots=(base,)))]
        second = _family(base, text=f"round {round_number} B", size=2000)
        for path, wanted in zip(second, first, strict=True):
            path.rename(wanted)  # the same paths as A's
        contents["B"] = _contents(first)
        entries.append(delete(plan_delete(first[0], roots=(base,))))
        said = dict(_race([entry.id for entry in entries]))
        won = [entry for entry in entries if said[entry.id] == "ok"]
        assert len(won) <= 1, said
        left = trash.list_trash()
        if won:
            side = "AB"[entries.index(won[0])]
            assert _contents(first) == contents[side]  # all of one entry, nothing of the other
            assert left == [entry for entry in entries if entry is not won[0]]
            lost = said[left[0].id]
            assert "exists again" in lost or "appeared meanwhile" in lost, lost
        else:
            assert not any(os.path.lexists(path) for path in first) and len(left) == 2
        for entry in left:
            assert {key[-60:] for key in _entry_files(entry)}  # whole: its files are there
        trash.empty_trash()
        for path in first:
            if path.is_dir():
                shutil.rmtree(path)
            else:
                path.unlink(missing_ok=True)


@pytest.mark.parametrize("round_number", range(3))  # a race: three rounds, spread as cases
def test_one_entry_restored_twice_at_once_is_restored_once(
    tmp_path: Path, round_number: int
) -> None:
    base = tmp_path / "sessions"
    # each round waits MOVE_WAIT: the lock holds the other back
    paths = _family(base, text=f"round {round_number}", size=2000)
    contents = _contents(paths)
    entry = delete(plan_delete(paths[0], roots=(base,)))
    said = [text for _, text in _race([entry.id, entry.id])]
    assert said.count("ok") == 1, said
    (lost,) = [text for text in said if text != "ok"]
    assert "is gone (restored or emptied meanwhile)" in lost, lost
    assert _contents(paths) == contents and trash.list_trash() == []
    delete(plan_delete(paths[0], roots=(base,)))
    trash.empty_trash()


@pytest.mark.parametrize("renameat2", ["renameat2", "no renameat2 (link, then unlink)"])
def test_the_rename_into_place_never_replaces(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, renameat2: str
) -> None:
    if renameat2 != "renameat2":
        monkeypatch.setattr(moving, "_RENAMEAT2", None)
    elif moving._RENAMEAT2 is None:
        pytest.skip("this system has no renameat2")
    source, taken = tmp_path / "source.jsonl", tmp_path / "taken.jsonl"
    source.write_text("restored\n")
    taken.write_text("someone else's\n")
    with pytest.raises(FileExistsError):
        moving.rename_noreplace(source, taken)
    assert source.read_text() == "restored\n" and taken.read_text() == "someone else's\n"
    folder, other = tmp_path / "lease", tmp_path / "other"
    folder.mkdir()
    other.mkdir()
    with pytest.raises(FileExistsError):
        moving.rename_noreplace(folder, other)
    moving.rename_noreplace(source, tmp_path / "free.jsonl")
    moving.rename_noreplace(folder, tmp_path / "free-folder")
    assert not source.exists() and (tmp_path / "free.jsonl").read_text() == "restored\n"
    assert (tmp_path / "free-folder").is_dir() and not folder.exists()
