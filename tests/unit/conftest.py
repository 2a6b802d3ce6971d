"""Shared helpers for the unit tests: session files built byte by byte (``sf``), the command
line as a user runs it (``cli``), and the chat-engine kit (``chat_kit``: scripted sink, session
files, per-scenario invariants).

Test modules run with ``--import-mode=importlib`` and cannot import each other, so the helpers
are handed out through fixtures (modules every folder shares live in ``tests/``: ``testdata``,
``waiting``, ``shared_fixtures``).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ink_tui.agent.chat import ChatEngine
from ink_tui.agent.providers.convert import anthropic_request, chat_request
from ink_tui.agent.start import ChatStart
from ink_tui.session.conversation.context import build_context
from ink_tui.session.conversation.pairing import pair_tool_calls
from ink_tui.session.reading.reader import SessionFile, open_session
from ink_tui.session.rules.modelref import ModelRef
from ink_tui.session.writing.repair import plan_continuation
from ink_tui.session.writing.writer import SessionWriter

TS = "2026-10-05T12:34:56.789Z"


def dumps(record: Any) -> bytes:
    """Compact JSON as Ink writes it (no floats or lone surrogates in these helpers)."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class SessionFiles:
    """Builds session records and writes them as JSONL into one temporary folder."""

    TS = TS

    def __init__(self, root: Path) -> None:
        self.root = root
        self._count = 0

    # -- records -----------------------------------------------------------------------------

    @staticmethod
    def header(**extra: Any) -> dict[str, Any]:
        record: dict[str, Any] = {
            "type": "session",
            "version": 1,
            "id": "0b4f6a52-5a43-4a8e-9a55-0c6f6c3c2f11",
            "timestamp": TS,
            "cwd": "/home/ada/proj",
        }
        record.update(extra)
        return record

    @staticmethod
    def entry(kind: str, entry_id: str, parent: str | None, **fields: Any) -> dict[str, Any]:
        record: dict[str, Any] = {
            "type": kind,
            "id": entry_id,
            "parentId": parent,
            "timestamp": TS,
        }
        record.update(fields)
        return record

    @classmethod
    def user(cls, entry_id: str, parent: str | None, text: str = "hi") -> dict[str, Any]:
        return cls.entry("message", entry_id, parent, message={"role": "user", "content": text})

    @classmethod
    def assistant(
        cls,
        entry_id: str,
        parent: str | None,
        text: str = "ok",
        calls: tuple[tuple[str, str], ...] = (),
    ) -> dict[str, Any]:
        blocks: list[dict[str, Any]] = [{"type": "text", "text": text}]
        blocks += [
            {"type": "toolCall", "id": call_id, "name": name, "arguments": {}}
            for call_id, name in calls
        ]
        message = {
            "role": "assistant",
            "blocks": blocks,
            "usage": {"inputTokens": 1, "outputTokens": 1},
            "stopReason": "tool_use" if calls else "end_turn",
        }
        return cls.entry("message", entry_id, parent, message=message)

    @classmethod
    def results(cls, entry_id: str, parent: str | None, *calls: tuple[str, str]) -> dict[str, Any]:
        message = {
            "role": "toolResult",
            "results": [
                {"toolCallId": call_id, "toolName": name, "content": "done", "isError": False}
                for call_id, name in calls
            ],
        }
        return cls.entry("message", entry_id, parent, message=message)

    @staticmethod
    def position(leaf: Any) -> dict[str, Any]:
        return {"type": "position", "leafId": leaf}

    @staticmethod
    def session_model(provider: str, model_id: str, explicit: Any = True) -> dict[str, Any]:
        return {
            "type": "session_model",
            "provider": provider,
            "modelId": model_id,
            "explicit": explicit,
        }

    # -- files -------------------------------------------------------------------------------

    @staticmethod
    def line(item: Any) -> bytes:
        if isinstance(item, bytes):
            return item
        if isinstance(item, str):
            return item.encode("utf-8")
        return dumps(item)

    def path(self, name: str | None = None) -> Path:
        self._count += 1
        return self.root / (name or f"session-{self._count}.jsonl")

    def write_bytes(self, data: bytes, name: str | None = None) -> Path:
        path = self.path(name)
        path.write_bytes(data)
        return path

    def write(self, *items: Any, newline: bool = True, header: bool = True) -> Path:
        """Header (unless ``header=False``) then each item on its own line.

        Items are dicts (encoded compactly), ``str`` or ``bytes`` (written as given).
        ``newline=False`` leaves the final line unterminated.
        """
        lines = ([dumps(self.header())] if header else []) + [self.line(i) for i in items]
        data = b"\n".join(lines) + (b"\n" if newline else b"")
        return self.write_bytes(data)

    @staticmethod
    def error(path: Path, text: str) -> str:
        """An error text with the fixtures' ``<path>`` placeholder filled in."""
        return text.replace("<path>", str(path))


