"""The lines of the changes view's file list (:class:`~ink_tui.ui.screens.changes.ChangesScreen`):
one line each, at any width.

A file's line is its path, then its summary (``+6 -2  3 turns  ✗ 1 failed``). Where both do not
fit, the path is shortened from the left by whole folders, keeping the file name
(``…/screens/changes.py``); then the summary is cut at its end; the file name itself is cut only
when it alone is wider than the line. A turn's line is cut in its title, with ``…``, keeping its
failure count. Each line is laid out for the width it is drawn at (a Rich renderable that the
list renders again after a resize). Paths and titles are session text: shown through
:func:`~ink_tui.safetext.one_line` (a newline in a name cannot make a second line) and
:func:`~ink_tui.ui.render.safe.plain` (never markup).
"""

from __future__ import annotations

from rich.cells import cell_len, get_character_cell_size
from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text

from ink_tui.humanize import cut
from ink_tui.safetext import one_line
from ink_tui.secrets import masked_text
from ink_tui.ui.render.safe import plain

__all__ = ["FileLine", "TurnLine", "cut_end", "fit_file_line", "shorten_path"]

GAP = "  "


def cut_end(text: str, width: int) -> str:
    """``text`` in at most ``width`` cells: cut at its end with ``…``, no space before it
    (:func:`ink_tui.humanize.cut`, measured as the screen draws), its secrets masked first."""
    return cut(masked_text(text), width, get_character_cell_size)


def shorten_path(path: str, width: int) -> str:
    """``path`` in at most ``width`` cells, shortened from the left by whole folders
    (``…/dir/name.py``); the file name is cut, at its end, only when it alone is wider."""
    if cell_len(path) <= width:
        return path
    parts = path.split("/")
    for start in range(1, len(parts)):
        shorter = "…/" + "/".join(parts[start:])
        if cell_len(shorter) <= width:
            return shorter
    return cut_end(parts[-1] or path, width)


def fit_file_line(path: str, summary: str, width: int) -> tuple[str, str]:
    """The path and the summary as shown in ``width`` cells (with :data:`GAP` between them):
    the path shortened first (never its file name), then the summary cut."""
    room = width - len(GAP) - cell_len(summary)
    name = path.rsplit("/", 1)[-1] or path
    if room >= cell_len(name):
        return shorten_path(path, room), summary
    if width - cell_len(name) - len(GAP) >= 5:  # the name whole, and the summary's start
        return name, cut_end(summary, width - cell_len(name) - len(GAP))
    return shorten_path(path, width), ""


class FileLine:
    """A file's line in the list, laid out for the width it is drawn at."""

    def __init__(self, path: str, summary: str) -> None:
        self.path = one_line(path)
        self.summary = summary

    def __str__(self) -> str:
        return f"{self.path}{GAP}{self.summary}"

    def line(self, width: int) -> Text:
        path, summary = fit_file_line(self.path, self.summary, width)
        text = plain(path, "bold")
        if summary:
            text.append_text(plain(GAP + summary, "dim"))
        text.no_wrap = True
        return text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.line(options.max_width)


class TurnLine:
    """One turn's line under its file: ``   turn 3 · title``, the title cut to the width, and
    its failed calls (``✗ 1 failed``, never cut)."""

    def __init__(self, turn: int, title: str, failed: int, failed_style: str) -> None:
        self.head = f"   turn {turn + 1} · "
        self.title = one_line(title)
        self.tail = f"{GAP}✗ {failed} failed" if failed else ""
        self.failed_style = failed_style

    def __str__(self) -> str:
        return f"{self.head}{self.title}{self.tail}"

    def line(self, width: int) -> Text:
        tail = self.tail if cell_len(self.head + self.tail) < width else ""
        room = width - cell_len(self.head) - cell_len(tail)
        text = plain(cut_end(self.head + self.title, width) if room < 1 else self.head)
        if room >= 1:
            text.append_text(plain(cut_end(self.title, room)))
        if tail:
            text.append_text(plain(tail, self.failed_style))
        text.no_wrap = True
        return text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.line(options.max_width)
