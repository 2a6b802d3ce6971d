"""The hits of a search across sessions, grouped by session, one line each.

A session's line (title, project, how many of its records matched, and how many of them are
shown when not all are) cannot be selected; a subagent session's title follows its parent's
(``<parent title> ▸ task ▸ <child title>``); each hit below it shows the record's time, its role
and the snippet, every wanted term and phrase marked. Everything shown is session
text and goes through the safe door (:func:`ink_tui.ui.render.safe.plain`).
"""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ink_tui.catalog.search import SearchHit
from ink_tui.humanize import plural
from ink_tui.ui.render.cut import cut_label
from ink_tui.ui.render.safe import plain

__all__ = ["SearchResults"]


def _session_line(hit: SearchHit, shown: int, *, show_project: bool) -> Text:
    line = plain(hit.heading(), "bold")
    machine = "" if hit.machine is None else f"{hit.machine}:"  # another machine's, as scp
    where = f"  {machine}{hit.project} ·" if show_project else " "
    total = hit.session_hits
    count = plural(total, "hit") if shown >= total else f"{shown} of {plural(total, 'hit')}"
    line.append_text(plain(f"{where} {(hit.session_id or '?')[:8]} · {count}"))
    line.no_wrap = True
    line.overflow = "ellipsis"
    return line


def _hit_line(hit: SearchHit) -> Text:
    when = (hit.timestamp or "")[:16].replace("T", " ")
    line = Text(f"  {when:16}  ", style="dim")
    line.append_text(plain(f"{hit.role:<9} ", "italic"))
    done = 0
    for start, end in hit.marks:  # every wanted term and phrase, each piece through the door
        line.append_text(plain(hit.snippet[done:start]))
        line.append_text(plain(hit.snippet[start:end], "bold reverse"))
        done = end
    line.append_text(plain(hit.snippet[done:]))
    line.no_wrap = True
    line.overflow = "ellipsis"
    return line


class SearchResults(OptionList):
    """Hits grouped by session; the highlighted option is a hit (sessions are headings)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.hits: list[SearchHit] = []

    def show(self, hits: list[SearchHit], *, show_project: bool) -> None:
        """Replace the results (the first hit highlighted)."""
        self.hits = list(hits)
        counts: dict[Path, int] = {}
        for hit in hits:
            counts[hit.file] = counts.get(hit.file, 0) + 1
        options: list[Option] = []
        current: Path | None = None
        width = max(20, (self.scrollable_content_region.width or self.app.size.width) - 2)
        for number, hit in enumerate(hits):
            if hit.file != current:
                current = hit.file
                line = _session_line(hit, counts[hit.file], show_project=show_project)
                line = cut_label(line, width)
                options.append(Option(line, disabled=True))
            line = cut_label(_hit_line(hit), width)  # one line each: the list reads as a table
            options.append(Option(line, id=str(number)))
        self.clear_options()
        self.add_options(options)
        if hits:
            self.highlighted = 1  # the first hit, under its session's line

    @property
    def chosen(self) -> SearchHit | None:
        """The highlighted hit."""
        if self.highlighted is None:
            return None
        option = self.get_option_at_index(self.highlighted)
        return None if option.id is None else self.hits[int(option.id)]