@pytest.fixture
def sf(tmp_path: Path) -> SessionFiles:
    return SessionFiles(tmp_path)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``$HOME`` a temporary folder (``~/.ink/sessions``, ``~/.imp/sessions`` in it)."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    return home


# --- the command line -------------------------------------------------------------------------


class Cli:
    """``ink-tui`` subcommands as a user runs them, with no access to the user's sessions:
    ``$INK_SESSIONS_DIR`` is an empty folder (:attr:`sessions`) unless a test says otherwise."""

    def __init__(self, capsys: pytest.CaptureFixture[str], sessions: Path) -> None:
        self._capsys = capsys
        self.sessions = sessions

    def run(self, *argv: str) -> tuple[int, str, str]:
        """``main(argv)`` in this process -> ``(exit code, stdout, stderr)``."""
        from ink_tui.cli import main

        code = main(list(argv))
        captured = self._capsys.readouterr()
        return code, captured.out, captured.err

    def process(self, *argv: str) -> subprocess.CompletedProcess[bytes]:
        """``python -m ink_tui ARGV`` in a real process (its bytes, exactly)."""
        env = {**os.environ, "INK_SESSIONS_DIR": str(self.sessions)}
        env.pop("INK_TUI_DEBUG", None)
        return subprocess.run(
            [sys.executable, "-m", "ink_tui", *argv],
            capture_output=True,
            env=env,
            timeout=120,
            check=False,
        )

    @staticmethod
    def one_error_line(err: str, *, naming: str | None = None) -> str:
        """``err`` is exactly one ``ink-tui: …`` line, no traceback, naming ``naming``."""
        assert err.endswith("\n"), repr(err)
        assert err.count("\n") == 1, f"expected one stderr line, got:\n{err}"
        assert "Traceback" not in err
        assert err.startswith("ink-tui: ")
        if naming is not None:
            assert naming in err, f"{naming!r} not in {err!r}"
        return err.rstrip("\n")


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Cli:
    empty = tmp_path / "no-sessions"
    empty.mkdir()
    monkeypatch.setenv("INK_SESSIONS_DIR", str(empty))
    monkeypatch.delenv("INK_TUI_DEBUG", raising=False)
    return Cli(capsys, empty)


# --- the chat engine against the fake model server (tests/conftest.py: fake_llm) -------------


class ScriptedSink:
    """A :class:`~ink_tui.agent.chat.ChatSink` that answers from a script and records events.

    ``approvals`` are popped per approval asked (an unexpected question fails the test);
    ``conflict`` answers every conflict. The ``*_hook`` callables run inside the callbacks.
    """

    def __init__(self, approvals: tuple[str, ...] = (), conflict: str = "theirs") -> None:
        self.approvals = list(approvals)
        self.conflict = conflict
        self.asked: list[dict[str, Any]] = []
        self.conflicts: list[Any] = []
        self.deltas: list[Any] = []
        self.messages: list[dict[str, Any]] = []
        self.started: list[dict[str, Any]] = []
        self.notices: list[str] = []
        self.branched: list[list[dict[str, Any]]] = []
        self.delta_hook: Any = None
        self.approve_hook: Any = None
        self.tool_start_hook: Any = None

    @property
    def text(self) -> str:
        return "".join(event.text for event in self.deltas if event.kind == "text")

    def on_delta(self, event: Any) -> None:
        self.deltas.append(event)
        if self.delta_hook is not None:
            self.delta_hook(event)

    def on_message(self, message: dict[str, Any]) -> None:
        self.messages.append(message)

    def on_tool_start(self, call: dict[str, Any]) -> None:
        self.started.append(call)
        if self.tool_start_hook is not None:
            self.tool_start_hook(call)

    def on_notice(self, text: str) -> None:
        self.notices.append(text)

    def on_branch(self, messages: list[dict[str, Any]]) -> None:
        self.branched.append(messages)

    async def approve(self, call: dict[str, Any]) -> Any:
        self.asked.append(call)
        if self.approve_hook is not None:
            self.approve_hook(call)
        assert self.approvals, f"approval asked unexpectedly for {call}"
        return self.approvals.pop(0)

    async def resolve_conflict(self, conflict: Any) -> Any:
        self.conflicts.append(conflict)
        return self.conflict


