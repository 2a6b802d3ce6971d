"""Reading a session for the session view: in a thread, with a progress bar while it reads.

A big file (over :data:`TAIL_FIRST_BYTES`) paints its last turns read from the END of the file first
(:func:`ink_tui.session.conversation.tailbranch.read_tail_branch`), then the whole branch once the
file is read and checked. A file the catalog index knows is rebuilt from it, and only what Ink
appended since it was indexed is read and checked
(:func:`ink_tui.catalog.index.opening.open_indexed`). A long branch (over :data:`QUICK_ENTRIES`
entries) is posted twice as well: its last turns once the file is read, then the whole branch. Each
:class:`BranchLoader.Loaded` carries the session's title without a name (Ink's ``/sessions`` rule,
read off the event loop). A newer load supersedes an older one: the older thread cannot be stopped,
so what it posts carries its generation and the loader drops it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.message import Message
from textual.widget import Widget
from textual.widgets import ProgressBar
from textual.worker import get_current_worker

from ink_tui.catalog.index.listing import indexed_title
from ink_tui.catalog.index.opening import open_indexed
from ink_tui.catalog.titles import session_title
from ink_tui.logs import unforeseen
from ink_tui.session import SessionError, SessionFile, open_session
from ink_tui.session.conversation.branchview import LoadedBranch, load_branch
from ink_tui.session.conversation.tailbranch import read_tail_branch

__all__ = ["QUICK_ENTRIES", "TAIL_FIRST_BYTES", "BranchLoader", "loading_note", "torn_note"]

QUICK_ENTRIES = 1500  # a branch longer than this paints its tail first
TAIL_FIRST_BYTES = 8 * 1024 * 1024  # a bigger file paints its last turns before it is read
TAIL_TURNS = 12  # turns painted from the end of such a file
PAINT_WAIT = 1.0  # seconds the whole read waits at most for the first screen's paint


def torn_note(session: SessionFile) -> str | None:
    """What to say about the file's end when it was opened: a dropped torn line, a missing
    final newline, or nothing."""
    dropped = session.dropped_final_line
    if dropped is not None:
        return f"torn final line {dropped.line} ignored: {dropped.reason}"
    if not session.ends_with_newline:
        return "the final record has no newline (a crash mid-write?)"
    return None


def loading_note(loaded: LoadedBranch | None, *, following: bool) -> str:
    """What the status line says while a session is read (``following``: asked to follow)."""
    if loaded is None or not loaded.partial:
        note = "reading the session…"
    elif loaded.from_tail:
        note = "showing the last turns, read from the end; reading the whole session…"
    else:
        note = f"showing the last turns; reading the {loaded.earlier} earlier entries…"
    return note + (" following starts once it is read" if following else "")


def _size(path: Path) -> int:
    """The file's size for the progress bar (a missing file: ``open_session`` says so)."""
    try:
        return max(1, path.stat().st_size)
    except FileNotFoundError:
        return 1


class BranchLoader(Widget):
    """Loads a branch of a session file; shows its progress while it reads."""

    DEFAULT_CSS = """
    BranchLoader {
        height: auto;
    }
    """

    @dataclass
    class Loaded(Message):
        loaded: LoadedBranch
        title: str  # the title without a name (the first prompt, …), in whole-file order
        generation: int = 0  # which load read it (a superseded one's is dropped)

    @dataclass
    class Failed(Message):
        error: SessionError
        session: SessionFile | None
        generation: int = 0

    @dataclass
    class Broke(Message):
        """A bug stopped the load: ``line`` names it (its traceback is in the log)."""

        line: str
        generation: int = 0

    @dataclass
    class Progress(Message):
        done: int
        total: int
        generation: int = 0

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, BranchLoader.Progress)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._generation = 0  # of the latest load
        self.painted = threading.Event()  # set by the view once a first look is on screen

    def compose(self) -> ComposeResult:
        yield ProgressBar(id="load-progress", show_eta=False)

    def load(self, path: Path, leaf_id: str | None, *, complete_only: bool = False) -> None:
        """Read ``path`` (a followed file: up to its last complete line) and its branch."""
        if not self.query(ProgressBar):
            self.mount(ProgressBar(id="load-progress", show_eta=False))
        self.display = True
        self._generation += 1
        self._read(path, leaf_id, complete_only, self._generation)

    def done(self) -> None:
        """The branch is shown: take the bar out (a hidden bar still animates)."""
        self.query(ProgressBar).remove()
        self.display = False

    @work(thread=True, exclusive=True, group="load")
    def _read(self, path: Path, leaf_id: str | None, complete_only: bool, generation: int) -> None:
        worker = get_current_worker()
        session: SessionFile | None = None
        try:
            size = _size(path)
            report = partial(self._report, size, generation)
            tail_shown = False
            if size > TAIL_FIRST_BYTES and leaf_id is None and not complete_only:
                first = read_tail_branch(path, TAIL_TURNS, cancel=worker.cancelled_event)
                if first is not None and not worker.is_cancelled:
                    self.painted.clear()
                    self.post_message(self.Loaded(first, indexed_title(path), generation))
                    tail_shown = True
                    # Let the first screen paint before parsing the whole file: this thread
                    # would hold the GIL and slow the paint down.
                    self.painted.wait(PAINT_WAIT)
            # Known to the index: only what was appended since is read (and checked).
            session = open_indexed(path, progress=report, complete_only=complete_only)
            if session is None:
                session = open_session(
                    path, warn=None, progress=report, complete_only=complete_only
                )
            leaf = leaf_id or session.leaf_id
            title = session_title(session)
            big = len(session.entries) > QUICK_ENTRIES and not tail_shown
            shown = None
            if big and not worker.is_cancelled:
                shown = load_branch(session, leaf, last=QUICK_ENTRIES, models=True)
                self.post_message(self.Loaded(shown, title, generation))
            # superseded: the newer load shows the file; a short branch was loaded whole
            if not worker.is_cancelled and (shown is None or shown.partial):
                whole = load_branch(session, leaf, models=True)
                self.post_message(self.Loaded(whole, title, generation))
        except SessionError as error:
            self.post_message(self.Failed(error, session, generation))
        except OSError as error:
            reason = f"cannot read {path}: {error.strerror or error}"
            self.post_message(self.Failed(SessionError(reason, path=path), None, generation))
        except Exception as error:  # a bug: logged, said in one line, never an app exit
            self.post_message(self.Broke(unforeseen(error, "reading the session"), generation))

    def _report(self, total: int, generation: int, done: int) -> None:
        self.post_message(self.Progress(done, total, generation))

    @on(Loaded)
    @on(Failed)
    @on(Broke)
    def _drop_superseded(self, message: Loaded | Failed | Broke) -> None:
        if message.generation != self._generation:
            message.stop()  # a newer load was asked for: this one is not shown

    @on(Progress)
    def _progress(self, message: Progress) -> None:
        if message.generation != self._generation:
            return
        for bar in self.query(ProgressBar):
            bar.update(total=message.total, progress=message.done)
