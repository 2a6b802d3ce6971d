"""Shared fixtures for the Pilot tests: the one app factory (``make_app``), a small sessions
tree in ``tmp_path``, and the chat pane's kit.

Test modules run with ``--import-mode=importlib`` and cannot import each other, so helpers are
handed out through fixtures; the one way to wait is ``waiting.wait_for`` (``tests/waiting.py``).
"""

from __future__ import annotations

import io
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from waiting import wait_for

from ink_tui.demo import PROJECTS, generate_demo
from ink_tui.paths import project_dir
from ink_tui.session import ModelRef
from ink_tui.session.writing.writer import SessionWriter

HOME_CWD = PROJECTS[0].cwd  # /home/ada/code/calc-kit

if TYPE_CHECKING:
    from ink_tui.ui.app import InkApp

MakeApp = Callable[..., "InkApp"]


@pytest.fixture
def make_app(tmp_path: Path) -> MakeApp:
    """Build the app as the command line would, for a Pilot test (the one app factory).

    ``make_app(sessions_dir=…, cwd=…, open_path=…, clock=…, chat=…, follow=…, model=…,
    thinking=…, config_path=…)``: every keyword is a ``LaunchOptions`` field. Defaults: the
    sessions folder ``tmp_path/sessions``, the cwd ``tmp_path``, a config file in ``tmp_path``
    (never the user's), the real clock.
    """
    from ink_tui.ui.app import InkApp, LaunchOptions

    def make(
        *,
        sessions_dir: Path | None = None,
        cwd: str | Path | None = None,
        open_path: Path | None = None,
        config_path: Path | None = None,
        **options: Any,
    ) -> InkApp:
        return InkApp(
            LaunchOptions(
                sessions_dir=tmp_path / "sessions" if sessions_dir is None else sessions_dir,
                cwd=str(tmp_path if cwd is None else cwd),
                open_path=open_path,
                config_path=tmp_path / "config.toml" if config_path is None else config_path,
                **options,
            )
        )

    return make


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


# -- the chat pane ---------------------------------------------------------------------------

CHAT_MODEL = ModelRef("anthropic", "claude-sonnet-4-5")


