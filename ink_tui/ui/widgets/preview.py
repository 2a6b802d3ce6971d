"""A read-only preview of a session's last turns, read from the end of the file in a worker.

The worker reads only the file's tail (``session.lastturns``); moving the cursor cancels it
(the worker group is exclusive, and the scan watches the worker's ``cancelled_event``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Final

from rich.console import Group, RenderableType
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Static
from textual.worker import get_current_worker

from ink_tui.catalog import SessionSummary
from ink_tui.session import SessionError
from ink_tui.session.conversation.lastturns import ScanCancelled, read_last_turns
from ink_tui.session.conversation.view import Turn
from ink_tui.ui.options import app_now
from ink_tui.ui.render.blocks import RenderOptions, item_block, turn_block
from ink_tui.ui.render.pieces import shortened
from ink_tui.ui.render.safe import plain
from ink_tui.ui.widgets.session_list import human_size, relative_age

__all__ = ["PREVIEW_TURNS", "SessionPreview"]

PREVIEW_TURNS: Final = 3


class SessionPreview(VerticalScroll, can_focus=False):
    """The last :data:`PREVIEW_TURNS` turns of one session, never written to."""

    @dataclass
    class Loaded(Message):
        path: Path
        turns: list[Turn]
        first_number: int | None  # the number of ``turns[0]`` (counting prompts), if known
        total: int | None  # prompts on the branch; None when only the tail was read

    @dataclass
    class Failed(Message):
        path: Path
        error: str

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.summary: SessionSummary | None = None
        self.loaded_path: Path | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="preview-body")

    def show(self, summary: SessionSummary | None) -> None:
        """Preview ``summary`` (loading it in a worker unless it is already shown)."""
        if summary is None:
            self.summary = None
            self.loaded_path = None
            self._body(plain("no session selected", "dim"))
            return
        same = self.summary
        if same is not None and (same.path, same.mtime, same.size) == (
            summary.path,
            summary.mtime,
            summary.size,
        ):
            return
        self.summary = summary
        self.loaded_path = None
        self._body(Group(*self._heading(summary), plain("loading…", "dim italic")))
        self.scroll_home(animate=False)
        self._load(summary.path)

    def scroll_half_page(self, direction: int) -> None:
        """Half a page down (``1``) or up (``-1``), when shown (``J``/``K`` in the picker)."""
        if self.display:
            self.scroll_relative(y=direction * max(1, self.size.height // 2), animate=False)

    def _body(self, renderable: RenderableType) -> None:
        self.query_one("#preview-body", Static).update(renderable)

    def _heading(self, summary: SessionSummary) -> list[RenderableType]:
        parts: list[RenderableType] = [plain(summary.title or summary.file_name, "bold")]
        details = f"{summary.project_folder}/{summary.file_name}"
        if summary.id is not None:
            details += f"\nid {summary.id}"
        parts.append(plain(details, "dim"))
        model = summary.model.reference if summary.model is not None else "no model recorded"
        facts = (
            f"{model} · {summary.message_count} messages · {summary.leaf_count} "
            f"branch{'es' if summary.leaf_count != 1 else ''} · {human_size(summary.size)} · "
            f"{relative_age(summary.mtime, self._now())}"
        )
        parts.append(plain(facts, "dim"))
        if summary.hidden_reason is not None:
            parts.append(plain(f"Ink's /sessions hides this session: {summary.hidden_reason}"))
        parts.append(Text(""))
        return parts

    def _now(self) -> float:
        return app_now(self)

    @work(thread=True, exclusive=True, group="preview")
    def _load(self, path: Path) -> None:
        worker = get_current_worker()
        try:
            last = read_last_turns(path, PREVIEW_TURNS, cancel=worker.cancelled_event)
        except ScanCancelled:
            return  # the cursor moved on: another preview is loading
        except SessionError as error:
            self.post_message(self.Failed(path, f"{error.kind}: {error.message}"))
            return
        except OSError as error:
            self.post_message(self.Failed(path, f"cannot read the file: {error}"))
            return
        if not worker.is_cancelled:
            self.post_message(self.Loaded(path, last.turns, last.first_number, last.total))

    @on(Loaded)
    def _loaded(self, message: Loaded) -> None:
        message.stop()
        if self.summary is None or self.summary.path != message.path:
            return  # the cursor moved on
        self.loaded_path = message.path
        parts = self._heading(self.summary)
        if message.total is None:
            parts.append(plain("… the last turns (read from the end of the file)", "dim italic"))
        elif message.total > PREVIEW_TURNS:
            parts.append(plain(f"… the last turns of {message.total}", "dim italic"))
        if not message.turns:
            parts.append(plain("(no messages yet)", "dim italic"))
        options = RenderOptions()
        number = message.first_number
        for turn in message.turns:
            if turn.user is not None:
                parts.append(shortened(turn_block(turn, number or 0)))  # 0: shown unnumbered
                number = None if number is None else number + 1
            for item in turn.items:
                block = item_block(item, options)
                if block is not None:
                    parts.append(shortened(block))
            parts.append(Text(""))
        self._body(Group(*parts))
        self.call_after_refresh(self.scroll_end, animate=False)  # once the body is laid out

    @on(Failed)
    def _failed(self, message: Failed) -> None:
        message.stop()
        if self.summary is None or self.summary.path != message.path:
            return
        self.loaded_path = message.path
        parts = self._heading(self.summary)
        parts.append(plain(f"cannot open this session: {message.error}"))
        self._body(Group(*parts))
