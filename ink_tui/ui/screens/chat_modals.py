"""The chat pane's questions: approve a tool call, go on after another writer, pick a model,
continue from an earlier entry. Each is a small modal that answers with ``dismiss``.

Every modal has the same shape, so that its keys show at any terminal size (40x12 included):
a title docked at the top, the keys (and any problem line) docked at the bottom, and between
them a body that takes what room is left and scrolls (↑↓, PageUp/PageDown, the wheel).
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from ink_tui.agent.approval import CallPreview
from ink_tui.agent.persist import Conflict
from ink_tui.agent.providers import BadArgument, parse_model_ref
from ink_tui.humanize import plural
from ink_tui.session.shapes import list_items
from ink_tui.session.tree import ModelRef
from ink_tui.session.view import content_text
from ink_tui.ui.keymap import bind
from ink_tui.ui.render.chat import diff_text
from ink_tui.ui.render.safe import plain

__all__ = ["ApprovalScreen", "ConflictScreen", "ForkScreen", "ModelScreen"]

SCROLL_HINT = ("↑↓", "scroll")


def _keys(*pairs: tuple[str | Text, str | Text]) -> Text:
    """``y allow once  n deny …``: each key bold, then what it does (never markup)."""
    line = Text()
    for index, (key, does) in enumerate(pairs):
        if index:
            line.append("   ")
        line.append_text(key if isinstance(key, Text) else Text(key, style="bold"))
        line.append(" ")
        line.append_text(does if isinstance(does, Text) else Text(does))
    return line


def _title(text: str) -> Static:
    return Static(plain(text, "bold"), classes="chat-modal-title")


class ApprovalScreen(ModalScreen[str]):
    """``y`` allow once, ``a`` allow this tool for the session, ``n`` deny, Esc interrupts."""

    BINDINGS = [
        bind("answer", "answer('once')", "Allow once", keys=("y",), show=True),
        bind("answer", "answer('always')", "Allow for session", keys=("a",), show=True),
        bind("answer", "answer('deny')", "Deny", keys=("n",), show=True),
        bind("back", "answer('interrupt')", "Interrupt the turn", show=True),
    ]

    def __init__(self, preview: CallPreview) -> None:
        super().__init__()
        self.preview = preview

    def compose(self) -> ComposeResult:
        preview = self.preview
        with Vertical(id="approval", classes="chat-modal"):
            yield _title(f"Run {preview.title}?")
            with VerticalScroll(id="approval-body", classes="chat-modal-body"):
                body = diff_text(preview.body) if preview.tool != "bash" else plain(preview.body)
                yield Static(body)
            with Vertical(classes="chat-modal-foot"):
                if preview.problem:
                    yield Static(plain(preview.problem), id="approval-problem")
                tool = plain(preview.tool)  # the model's name for the tool: never markup
                yield Static(
                    _keys(
                        ("y", "allow once"),
                        ("a", Text.assemble("allow ", tool, " for this session")),
                        ("n", "deny"),
                        ("Esc", "interrupt"),
                        SCROLL_HINT,
                    ),
                    id="approval-keys",
                )

    def action_answer(self, answer: str) -> None:
        self.dismiss(answer)


class ConflictScreen(ModalScreen[str]):
    """Another process appended: ``n`` go on from the new leaf, ``o`` from our own point."""

    BINDINGS = [
        bind("answer", "answer('theirs')", "From the new leaf", keys=("n",), show=True),
        bind("answer", "answer('ours')", "From my point (fork)", keys=("o",), show=True),
        bind("back", "answer('ours')", "From my point"),
    ]

    def __init__(self, conflict: Conflict) -> None:
        super().__init__()
        self.conflict = conflict

    def compose(self) -> ComposeResult:
        arrived = self.conflict.arrived
        with Vertical(id="conflict", classes="chat-modal"):
            yield _title(
                f"The session changed while it was open: {plural(len(arrived), 'new record')} "
                "(Ink may be running in another terminal)."
            )
            with VerticalScroll(id="conflict-body", classes="chat-modal-body"):
                yield Static(_arrived_text(self.conflict))
            with Vertical(classes="chat-modal-foot"):
                yield Static(
                    _keys(
                        ("n", "go on from the new leaf (after what arrived)"),
                        ("o", "go on from your own point (a new branch)"),
                        SCROLL_HINT,
                    ),
                    id="conflict-keys",
                )

    def action_answer(self, answer: str) -> None:
        self.dismiss(answer)


def _arrived_text(conflict: Conflict) -> Text:
    text = Text()
    for entry in conflict.arrived[-20:]:
        line = entry.type
        if entry.type == "message":
            message = entry.record["message"]
            body = content_text(message.get("content")) if message.get("role") == "user" else ""
            if message.get("role") == "assistant":
                body = " ".join(
                    str(b.get("text") or b.get("name") or "")
                    for b in list_items(message.get("blocks"))
                    if isinstance(b, dict)
                )
            line = f"{message.get('role')}: {body.strip().splitlines()[0] if body.strip() else ''}"
        text.append_text(plain(line[:200]))
        text.append("\n")
    text.rstrip()
    return text


class ModelScreen(ModalScreen[str | None]):
    """Type ``provider/modelId`` (a bare id is Anthropic's); Enter switches, Esc cancels.

    Answers with the reference as typed (checked first): the pane switches to it as Ink reads
    it and says how when that may not be what was meant.
    """

    BINDINGS = [bind("back", "cancel", "Cancel", show=True)]
    AUTO_FOCUS = "#model-input"

    def __init__(self, current: ModelRef | None) -> None:
        super().__init__()
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(id="model", classes="chat-modal"):
            yield _title("Switch model (saved in the session as Ink's /model does)")
            with VerticalScroll(classes="chat-modal-body"):
                yield Input(
                    value=self.current.reference if self.current else "",
                    placeholder="provider/modelId, e.g. anthropic/claude-sonnet-4-5, openai/gpt-5",
                    id="model-input",
                )
                yield Static(
                    "providers: anthropic, openai, zai, deepseek, moonshotai, moonshotai-cn",
                    id="model-hint",
                )
            with Vertical(classes="chat-modal-foot"):
                yield Static(_keys(("Enter", "switch"), ("Esc", "cancel")), id="model-keys")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        try:
            parse_model_ref(event.value)
        except BadArgument as error:
            self.query_one("#model-hint", Static).update(plain(str(error), "bold"))
            return
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ForkScreen(ModalScreen[str | None]):
    """Continue from an earlier entry: Enter forks there, ``l`` goes on from the leaf."""

    BINDINGS = [
        bind("open", "answer('fork')", "Fork here", show=True),
        bind("answer", "answer('leaf')", "From the leaf", keys=("l",), show=True),
        bind("back", "answer(None)", "Cancel", show=True),
    ]

    def __init__(self, description: str) -> None:
        super().__init__()
        self.description = description

    def compose(self) -> ComposeResult:
        with Vertical(id="fork", classes="chat-modal"):
            yield _title("Continue from here?")
            with VerticalScroll(classes="chat-modal-body"):
                yield Static(plain(self.description))
            with Vertical(classes="chat-modal-foot"):
                yield Static(
                    _keys(
                        (
                            "Enter",
                            "fork here: new messages go under this entry (a new branch; "
                            "the current one stays)",
                        ),
                        ("l", "continue from the leaf"),
                        ("Esc", "cancel"),
                    ),
                    id="fork-keys",
                )

    def action_answer(self, answer: str | None) -> None:
        self.dismiss(answer)
