"""The session view's header: what the session is, and what the shown branch holds.

Two lines that never wrap: the title (the picker's, by Ink's ``/sessions`` rule), the project, the
model and the thinking level a resume restores, and the follow state; then the branch's counts, the
whole file's work as Ink's ``/status`` shows it (``work ↑12.3k ↓4.5k ~$0.123!``,
:mod:`ink_tui.session.rules.usage_totals`) and the branch's token usage. What does not fit is cut
with ``…``: the project folder from its start (to a third of the room), then the title; on a very
narrow terminal the folder is left out; the rest of the first line is cut from its end. The second
line is made of parts, each with a short form and a rank (:func:`fit_parts`): when it does not fit,
the least important parts take their short form first, then are left out, so the turns and the
branch's tokens always show.

While a big session is still read (its last turns shown first), nothing partial passes for
final: the model and the thinking level (whole-file rules: the latest ``session_model``, the
last ``thinkingLevelChange``) say they are being read when the file's end was read alone, and
the counts say they are those of the last turns.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual.widgets import Static

from ink_tui.humanize import compact_count, plural
from ink_tui.session.analysis.turntime import branch_span, short_duration
from ink_tui.session.conversation.branchview import LoadedBranch
from ink_tui.ui.render import palette
from ink_tui.ui.render.cut import cut_label
from ink_tui.ui.render.safe import plain

__all__ = ["HeaderPart", "HeaderState", "LiveState", "SessionHeader", "fit_parts", "work_text"]

MIN_TITLE = 12  # cells the title keeps, however narrow
MIN_PROJECT = 16  # cells the project folder keeps when both are cut (else it is left out)
READING_MODEL = "model and thinking level: reading the whole file…"
READING_TURNS = "the last {turns} (reading the whole session…)"


@dataclass(frozen=True, slots=True)
class LiveState:
    """Following: when Ink last wrote, and what is wrong with the file if Ink cannot open it."""

    last_write: float | None = None
    now: float = 0.0
    trouble: str | None = None  # a short note: the file holds a line Ink rejects
    following: bool = True  # False: following stopped (the trouble is still shown)


@dataclass(frozen=True, slots=True)
class HeaderState:
    """Everything the header shows."""

    title: str
    loaded: LoadedBranch
    live: LiveState | None = None
    machine: str | None = None  # the mirrored machine the session came from


def _elide_start(text: Text, width: int) -> Text:
    """``text`` cut to ``width`` cells from its start: ``…/code/calc-kit``."""
    if text.cell_len <= width:
        return text
    if width <= 1:
        return Text("…"[:width])
    keep = text.plain
    while keep and Text(keep).cell_len > width - 1:
        keep = keep[1:]
    return Text.assemble(("…", text.style), Text(keep, style=text.style))


def _cut(text: Text, width: int) -> Text:
    return cut_label(text, width)


@dataclass(frozen=True, slots=True)
class HeaderPart:
    """One part of a header line: its text, a shorter one (or none), and its rank (0 is the
    most important: never left out)."""

    text: str
    short: str | None = None
    rank: int = 0


PART_GAP = " · "


def fit_parts(parts: Sequence[HeaderPart], width: int, style: str = "") -> Text:
    """``parts`` joined by `` · `` in ``width`` cells: whole if they fit; else, one step at a
    time until they do, the least important (highest rank) first: the extras (rank 5 and up)
    are left out, the minor parts (rank 2 and up) take their short form, rank 4 is left out, the
    major parts take their short form, the other minor ones are left out (rank 0 always stays);
    only then is the line cut with ``…``."""
    shown: list[str | None] = [part.text for part in parts]

    def line() -> str:
        return PART_GAP.join(text for text in shown if text)

    steps: list[tuple[tuple[int, int], int, str | None]] = []
    for index, part in enumerate(parts):
        if part.short is not None:
            steps.append(((1 if part.rank >= 2 else 3, -part.rank), index, part.short))
        if part.rank > 0:
            tier = 0 if part.rank >= 5 else 2 if part.rank == 4 else 4
            steps.append(((tier, -part.rank), index, None))
    steps.sort(key=lambda step: step[0])
    for _, index, text in steps:
        if Text(line()).cell_len <= width:
            break
        shown[index] = text
    return _cut(Text(line(), style=style), width)


def _live_part(live: LiveState) -> Text:
    if live.trouble is not None:
        return Text.assemble(
            ("⚠ LIVE · " if live.following else "⚠ ", f"bold {palette.current.error}"),
            plain(live.trouble, palette.current.error),
        )
    part = Text("● LIVE", style=f"bold {palette.current.ok}")
    if live.last_write is not None:
        ago = max(0, int(live.now - live.last_write))
        stamp = time.strftime("%H:%M:%S", time.localtime(live.last_write))
        part.append(f" · last write {stamp} ({ago}s ago)", style=palette.current.ok)
    return part


def first_line(state: HeaderState, width: int) -> Text:
    """Title, project (after its machine, for a mirrored session), model, thinking level and
    follow state, in ``width`` cells."""
    header = state.loaded.header
    title = plain(state.title, "bold")
    project = plain(header["project"], palette.current.argument)
    if state.machine is not None:  # where it ran: ``devbox:/home/me/api``, as scp writes it
        project = Text.assemble(plain(f"{state.machine}:", "bold"), project)
    if state.loaded.from_tail:  # whole-file rules: not known before the whole file is read
        facts = Text.assemble("  ", (READING_MODEL, "dim"))
    else:
        facts = Text.assemble(
            "  ",
            plain(header["model"], palette.current.secondary),
            "  thinking ",
            plain(header["thinking"], palette.current.warning),
        )
    if state.loaded.leaf_id != state.loaded.session.leaf_id:  # chosen on the branches screen
        facts.append("  ⑂ not the current branch", style=f"bold {palette.current.warning}")
    live = Text.assemble("  ", _live_part(state.live)) if state.live is not None else Text()
    room = width - facts.cell_len - live.cell_len
    if title.cell_len + 2 + project.cell_len > room:
        if room < MIN_TITLE + 2 + MIN_PROJECT:
            project = Text()  # no room for both: the title, and the facts after it
            title = _cut(title, max(MIN_TITLE, room))
        else:
            share = max(MIN_PROJECT, room // 3, room - 2 - title.cell_len)
            project = _elide_start(project, min(project.cell_len, share))
            title = _cut(title, room - 2 - project.cell_len)
    line = Text.assemble(title, "  " if project else "", project, facts, live)
    return _cut(line, width)


def _span(state: HeaderState) -> str:
    """`` over 3h12m``: from the branch's first turn record to its last (by their timestamps;
    a name or a label written later does not lengthen it)."""
    if state.loaded.partial:
        return ""
    span = branch_span(state.loaded.entries)
    if span is None or span < 1:
        return ""  # no dates, or all at once (a session made by a script): nothing to say
    return f" over {short_duration(span)}"


def work_text(loaded: LoadedBranch) -> str:
    """Ink's ``/status`` totals of the whole file: ``work ↑12.3k ↓4.5k ~$0.123!``, with
    ``(estimate)`` after dollars Ink's own may differ from (it prices from the pi.dev catalog
    first; these are its static rates); ``work …`` while the file is read."""
    if loaded.work is None:
        return "work …"
    priced = loaded.work.priced()
    return priced.work() + (" (estimate)" if priced.known and priced.estimate else "")


def second_line(state: HeaderState, width: int) -> Text:
    """The branch's counts and token usage, and the file's work (Ink's ``/status`` totals), in
    ``width`` cells (:func:`fit_parts`): the turns and the branch's tokens first, then the work,
    the tool calls, the messages, the compactions, the cache. While only the last turns are
    read, it says so and counts those turns."""
    loaded = state.loaded
    stats = loaded.stats
    turns = plural(stats.turns, "turn")
    errors = f", {stats.tool_errors:,} failed" if stats.tool_errors else ""
    missing = f", {stats.unanswered:,} without result" if stats.unanswered else ""
    short_missing = f", {stats.unanswered:,} open" if stats.unanswered else ""
    tokens = f"in {compact_count(stats.input_tokens)} out {compact_count(stats.output_tokens)}"
    cache = (
        f"cache r {compact_count(stats.cache_read_tokens)} "
        f"w {compact_count(stats.cache_write_tokens)}"
    )
    calls = HeaderPart(
        f"{plural(stats.tool_calls, 'tool call')}{errors}{missing}",
        f"{compact_count(stats.tool_calls)} calls{errors}{short_missing}",
        rank=2,
    )
    compactions = plural(stats.compactions, "compaction") if stats.compactions else ""
    short_messages = f"{compact_count(stats.messages)} msgs"
    if loaded.partial:  # a first look: these are the figures of the turns shown so far
        head = f"{READING_TURNS.format(turns=turns)}: {plural(stats.messages, 'message')}"
        parts = [HeaderPart(head), calls, HeaderPart(compactions, rank=4)]
        parts.append(HeaderPart(f"tokens {tokens}", tokens))
    else:
        parts = [
            HeaderPart(f"{turns}{_span(state)}", turns),
            HeaderPart(plural(stats.messages, "message"), short_messages, rank=3),
            calls,
            HeaderPart(compactions, rank=4),
            HeaderPart(work_text(loaded), rank=1),
            HeaderPart(f"branch tokens {tokens}", f"branch {tokens}"),
        ]
    parts.append(HeaderPart(cache, rank=5))
    return fit_parts([part for part in parts if part.text], width, "dim")


class SessionHeader(Static):
    """Two lines about the shown session and branch, each cut to the width (never wrapped)."""

    DEFAULT_CSS = """
    SessionHeader {
        height: 2;
        padding: 0 1;
        background: $panel;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self._state: HeaderState | None = None

    def show(self, state: HeaderState) -> None:
        self._state = state
        self.refresh()

    @property
    def text(self) -> str:
        """The two lines as shown at the current width."""
        return str(self.render())

    def render(self) -> Text:
        if self._state is None:
            return Text()
        width = max(1, self.content_region.width or self.size.width - 2)
        line = Text("\n")
        return line.join([first_line(self._state, width), second_line(self._state, width)])
