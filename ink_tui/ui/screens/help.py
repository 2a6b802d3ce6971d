"""The key help: the keys that work on the screen underneath now, then the keys that work
everywhere. A key a text box with the focus takes as text (``q`` and ``?`` on the search screen)
is not listed: it would type, not act."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from ink_tui.ui.keymap import bind
from ink_tui.ui.keys import typing_focused, working_keys
from ink_tui.ui.render.safe import plain

__all__ = ["HelpRow", "HelpScreen", "help_rows"]

GROUPS = ("This screen", "More keys on this screen", "Everywhere")
TYPING_NOTE = "A text box has the focus: letters, q and ? type into it (F1: these keys)."
CLOSING_NOTE = (
    "j/k, g/G, PgUp/PgDn scroll; [ ] go by group. Every key is also in the command palette "
    "(ctrl+p).  Esc, q or ? closes."
)


@dataclass(frozen=True, slots=True)
class HelpRow:
    group: str
    keys: str
    description: str


def help_rows(screen: Screen[object]) -> list[HelpRow]:
    """The screen's keys that work now (footer ones first, then the others), then the app's."""
    rows: list[HelpRow] = []
    for row in working_keys(screen):
        group = GROUPS[2] if row.level == "app" else GROUPS[0] if row.show else GROUPS[1]
        rows.append(HelpRow(group, row.key_text, row.description))
    rows.sort(key=lambda row: GROUPS.index(row.group))  # stable: keeps each group's order
    return rows


def _table(rows: list[HelpRow]) -> tuple[Text, list[int]]:
    """The rows as text, and the line each group starts on."""
    width = max((len(row.keys) for row in rows), default=4) + 3
    text = Text()
    starts: list[int] = []
    line = 0
    for group in GROUPS:
        members = [row for row in rows if row.group == group]
        if not members:
            continue
        if text:
            text.append("\n")
            line += 1
        starts.append(line)
        text.append_text(plain(group, "bold underline"))
        for row in members:
            text.append("\n")
            line += 1
            text.append_text(plain(f"  {row.keys}".ljust(width + 2), "bold"))
            text.append_text(plain(row.description))
    return text, starts


class HelpScreen(ModalScreen[None]):
    """Keys of ``screen`` (the one under this dialog). Esc, q or ? closes it; j/k, g/G and
    PgUp/PgDn scroll it, ``[``/``]`` (or ``{``/``}``) go from group to group."""

    BINDINGS = [
        bind("back", "close", "Close help"),
        bind("quit", "close", "Close help"),
        bind("help", "close", "Close help", keys=("question_mark", "f1")),
        bind("down", "scroll('down')", "Scroll down"),
        bind("up", "scroll('up')", "Scroll up"),
        bind("top", "scroll('home')", "Top"),
        bind("bottom", "scroll('end')", "Bottom"),
        bind("page_down", "scroll('page_down')", "Page down"),
        bind("page_up", "scroll('page_up')", "Page up"),
        bind("section_previous", "group(-1)", "Previous group"),
        bind("section_next", "group(1)", "Next group"),
    ]

    def __init__(self, screen: Screen[object]) -> None:
        super().__init__()
        self.target = screen
        self.rows = help_rows(screen)
        self.typing = typing_focused(screen)
        self._text, self.group_lines = _table(self.rows)

    def compose(self) -> ComposeResult:
        with Vertical(id="help-dialog"):
            yield Static(plain("Keys", "bold"), id="help-title")
            with VerticalScroll(id="help-scroll"):
                yield Static(self._text, id="help-keys")
            notes = [getattr(self.target, "HELP_NOTE", "")]  # what a screen adds about its keys
            if self.typing and not notes[0]:  # the chat's own note says it already
                notes.append(TYPING_NOTE)
            notes.append(CLOSING_NOTE)
            yield Static(plain("\n".join(note for note in notes if note)), id="help-palette")

    @property
    def scroller(self) -> VerticalScroll:
        return self.query_one("#help-scroll", VerticalScroll)

    def on_mount(self) -> None:
        self.scroller.focus()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll(self, where: str) -> None:
        scroller = self.scroller
        {
            "down": scroller.scroll_down,
            "up": scroller.scroll_up,
            "home": scroller.scroll_home,
            "end": scroller.scroll_end,
            "page_down": scroller.scroll_page_down,
            "page_up": scroller.scroll_page_up,
        }[where](animate=False)

    def action_group(self, delta: int) -> None:
        """The next (``delta`` 1) or previous group's heading at the top."""
        scroller = self.scroller
        top = round(scroller.scroll_y)
        if delta > 0:
            line = next((line for line in self.group_lines if line > top), None)
        else:
            line = next((line for line in reversed(self.group_lines) if line < top), None)
        if line is not None:
            scroller.scroll_to(y=line, animate=False)
