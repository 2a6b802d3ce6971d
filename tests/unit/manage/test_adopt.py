"""Sessions in ``~/.imp/sessions``, which Ink never reads (spec §1): ink-tui never offers ``ink -r``
for them, and ``ink-tui adopt`` copies one (with its subagent sessions) into Ink's folder, all
or nothing, never over a file, so that ``ink -r`` resumes it. ``HOME`` is a temporary folder."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from ink_tui.catalog import resolve_resume
from ink_tui.manage import adopting
from ink_tui.manage.adopting import AdoptError, adopt, plan_adopt
from ink_tui.paths import under_imp
from ink_tui.session import open_session
from ink_tui.session.writing.writer import SessionWriter

CWD = "/home/ada/code/old-proj"
FOLDER = "home-ada-code-old--proj"
OLD = time.time() - 86_400


def _imp_family(home: Path) -> tuple[Path, Path, str]:
    """An imp-era session with one subagent session (and its lease folder)."""
    folder = home / ".imp" / "sessions" / FOLDER
    parent = SessionWriter.new(folder, CWD)
    parent.append_message({"role": "user", "content": "from the imp days"})
    child = SessionWriter.new(folder / "children", CWD)
    launch = {"version": 1, "parentSessionId": parent.session_id, "childId": "c"}
    child.header.update(parent=parent.session_id, launch=launch)
    child.append_message({"role": "user", "content": "the subagent's prompt"})
    child.path.with_name(child.path.name + ".lease").mkdir()
    for path in (parent.path, child.path):
        os.utime(path, (OLD, OLD))
    return parent.path, child.path, parent.session_id


def _ink(home: Path) -> Path:
    return home / ".ink" / "sessions" / FOLDER


def test_a_session_is_under_imp_unless_ink_s_folder_leads_there_too(home: Path) -> None:
    parent, child, _ = _imp_family(home)
    assert under_imp(parent) and under_imp(child)
    assert not under_imp(home / ".ink" / "sessions" / FOLDER / parent.name)
    (home / ".ink").mkdir()
    (home / ".ink" / "sessions").symlink_to(home / ".imp" / "sessions")
    assert not under_imp(parent)  # Ink reads ~/.ink/sessions, which is this very folder


def test_adopt_copies_the_session_and_its_children_exactly(home: Path) -> None:
    parent, child, session_id = _imp_family(home)
    before = {path: path.read_bytes() for path in (parent, child)}
    plan = plan_adopt(parent)
    copies = adopt(plan)
    target = _ink(home)
    assert copies == [target / parent.name, target / "children" / child.name]
    for source, copy in zip((parent, child), copies, strict=True):
        assert copy.read_bytes() == before[source] == source.read_bytes()  # originals untouched
        assert copy.stat().st_mtime_ns == source.stat().st_mtime_ns  # Ink lists by mtime
    assert sorted(p.name for p in target.rglob("*")) == sorted(
        ["children", parent.name, child.name]  # no lease folder, no temporary file
    )
    assert plan.resume == f"cd {CWD} && ink -r {session_id}"
    # Ink's --resume (the cwd's folder of ~/.ink/sessions) finds it now
    found = resolve_resume(home / ".ink" / "sessions", CWD, session_id[:8])
    assert found.path == copies[0] and found.beyond_ink is None


def test_adopt_never_overwrites_and_copies_nothing_when_refused(home: Path) -> None:
    parent, child, _ = _imp_family(home)
    existing = _ink(home) / "children" / child.name
    existing.parent.mkdir(parents=True)
    existing.write_text("someone else's file")
    with pytest.raises(AdoptError, match="exists already: nothing was copied"):
        plan_adopt(parent)
    assert not (_ink(home) / parent.name).exists()
    assert existing.read_text() == "someone else's file"


def test_adopt_refuses_a_session_ink_s_folder_holds_already(home: Path) -> None:
    parent, _, _ = _imp_family(home)
    renamed = _ink(home) / "copied-by-hand.jsonl"
    renamed.parent.mkdir(parents=True)
    renamed.write_bytes(parent.read_bytes())
    with pytest.raises(AdoptError, match=r"holds this session already, as .*copied-by-hand"):
        plan_adopt(parent)


def test_adopt_refuses_what_is_not_an_imp_session(home: Path, tmp_path: Path) -> None:
    _, child, _ = _imp_family(home)
    with pytest.raises(AdoptError, match="is a subagent session: adopt the session that"):
        plan_adopt(child)
    elsewhere = SessionWriter.new(tmp_path / "elsewhere", CWD)
    elsewhere.append_message({"role": "user", "content": "hi"})
    with pytest.raises(AdoptError, match=r"is neither in .*\.imp/sessions"):
        plan_adopt(elsewhere.path)


def test_a_failure_half_way_leaves_nothing_behind(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parent, _, _ = _imp_family(home)
    plan = plan_adopt(parent)
    placed: list[Path] = []
    real = adopting.rename_noreplace

    def place(temp: Path, target: Path) -> None:
        if placed:
            raise OSError(28, "No space left on device", str(target))
        real(temp, target)
        placed.append(target)

    monkeypatch.setattr(adopting, "rename_noreplace", place)
    with pytest.raises(OSError, match="No space left"):
        adopt(plan)
    assert placed and not placed[0].exists()
    assert not (home / ".ink" / "sessions").exists()  # the folders it made are gone too


def test_ink_tui_adopt_finds_the_session_in_imp_and_says_how_ink_resumes_it(
    home: Path, cli: Any
) -> None:
    parent, _, session_id = _imp_family(home)
    code, out, _ = cli.run("adopt", session_id[:8], "--cwd", CWD)
    assert code == 0
    assert out == (
        f"copied {parent.name} and 1 subagent session into {_ink(home)}\n"
        f"Ink resumes it now: cd {CWD} && ink -r {session_id}\n"
    )
    assert open_session(_ink(home) / parent.name, warn=None).header["id"] == session_id
    code, _, err = cli.run("adopt", str(parent))
    assert code == 2 and "exists already: nothing was copied" in cli.one_error_line(err)
