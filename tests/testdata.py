"""The project's own test sessions (``tests/data``): where they are and how tests use them.

Importable from every test folder as ``import testdata`` (pytest's ``pythonpath`` option in
pyproject.toml puts ``tests/`` on ``sys.path``; test modules themselves run with
``--import-mode=importlib`` and cannot import each other). ``tests/data/README.md`` says what
each file exercises and what a user sees when opening it.

A missing file here is a bug in the test, never a reason to skip: :func:`session_file` fails.
"""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ink_tui.session import SessionFile

__all__ = [
    "DATA",
    "FAMILY",
    "SESSIONS",
    "TREE",
    "TREE_HOME",
    "TREE_HOME_CWD",
    "UNKNOWN_OUTCOME",
    "Family",
    "all_session_files",
    "boundary_refusal",
    "copy_family",
    "copy_session",
    "copy_tree",
    "session_file",
    "task_record",
    "torn_note",
    "tree_mtime",
]

DATA = Path(__file__).resolve().parent / "data"
SESSIONS = DATA / "sessions"
TREE = DATA / "sessions-tree"
TREE_HOME = "home-ada-code-calc--kit"
TREE_HOME_CWD = "/home/ada/code/calc-kit"
FAMILY = DATA / "subagents"


def session_file(name: str) -> Path:
    """``tests/data/sessions/<name>`` (``.jsonl`` may be left out); read it, never write it."""
    path = SESSIONS / (name if name.endswith(".jsonl") else f"{name}.jsonl")
    assert path.is_file(), f"test data missing: {path}"
    return path


def all_session_files() -> list[Path]:
    """Every file of ``tests/data/sessions``, sorted; never empty."""
    found = sorted(SESSIONS.glob("*.jsonl"))
    assert len(found) >= 20, f"expected the project's test sessions in {SESSIONS}"
    return found


def copy_session(folder: Path, name: str) -> Path:
    """A writable copy of a data session in ``folder`` (created), under the same name."""
    folder.mkdir(parents=True, exist_ok=True)
    source = session_file(name)
    target = folder / source.name
    shutil.copyfile(source, target)
    return target


def tree_mtime(path: Path) -> float:
    """The mtime a tree file gets: the time in its name (``2026-03-01T09-00-00-000Z-…``)."""
    stamp = path.name[: len("2026-03-01T09-00-00-000Z")]
    day, clock = stamp.split("T")
    hours, minutes, seconds, _millis = clock.rstrip("Z").split("-")
    moment = datetime.fromisoformat(f"{day}T{hours}:{minutes}:{seconds}").replace(tzinfo=UTC)
    return moment.timestamp()


def copy_tree(base: Path) -> Path:
    """A copy of ``sessions-tree`` at ``base``, each file's mtime the time in its name."""
    shutil.copytree(TREE, base)
    files = sorted(base.rglob("*.jsonl"))
    assert len(files) >= 10, f"expected the sessions tree in {TREE}"
    for path in files:
        stamp = tree_mtime(path)
        os.utime(path, (stamp, stamp))
    return base


@dataclass(frozen=True)
class Family:
    """The subagent family (``tests/data/subagents``), copied: a parent with three ``task``
    calls. ``task_1``'s child ``done`` finished (its result names it); ``task_2``'s result names
    a child that is gone (``missing_id``); ``task_3`` still runs: no result yet, its child
    ``running`` holds a live lease (touched now) and waits for its ``bash`` call's result."""

    project: Path
    parent: Path
    done: Path
    running: Path
    missing_id: str = "c41c0000-0000-4000-8000-00000000000c"

    @property
    def lease(self) -> Path:
        return self.running.with_name(self.running.name + ".lease") / (
            "lease-4242-6eedecd9-attempt-task_3"
        )


def copy_family(base: Path, *, live: bool = True) -> Family:
    """A copy of the family in ``base`` (the sessions folder). Files get the times in their
    names; with ``live`` the running child's lease candidate is touched now (Ink's heartbeat),
    else it is as old as the file (a lease Ink left behind)."""
    shutil.copytree(FAMILY, base, dirs_exist_ok=True)
    project = base / "home-ada-code-calc--kit"
    for path in sorted(project.rglob("*.jsonl")):
        stamp = tree_mtime(path)
        os.utime(path, (stamp, stamp))
    children = sorted((project / "children").glob("*.jsonl"))
    family = Family(project, next(project.glob("*.jsonl")), children[0], children[1])
    stamp = time.time() if live else tree_mtime(family.running)
    os.utime(family.lease, (stamp, stamp))
    return family


# -- what current Ink says (the spec's texts, written out here, not taken from ink_tui) ----------

UNKNOWN_OUTCOME = (
    "[ink] this tool call was interrupted before a result was recorded — the outcome is "
    "unknown; it may have partially executed. Re-inspect or re-run it before relying on its "
    "effects."
)
"""The result Ink's continuation appends for a call left without one (spec §6)."""


def torn_note(path: Path) -> str:
    """Ink's stderr note when it drops a torn final line (spec §3.4)."""
    return f"ink: dropping torn final line in {path}\n"


def boundary_refusal(role: str, *call_ids: str) -> str:
    """Ink's refusal when a message other than a toolResult begins while calls are pending."""
    return (
        f"a new {role} message begins a turn while tool call(s) {', '.join(call_ids)} are still "
        "awaiting results — the transcript cannot be paired unambiguously (start a new task "
        "instead)"
    )


def session_facts(session: SessionFile, payloads_from: int = 0) -> dict[str, Any]:
    """What ``open()`` learnt (payloads of the records at or after ``payloads_from`` only)."""
    return {
        "header": (session.header, session.header_end),
        "entries": [
            (e.type, e.id, e.parent_id, e.line, e.offset, e.end)
            + ((e.record,) if e.offset >= payloads_from else ())
            for e in session.entries
        ],
        "by_id": {key: entry.line for key, entry in session.by_id.items()},
        "positions": [(m.record, m.line, m.offset, m.seq) for m in session.positions],
        "models": [(m.record, m.line, m.offset, m.seq) for m in session.session_models],
        "skipped": session.skipped_markers,
        "duplicates": session.duplicate_ids,
        "dropped": session.dropped_final_line,
        "newline": session.ends_with_newline,
        "size": session.size,
        "lines": session.line_count,
        "leaf": session.leaf_id,
        "seq": (session._seq, session._last_entry_seq),
    }


def task_record(**fields: Any) -> dict[str, Any]:
    """A ``taskRecord`` Ink's ``parseTaskRecord`` accepts (spec §2), with ``fields`` added or
    replaced (``childId``, ``transcript``, ``status``…)."""
    record: dict[str, Any] = {
        "version": 1,
        "timestamp": "2026-11-20T09:01:39.000Z",
        "attemptId": "attempt-1",
        "sourceId": "source-1",
        "launched": True,
        "cwd": "/home/ada/code/calc-kit",
        "status": "completed",
        "turns": 2,
        "textPresent": True,
    }
    record.update(fields)
    return record
