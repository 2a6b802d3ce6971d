"""The questions of keeping sessions in order: a name or a label to type, a yes or no before a
delete or a prune, and what to copy. Each is a small modal that answers with ``dismiss``; any
session text in it (titles, names, paths) is shown as plain text with controls made visible.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ink_tui.ui.keymap import bind
from ink_tui.ui.render.safe import plain

__all__ = ["ConfirmScreen", "CopyScreen", "TextScreen"]

_CSS = """
{name} {{
    align: center middle;
}}
{name} > Vertical {{
    width: 80%;
    max-width: 100;
    height: auto;
    max-height: 90%;
    background: $panel;
    border: round $accent;
    padding: 0 1;
}}
{name} .keep-title {{
    text-style: bold;
    margin-bottom: 1;
}}
{name} .keep-body {{
    height: auto;
    max-height: 12;
}}
{name} .keep-keys {{
    color: $text-muted;
    margin-top: 1;
}}
"""


def _keys(*pairs: tuple[str, str]) -> Text:
    line = Text()
    for index, (key, does) in enumerate(pairs):
        if index:
            line.append("   ")
        line.append(key, style="bold")
        line.append(f" {does}")
    return line


class TextScreen(ModalScreen[str | None]):
    """Type a name or a label (Enter keeps it, Esc cancels; empty is allowed: it clears)."""

    DEFAULT_CSS = _CSS.format(name="TextScreen")
    BINDINGS = [bind("back", "cancel", "Cancel")]

    def __init__(self, title: str, value: str, hint: str) -> None:
        super().__init__()
        self.title_text, self.value, self.hint = title, value, hint

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(plain(self.title_text), classes="keep-title")
            yield Input(self.value, id="keep-text", select_on_focus=True)
            yield Static(_keys(("Enter", self.hint), ("Esc", "cancel")), classes="keep-keys")

    @on(Input.Submitted, "#keep-text")
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """A yes or no before something that moves files (``y`` or Enter: yes; ``n`` or Esc: no)."""

    DEFAULT_CSS = _CSS.format(name="ConfirmScreen")
    BINDINGS = [
        bind("answer", "answer(True)", "Yes", keys=("y",)),
        bind("open", "answer(True)", "Yes"),
        bind("answer", "answer(False)", "No", keys=("n",)),
        bind("back", "answer(False)", "No"),
    ]

    def __init__(self, title: str, body: str, yes: str) -> None:
        super().__init__()
        self.title_text, self.body, self.yes = title, body, yes

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(plain(self.title_text), classes="keep-title")
            with VerticalScroll(classes="keep-body"):
                yield Static(plain(self.body), id="keep-body")
            yield Static(_keys(("y", self.yes), ("n/Esc", "cancel")), classes="keep-keys")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)


class CopyScreen(ModalScreen[int | None]):
    """The copy menu, the same in the picker and the session view: each choice is a letter,
    what it copies and the text (``m`` the message as shown, in the session view; ``a`` the
    last agent message, as Ink's ``/copy`` copies it; ``i`` the session id; ``p`` the file
    path; ``r`` the command resuming it in Ink). Answers the index of the choice."""

    DEFAULT_CSS = _CSS.format(name="CopyScreen")
    BINDINGS = [
        bind("answer", "pick('m')", "The message", keys=("m",)),
        bind("answer", "pick('a')", "The last agent message", keys=("a",)),
        bind("answer", "pick('i')", "Id", keys=("i",)),
        bind("answer", "pick('p')", "Path", keys=("p",)),
        bind("answer", "pick('r')", "Resume command", keys=("r",)),
        bind("back", "cancel", "Cancel"),
    ]

    def __init__(self, choices: list[tuple[str, str, str]]) -> None:
        super().__init__()
        self.choices = choices  # (letter, what, text to copy)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Copy", classes="keep-title")
            yield OptionList(
                *(
                    Option(
                        Text.assemble((f"{key} ", "bold"), (f"{what}: ", "dim"), _one_line(text))
                    )
                    for key, what, text in self.choices
                ),
                id="keep-copy",
            )
            yield Static(_keys(("Enter", "copy"), ("Esc", "cancel")), classes="keep-keys")

    @on(OptionList.OptionSelected, "#keep-copy")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option_index)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pick":  # only the letters this menu offers
            return any(key == parameters[0] for key, _, _ in self.choices)
        return True

    def action_pick(self, letter: str) -> None:
        for index, (key, _, _) in enumerate(self.choices):
            if key == letter:
                self.dismiss(index)
                return

    def action_cancel(self) -> None:
        self.dismiss(None)


def _one_line(text: str, limit: int = 200) -> Text:
    """A choice's text on one line: the first line, cut, saying how much more there is."""
    lines = text.splitlines() or [""]
    first = lines[0][:limit]
    rest = len(text) - len(first)
    shown = plain(first)
    if rest > 0:
        shown.append(f" … ({rest:,} more characters)", "dim")
    return shown
