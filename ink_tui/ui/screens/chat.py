"""The chat pane: go on with a session with a real model and Ink's tools.

The screen coordinates; the conversation itself is :class:`ink_tui.agent.chat.ChatEngine`,
which runs in one async worker per turn and reports back through a
:class:`~ink_tui.ui.screens.chat_sink.ScreenSink`: streamed text goes straight to the
:class:`~ink_tui.ui.widgets.chat_log.ChatLog`, recorded messages come to :meth:`recorded`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textual import getters, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Static

from ink_tui.agent.chat import ChatEngine
from ink_tui.agent.outcome import TurnOutcome
from ink_tui.agent.providers import parse_model_ref
from ink_tui.agent.start import ChatStart, load_chat, new_chat
from ink_tui.paths import project_dir
from ink_tui.session import SessionError
from ink_tui.session.tree import ModelRef
from ink_tui.ui.options import InkAppBase
from ink_tui.ui.render.safe import plain
from ink_tui.ui.screens.chat_modals import ModelScreen
from ink_tui.ui.screens.chat_sink import ScreenSink
from ink_tui.ui.widgets.chat_log import ChatLog, Scroll
from ink_tui.ui.widgets.composer import Composer

__all__ = ["ChatRequest", "ChatScreen"]

HISTORY_SHOWN = 8  # context messages shown above the new ones
# A turn, a compaction or a switch that fails is a one-line note in the pane (what completed
# stays written): provider and session errors, OSError, ValueError, and anything unforeseen,
# which must not close the app either.
CHAT_ERRORS = (Exception,)


@dataclass(frozen=True, slots=True)
class ChatRequest:
    """Where a chat starts: a session (from its leaf or ``leaf_id``) or a new one in ``cwd``."""

    path: Path | None
    cwd: str = ""
    leaf_id: str | None = None
    model: ModelRef | None = None
    thinking: str | None = None


class ChatScreen(Screen[None]):
    """Messages, the reply being streamed, the composer and a status line."""

    app = getters.app(InkAppBase)

    BINDINGS = [
        Binding("escape", "escape", "Interrupt / back"),
        Binding("ctrl+o", "pick_model", "Model"),
        Binding("ctrl+l", "compact", "Compact"),
        Binding("ctrl+t", "toggle_thinking", "Thinking"),
        Binding("pageup", "scroll_history('page_up')", "Page up", show=False),
        Binding("pagedown", "scroll_history('page_down')", "Page down", show=False),
        Binding("ctrl+home", "scroll_history('top')", "First message", show=False),
        Binding("ctrl+end", "scroll_history('bottom')", "Latest", show=False),
    ]

    HELP_NOTE = "In the composer ? and q are typed as text: F1 shows these keys, ctrl+q quits."

    @dataclass
    class Ready(Message):
        start: ChatStart

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
        yield Static(id="chat-queued")
        composer = Composer(placeholder="loading…", id="chat-input")
        composer.disabled = True
        yield composer
        yield Static(id="chat-status")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#chat-queued").display = False
        self._load()

    @work(thread=True, exclusive=True, group="chat-load")
    def _load(self) -> None:
        request = self.request
        try:
            if request.path is None:
                start = new_chat(
                    request.cwd,
                    model=request.model,
                    thinking=request.thinking,
                    sessions_dir=self._sessions_dir(),
                )
            else:
                start = load_chat(
                    request.path,
                    leaf_id=request.leaf_id,
                    model=request.model,
                    thinking=request.thinking,
                )
        except SessionError as error:
            self.post_message(self.Failed(error.one_line()))
        except Exception as error:  # (OSError, ValueError, or unforeseen: never a crash)
            self.post_message(self.Failed(str(error) or type(error).__name__))
        else:
            self.post_message(self.Ready(start))

    def _sessions_dir(self) -> Path:
        return self.app.options.sessions_dir

    @on(Failed)
    def _failed(self, message: Failed) -> None:
        self.log_view.fail(message.error)
        self.set_status("cannot chat here: Esc goes back")

    @on(Ready)
    def _ready(self, message: Ready) -> None:
        start = message.start
        self.engine = ChatEngine(
            start, sink=ScreenSink(self), project_dir=project_dir(self._sessions_dir(), start.cwd)
        )
        shown = start.messages[-HISTORY_SHOWN:]
        earlier = len(start.messages) - len(shown)
        if start.path is None:
            self.note(f"a new session in {start.cwd} (the file is created with the first message)")
        elif earlier:
            self.note(f"… {earlier} earlier message(s) are in the context")
        for item in shown:
            self.log_view.add_message(item)
        if start.fork:
            self.note(f"continuing from entry {start.leaf_id}: new messages start a new branch")
        if start.read_only:
            self.note(f"read-only: {start.read_only}", "bold red")
        elif start.warning:
            self.note(start.warning, "bold yellow")
        for closing in self.engine.store.prefix:
            self.log_view.add_message(closing)
        self.log_view.ready()
        composer = self.query_one("#chat-input", Composer)
        composer.disabled = start.read_only is not None
        composer.placeholder = (
            "Message · Enter sends, ctrl+j new line · /compact · /model ID · /think LEVEL"
            " · Esc back"
        )
        composer.focus()
        self._refresh_header()
        self.set_status("ready")

    # -- display helpers ---------------------------------------------------------------------

    @property
    def log_view(self) -> ChatLog:
        """The conversation (``log`` is Textual's logger)."""
        return self.query_one("#chat-log", ChatLog)

    def note(self, text: str, style: str = "dim") -> None:
        self.log_view.note(text, style)

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
        queued = self.query_one("#chat-queued", Static)
        queued.display = bool(self.queued)
        lines = [f"queued: {text.splitlines()[0] if text else ''}" for text in self.queued]
        queued.update(plain("\n".join(lines) + "   (Esc discards)", "italic"))

    # -- what the engine reports (through the sink, on the event loop) --------------------------

    def recorded(self, message: dict[str, Any]) -> None:
        if message.get("role") == "user":
            self.log_view.end_unsent()  # shown when sent
            return
        if message.get("role") == "assistant":
            self.log_view.clear_stream()
        self.log_view.add_message(message)
        self._refresh_header()

    # -- input -------------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        """A turn, a compaction or a model switch is under way."""
        return self._busy

    @on(Composer.Submitted, "#chat-input")
    def _submitted(self, event: Composer.Submitted) -> None:
        text = event.value
        if not text.strip() or self.engine is None:
            return
        event.composer.value = ""
        if self._busy:
            self.queued.append(text)
            self._show_queue()
            return
        self._dispatch(text)

    def _dispatch(self, text: str) -> None:
        """Send a message or run a command (typed now, or queued during a turn)."""
        command = text.strip()
        self._busy = True
        self.log_view.scroll_history("bottom")  # what it starts is shown, and followed
        if command == "/compact":
            self._compact()
        elif command == "/model":
            self._busy = False
            self.action_pick_model()
        elif command.startswith("/model "):
            self._switch_model(command.removeprefix("/model ").strip())
        elif command.startswith("/think"):
            self._switch_thinking(command.removeprefix("/think").strip())
        else:
            self._turn(text)

    def _send_next(self) -> None:
        if self.queued:
            text = self.queued.pop(0)
            self._show_queue()
            self._dispatch(text)

    @work(exclusive=True, group="chat-turn")
    async def _turn(self, text: str) -> None:
        engine = self.engine
        assert engine is not None
        self.log_view.add_message({"role": "user", "content": text}, unsent=True)
        self.set_status("● waiting for the model…   Esc interrupts")
        outcome: TurnOutcome | None = None
        try:
            outcome = await engine.send(text)
        except CHAT_ERRORS as error:
            self.log_view.clear_stream()
            self.note(
                str(error).splitlines()[0] if str(error) else type(error).__name__, "bold red"
            )
        self.log_view.clear_stream()
        self.log_view.end_unsent()
        if outcome is not None:
            if outcome.steps:
                self._last_usage = outcome.usage.line()
            if outcome.status == "interrupted":
                self.note("interrupted: the partial reply was not saved", "bold yellow")
        if not engine.user_written:
            self._give_back(text)
        self._finished()

    def _finished(self) -> None:
        """A turn, compaction or switch ended: show it, then start what was queued."""
        self._busy = False
        self.set_status("ready")
        self._refresh_header()
        self._send_next()

    def _give_back(self, text: str) -> None:
        """The message was not sent (nothing was written): put it back in the composer."""
        self.note("not sent: the message is back in the composer", "italic")
        composer = self.query_one("#chat-input", Composer)
        if not composer.value:
            composer.value = text

    @work(exclusive=True, group="chat-turn")
    async def _compact(self) -> None:
        engine = self.engine
        assert engine is not None
        self.set_status("● compacting…   Esc interrupts")
        head = engine.messages[0] if engine.messages else None
        try:
            note = await engine.compact()
        except CHAT_ERRORS as error:
            self.note(str(error), "bold red")
        else:
            self.note(note, "bold")
            if engine.messages and engine.messages[0] is not head:  # the new summary
                self.log_view.add_message(engine.messages[0])
        self._finished()

    @work(exclusive=True, group="chat-model")
    async def _switch_model(self, reference: str | ModelRef) -> None:
        """``/model ID`` (a reference to parse) or the model picker's choice."""
        engine = self.engine
        try:
            model = parse_model_ref(reference) if isinstance(reference, str) else reference
            if engine is not None and model != engine.model:
                await engine.set_model(model)
                self.note(f"Model: {model.reference}", "bold")
        except CHAT_ERRORS as error:
            self.note(str(error), "bold red")
        self._finished()

    @work(exclusive=True, group="chat-model")
    async def _switch_thinking(self, level: str) -> None:
        engine = self.engine
        try:
            if engine is not None and await engine.set_thinking(level):
                self.note(f"Thinking level: {level}", "bold")
        except CHAT_ERRORS as error:
            self.note(str(error), "bold red")
        self._finished()

    # -- keys --------------------------------------------------------------------------------

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
            self.app.switch_screen(_session_screen(path))
        else:
            self.app.switch_screen("picker")

    def action_pick_model(self) -> None:
        if self.engine is None or self._busy:
            return

        def chosen(model: ModelRef | None) -> None:
            if model is not None:
                self._busy = True
                self._switch_model(model)
            else:
                self._send_next()

        self.app.push_screen(ModelScreen(self.engine.model), chosen)

    def action_compact(self) -> None:
        if self.engine is not None and not self._busy:
            self._busy = True
            self._compact()

    def action_toggle_thinking(self) -> None:
        log = self.log_view
        log.set_show_thinking(not log.show_thinking)
        self.set_status(f"thinking {'shown' if log.show_thinking else 'hidden'}")

    def action_scroll_history(self, where: Scroll) -> None:
        self.log_view.scroll_history(where)


def _session_screen(path: Path) -> Screen[Any]:
    from ink_tui.ui.screens.session import SessionScreen

    return SessionScreen(path)
