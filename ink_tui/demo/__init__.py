"""Realistic synthetic Ink sessions for ``--demo``, tests and benchmarks.

Everything is deterministic: a seed drives a ``random.Random``, a fake clock feeds timestamps, and
entry ids, session ids and file-name UUIDs come from the same generator. With a fixed ``now``, the
same seed gives byte-identical files.

- :func:`generate_demo` writes a small sessions tree (several projects, one child session).
- :func:`ensure_demo` is ``--demo``'s: the tree is generated once and then kept as it is.
- :func:`generate_session` writes one session, from a few KB up to 100 MB and more.

What the sessions hold: English and Chinese prompts, markdown answers with code blocks, thinking
blocks (signed for Anthropic models), every tool (bash, read, edit, write, grep, find, ls, task)
with realistic arguments and outputs (coloured pytest and ruff runs, build logs, diffs), tool
errors, images, compactions, forks with branch summaries, session names, labels, thinking-level
changes and ``session_model`` markers. Options add a dangling tool call at the end, a deliberately
torn final line, and hostile text (terminal escape sequences, a bidi override, Rich-like markup;
see :data:`HOSTILE_STRINGS`).
"""

from __future__ import annotations

import os
import random
import shutil
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

from ink_tui.demo.builder import MODELS, TORN_TAIL, SessionBuilder, run
from ink_tui.demo.clock import FakeClock
from ink_tui.demo.content import HOSTILE_STRINGS, PROJECTS, Project
from ink_tui.demo.options import TOOLS, Options
from ink_tui.demo.outputs import make_png
from ink_tui.paths import cwd_folder_name
from ink_tui.session.rules.modelref import ModelRef

DEMO_CWD = PROJECTS[0].cwd
"""The project ``ink-tui --demo`` treats as the current one (it holds the newest session)."""

__all__ = [
    "DEMO_CWD",
    "HOSTILE_STRINGS",
    "MODELS",
    "PROJECTS",
    "TOOLS",
    "TORN_TAIL",
    "ensure_demo",
    "generate_demo",
    "generate_session",
    "make_png",
]


def _project_for(cwd: str) -> Project:
    for project in PROJECTS:
        if project.cwd == cwd:
            return project
    template = PROJECTS[0]
    return Project(cwd, template.kind, template.language, template.files, template.test_command)


def generate_session(
    project_dir: Path,
    cwd: str,
    *,
    seed: int,
    target_bytes: int | None = None,
    entries: int | None = None,
    clock_start: datetime,
    model: ModelRef | None = None,
    compact: bool = True,
    fork: bool = True,
    images: bool = False,
    hostile: bool = False,
    dangling: bool = False,
    torn: bool = False,
    metadata: bool = True,
    child: bool = False,
    fork_rate: float | None = None,
) -> Path:
    """Write one session into ``project_dir`` and return its path.

    It stops after ``target_bytes`` bytes or ``entries`` tree entries (default 40 entries); big
    targets get automatic compactions (Ink's trigger) and a fork every ~30 turns. ``fork_rate``
    (0..1, any size) is the chance of a fork after each turn instead: each fork leaves one or two
    more leaves (a session of many branches). ``child`` makes the first ``task`` call launch a
    real child session in ``project_dir/children``. The file's mtime is the time of its last
    record.
    """
    options = Options(
        model=model,
        compact=compact,
        fork=fork,
        images=images,
        hostile=hostile,
        dangling=dangling,
        torn=torn,
        metadata=metadata,
        child=child,
        fork_rate=fork_rate,
    )
    clock = FakeClock(clock_start.astimezone(UTC))
    builder = SessionBuilder(
        Path(project_dir), _project_for(cwd), seed=seed, clock=clock, options=options
    )
    return run(builder, entries=entries, target_bytes=target_bytes)


def generate_demo(
    base_dir: Path, *, seed: int = 0, sessions: int = 12, now: datetime | None = None
) -> list[Path]:
    """Write a sessions tree under ``base_dir``; return the top-level sessions, newest first.

    Projects rotate over :data:`PROJECTS` (folders named by :func:`cwd_folder_name`). Session 0
    (the newest, last written a couple of minutes before ``now``) holds the hostile text and
    images; session 1 launches a child session (under ``children/``, not in the returned list);
    session 2 ends on a dangling tool call; session 3 ends with a deliberately torn line.
    """
    now = (now or datetime.now(UTC)).astimezone(UTC)
    rng = random.Random(seed)
    base_dir = Path(base_dir)
    paths: list[Path] = []
    for index in range(sessions):
        project = PROJECTS[index % len(PROJECTS)]
        project_dir = base_dir / cwd_folder_name(project.cwd)
        count = 70 if index == 0 else rng.choice((14, 24, 40, 60, 90, 140))
        if index == 0:
            start = now - timedelta(minutes=55)
        else:
            start = now - timedelta(hours=5 * index + rng.uniform(0.5, 4.0), minutes=60)
        path = generate_session(
            project_dir,
            project.cwd,
            seed=rng.getrandbits(32),
            entries=count,
            clock_start=start,
            model=rng.choice(MODELS),
            compact=index == 0 or count >= 40,
            fork=index == 0 or count >= 40,
            images=index == 0 or rng.random() < 0.2,
            hostile=index == 0,
            dangling=index == 2,
            torn=index == 3,
            child=index == 1,
        )
        if index == 0:  # newest: a session the user touched minutes ago
            last = now - timedelta(seconds=90)
            if path.stat().st_mtime < last.timestamp():
                os.utime(path, (last.timestamp(), last.timestamp()))
        if index == 1:
            machine_id = project_dir / "children" / ".ink-machine-id"
            machine_id.write_text(str(uuid.UUID(int=rng.getrandbits(128), version=4)) + "\n")
        paths.append(path)
    paths.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    return paths


def _holds_demo(base: Path) -> bool:
    """``base`` is a finished demo tree: the demo project's folder holds sessions."""
    folder = base / cwd_folder_name(DEMO_CWD)
    return folder.is_dir() and any(folder.glob("*.jsonl"))


def ensure_demo(base_dir: Path, *, reset: bool = False, now: datetime | None = None) -> bool:
    """The demo tree at ``base_dir``, generated only when missing (or ``reset``): what a user
    chatted into the demo sessions is kept from one launch to the next. Returns whether it was
    generated now.

    The tree is written beside ``base_dir`` and renamed into place once complete, so an
    interrupted generation never leaves a half tree that would be taken for the demo.
    """
    base_dir = Path(base_dir)
    if reset and base_dir.exists():
        shutil.rmtree(base_dir)
    if _holds_demo(base_dir):
        return False
    if base_dir.exists():  # not a demo tree (an interrupted one, or emptied by hand)
        shutil.rmtree(base_dir)
    scratch = base_dir.with_name(f"{base_dir.name}.partial-{os.getpid()}")
    if scratch.exists():
        shutil.rmtree(scratch)
    base_dir.parent.mkdir(parents=True, exist_ok=True)
    try:
        generate_demo(scratch, now=now)
        scratch.rename(base_dir)
    finally:
        if scratch.exists():
            shutil.rmtree(scratch, ignore_errors=True)
    return True
