"""A session ink-tui cannot show: Ink's reason, then the file's raw lines around the culprit.

The raw lines are read in a thread worker and shown through the lazily rendered
:class:`Transcript`, one block per chunk of lines, with the offending line in a block of its own so
that it can be brought into view exactly. Every line is numbered as Ink counts (non-blank lines,
the header is 1); blank lines are shown, unnumbered, so the file keeps its shape. Each displayed
line is cut at :data:`CUT` characters with a ``… (N more characters)`` marker, so a 2 MB line
costs no more than a short one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from rich.console import RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from ink_tui.session.reading.errors import SessionError
from ink_tui.session.reading.files import open_regular
from ink_tui.session.reading.jsoncodec import JsonDecodeError, decode_line
from ink_tui.session.reading.lines import is_blank, iter_lines
from ink_tui.ui.keymap import bind
from ink_tui.ui.messages import GoBack
from ink_tui.ui.render.safe import plain
from ink_tui.ui.widgets.footer import InkFooter
from ink_tui.ui.widgets.transcript import BlockSpec, Transcript

__all__ = ["CHUNK", "CUT", "ErrorScreen", "RawRow", "find_entry_line", "read_raw_rows"]

CUT = 2000  # characters shown of one line
CHUNK = 200  # lines per transcript block
OFFENDING_KEY = "offending"
_ENTRY_NAMED = re.compile(r"(?:cycle at|chain at) entry (\S+)$|^entry (\S+) not found$")


@dataclass(frozen=True, slots=True)
class RawRow:
    """One physical line of the file as displayed."""

    number: int | None  # Ink's line number (non-blank lines); None for a blank line
    text: str  # decoded (invalid UTF-8 replaced), cut at CUT characters
    more: int  # characters cut off


def read_raw_rows(path: Path, cut: int = CUT) -> list[RawRow]:
    """Every line of ``path``, numbered as Ink numbers them. Raises ``OSError``."""
    rows: list[RawRow] = []
    number = 0
    with open_regular(path) as stream:
        for raw in iter_lines(stream):
            if is_blank(raw.data):
                rows.append(RawRow(None, raw.data.decode("utf-8", "replace"), 0))
                continue
            number += 1
            if len(raw.data) <= cut:  # never more characters than bytes
                rows.append(RawRow(number, raw.data.decode("utf-8", "replace"), 0))
                continue
            text = raw.data.decode("utf-8", "replace")
            rows.append(RawRow(number, text[:cut], max(0, len(text) - cut)))
    return rows


def find_entry_line(path: Path, message: str) -> int | None:
    """The line of the entry a chain error names (``… at entry X``), as Ink numbers lines."""
    match = _ENTRY_NAMED.search(message)
    if match is None:
        return None
    entry_id = match.group(1) or match.group(2)
    needle = entry_id.encode("utf-8")
    found: int | None = None
    number = 0
    with open_regular(path) as stream:
        for raw in iter_lines(stream):
            if is_blank(raw.data):
                continue
            number += 1
            if needle not in raw.data:
                continue
            try:
                record = decode_line(raw.data)
            except JsonDecodeError:
                continue
            if isinstance(record, dict) and record.get("id") == entry_id:
                found = number  # the later duplicate wins, as in Ink's id map
    return found


def _rows_block(rows: list[RawRow], width: int, offending: Style | None) -> RenderableType:
    table = Table.grid(padding=(0, 1))
    table.add_column(justify="right", width=width, style="dim", no_wrap=True)
    table.add_column(ratio=1, overflow="fold")
    for row in rows:
        number = plain(str(row.number) if row.number is not None else "")
        text = plain(row.text)
        if row.more:
            text.append_text(plain(f" … ({row.more} more characters)", "dim italic"))
        if offending is not None:
            number.stylize(offending)
            text.stylize(offending)
        table.add_row(number, text)
    return table


def _estimate(rows: list[RawRow]) -> int:
    return sum(1 + len(row.text) // 100 for row in rows)


class ErrorScreen(Screen[None]):
    """Ink's reason in a banner; below it the raw file, the offending line highlighted."""

    BINDINGS = [
        bind("down", "scroll('down')", "Down", keys=("j",)),
        bind("up", "scroll('up')", "Up", keys=("k",)),
        bind("top", "scroll('home')", "Top", keys=("g",)),
        bind("bottom", "scroll('end')", "Bottom", keys=("G",)),
        bind("match_next", "jump", "Offending line", show=True),
        bind("back", "back", "Back", show=True),
        bind("quit", "app.quit", "Quit", show=True),
    ]
    COMPONENT_CLASSES = {"error--offending"}
    DEFAULT_CSS = """
    ErrorScreen > .error--offending {
        background: $error 30%;
        text-style: bold;
    }
    """

    @dataclass
    class Loaded(Message):
        rows: list[RawRow]
        line: int | None

    @dataclass
    class ReadFailed(Message):
        reason: str

    def __init__(self, path: Path, error: SessionError) -> None:
        super().__init__()
        self.path = path
        self.error = error
        self.line: int | None = error.line
        self.rows: list[RawRow] = []

    def compose(self) -> ComposeResult:
        yield Static(self._banner(), id="error-banner", classes="error-banner")
        yield Static(plain("reading the file…", "dim"), id="error-status")
        yield Transcript(id="error-lines")
        yield InkFooter()

    def _banner(self) -> Text:
        text = plain("ink-tui cannot show this session. Ink says:\n", "bold")
        text.append_text(plain(self.error.message, "bold"))
        where = f"\n{self.path}"
        if self.line is not None:
            where += f"  line {self.line} (non-blank lines, the header is line 1)"
        text.append_text(plain(where))
        return text

    def on_mount(self) -> None:
        self.query_one(Transcript).focus()
        self._read()

    @work(thread=True, exclusive=True, group="raw-lines")
    def _read(self) -> None:
        try:
            rows = read_raw_rows(self.path)
            line = self.error.line
            if line is None:
                line = find_entry_line(self.path, self.error.message)
        except OSError as error:
            self.post_message(self.ReadFailed(f"cannot read {self.path}: {error.strerror}"))
            return
        self.post_message(self.Loaded(rows, line))

    @on(ReadFailed)
    def _read_failed(self, message: ReadFailed) -> None:
        self.query_one("#error-status", Static).update(plain(message.reason))

    @on(Loaded)
    def _loaded(self, message: Loaded) -> None:
        self.rows = message.rows
        if message.line != self.line:
            self.line = message.line
            self.query_one("#error-banner", Static).update(self._banner())
        self.query_one(Transcript).set_blocks(self._blocks())
        shown = sum(1 for row in self.rows if row.number is not None)
        status = (
            f"{len(self.rows)} lines, {shown} numbered as Ink counts them (blank ones unnumbered)"
        )
        if self.line is not None:
            status += f"; line {self.line} highlighted (n jumps back to it)"
        self.query_one("#error-status", Static).update(plain(status, "dim"))
        self.call_after_refresh(self.action_jump, True)

    def _offending_index(self) -> int | None:
        if self.line is None:
            return None
        for index, row in enumerate(self.rows):
            if row.number == self.line:
                return index
        return None

    def _blocks(self) -> list[BlockSpec]:
        rows = self.rows
        if not rows:  # an empty file: nothing to list
            return []
        width = len(str(max((row.number or 0 for row in rows), default=1)))
        style = self.get_component_rich_style("error--offending")
        target = self._offending_index()
        cuts = set(range(0, len(rows), CHUNK))
        if target is not None:
            cuts |= {target, target + 1}  # the offending line is a block of its own
        ordered = sorted(cuts)
        specs: list[BlockSpec] = []
        for start, end in zip(ordered, [*ordered[1:], len(rows)], strict=True):
            if start >= end:
                continue
            chunk = rows[start:end]
            key = OFFENDING_KEY if start == target else f"lines:{start}"
            render = partial(_rows_block, chunk, width, style if start == target else None)
            specs.append(BlockSpec(key, render, _estimate(chunk)))
        return specs

    # -- actions -----------------------------------------------------------------------------

    def action_scroll(self, where: str) -> None:
        transcript = self.query_one(Transcript)
        {
            "down": transcript.action_scroll_down,
            "up": transcript.action_scroll_up,
            "home": transcript.action_scroll_home,
            "end": transcript.action_scroll_end,
        }[where]()

    def action_jump(self, quiet: bool = False) -> None:
        transcript = self.query_one(Transcript)
        if OFFENDING_KEY not in transcript.keys:
            if self.rows and not quiet:
                self.notify("no single line is at fault here", timeout=3)
            return
        transcript.scroll_to_key(OFFENDING_KEY, above=3)

    def action_back(self) -> None:
        self.post_message(GoBack())
