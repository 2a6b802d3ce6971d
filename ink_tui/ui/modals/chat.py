"""The chat pane's questions: approve a tool call, go on after another writer, pick a model
(typed, or one the providers list), continue from an earlier entry. Each is a small modal that
answers with ``dismiss``.

Every modal has the same shape, so that its keys show at any terminal size (40x12 included):
a title docked at the top, the keys (and any problem line) docked at the bottom, and between
them a body that takes what room is left and scrolls (↑↓, PageUp/PageDown, the wheel).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ink_tui.agent.approval import CallPreview
from ink_tui.agent.persist import Conflict
from ink_tui.agent.providers import BadArgument, listing, parse_model_ref
from ink_tui.humanize import plural
from ink_tui.secrets import masked_text
from ink_tui.session.conversation.view import Turn
from ink_tui.session.reading.reader import Entry
from ink_tui.session.reading.recordtypes import json_list, json_object
from ink_tui.session.rules.content import content_text
from ink_tui.session.rules.modelref import ModelRef
from ink_tui.ui.keymap import bind
from ink_tui.ui.render.blocks import diff_block
from ink_tui.ui.render.cut import first_line
from ink_tui.ui.render.safe import plain

__all__ = ["ApprovalScreen", "ConflictScreen", "ForkScreen", "ModelScreen", "fork_place"]

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
                # a command as typed; a change as the session view shows an edit's
                body = plain(preview.body) if preview.tool == "bash" else diff_block(preview.body)
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
            message = entry.message
            role = message["role"]
            body = (
                content_text(message.get("content"), show_non_string_text=True)
                if role == "user"
                else ""
            )
            if role == "assistant":
                body = " ".join(
                    str(b.get("text") or b.get("name") or "")
                    for b in json_list(message.get("blocks"))
                    if json_object(b)
                )
            line = f"{role}: {body.strip().splitlines()[0] if body.strip() else ''}"
        text.append_text(plain(masked_text(line)[:200]))  # masked before it is cut
        text.append("\n")
    text.rstrip()
    return text


MODELS_SHOWN = 200  # options in the model list at most (typing narrows it)
PROVIDER_NAMES = "anthropic, openai, zai, deepseek, moonshotai, moonshotai-cn"


class ModelScreen(ModalScreen[str | None]):
    """Type ``provider/modelId`` (a bare id is Anthropic's), or pick one of the models the
    providers list (asked in a worker, once per run: ``listing.MODEL_LISTS``); Enter switches,
    Esc cancels. A provider that does not answer lists nothing: typing always works.

    Answers with the reference as typed or picked (checked first): the pane switches to it as
    Ink reads it and says how when that may not be what was meant.
    """

    BINDINGS = [
        bind("back", "cancel", "Cancel", show=True),
        bind("down", "to_list", "The listed models", keys=("down",)),  # j types in the box
    ]
    AUTO_FOCUS = "#model-input"

    def __init__(
        self,
        current: ModelRef | None,
        *,
        env: Mapping[str, str] | None = None,
        lists: listing.ModelLists | None = None,
    ) -> None:
        super().__init__()
        self.current = current
        self.env = env
        self.lists = lists or listing.MODEL_LISTS
        self.models: list[str] = []  # provider/modelId, as the providers listed them

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
                    f"asking the providers for their models…  providers: {PROVIDER_NAMES}",
                    id="model-hint",
                )
                yield OptionList(id="model-list")
            with Vertical(classes="chat-modal-foot"):
                yield Static(
                    _keys(("Enter", "switch"), ("↓", "the listed models"), ("Esc", "cancel")),
                    id="model-keys",
                )

    def on_mount(self) -> None:
        self.query_one("#model-list").display = False
        self.run_worker(self._ask, thread=True, exclusive=True, group="model-list")

    def _ask(self) -> None:
        """In a worker: the providers' lists (kept for the run), then shown."""
        found = self.lists.models(self.env)
        self.app.call_from_thread(self._listed, found)

    def _listed(self, found: dict[str, list[str]]) -> None:
        self.models = [f"{name}/{model}" for name, ids in found.items() for model in ids]
        hint = self.query_one("#model-hint", Static)
        if self.models:
            hint.update(
                plain(
                    f"{plural(len(self.models), 'model')} listed by {', '.join(found)}: ↓ picks "
                    "one, typing narrows them; any provider/modelId can be typed"
                )
            )
        else:
            hint.update(
                plain(f"no provider listed its models: type provider/modelId ({PROVIDER_NAMES})")
            )
        self._narrow(self.query_one("#model-input", Input).value)

    def _narrow(self, typed: str) -> None:
        """The listed models holding what is typed (all of them for the current model)."""
        query = typed.strip().casefold()
        if self.current is not None and query == self.current.reference.casefold():
            query = ""
        shown = [model for model in self.models if query in model.casefold()][:MODELS_SHOWN]
        options = self.query_one("#model-list", OptionList)
        options.clear_options()
        options.add_options([Option(plain(model), id=model) for model in shown])
        options.display = bool(shown)

    def on_input_changed(self, event: Input.Changed) -> None:
        if self.models:
            self._narrow(event.value)

    def action_to_list(self) -> None:
        options = self.query_one("#model-list", OptionList)
        if options.display and options.option_count:
            options.focus()
            options.highlighted = options.highlighted or 0

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self._choose(event.option.id)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._choose(event.value)

    def _choose(self, reference: str) -> None:
        try:
            parse_model_ref(reference)
        except BadArgument as error:
            self.query_one("#model-hint", Static).update(plain(str(error), "bold"))
            return
        self.dismiss(reference)

    def action_cancel(self) -> None:
        self.dismiss(None)


FORK_PROMPT_CELLS = 72  # the prompt, cut to fit the question at 80 columns


def fork_place(
    entries: Sequence[Entry],
    turns: Sequence[Turn],
    point: str | None,
    number: Callable[[Turn], int],
    row: str = "",
) -> str:
    """Where a fork goes on, in the replay's words: ``after turn 3 · fix the parser`` (its
    prompt, cut to fit); within a turn, what it goes on after (``row``, the row chosen). Never
    an entry id: the replay shows a turn's prompt id, the fork point is its last entry."""
    ids = [entry.id for entry in entries]
    if point is None or point not in ids:
        return f"after {first_line(row, FORK_PROMPT_CELLS) or 'this entry'}"
    at = ids.index(point)
    user = next((e.id for e in reversed(entries[: at + 1]) if _is_prompt(e)), None)
    turn = next((t for t in turns if t.user is not None and t.user.id == user), None)
    shown = number(turn) if turn is not None else 0
    name = f"turn {shown}" if shown > 0 else "this turn"
    prompt = first_line(turn.title if turn is not None else "", FORK_PROMPT_CELLS)
    title = f"{name} · {prompt}" if prompt else name
    if at + 1 == len(entries) or _is_prompt(entries[at + 1]):
        return f"after {title}"
    after = first_line(row, FORK_PROMPT_CELLS) or "this entry"
    return f"within {title}\nafter: {after}"


def _is_prompt(entry: Entry) -> bool:
    message = entry.record.get("message") if entry.type == "message" else None
    return isinstance(message, dict) and message.get("role") == "user"


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
