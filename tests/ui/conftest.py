"""Shared fixtures for the Pilot tests: a small sessions tree in ``tmp_path``.

Test modules run with ``--import-mode=importlib`` and cannot import each other, so helpers are
handed out through fixtures.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest

from ink_tui.demo import PROJECTS, generate_demo
from ink_tui.paths import project_dir
from ink_tui.session import ModelRef
from ink_tui.session.writer import SessionWriter

HOME_CWD = PROJECTS[0].cwd  # /home/ada/code/calc-kit


@dataclass(slots=True)
class SessionsTree:
    """A demo sessions tree: ``base`` holds one folder per project; ``cwd`` is the user's."""

    base: Path
    cwd: str
    paths: list[Path]  # top-level sessions of every project, newest first

    @property
    def home(self) -> Path:
        """The cwd's project folder."""
        return project_dir(self.base, self.cwd)

    def home_paths(self) -> list[Path]:
        """The cwd project's sessions, newest file mtime first."""
        return [path for path in self.paths if path.parent == self.home]


@pytest.fixture
def sessions_tree(tmp_path: Path) -> SessionsTree:
    """Twelve demo sessions over four projects, the newest written 90 seconds ago."""
    base = tmp_path / "sessions"
    paths = generate_demo(base, sessions=12, now=datetime.now(UTC))
    return SessionsTree(base, HOME_CWD, paths)


WriteSession = Callable[..., Path]


@pytest.fixture
def write_session() -> WriteSession:
    """Write a small session: ``write_session(folder, cwd, prompts, age=seconds)``.

    Each prompt gets a short assistant answer; ``age`` sets the file's mtime that many seconds
    before now.
    """

    def write(
        folder: Path, cwd: str, prompts: list[str], *, age: float = 3600.0, answer: str = "done"
    ) -> Path:
        writer = SessionWriter.new(folder, cwd, model=ModelRef("anthropic", "claude-sonnet-4-5"))
        for prompt in prompts:
            writer.append_message({"role": "user", "content": prompt})
            writer.append_message(
                {
                    "role": "assistant",
                    "blocks": [{"type": "text", "text": answer}],
                    "usage": {"inputTokens": 10, "outputTokens": 5},
                    "stopReason": "end_turn",
                    "model": "claude-sonnet-4-5",
                    "modelReference": "anthropic/claude-sonnet-4-5",
                }
            )
        stamp = time.time() - age
        os.utime(writer.path, (stamp, stamp))
        return writer.path

    return write
