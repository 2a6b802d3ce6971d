"""Reading a session for the session view: in a thread, with a progress bar while it reads.

A big branch (over :data:`QUICK_ENTRIES` entries) is posted twice: its last turns first, so the
first screen paints at once, then the whole branch. Each :class:`BranchLoader.Loaded` carries the
session's title without a name (Ink's ``/sessions`` rule, read off the event loop).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.message import Message
from textual.widget import Widget
from textual.widgets import ProgressBar

from ink_tui.session import SessionError, SessionFile, open_session
from ink_tui.session.branchview import LoadedBranch, load_branch
from ink_tui.ui.widgets.session_header import fallback_title

__all__ = ["QUICK_ENTRIES", "BranchLoader", "torn_note"]

QUICK_ENTRIES = 1500  # a branch longer than this paints its tail first


def torn_note(session: SessionFile) -> str | None:
    """What to say about the file's end when it was opened: a dropped torn line, a missing
    final newline, or nothing."""
    dropped = session.dropped_final_line
    if dropped is not None:
        return f"torn final line {dropped.line} ignored: {dropped.reason}"
    if not session.ends_with_newline:
        return "the final record has no newline (a crash mid-write?)"
    return None


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

    @dataclass
    class Failed(Message):
        error: SessionError
        session: SessionFile | None

    @dataclass
    class Progress(Message):
        done: int
        total: int

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, BranchLoader.Progress)

    def compose(self) -> ComposeResult:
        yield ProgressBar(id="load-progress", show_eta=False)

    def load(self, path: Path, leaf_id: str | None, *, complete_only: bool = False) -> None:
        """Read ``path`` (a followed file: up to its last complete line) and its branch."""
        if not self.query(ProgressBar):
            self.mount(ProgressBar(id="load-progress", show_eta=False))
        self.display = True
        self._read(path, leaf_id, complete_only)

    def done(self) -> None:
        """The branch is shown: take the bar out (a hidden bar still animates)."""
        self.query(ProgressBar).remove()
        self.display = False

    @work(thread=True, exclusive=True, group="load")
    def _read(self, path: Path, leaf_id: str | None, complete_only: bool) -> None:
        total = max(1, path.stat().st_size) if path.exists() else 1
        session: SessionFile | None = None
        try:
            session = open_session(
                path, warn=None, progress=partial(self._report, total), complete_only=complete_only
            )
            leaf = leaf_id or session.leaf_id
            title = fallback_title(session)
            if len(session.entries) > QUICK_ENTRIES:
                quick = load_branch(session, leaf, last=QUICK_ENTRIES, models=True)
                self.post_message(self.Loaded(quick, title))
            self.post_message(self.Loaded(load_branch(session, leaf, models=True), title))
        except SessionError as error:
            self.post_message(self.Failed(error, session))
        except OSError as error:
            reason = f"cannot read {path}: {error.strerror}"
            self.post_message(self.Failed(SessionError(reason, path=path), None))

    def _report(self, total: int, done: int) -> None:
        self.post_message(self.Progress(done, total))

    @on(Progress)
    def _progress(self, message: Progress) -> None:
        for bar in self.query(ProgressBar):
            bar.update(total=message.total, progress=message.done)
