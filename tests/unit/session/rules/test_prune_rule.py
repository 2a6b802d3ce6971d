"""Ink's ``/sessions prune`` rule in full (spec §7, ``prune.ts@3c659997``): every folder of the
sessions root; parents by the header id of the text before the first newline, any string id,
matched within the same folder; orphans by ``launch.parentSessionId`` only; the lease folder
rule with ``EPERM`` as alive. The lease rule is one function (``session.leases``) that the chat,
``repair --all`` and ``prune`` all use."""

from __future__ import annotations

import errno
import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from ink_tui.agent.start import load_chat
from ink_tui.manage.children import orphan_children
from ink_tui.session.reading import firstline
from ink_tui.session.rules import leases
from ink_tui.session.rules.leases import lease_is_live, lease_note, pid_alive

OLD = time.time() - 3600


def _write(path: Path, *lines: Any, raw: bytes | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if raw is None:
        raw = b"".join(json.dumps(line).encode() + b"\n" for line in lines)
    path.write_bytes(raw)
    return path


def _header(session_id: str, **extra: Any) -> dict[str, Any]:
    return {
        "type": "session",
        "version": 1,
        "id": session_id,
        "timestamp": "t",
        "cwd": "/p",
        **extra,
    }


def _child(folder: Path, name: str, parent: Any) -> Path:
    launch = {"version": 1, "parentSessionId": parent, "childId": name}
    return _write(folder / "children" / f"{name}.jsonl", _header(name, launch=launch))


def _orphans(root: Path) -> set[str]:
    return {orphan.path.name for orphan in orphan_children(root)}


def test_every_folder_of_the_root_is_scanned_and_parents_match_within_their_folder(
    tmp_path: Path,
) -> None:
    root = tmp_path / "sessions"
    _write(root / "proj-a" / "s1.jsonl", _header("p-a"))
    _child(root / "proj-a", "kept-a", "p-a")
    _child(root / "proj-a", "orphan-a", "p-b")  # its parent lives in another folder
    _write(root / "proj-b" / "s2.jsonl", _header("p-b"))
    _child(root / "proj-b", "kept-b", "p-b")
    _child(root / "proj-c", "orphan-c", "gone")  # a folder with no sessions of its own
    _write(root / "stray.jsonl", _header("p-a"))  # a file of the root: not a folder
    assert _orphans(root) == {"orphan-a.jsonl", "orphan-c.jsonl"}


def test_the_header_is_the_text_before_the_first_newline_and_any_string_id_counts(
    tmp_path: Path,
) -> None:
    root = tmp_path / "sessions"
    folder = root / "proj"
    _write(folder / "bare.jsonl", {"id": "p-bare"})  # no type or version: still a parent id
    _write(folder / "empty-id.jsonl", {"id": ""})
    _write(folder / "whole.jsonl", raw=b'{"id":"p-whole"}')  # no newline: the whole file
    pretty = json.dumps({"type": "session", "version": 1, "id": "p-pretty"}, indent=1)
    _write(folder / "pretty.jsonl", raw=pretty.encode() + b"\n")  # its first line is "{"
    _write(folder / "blank-first.jsonl", raw=b"\n" + json.dumps(_header("p-blank")).encode())
    _write(folder / "number-id.jsonl", {"id": 7})
    for name, parent in [
        ("c-bare", "p-bare"),
        ("c-empty", ""),
        ("c-whole", "p-whole"),
        ("c-pretty", "p-pretty"),
        ("c-blank", "p-blank"),
        ("c-seven", "7"),
    ]:
        _child(folder, name, parent)
    assert _orphans(root) == {"c-pretty.jsonl", "c-blank.jsonl", "c-seven.jsonl"}


def test_only_a_string_launch_parent_makes_an_orphan(tmp_path: Path) -> None:
    root = tmp_path / "sessions"
    children = root / "proj" / "children"
    _write(children / "only-parent.jsonl", _header("a", parent="gone"))  # no launch
    _write(children / "numeric.jsonl", _header("b", launch={"parentSessionId": 5}))
    _write(children / "torn.jsonl", raw=b'{"type":"session","launch":{"parentSessionId":"g')
    _write(children / "launch-list.jsonl", _header("c", launch=["gone"]))
    _child(root / "proj", "orphan", "gone")
    assert _orphans(root) == {"orphan.jsonl"}


def test_a_parent_header_too_long_to_read_makes_no_orphan_in_its_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ink reads a header line whole; ink-tui reads it up to one limit (``firstline``). A
    parent whose header is longer than that has an id that is not known, so none of its
    folder's children is called an orphan (prune must never delete what Ink would keep)."""
    monkeypatch.setattr(firstline, "HEADER_LINE_LIMIT", 200)
    root = tmp_path / "sessions"
    _write(root / "proj" / "long.jsonl", _header("p-long", padding="x" * 300))
    _child(root / "proj", "kept", "p-long")
    _child(root / "proj", "gone-parent", "p-gone")
    _write(root / "other" / "short.jsonl", _header("p-short"))
    _child(root / "other", "orphan", "p-gone")
    assert _orphans(root) == {"orphan.jsonl"}
    monkeypatch.setattr(firstline, "HEADER_LINE_LIMIT", 16 * 1024 * 1024)
    assert _orphans(root) == {"orphan.jsonl", "gone-parent.jsonl"}


# -- the lease rule ----------------------------------------------------------------------------


def _lease(child: Path) -> Path:
    folder = child.with_name(child.name + ".lease")
    folder.mkdir()
    return folder


def _candidate(folder: Path, name: str, payload: Any = "", *, age: float = 3600) -> Path:
    path = folder / name
    path.write_text(payload if isinstance(payload, str) else json.dumps(payload, indent=2))
    stamp = time.time() - age
    os.utime(path, (stamp, stamp))
    return path


@pytest.fixture
def child(tmp_path: Path) -> Path:
    return _child(tmp_path / "sessions" / "proj", "kid", "gone")


def test_no_lease_folder_or_a_lease_that_is_a_file_holds_nothing(child: Path) -> None:
    assert not lease_is_live(child)
    child.with_name(child.name + ".lease").write_text("{}")
    assert not lease_is_live(child)


def test_a_fresh_candidate_holds_the_child_but_a_fresh_staging_file_never_does(
    child: Path,
) -> None:
    folder = _lease(child)
    _candidate(folder, ".staging-1-abcd1234-a-00000000", age=0)
    assert not lease_is_live(child)
    _candidate(folder, "lease-77-abcd1234-a", age=59)
    assert lease_is_live(child)
    assert (
        lease_note(child) == "Ink is resuming this subagent session now (lease held by process 77)"
    )


def test_a_stale_candidate_holds_the_child_while_its_pid_lives(child: Path) -> None:
    folder = _lease(child)
    candidate = _candidate(folder, "lease-1-abcd1234-a", {"pid": 999_999_999, "host": "x"})
    assert not lease_is_live(child)  # stale, and no such process
    # the payload is the whole file (pretty-printed here), host and machineId not compared
    candidate.write_text(json.dumps({"pid": os.getpid(), "host": "elsewhere"}, indent=2))
    os.utime(candidate, (OLD, OLD))
    assert lease_is_live(child)
    assert lease_note(child) == (
        f"Ink is resuming this subagent session now (lease held by process {os.getpid()})"
    )


def test_any_fresh_entry_counts_even_a_folder_and_a_followed_symlink(
    tmp_path: Path, child: Path
) -> None:
    folder = _lease(child)
    (folder / "anything").mkdir()
    assert lease_is_live(child)
    other = _child(tmp_path / "sessions" / "proj", "linked", "gone")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    _candidate(elsewhere, "lease-5-abcd1234-a", age=0)
    other.with_name(other.name + ".lease").symlink_to(elsewhere)
    assert lease_is_live(other)


def test_eperm_counts_as_alive(child: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _candidate(_lease(child), "lease-1-abcd1234-a", {"pid": 4242})

    def kill(pid: int, signal: int) -> None:
        raise PermissionError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(leases.os, "kill", kill)
    assert lease_is_live(child)


@pytest.mark.parametrize("pid", ["4242", True, 1.5, 2**31, -(2**31) - 1, None, [4242]])
def test_a_pid_node_would_refuse_is_not_alive(pid: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    signalled: list[int] = []
    monkeypatch.setattr(leases.os, "kill", lambda p, s: signalled.append(p))
    assert not pid_alive(pid)
    assert signalled == []


def test_a_32_bit_pid_is_signalled_as_given(monkeypatch: pytest.MonkeyPatch) -> None:
    signalled: list[tuple[int, int]] = []
    monkeypatch.setattr(leases.os, "kill", lambda p, s: signalled.append((p, s)))
    assert pid_alive(4242.0) and pid_alive(0) and pid_alive(-7)
    assert signalled == [(4242, 0), (0, 0), (-7, 0)]


def test_a_live_lease_keeps_an_orphan(child: Path) -> None:
    _candidate(_lease(child), "lease-1-abcd1234-a", {"pid": os.getpid()})
    (orphan,) = orphan_children(child.parent.parent.parent)
    assert orphan.leased


# -- one rule for the chat, repair --all and prune -----------------------------------------------


def test_the_chat_will_not_write_to_a_child_whose_lease_pid_lives(chat_kit: Any) -> None:
    path, _ = chat_kit.session({"role": "user", "content": "hi"}, chat_kit.assistant("one"))
    _candidate(_lease(path), "lease-1-abcd1234-a", {"pid": os.getpid()})  # stale, pid alive
    assert load_chat(path).read_only == (
        f"Ink is resuming this subagent session now (lease held by process {os.getpid()})"
    )


def test_repair_all_skips_a_child_whose_lease_pid_lives(tmp_path: Path, cli: Any) -> None:
    base = tmp_path / "sessions"
    child = _write(base / "proj" / "children" / "kid.jsonl", _header("kid"), raw=None)
    child.write_bytes(child.read_bytes()[:-1])  # unterminated: repair would terminate it
    os.utime(child, (OLD, OLD))
    _candidate(_lease(child), "anything", {"pid": os.getpid()})
    code, out, _ = cli.run("repair", "--all", "--sessions-dir", str(base))
    assert code == 1 and f"lease held by process {os.getpid()}" in out
    assert not child.read_bytes().endswith(b"\n")


def test_the_cli_prune_says_it_looks_in_every_project_folder(tmp_path: Path, cli: Any) -> None:
    base = tmp_path / "sessions"
    first = _child(base / "proj-a", "orphan-a", "gone")
    second = _child(base / "proj-b", "orphan-b", "gone")
    code, out, _ = cli.run("prune", "--dry-run", "--sessions-dir", str(base), "--cwd", "/x")
    assert code == 0
    assert f"orphan {first} (its parent gone is gone)" in out
    assert f"orphan {second} (its parent gone is gone)" in out
    assert out.endswith(
        f"2 orphaned child session(s) to prune in every project folder under {base}; "
        "nothing was moved\n"
    )
    code, _, err = cli.run("prune", "--sessions-dir", str(base))  # no terminal: asks for --yes
    assert code == 2 and f"from every project folder under {base}, to the trash?" in err
