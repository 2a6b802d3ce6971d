"""What the branch changed (``D`` in the session view): every file its ``edit`` and ``write``
calls touched, beside the highlighted file's net diff.

The files are reconstructed by :func:`ink_tui.session.analysis.changes.collect_changes` in a worker
(from the session view's rows, or from the file when the view holds only its last turns); each diff
is drawn in a worker too, capped at :data:`MAX_DIFF_LINES`. ``t`` lists under each file the turns
that touched it (their own diffs). Enter dismisses the screen with a :class:`Jump`: the row of the
file's first call in a turn, which the session view brings into view. On a turn's line, that turn;
on the file's line, the first turn that touched it, or, when the view was opened after a jump to
that file, the next one (so ``D`` then Enter, again and again, walks through each turn that touched
the file).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Final

from rich.text import Text
from textual import getters, on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ink_tui.humanize import plural
from ink_tui.logs import unforeseen
from ink_tui.safetext import one_line
from ink_tui.session.analysis.changediff import (
    DiffLine,
    diff_lines,
    net_counts,
    summary_parts,
    turn_diff,
)
from ink_tui.session.analysis.changes import FileChanges, collect_changes
from ink_tui.session.conversation.view import Turn
from ink_tui.session.reading.errors import SessionError
from ink_tui.ui.keymap import bind
from ink_tui.ui.options import follow_theme
from ink_tui.ui.render import palette
from ink_tui.ui.render.safe import plain
from ink_tui.ui.widgets.changes_rows import FileLine, TurnLine
from ink_tui.ui.widgets.footer import InkFooter

__all__ = ["MAX_DIFF_LINES", "ChangesScreen", "Jump", "diff_text"]

MAX_DIFF_LINES: Final = 2000  # lines of one diff drawn; the rest is said in a note


def _style(kind: str) -> str:
    colours = palette.current
    return {
        "add": colours.ok,
        "remove": colours.error,
        "hunk": colours.argument,
        "note": "dim",
    }.get(kind, "")


def diff_text(lines: list[DiffLine], *, limit: int = MAX_DIFF_LINES) -> Text:
    """Diff lines coloured (session text through :func:`plain`), at most ``limit`` of them."""
    text = Text()
    for line in lines[:limit]:
        text.append_text(plain(line.text + "\n", _style(line.kind)))
    if len(lines) > limit:
        more = f"⋯ {len(lines) - limit:,} more lines: `ink-tui changes` prints them all"
        text.append_text(plain(more, "bold"))
    return text


@dataclass(frozen=True, slots=True)
class Jump:
    """The row to show (a call's), and the file and turn it was chosen for: the next ``D``
    highlights that file again, and Enter on it goes on to the next turn that touched it."""

    row_key: str
    file: str  # the file's absolute path
    turn: int


@dataclass(frozen=True, slots=True)
class _Row:
    """A line of the list: a file, or one turn of it (``turn`` None: the file)."""

    file: int
    turn: int | None = None

    @property
    def id(self) -> str:
        return f"f{self.file}" if self.turn is None else f"f{self.file}t{self.turn}"


class ChangesScreen(Screen[Jump | None]):
    """The files the branch changed; Enter returns the session view row to show."""

    BINDINGS: ClassVar[list[BindingType]] = [
        bind("open", "jump", "Show in the session", show=True, priority=True),
        bind("detail", "toggle_turns", "Turns", show=True),
        bind("down", "move(1)", "Down", keys=("j",), show=True, group="Move"),
        bind("up", "move(-1)", "Up", keys=("k",), show=True, group="Move"),
        bind("back", "back", "Back", show=True),
    ]

    @dataclass
    class Collected(Message):
        files: list[FileChanges]
        turns: list[Turn]
        summaries: list[str]  # each file's summary words (counted off the event loop)
        nets: list[tuple[int, int] | None]

    @dataclass
    class Failed(Message):
        reason: str

    @dataclass
    class Drawn(Message):
        row: str
        text: Text

    files_list = getters.query_one("#changes-files", OptionList)
    diff = getters.query_one("#changes-diff-text", Static)
    title_line = getters.query_one("#changes-title", Static)

    def __init__(
        self,
        path: Path,
        leaf_id: str | None,
        turns: list[Turn] | None,
        cwd: str,
        *,
        last: Jump | None = None,
    ) -> None:
        """``turns``: the branch's rows when the session view holds all of them (else the
        file is read again); ``last``: the previous jump from this view (its file is
        highlighted, and Enter on it goes on to the next turn)."""
        super().__init__()
        self.path, self.leaf_id, self.cwd = path, leaf_id, cwd
        self.last = last
        self._given = turns
        self.files: list[FileChanges] = []
        self.turns: list[Turn] = []
        self.summaries: list[str] = []
        self.nets: list[tuple[int, int] | None] = []
        self.show_turns = False

    def compose(self) -> ComposeResult:
        yield Static(plain("Changes  ·  reading…", "bold"), id="changes-title")
        with Horizontal(id="changes-body"):
            yield OptionList(id="changes-files")
            with VerticalScroll(id="changes-diff"):
                yield Static(plain("reading the branch…", "dim"), id="changes-diff-text")
        yield InkFooter()

    def on_mount(self) -> None:
        self.files_list.focus()
        self._collect()
        follow_theme(self, self.theme_changed)

    @work(thread=True, exclusive=True, group="changes")
    def _collect(self) -> None:
        try:
            turns = self._given if self._given is not None else self._read_turns()
            files = collect_changes(turns, self.cwd)
            nets = [net_counts(change) for change in files]
            pairs = zip(files, nets, strict=True)
            summaries = ["  ".join(summary_parts(change, net)) for change, net in pairs]
        except (SessionError, OSError) as error:
            self.post_message(self.Failed(str(error)))
            return
        except Exception as error:  # a bug: logged, said in one line, never an app exit
            self.post_message(self.Failed(unforeseen(error, "finding the changed files")))
            return
        self.post_message(self.Collected(files, turns, summaries, nets))

    def _read_turns(self) -> list[Turn]:
        from ink_tui.session import branch, open_session
        from ink_tui.session.conversation.view import build_turns

        session = open_session(self.path, warn=None)
        self.cwd = session.cwd
        return build_turns(branch(session, self.leaf_id))

    @on(Collected)
    def _collected(self, message: Collected) -> None:
        self.files, self.turns = message.files, message.turns
        self.summaries, self.nets = message.summaries, message.nets
        self.title_line.update(self._title())
        last = self.last.file if self.last is not None else None
        where = [index for index, change in enumerate(self.files) if change.absolute == last]
        self._fill(_Row(where[0]) if where else None)
        if not self.files:
            self.diff.update(plain("no file was changed through edit or write on this branch"))

    @on(Failed)
    def _failed(self, message: Failed) -> None:
        self.title_line.update(plain("Changes", "bold"))
        self.diff.update(plain(f"cannot read the changes: {one_line(message.reason)}", "bold"))

    def _title(self) -> Text:
        known = [net for net in self.nets if net is not None]
        text = plain("Changes", "bold")
        text.append_text(plain(f"  ·  {plural(len(self.files), 'file')}"))
        if known:
            added, removed = sum(a for a, _ in known), sum(r for _, r in known)
            text.append_text(plain(f"  ·  +{added}", palette.current.ok))
            text.append_text(plain(f" -{removed}", palette.current.error))
        if len(known) < len(self.files):
            text.append_text(plain(f"  ·  {len(self.files) - len(known)} not reconstructed", "dim"))
        failed = sum(change.failed for change in self.files)
        if failed:
            failures = f"  ·  ✗ {plural(failed, 'failed call')}"
            text.append_text(plain(failures, palette.current.error))
        return text

    # -- the list ------------------------------------------------------------------------------

    def _rows(self) -> list[_Row]:
        rows: list[_Row] = []
        for index, change in enumerate(self.files):
            rows.append(_Row(index))
            if self.show_turns:
                rows += [_Row(index, turn) for turn in change.turns]
        return rows

    def _label(self, row: _Row) -> FileLine | TurnLine:
        """The row's line: one line at any width (laid out as it is drawn)."""
        change = self.files[row.file]
        if row.turn is None:
            return FileLine(change.path, self.summaries[row.file])
        mine = [call for call in change.calls if call.turn == row.turn]
        failed = sum(1 for call in mine if call.failed)
        title = self.turns[row.turn].title if row.turn < len(self.turns) else ""
        return TurnLine(row.turn, title, failed, palette.current.error)

    def _fill(self, keep: _Row | None = None) -> None:
        options = self.files_list
        rows = self._rows()
        options.clear_options()
        options.add_options([Option(self._label(row), id=row.id) for row in rows])
        if rows:
            ids = [row.id for row in rows]
            wanted = keep.id if keep is not None and keep.id in ids else ids[0]
            options.highlighted = ids.index(wanted)

    def _highlighted_row(self) -> _Row | None:
        options = self.files_list
        if options.highlighted is None:
            return None
        option_id = options.get_option_at_index(options.highlighted).id or ""
        file_part, _, turn_part = option_id[1:].partition("t")
        return _Row(int(file_part), int(turn_part) if turn_part else None)

    @on(OptionList.OptionHighlighted, "#changes-files")
    def _moved(self, event: OptionList.OptionHighlighted) -> None:
        row = self._highlighted_row()
        if row is not None:
            self._draw(row)

    @on(OptionList.OptionSelected, "#changes-files")
    def _clicked(self, event: OptionList.OptionSelected) -> None:
        """A click on a line (Enter is the screen's): as Enter."""
        event.stop()
        self.action_jump()

    @work(thread=True, exclusive=True, group="changes-diff")
    def _draw(self, row: _Row) -> None:
        change = self.files[row.file]
        try:
            text = self._diff_of(change, row)
        except Exception as error:  # a bug: logged, said in one line, never an app exit
            text = plain(unforeseen(error, "drawing a diff"), "bold")
        self.post_message(self.Drawn(row.id, text))

    def _diff_of(self, change: FileChanges, row: _Row) -> Text:
        if row.turn is not None:
            head = plain(f"{one_line(change.path)} · turn {row.turn + 1}\n", "bold")
            head.append_text(diff_text(turn_diff(change, row.turn)))
            return head
        head = plain(f"{one_line(change.path)}  {self.summaries[row.file]}\n", "bold")
        turn, count = self._next_turn(change), len(change.turns)
        where = f"Enter shows turn {turn + 1} in the session"
        where += (
            f" ({change.turns.index(turn) + 1} of {count} touching it)\n" if count > 1 else "\n"
        )
        head.append_text(plain(where, "dim"))
        if not change.known:
            why = one_line(change.why_unknown())
            why = f"not reconstructed: {why}; t shows its changes turn by turn"
            head.append_text(plain(why + "\n", "dim"))
            return head
        head.append_text(diff_text(diff_lines(change.start, change.end)))
        for call in change.calls:
            if call.failed:
                line = f"✗ failed {call.kind} in turn {call.turn + 1}: {one_line(call.note)}\n"
                head.append_text(plain(line, palette.current.error))
        return head

    @on(Drawn)
    def _drawn(self, message: Drawn) -> None:
        row = self._highlighted_row()
        if row is not None and row.id == message.row:
            self.diff.update(message.text)
            self.query_one("#changes-diff", VerticalScroll).scroll_home(animate=False)

    def theme_changed(self) -> None:
        """The app's theme changed: the title, the list and the diff in its colours."""
        if self.files:
            row = self._highlighted_row()
            self.title_line.update(self._title())
            self._fill(row)
            if row is not None:
                self._draw(row)

    # -- keys ----------------------------------------------------------------------------------

    def _next_turn(self, change: FileChanges) -> int:
        """The turn Enter on the file's line shows: the first that touched it, or the one
        after the turn shown last time (round again after the last)."""
        turns = change.turns
        last = self.last
        if last is None or last.file != change.absolute or last.turn not in turns:
            return turns[0]
        return turns[(turns.index(last.turn) + 1) % len(turns)]

    def action_jump(self) -> None:
        row = self._highlighted_row()
        if row is None:
            return
        change = self.files[row.file]
        turn = self._next_turn(change) if row.turn is None else row.turn
        first = next(call for call in change.calls if call.turn == turn)
        self.dismiss(Jump(first.row_key, change.absolute, turn))

    def action_toggle_turns(self) -> None:
        self.show_turns = not self.show_turns
        row = self._highlighted_row()
        self._fill(_Row(row.file) if row is not None and not self.show_turns else row)

    def action_move(self, delta: int) -> None:
        (self.files_list.action_cursor_down if delta > 0 else self.files_list.action_cursor_up)()

    def action_back(self) -> None:
        self.dismiss(None)
