"""The chat pane's questions: approve a tool call, go on after another writer, pick a model,
continue from an earlier entry. Each is a small modal that answers with ``dismiss``.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from ink_tui.agent.approval import CallPreview
from ink_tui.agent.persist import Conflict
from ink_tui.agent.providers import parse_model_ref
from ink_tui.session.tree import ModelRef
from ink_tui.session.view import content_text
from ink_tui.ui.render.chat import diff_text
from ink_tui.ui.render.safe import plain

__all__ = ["ApprovalScreen", "ConflictScreen", "ForkScreen", "ModelScreen"]


class ApprovalScreen(ModalScreen[str]):
    """``y`` allow once, ``a`` allow this tool for the session, ``n`` deny, Esc interrupts."""

    BINDINGS = [
        Binding("y", "answer('once')", "Allow once"),
        Binding("a", "answer('always')", "Allow for session"),
        Binding("n", "answer('deny')", "Deny"),
        Binding("escape", "answer('interrupt')", "Interrupt the turn"),
    ]

    def __init__(self, preview: CallPreview) -> None:
        super().__init__()
        self.preview = preview

    def compose(self) -> ComposeResult:
        preview = self.preview
        with Vertical(id="approval", classes="chat-modal"):
            yield Static(plain(f"Run {preview.title}?", "bold"), id="approval-title")
            with VerticalScroll(id="approval-body"):
                body = diff_text(preview.body) if preview.tool != "bash" else plain(preview.body)
                yield Static(body)
            if preview.problem:
                yield Static(plain(preview.problem), id="approval-problem")
            keys = Text.assemble(
                ("y", "bold"),
                " allow once   ",
                ("a", "bold"),
                " allow ",
                plain(preview.tool),  # the model's name for the tool: never markup
                " for this session   ",
                ("n", "bold"),
                " deny   ",
                ("Esc", "bold"),
                " interrupt",
            )
            yield Static(keys, id="approval-keys")

    def action_answer(self, answer: str) -> None:
        self.dismiss(answer)


class ConflictScreen(ModalScreen[str]):
    """Another process appended: ``n`` go on from the new leaf, ``o`` from our own point."""

    BINDINGS = [
        Binding("n", "answer('theirs')", "From the new leaf"),
        Binding("o", "answer('ours')", "From my point (fork)"),
        Binding("escape", "answer('ours')", "From my point", show=False),
    ]

    def __init__(self, conflict: Conflict) -> None:
        super().__init__()
        self.conflict = conflict

    def compose(self) -> ComposeResult:
        arrived = self.conflict.arrived
        with Vertical(id="conflict", classes="chat-modal"):
            yield Static(
                plain(
                    f"The session changed while it was open: {len(arrived)} new record(s) "
                    "(Ink may be running in another terminal).",
                    "bold",
                )
            )
            with VerticalScroll(id="conflict-body"):
                yield Static(_arrived_text(self.conflict))
            yield Static(
                "[b]n[/b] go on from the new leaf (after what arrived)   "
                "[b]o[/b] go on from your own point (a new branch)"
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
                    str(b.get("text") or b.get("name") or "") for b in message.get("blocks") or ()
                )
            line = f"{message.get('role')}: {body.strip().splitlines()[0] if body.strip() else ''}"
        text.append_text(plain(line[:200]))
        text.append("\n")
    text.rstrip()
    return text


class ModelScreen(ModalScreen[ModelRef | None]):
    """Type ``provider/modelId`` (a bare id is Anthropic's); Enter switches, Esc cancels."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, current: ModelRef | None) -> None:
        super().__init__()
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(id="model", classes="chat-modal"):
            yield Static(plain("Switch model (saved in the session as Ink's /model does)", "bold"))
            yield Input(
                value=self.current.reference if self.current else "",
                placeholder="provider/modelId, e.g. anthropic/claude-sonnet-4-5, openai/gpt-5",
                id="model-input",
            )
            yield Static(
                "providers: anthropic, openai, zai, deepseek, moonshotai, moonshotai-cn",
                id="model-hint",
            )

    def on_input_submitted(self, event: Input.Submitted) -> None:
        try:
            model = parse_model_ref(event.value)
        except ValueError as error:
            self.query_one("#model-hint", Static).update(plain(str(error), "bold"))
            return
        self.dismiss(model)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ForkScreen(ModalScreen[str | None]):
    """Continue from an earlier entry: Enter forks there, ``l`` goes on from the leaf."""

    BINDINGS = [
        Binding("enter", "answer('fork')", "Fork here"),
        Binding("l", "answer('leaf')", "From the leaf"),
        Binding("escape", "answer(None)", "Cancel"),
    ]

    def __init__(self, description: str) -> None:
        super().__init__()
        self.description = description

    def compose(self) -> ComposeResult:
        with Vertical(id="fork", classes="chat-modal"):
            yield Static(plain("Continue from here?", "bold"))
            yield Static(plain(self.description))
            yield Static(
                "[b]Enter[/b] fork here: new messages go under this entry (a new branch; the "
                "current one stays)   [b]l[/b] continue from the leaf   [b]Esc[/b] cancel"
            )

    def action_answer(self, answer: str | None) -> None:
        self.dismiss(answer)