class ChatKit:
    """Helpers for the chat pane's Pilot tests: building the app, waiting for it (through
    ``wait_for``), reading the screen and the file."""

    model = CHAT_MODEL

    def __init__(self, tmp_path: Path, make_app: MakeApp) -> None:
        self.tmp_path = tmp_path
        self.sessions = tmp_path / "sessions"
        self._make_app = make_app

    # -- the app -----------------------------------------------------------------------------

    def app(self, cwd: Path, open_path: Path | None = None, **options: Any) -> Any:
        """The app on :attr:`sessions` with ``cwd`` as the user's folder (``make_app``)."""
        return self._make_app(sessions_dir=self.sessions, cwd=cwd, open_path=open_path, **options)

    async def chat_ready(self, pilot: Any) -> Any:
        """The chat screen once its session is loaded and the composer is live."""
        from ink_tui.ui.screens.chat import ChatScreen

        def ready() -> bool:
            screen = pilot.app.screen
            return isinstance(screen, ChatScreen) and screen.engine is not None

        await wait_for(pilot, ready, "the chat pane with its session loaded")
        return pilot.app.screen

    async def session_ready(self, pilot: Any) -> Any:
        from ink_tui.ui.session_view.screen import SessionScreen

        def ready() -> bool:
            screen = pilot.app.screen
            if not isinstance(screen, SessionScreen) or screen.loaded is None:
                return False
            tree = screen.session_tree  # the view puts the cursor on the last row once shown
            return tree.at_last_row

        await wait_for(pilot, ready, "the session view with its session loaded")
        return pilot.app.screen

    async def send(self, pilot: Any, text: str) -> None:
        """Type ``text`` in the (focused) composer and press Enter."""
        from ink_tui.ui.widgets.composer import Composer

        composer = pilot.app.screen.query_one("#chat-input", Composer)
        assert composer.has_focus and not composer.disabled
        await pilot.press(*text)
        await pilot.press("enter")

    async def idle(self, pilot: Any, screen: Any) -> None:
        """Until no turn, compaction or model switch runs and the chat is on top again."""
        await wait_for(
            pilot, lambda: not screen.busy and pilot.app.screen is screen, "the chat to be idle"
        )

    # -- what the screen shows ---------------------------------------------------------------

    @staticmethod
    def rendered(content: object, width: int = 100) -> str:
        """A widget's content as the lines it paints: segment texts joined, no styles."""
        from rich.console import Console
        from textual.content import Content

        if isinstance(content, str):
            return Content.from_markup(content).plain
        if isinstance(content, Content):
            return content.plain
        console = Console(file=io.StringIO(), width=width, color_system=None)
        lines = console.render_lines(content, console.options, pad=False)  # type: ignore[arg-type]
        return "\n".join("".join(segment.text for segment in line) for line in lines)

    def text(self, screen: Any, selector: str = "Static") -> str:
        """Every Static matching ``selector`` on ``screen``, rendered."""
        from textual.widgets import Static

        return "\n".join(self.rendered(w.content) for w in screen.query(selector).results(Static))

    def log(self, screen: Any) -> str:
        """The conversation, the notes and the reply being streamed."""
        return self.text(screen, "#chat-log Static")

    def lines(self, screen: Any) -> str:
        """The conversation as a reader sees it: each line without its trailing blanks."""
        return "\n".join(line.rstrip() for line in self.log(screen).split("\n"))

    def notes(self, screen: Any) -> list[str]:
        return self.text(screen, ".chat-note").split("\n")

    def said(self, screen: Any) -> list[str]:
        """Each note of the chat pane as one line (unwrapped, spaces collapsed)."""
        from textual.widgets import Static

        notes = screen.query(".chat-note").results(Static)
        return [" ".join(self.rendered(note.content).split()) for note in notes]

    def static(self, screen: Any, selector: str) -> str:
        from textual.widgets import Static

        return self.rendered(screen.query_one(selector, Static).content)

    # -- what the file holds -----------------------------------------------------------------

    @staticmethod
    def records(path: Path) -> list[dict[str, Any]]:
        return [json.loads(line) for line in path.read_text().splitlines()]

    def messages(self, path: Path) -> list[dict[str, Any]]:
        """The ``message`` entries, in file order."""
        return [record for record in self.records(path) if record.get("type") == "message"]

    @staticmethod
    def assistant(text: str = "", **fields: Any) -> dict[str, Any]:
        message: dict[str, Any] = {
            "role": "assistant",
            "blocks": [{"type": "text", "text": text}] if text else [],
            "usage": {"inputTokens": 10, "outputTokens": 5},
            "stopReason": "end_turn",
            "model": CHAT_MODEL.model_id,
            "modelReference": CHAT_MODEL.reference,
        }
        message.update(fields)
        return message

    def writer(self, cwd: Path) -> SessionWriter:
        """A new session in ``cwd``'s project folder, naming the test model."""
        return SessionWriter.new(project_dir(self.sessions, str(cwd)), str(cwd), model=CHAT_MODEL)


@pytest.fixture
def chat_kit(tmp_path: Path, make_app: MakeApp) -> ChatKit:
    return ChatKit(tmp_path, make_app)


@pytest.fixture
def llm(fake_llm: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Any:
    """``fake_llm`` as every provider's endpoint (keys and base URLs); ``HOME`` is a fresh
    folder (no ``~/.ink/AGENTS.md`` of the user in the system prompt)."""
    from ink_tui.agent.providers import listing

    for name, value in fake_llm.env().items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(listing, "MODEL_LISTS", listing.ModelLists())  # asked afresh per test
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    return fake_llm


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    """A real folder for the session's cwd, so the tools run."""
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "notes.txt").write_text("alpha\nbeta\n")
    return folder


@pytest.fixture
def chat_session(chat_kit: ChatKit, workdir: Path) -> Path:
    """Two finished turns in ``workdir``'s project folder."""
    writer = chat_kit.writer(workdir)
    writer.append_message({"role": "user", "content": "first question"})
    writer.append_message(chat_kit.assistant("first answer"))
    writer.append_message({"role": "user", "content": "second question"})
    writer.append_message(chat_kit.assistant("second answer"))
    return writer.path
