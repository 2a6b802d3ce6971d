"""The conversation of the chat pane: its rows and notes, then the reply being streamed.

The rows are the session view's: the entries shown (the end of the branch when the pane opens,
then what the chat writes, then what another writer appended on the branch it goes on from)
go through the view's :class:`~ink_tui.session.conversation.view.TurnBuilder`, one
:class:`~ink_tui.ui.widgets.chat_rows.ChatRow` per prompt, reply text, thinking, tool call…,
each drawn by the replay's blocks; a call's row is drawn again when its result is written. The
user's message is shown at once, before it is written: the next user message written takes its
place (rows written before it go above it, in the order of the file).

The log stays anchored at the bottom while text arrives, until the user scrolls up (Textual's
``anchor()``); scrolling back to the bottom anchors it again.

The log keeps at most :data:`MAX_BLOCKS` rows and notes: older ones leave the DOM, and a line
at the top counts the messages not shown (those of the branch before the pane opened, and
those pruned since). The session view, a Line-API view built for whole sessions, shows them
all; the pane is for the exchange going on. Pruning waits while the user reads further up, so
nothing moves under their eyes.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from ink_tui.agent.providers.assemble import StreamEvent
from ink_tui.humanize import plural
from ink_tui.session.conversation.view import Item, Turn, TurnBuilder, TurnChanges
from ink_tui.session.reading.reader import Entry
from ink_tui.session.reading.recordtypes import EntryRecord
from ink_tui.ui.render.safe import plain
from ink_tui.ui.widgets.chat_entries import ChatHistory
from ink_tui.ui.widgets.chat_rows import ChatRow, Row, chat_options, row_renderable
from ink_tui.ui.widgets.chat_stream import StreamView

__all__ = ["MAX_BLOCKS", "STREAM_REFRESH", "ChatLog", "Scroll"]

STREAM_REFRESH = 0.05  # seconds between repaints of a streaming reply
MAX_BLOCKS = 200  # rows and notes kept mounted
Scroll = Literal["page_up", "page_down", "top", "bottom"]


class ChatLog(VerticalScroll):
    """Rows (kept, so that they can be drawn again), notes, and the streaming reply."""

    max_blocks = MAX_BLOCKS

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.options = chat_options()
        self._builder = TurnBuilder()
        self._rows: dict[str, ChatRow] = {}  # row key -> its row, while mounted
        self._labels: dict[str, str] = {}  # row key -> the label of the entry it shows
        self._earlier = 0  # messages above the first one shown
        self._unsent: list[ChatRow] = []  # user messages shown, not written yet (file order)
        self._repaint_pending = False

    def compose(self) -> ComposeResult:
        yield Static(id="chat-earlier")
        yield StreamView(id="chat-stream")

    def on_mount(self) -> None:
        self.query_one("#chat-earlier").display = False
        self._stream.show(plain("loading the session…", "dim"))
        self.anchor()
        self.watch(self, "scroll_y", self._scrolled, init=False)

    @property
    def _stream(self) -> StreamView:
        return self.query_one("#chat-stream", StreamView)

    @property
    def show_thinking(self) -> bool:
        return self.options.show_thinking

    # -- what is shown -----------------------------------------------------------------------

    def show_history(self, history: ChatHistory) -> None:
        """The end of the branch the chat goes on from (the messages before it are counted)."""
        self.set_earlier(history.earlier)
        changes = self._builder.add_in_file_order(history.entries, history.markers, None)
        self._labels = self._builder.row_labels(history.labels)
        for change in changes:
            self._place(change)

    def add_written(self, entries: list[Entry]) -> None:
        """What the chat wrote: its calls are awaited until their results are written (or the
        turn ends: :meth:`turn_ended`); the user message takes the place it was shown at."""
        for entry in entries:
            change = self._builder.add(entry)
            calls = {item.key for _, item in change.new_items if _awaited(item)}
            if calls:
                self.options = replace(self.options, waiting=self.options.waiting | calls)
            self._place(change, written=True)

    def add_arrived(self, entries: list[Entry]) -> None:
        """What another writer appended on the branch the chat goes on from, shown before the
        user message still unsent: the order of the file."""
        for entry in entries:
            self._place(self._builder.add(entry))

    def add_unsent(self, text: str) -> None:
        """The user's message, shown at once; written when the provider accepts the request."""
        message = {"role": "user", "content": text}
        record: EntryRecord = {
            "type": "message",
            "id": "",
            "parentId": None,
            "timestamp": "",
            "message": message,
        }
        turn = Turn(Entry(record, 0, 0, 0))  # (no id until it is written)
        self._unsent.append(self._mount(turn, 0))

    def drop_unsent(self) -> None:
        """The last user message shown will never be written: it stays, as it was sent."""
        if self._unsent:
            self._unsent.pop()

    def turn_ended(self) -> None:
        """No result is awaited any more: a call still without one was interrupted."""
        waiting = self.options.waiting
        if waiting:
            self.options = replace(self.options, waiting=frozenset())
            self._redraw(waiting)

    def _place(self, change: TurnChanges, *, written: bool = False) -> None:
        """Rows for what one entry added; calls it answered drawn again."""
        rows: list[Row] = [turn for turn in change.new_turns if turn.user is not None]
        rows += [item for _, item in change.new_items]
        for index, row in enumerate(rows):
            messages = 1 if index == 0 and _is_message(row) else 0
            if written and self._unsent and isinstance(row, Turn):
                unsent = self._unsent.pop(0)
                unsent.row, unsent.messages = row, messages  # the message shown, now written
                self._rows[row.key] = unsent
                unsent.draw(self.options, self._labels.get(row.key))
            else:
                self._rows[row.key] = self._mount(row, messages)
        answered = [self._rows[i.key] for i in change.answered if i.key in self._rows]
        if answered and not rows:
            answered[0].messages += 1  # the results are shown under their calls
        for block in dict.fromkeys(answered):
            block.draw(self.options, self._labels.get(block.row.key))

    def _mount(self, row: Row, messages: int) -> ChatRow:
        block = ChatRow(row, row_renderable(row, self.options, self._labels.get(row.key)), messages)
        self.mount(block, before=self._unsent[0] if self._unsent else self._stream)
        self._prune()
        return block

    def _redraw(self, keys: set[str] | frozenset[str]) -> None:
        for key in keys:
            block = self._rows.get(key)
            if block is not None:
                block.draw(self.options, self._labels.get(key))

    def note(self, text: str, style: str = "dim") -> None:
        self.mount(Static(plain(text, style), classes="chat-note"), before=self._stream)
        self._prune()

    def set_earlier(self, count: int) -> None:
        """``count`` messages come before the first one shown."""
        self._earlier = count
        marker = self.query_one("#chat-earlier", Static)
        marker.display = count > 0
        marker.update(
            plain(
                f"… {plural(count, 'earlier message')}, not shown here: the session view (Esc "
                "when idle) has the whole conversation",
                "dim",
            )
        )

    @property
    def following(self) -> bool:
        """The view is at the bottom (where new text is followed), not up in the history (an
        anchored log shorter than its window may sit at a negative offset)."""
        return self.max_scroll_y == 0 or self.scroll_offset.y >= self.max_scroll_y

    def _scrolled(self) -> None:
        if self.following:
            self._prune()

    def _prune(self) -> None:
        """Unmount the oldest blocks past :attr:`max_blocks`, unless the user reads up there."""
        blocks = [
            child
            for child in self.children
            if child.has_class("chat-message") or child.has_class("chat-note")
        ]
        excess = len(blocks) - self.max_blocks
        if excess <= 0 or not self.following:
            return
        pruned = 0
        for block in blocks[:excess]:
            if block in self._unsent:
                break
            if isinstance(block, ChatRow):
                pruned += block.messages
                if self._rows.get(block.row.key) is block:
                    del self._rows[block.row.key]
            block.remove()
        if pruned:
            self.set_earlier(self._earlier + pruned)

    def fail(self, text: str) -> None:
        """The chat cannot start: say why where the conversation would be."""
        self._stream.show(plain(text, "bold red"))

    def ready(self) -> None:
        """The session is loaded: the loading line goes."""
        self.clear_stream()

    def set_show_thinking(self, show: bool) -> None:
        """Show or hide thinking, in the rows shown so far and in the streaming reply."""
        self.options = replace(self.options, show_thinking=show)
        self._stream.show_thinking = show
        self._redraw({key for key, block in self._rows.items() if _is_thinking(block.row)})
        self._repaint()

    def scroll_history(self, where: Scroll) -> None:
        if where == "page_up":
            self.scroll_page_up(animate=False)
        elif where == "page_down":
            self.scroll_page_down(animate=False)
        elif where == "top":
            self.scroll_home(animate=False)
        else:
            self.scroll_end(animate=False)

    # -- the streaming reply -----------------------------------------------------------------

    def stream_delta(self, event: StreamEvent) -> None:
        """Text, thinking or a tool call arrived: repaint within :data:`STREAM_REFRESH`."""
        self._stream.feed(event)
        if not self._repaint_pending:
            self._repaint_pending = True
            self.set_timer(STREAM_REFRESH, self._repaint)

    def _repaint(self) -> None:
        self._repaint_pending = False
        if self._stream.has_content:  # (else cleared since the repaint was asked for)
            self._stream.repaint()

    def clear_stream(self) -> None:
        """The reply was recorded (it is shown as rows) or dropped."""
        self._stream.clear()


def _is_message(row: Row) -> bool:
    """Whether ``row`` is the first row of a message (a model switch is no message's)."""
    entry = row.user if isinstance(row, Turn) else row.entry
    model_switch = isinstance(row, Item) and row.kind == "model_change"
    return entry is not None and entry.type == "message" and not model_switch


def _awaited(item: Item) -> bool:
    return item.tool is not None and item.tool.result is None


def _is_thinking(row: Row) -> bool:
    return isinstance(row, Item) and row.kind == "thinking"
