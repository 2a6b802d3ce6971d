"""The chat pane: go on with a session with a real model and Ink's tools.

The screen coordinates; the conversation is :class:`ink_tui.agent.chat.ChatEngine`, run in one
async worker per turn, reporting through a :class:`~ink_tui.ui.chat_sink.ScreenSink`.
``q`` and ``?`` are text for the composer here; a pane that cannot send says why in its place.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from textual import getters, on, work
from textual.app import ComposeResult
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from ink_tui.agent.chat import ChatEngine
from ink_tui.agent.chat import Message as ChatMessage
from ink_tui.agent.commands import is_copy, parse_command, unknown_command
from ink_tui.agent.failures import failure_line, interrupted_line, turn_failure_line
from ink_tui.agent.outcome import TurnOutcome
from ink_tui.agent.persist import Conflict
from ink_tui.agent.providers import parse_model_ref
from ink_tui.agent.providers.model import reading_note
from ink_tui.agent.providers.sdk import preload_for
from ink_tui.agent.start import ChatRequest, ChatStart, start_chat
from ink_tui.paths import project_dir
from ink_tui.session.rules.modelref import ModelRef
from ink_tui.ui.chat_commands import copy_last_reply
from ink_tui.ui.chat_sink import ChatOutlets, ScreenSink
from ink_tui.ui.keys import CHAT_BINDINGS
from ink_tui.ui.messages import OpenSession
from ink_tui.ui.modals.chat import ModelScreen
from ink_tui.ui.options import InkAppBase
from ink_tui.ui.render.safe import plain
from ink_tui.ui.widgets.chat_entries import (
    ChatHistory,
    arrived_on_branch,
    chat_history,
    written_entries,
)
from ink_tui.ui.widgets.chat_input import ELSEWHERE_KEYS, ChatInput
from ink_tui.ui.widgets.chat_log import ChatLog, Scroll
from ink_tui.ui.widgets.composer import Composer
from ink_tui.ui.widgets.footer import InkFooter

__all__ = ["ChatRequest", "ChatScreen"]

READY_PLACEHOLDER = (
    "Message · Enter sends, ctrl+j new line · /compact · /model ID · /think LEVEL · Esc back"
)


class ChatScreen(Screen[None]):
    """Messages, the reply being streamed, the composer and a status line."""

    app = getters.app(InkAppBase)
    BINDINGS = CHAT_BINDINGS
    HELP_NOTE = "In the chat pane ? and q are text, never keys: F1 shows these keys, ctrl+q quits."

    @dataclass
    class Ready(Message):
        start: ChatStart
        history: ChatHistory

    @dataclass
    class Failed(Message):
        error: str

    def __init__(self, request: ChatRequest) -> None:
        super().__init__()
        self.request = request
        self.engine: ChatEngine | None = None
        self.queued: list[str] = []
        self._last_usage = ""
        self._busy = False

    # -- layout and start --------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="chat-header")
        yield ChatLog(id="chat-log")
        yield ChatInput(placeholder="reading the session… (you can type already)")
        yield Static(id="chat-status")
        yield InkFooter()

    def on_mount(self) -> None:
        self.composer.focus()  # typing goes here from the first key, even while loading
        self._load()

    @work(thread=True, exclusive=True, group="chat-load")
    def _load(self) -> None:
        try:
            start = start_chat(self.request, sessions_dir=self._sessions_dir())
            history = chat_history(start.session, start.leaf_id)
        except Exception as error:  # foreseen: its own line; a bug: logged (agent.failures)
            self.post_message(self.Failed(failure_line(error, "reading the session for a chat")))
        else:
            self.post_message(self.Ready(start, history))

    @work(thread=True, exclusive=True, group="chat-sdk")
    def _preload_sdk(self, model: ModelRef | None) -> None:
        """Import the model's SDK (a second or two) in a thread while the user types."""
        preload_for(model.provider if model is not None else None)

    def _sessions_dir(self) -> Path:
        return self.app.options.sessions_dir

    @on(Failed)
    def _failed(self, message: Failed) -> None:
        self.log_view.fail(message.error)
        self._cannot(f"cannot chat here: {message.error}")

    @on(Ready)
    def _ready(self, message: Ready) -> None:
        start = message.start
        log, folder = self.log_view, project_dir(self._sessions_dir(), start.cwd)
        outlets = ChatOutlets(log.stream_delta, self.show_arrived, self.recorded, self.set_status,
                              self.note, self.app.push_screen_wait, start.cwd)  # fmt: skip
        self.engine = ChatEngine(start, sink=ScreenSink(outlets), project_dir=folder)
        if start.path is None:
            self.note(f"a new session in {start.cwd} (the file is created with the first message)")
        self.log_view.show_history(message.history)
        if start.fork:
            self.note(f"continuing from entry {start.leaf_id}: new messages start a new branch")
        if start.warning and not start.read_only:
            self.note(start.warning, "bold yellow")
        self.log_view.ready()
        self._refresh_header()
        if start.read_only:
            self._cannot(f"read-only: {start.read_only}")
            return
        self.composer.placeholder = READY_PLACEHOLDER
        self.set_status("ready")
        self._preload_sdk(start.model)

    def _cannot(self, reason: str) -> None:
        """This pane cannot send: the reason takes the composer's place."""
        self.query_one(ChatInput).cannot(reason)
        self.set_status("nothing can be sent from here")

    @property
    def cannot_send(self) -> str | None:
        """Why nothing can be sent from this pane, or ``None``."""
        return self.query_one(ChatInput).cannot_send

    # -- display helpers ---------------------------------------------------------------------

    @property
    def log_view(self) -> ChatLog:
        """The conversation (``log`` is Textual's logger)."""
        return self.query_one("#chat-log", ChatLog)

    @property
    def composer(self) -> Composer:
        return self.query_one(ChatInput).composer

    def note(self, text: str, style: str = "dim") -> None:
        self.log_view.note(text, style)

    def on_screen_suspend(self) -> None:
        # A blinking cursor under a question would repaint this screen twice a second.
        self.composer.cursor_blink = False

    def on_screen_resume(self) -> None:
        self.composer.cursor_blink = True

    def _failure(self, error: Exception, where: str) -> None:
        """A failed action as one line (a bug's traceback logged): see ``agent.failures``."""
        self.note(failure_line(error, where), "bold red")

    def set_status(self, text: str) -> None:
        usage = f"   last turn {self._last_usage}" if self._last_usage else ""
        self.query_one("#chat-status", Static).update(plain(f"{text}{usage}"))

    def _refresh_header(self) -> None:
        engine = self.engine
        if engine is None:
            return
        model = engine.model.display if engine.model else "no model"
        new = " · new session" if engine.store.path is None else ""
        header = f"chat · {model} · thinking {engine.thinking} · {engine.start.cwd}{new}"
        self.query_one("#chat-header", Static).update(plain(header, "bold"))

    def _show_queue(self) -> None:
        self.query_one(ChatInput).show_queue(self.queued)

    # -- what the engine reports (through the sink, on the event loop) --------------------------

    def show_arrived(self, conflict: Conflict) -> None:
        """What the other writer of ``conflict`` appended that lies on the branch the chat now
        goes on from, shown before the user message still unsent (the order of the file)."""
        arrived = arrived_on_branch(conflict.session, conflict.arrived, conflict.their_leaf)
        self.log_view.add_arrived(arrived)

    def recorded(self, message: ChatMessage) -> None:
        """A message was written: its rows (and those of what went before it) replace the stream."""
        if message.get("role") == "assistant":
            self.log_view.clear_stream()
        self.show_written()
        self._refresh_header()

    def show_written(self) -> None:
        """Rows for the records the chat wrote since the last call."""
        if self.engine is not None:
            self.log_view.add_written(written_entries(self.engine.store.take_written()))

    # -- input -------------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        """A turn, a compaction or a model switch is under way."""
        return self._busy

    @on(Composer.Submitted, "#chat-input")
    def _submitted(self, event: Composer.Submitted) -> None:
        text = event.value
        if not text.strip():
            return
        if self.engine is None:  # the text stays in the composer
            self.set_status("still reading the session: Enter sends once it is open")
            return
        event.composer.value = ""
        if is_copy(text):  # as in Ink, /copy runs during a turn too: never queued
            context = self.engine.messages if self.engine else None
            copy_last_reply(context, self.app.copy_to_clipboard, self.note)
        elif self._busy:
            self.queued.append(text)
            self._show_queue()
        else:
            self._dispatch(text)

    def _dispatch(self, text: str) -> None:
        """Send a message or run a command (typed now, or queued during a turn)."""
        command = parse_command(text)
        self._busy = True
        self.log_view.scroll_history("bottom")  # what it starts is shown, and followed
        if command is None:
            self._turn(text)
        elif command.name == "compact":
            self._compact()
        elif command.name == "model" and command.args:
            self._switch_model(command.args)
        elif command.name == "model":
            self._busy = False
            self.action_pick_model()
        elif command.name == "think":
            self._switch_thinking(command.args)
        else:  # never sent to the model (Ink's rule): the text comes back to be fixed
            self.note(unknown_command(command.name), "bold yellow")
            self._give_back(text)
            self._finished()

    def _send_next(self) -> None:
        if self.queued:
            text = self.queued.pop(0)
            self._show_queue()
            self._dispatch(text)

    @work(exclusive=True, group="chat-turn")
    async def _turn(self, text: str) -> None:
        engine = self.engine
        assert engine is not None
        self.log_view.add_unsent(text)
        self.set_status("● waiting for the model…   Esc interrupts")
        outcome: TurnOutcome | None = None
        try:
            outcome = await engine.send(text)
        except Exception as error:  # foreseen or a bug (logged): one line, never a crash
            written, replies = engine.user_written, engine.replies_written
            line = turn_failure_line(error, user_written=written, replies=replies)
            self.note(line, "bold red")  # what happened, and what of it was written
        self.log_view.clear_stream()
        if not engine.user_written:  # never written: shown as sent, and back in the composer
            self.log_view.drop_unsent()
            self._give_back(text)
        if outcome is not None:
            if outcome.steps:
                self._last_usage = outcome.usage.line()
            if outcome.status == "interrupted":
                self.note(interrupted_line(engine.user_written), "bold yellow")
        self._finished()

    def _finished(self) -> None:
        """A turn, compaction or switch ended: show it, then start what was queued."""
        self.show_written()
        self.log_view.turn_ended()
        self._busy = False
        self.set_status("ready")
        self._refresh_header()
        self._send_next()

    def _give_back(self, text: str) -> None:
        """The message was not sent (nothing was written; the note that said why says so too):
        put it back in the composer."""
        self.query_one(ChatInput).give_back(text)

    @work(exclusive=True, group="chat-turn")
    async def _compact(self) -> None:
        engine = self.engine
        assert engine is not None
        self.set_status("● compacting…   Esc interrupts")
        try:
            note = await engine.compact()
        except Exception as error:  # foreseen or a bug (logged): one line, never a crash
            self._failure(error, "/compact")
        else:
            self.show_written()  # the compaction (its summary, what it kept), then the note
            self.note(note, "bold")
        self._finished()

    @work(exclusive=True, group="chat-model")
    async def _switch_model(self, reference: str) -> None:
        """``/model ID`` or the model picker's choice: switched as Ink reads it, and said how
        when that may not be what was meant (a bare id is Anthropic's)."""
        engine = self.engine
        try:
            model = parse_model_ref(reference)
            reading = reading_note(reference)
            if engine is not None and model != engine.model:
                await engine.set_model(model)
                self.note(f"Model: {model.reference}", "bold")
                self._preload_sdk(model)
            if reading:
                self.note(reading, "bold yellow")
        except Exception as error:  # foreseen or a bug (logged): one line, never a crash
            self._failure(error, "/model")
        self._finished()

    @work(exclusive=True, group="chat-model")
    async def _switch_thinking(self, level: str) -> None:
        engine = self.engine
        try:
            if engine is not None and await engine.set_thinking(level):
                self.note(f"Thinking level: {level}", "bold")
        except Exception as error:  # foreseen or a bug (logged): one line, never a crash
            self._failure(error, "/think")
        self._finished()

    # -- keys --------------------------------------------------------------------------------

    def action_typed(self, key: str) -> None:
        """``q`` or ``?`` with the focus off the composer: text for the composer, or (where
        nothing can be sent) a word on why nothing happens."""
        if not self.query_one(ChatInput).type_key(key):  # the reason is shown above
            self.set_status(f"nothing can be sent from here: {ELSEWHERE_KEYS}")

    def action_escape(self) -> None:
        if self.queued:
            self.queued.clear()
            self._show_queue()
            self.set_status("queued message discarded")
        elif self._busy and self.engine is not None:
            self.engine.interrupt()
        else:
            self._back()

    def _back(self) -> None:
        path = self.engine.store.path if self.engine else self.request.path
        if path is not None and path.exists():
            self.post_message(OpenSession(path))  # the session view, in this screen's place
        else:
            self.app.switch_screen("picker")

    def action_pick_model(self) -> None:
        if self.engine is None or self._busy or self.cannot_send is not None:
            return

        def chosen(reference: str | None) -> None:
            if reference is not None:
                self._busy = True
                self._switch_model(reference)
            else:
                self._send_next()

        self.app.push_screen(ModelScreen(self.engine.model), chosen)

    def action_compact(self) -> None:
        if self.engine is not None and not self._busy and self.cannot_send is None:
            self._busy = True
            self._compact()

    def action_toggle_thinking(self) -> None:
        log = self.log_view
        log.set_show_thinking(not log.show_thinking)
        self.set_status(f"thinking {'shown' if log.show_thinking else 'hidden'}")

    def action_scroll_history(self, where: Scroll) -> None:
        self.log_view.scroll_history(where)