class ChatKit:
    """Session files, engines and the per-scenario invariants for the chat-engine tests."""

    ANTHROPIC = ("anthropic", "claude-sonnet-4-5")
    OPENAI = ("openai", "gpt-4.1")
    DEEPSEEK = ("deepseek", "deepseek-chat")

    def __init__(self, fake: Any, root: Path) -> None:
        self.fake = fake
        self.project = root / "project"  # the cwd folder of ~/.ink/sessions
        self.work = root / "work"  # the session's cwd: tools run here
        self.project.mkdir()
        self.work.mkdir()

    @staticmethod
    def sink(approvals: tuple[str, ...] = (), conflict: str = "theirs") -> ScriptedSink:
        return ScriptedSink(approvals, conflict)

    @staticmethod
    def model(pair: tuple[str, str]) -> ModelRef:
        return ModelRef(*pair)

    @staticmethod
    def assistant(text: str = "ok", pair: tuple[str, str] = ANTHROPIC) -> dict[str, Any]:
        return {
            "role": "assistant",
            "blocks": [{"type": "text", "text": text}],
            "usage": {"inputTokens": 5, "outputTokens": 2},
            "stopReason": "end_turn",
            "model": pair[1],
            "modelReference": f"{pair[0]}/{pair[1]}",
        }

    def session(
        self, *messages: dict[str, Any], pair: tuple[str, str] | None = ANTHROPIC
    ) -> tuple[Path, list[str]]:
        """A session file (header model ``pair``) holding ``messages`` in a chain; its ids."""
        model = self.model(pair) if pair is not None else None
        writer = SessionWriter.new(self.project, str(self.work), model=model)
        ids = [writer.append_message(message)["id"] for message in messages]
        return writer.path, ids

    def engine(
        self, start: ChatStart, sink: ScriptedSink, env: dict[str, str] | None = None
    ) -> ChatEngine:
        return ChatEngine(
            start,
            sink=sink,
            project_dir=self.project,
            env=self.fake.env() if env is None else env,
        )

    def wire(self, model: ModelRef, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """``messages`` as the request body carries them (system prompt left out)."""
        if model.provider == "anthropic":
            return list(anthropic_request("", messages, ())["messages"])
        return list(chat_request(model.provider, "", messages, ())["messages"][1:])

    def sent(self, request: Any) -> list[dict[str, Any]]:
        messages = list(request.body["messages"])
        return messages if request.path.endswith("/messages") else messages[1:]

    def check(
        self, engine: ChatEngine, *, replies: int = 1, unsent: list[dict[str, Any]] | None = None
    ) -> SessionFile:
        """The invariants of every scenario; returns the session as reopened.

        (a) the file opens cleanly; (b) its context at the leaf is the engine's, and the last
        request carried all of it but the last ``replies`` messages, then ``unsent`` (what a
        refused request carried and nothing kept); (c) every call is paired.
        """
        warnings = io.StringIO()
        assert engine.store.path is not None and engine.model is not None
        session = open_session(engine.store.path, warn=warnings)
        assert warnings.getvalue() == ""
        assert session.dropped_final_line is None and session.ends_with_newline
        assert not session.skipped_markers and not session.duplicate_ids
        assert session.leaf_id == engine.store.leaf_id
        context = build_context(session)
        assert context.messages == engine.messages
        assert context.compaction_boundary == engine.compaction_boundary
        pairing = pair_tool_calls(context.messages)
        assert pairing.dangling == [] and pairing.problem is None
        if self.fake.requests:
            sent = engine.messages[: len(engine.messages) - replies] + (unsent or [])
            assert self.sent(self.fake.last) == self.wire(engine.model, sent)
        return session

    @staticmethod
    def ink_continues(path: Path) -> SessionFile:
        """What Ink checks before it goes on with ``path`` (its child-resume scan): the file
        opens with no torn line, every call of the context is paired or left open only in the
        last turn's crash tail (which the continuation closes), and every assistant record is
        whole (its usage, stop reason and object arguments)."""
        session = open_session(path, warn=io.StringIO())
        assert session.ends_with_newline and session.dropped_final_line is None
        context = build_context(session)
        assert pair_tool_calls(context.messages).problem is None
        plan = plan_continuation(session)
        assert plan.ok, plan.problem
        for message in context.messages:
            if message.get("role") != "assistant":
                continue
            assert {"role", "blocks", "usage", "stopReason"} <= set(message)
            for block in message["blocks"]:
                if block.get("type") == "toolCall":
                    assert block["id"] and isinstance(block["arguments"], dict)
        return session


@pytest.fixture
def chat_kit(fake_llm: Any, tmp_path: Path) -> ChatKit:
    return ChatKit(fake_llm, tmp_path)
