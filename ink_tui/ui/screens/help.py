"""The key help: every key of the screen underneath, then the keys that work everywhere."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from ink_tui.ui.keys import APP_BINDINGS, screen_bindings
from ink_tui.ui.render.safe import plain

__all__ = ["HelpRow", "HelpScreen", "help_rows"]

_KEY_NAMES = {
    "up": "↑",
    "down": "↓",
    "left": "←",
    "right": "→",
    "escape": "esc",
    "question_mark": "?",
    "left_square_bracket": "[",
    "right_square_bracket": "]",
    "slash": "/",
    "pageup": "PgUp",
    "pagedown": "PgDn",
}
GROUPS = ("This screen", "More keys on this screen", "Everywhere")


@dataclass(frozen=True, slots=True)
class HelpRow:
    group: str
    keys: str
    description: str


def _key_names(binding: Binding) -> str:
    """All the keys of a binding (``j,down`` shows as ``j / ↓``)."""
    names: list[str] = []
    for index, key in enumerate(binding.key.split(",")):
        key = key.strip()
        if index == 0 and binding.key_display:
            names.append(binding.key_display)
            continue
        modifiers, _, base = key.rpartition("+")
        shown = _KEY_NAMES.get(base, base)
        names.append(f"{modifiers}+{shown}" if modifiers else shown)
    return " / ".join(names)


def help_rows(screen: Screen) -> list[HelpRow]:
    """The screen's keys (shown ones first, then the hidden ones), then the app's."""
    rows: list[HelpRow] = []
    for binding in screen_bindings(screen):
        if any(binding is app_binding for app_binding in APP_BINDINGS):
            group = GROUPS[2]
        else:
            group = GROUPS[0] if binding.show else GROUPS[1]
        rows.append(HelpRow(group, _key_names(binding), binding.description))
    rows.sort(key=lambda row: GROUPS.index(row.group))  # stable: keeps each group's order
    return rows


def _table(rows: list[HelpRow]) -> Text:
    width = max((len(row.keys) for row in rows), default=4) + 3
    text = Text()
    for group in GROUPS:
        members = [row for row in rows if row.group == group]
        if not members:
            continue
        if text:
            text.append("\n")
        text.append_text(plain(group, "bold underline"))
        for row in members:
            text.append("\n")
            text.append_text(plain(f"  {row.keys}".ljust(width + 2), "bold"))
            text.append_text(plain(row.description))
    return text


class HelpScreen(ModalScreen[None]):
    """Keys of ``screen`` (the one under this dialog). Esc, q or ? closes it."""

    BINDINGS = [
        Binding("escape", "close", "Close help"),
        Binding("q", "close", "Close help", show=False),
        Binding("question_mark", "close", "Close help", show=False, key_display="?"),
    ]

    def __init__(self, screen: Screen) -> None:
        super().__init__()
        self.target = screen
        self.rows = help_rows(screen)

    def compose(self) -> ComposeResult:
        with Vertical(id="help-dialog"):
            yield Static(plain("Keys", "bold"), id="help-title")
            with VerticalScroll(id="help-scroll"):
                yield Static(_table(self.rows), id="help-keys")
            note = getattr(self.target, "HELP_NOTE", "")  # what a screen adds about its keys
            yield Static(
                plain(
                    (f"{note}\n" if note else "")
                    + "Every key is also in the command palette (ctrl+p).  Esc, q or ? closes."
                ),
                id="help-palette",
            )

    def on_mount(self) -> None:
        self.query_one("#help-scroll", VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)
