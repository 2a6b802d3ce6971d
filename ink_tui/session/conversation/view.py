"""View rows of a branch: turns, and under each the things the user saw happen.

A :class:`Turn` starts at each user message. Its :class:`Item` rows are the assistant's text and
thinking, each tool call joined with its result (one :class:`ToolExchange`), compactions,
branch summaries, the small metadata entries, and the model switches (``session_model`` markers,
placed among the branch's entries in file order). The tree and the replay pane both draw these
rows, so they always agree; nothing here renders or runs anything.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ink_tui.session.conversation.skills import skill_summary
from ink_tui.session.conversation.tree import fold_labels, label_writes
from ink_tui.session.reading.reader import Entry, Marker
from ink_tui.session.reading.recordtypes import (
    JsonObject,
    ReadMessage,
    SessionModelMarker,
    json_list,
    json_object,
)
from ink_tui.session.reading.shapes import MISSING, not_a_list, not_an_object
from ink_tui.session.rules.content import content_text
from ink_tui.session.rules.fillins import FillIn, fill_in, is_unknown_outcome

__all__ = [
    "Item",
    "ToolExchange",
    "Turn",
    "TurnBuilder",
    "TurnChanges",
    "build_turns",
    "first_text_line",
    "key_argument",
    "model_label",
    "update_labels",
]

ItemKind = Literal[
    "text",
    "thinking",
    "tool",
    "orphan_result",
    "compaction",
    "branch_summary",
    "thinking_level",
    "session_info",
    "label",
    "model_change",
    "oddity",  # a shape Ink's code trips on (``blocks`` that is not a list…), shown as it is
]
ToolStatus = Literal["ok", "error", "missing", "unknown"]
ODD_LIST_INDEX = -1  # the index of an oddity row about a whole list (``blocks`` is 5)

_KEY_ARGUMENTS = {
    "bash": ("command",),
    "read": ("path",),
    "edit": ("path",),
    "write": ("path",),
    "grep": ("pattern", "path"),
    "find": ("pattern", "path"),
    "ls": ("path",),
    "task": ("prompt",),
}


def first_text_line(text: str) -> str:
    """The first line of ``text`` that is not blank, stripped (``""``: none). It reads no
    further than that line: a prompt of megabytes costs its first line only."""
    start, size = 0, len(text)
    while start < size:
        end = text.find("\n", start)
        end = size if end < 0 else end
        line = text[start:end].strip()
        if line:
            return line
        start = end + 1
    return ""


def key_argument(name: str, arguments: Any) -> str:
    """The argument that says what a call did: its command, path or pattern (first line)."""
    if not isinstance(arguments, dict):
        return ""
    keys = _KEY_ARGUMENTS.get(name) or tuple(arguments)[:1]
    values = [str(arguments[key]) for key in keys if isinstance(arguments.get(key), str | int)]
    text = " in ".join(values) if name in ("grep", "find") else (values[0] if values else "")
    return text.strip().split("\n", 1)[0]


@dataclass(slots=True)
class ToolExchange:
    """A tool call and its recorded result (if any)."""

    call_id: str
    name: str
    arguments: object
    result: JsonObject | None = None
    result_entry: Entry | None = None
    duplicate_results: int = 0

    @property
    def status(self) -> ToolStatus:
        if self.result is None:
            return "missing"
        if is_unknown_outcome(self.result):
            return "unknown"  # closed by a continuation: it may have partly run
        return "error" if self.result.get("isError") else "ok"

    @property
    def fill_in(self) -> FillIn | None:
        """What Ink's fill-in result says happened (not run: output limit, abandoned after an
        interrupt, blocked by an extension…); ``None`` for a real result, or none yet."""
        return None if self.result is None else fill_in(self.result)

    @property
    def key_argument(self) -> str:
        return key_argument(self.name, self.arguments)

    @property
    def output(self) -> str:
        if self.result is None:
            return ""
        return content_text(self.result.get("content"), show_non_string_text=True)


@dataclass(slots=True)
class Item:
    """One row under a turn."""

    kind: ItemKind
    entry: Entry  # a model switch: the branch entry it follows (the first one, if none)
    index: int  # position of the block/result inside the entry's message; a marker's line
    text: str = ""
    tool: ToolExchange | None = None

    @property
    def key(self) -> str:
        """Stable identity inside a branch: ``<entry id>:<index>`` (``model@<line>``)."""
        if self.kind == "model_change":
            return f"model@{self.index}"
        return f"{self.entry.id}:{self.index}"


@dataclass(slots=True)
class Turn:
    """A user message (``None`` before the first one) and what followed it."""

    user: Entry | None
    items: list[Item] = field(default_factory=list)

    @property
    def key(self) -> str:
        return f"{self.user.id}:turn" if self.user is not None else "start:turn"

    @property
    def user_id(self) -> str:
        return self.user.id if self.user is not None else ""

    @property
    def prompt(self) -> str:
        if self.user is None:
            return ""
        return content_text(self.user.message.get("content"), show_non_string_text=True)

    @property
    def title(self) -> str:
        """``▪ skill: NAME`` for an expanded skill block (as Ink's replay), else the first line."""
        skill = skill_summary(self.prompt)
        if skill is not None:
            return skill
        return first_text_line(self.prompt) or (
            "(session start)" if self.user is None else "(empty prompt)"
        )

    def tools(self) -> Iterator[ToolExchange]:
        for item in self.items:
            if item.tool is not None:
                yield item.tool


def _meta_item(entry: Entry) -> Item | None:
    record = entry.record
    kind = entry.type
    if kind == "compaction":
        return Item("compaction", entry, 0, str(record.get("summary", "")))
    if kind == "branchSummary":
        return Item("branch_summary", entry, 0, str(record.get("summary", "")))
    if kind == "thinkingLevelChange":
        return Item("thinking_level", entry, 0, str(record.get("thinkingLevel", "")))
    if kind == "session_info":
        return Item("session_info", entry, 0, str(record.get("name", "")))
    if kind == "label":
        text = str(record.get("label", ""))
        return Item("label", entry, 0, f"{record.get('targetId')}: {text}" if text else "")
    return None


def model_label(marker: Marker[SessionModelMarker]) -> str:
    """``provider/modelId`` of a ``session_model`` marker."""
    return f"{marker.record['provider']}/{marker.record['modelId']}"


@dataclass(slots=True)
class TurnChanges:
    """What one more entry changed: turns that appeared, rows added, tool rows now answered."""

    new_turns: list[Turn] = field(default_factory=list)
    new_items: list[tuple[Turn, Item]] = field(default_factory=list)
    answered: list[Item] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.new_turns or self.new_items or self.answered)


class TurnBuilder:
    """Builds turns entry by entry, so a followed session grows without being rebuilt."""

    def __init__(self) -> None:
        self._turns: list[Turn] = [Turn(None)]
        self._calls: dict[str, Item] = {}
        self._rows: dict[str, str] = {}  # entry id -> the key of the first row showing it
        self._last: Entry | None = None

    @property
    def turns(self) -> list[Turn]:
        """The turns so far (the rows before the first prompt form a turn only if any)."""
        return self._turns if self._turns[0].items else self._turns[1:]

    def row_for(self, entry_id: str) -> str | None:
        """The key of the row that shows entry ``entry_id`` (its first row), if any."""
        return self._rows.get(entry_id)

    def row_labels(self, labels: dict[str, str]) -> dict[str, str]:
        """Row key -> the label of the entry that row shows (labels name entries, file-wide)."""
        shown: dict[str, str] = {}
        for target, label in labels.items():
            key = self._rows.get(target)
            if key is not None:
                shown[key] = label
        return shown

    def _append(self, item: Item, changes: TurnChanges) -> None:
        turn = self._turns[-1]
        if turn.user is None and not turn.items:
            changes.new_turns.append(turn)
        turn.items.append(item)
        changes.new_items.append((turn, item))
        if item.kind != "model_change":
            self._rows.setdefault(item.entry.id, item.key)

    def add_marker(self, marker: Marker[SessionModelMarker], follows: Entry) -> TurnChanges:
        """A ``session_model`` marker after entry ``follows`` (in file order): a model switch."""
        changes = TurnChanges()
        self._append(Item("model_change", follows, marker.line, model_label(marker)), changes)
        return changes

    def add_in_file_order(
        self,
        entries: Sequence[Entry],
        markers: Sequence[Marker[SessionModelMarker]],
        last: Entry | None,
    ) -> list[TurnChanges]:
        """Add ``entries`` (branch order) and the ``session_model`` markers among them, each
        marker where it sits in the file (by line); ``last``: the entry shown before these."""
        changes: list[TurnChanges] = []
        pending = sorted(markers, key=lambda marker: marker.line)
        index = 0
        for entry in entries:
            while index < len(pending) and pending[index].line < entry.line:
                changes.append(self.add_marker(pending[index], last or entry))
                index += 1
            changes.append(self.add(entry))
            last = entry
        if last is not None:
            for marker in pending[index:]:
                changes.append(self.add_marker(marker, last))
        return changes

    def add(self, entry: Entry) -> TurnChanges:
        """Add the next entry of the branch (root first)."""
        changes = TurnChanges()
        if entry.type != "message":
            item = _meta_item(entry)
            if item is not None:
                self._append(item, changes)
            return changes
        message = entry.message
        role = message["role"]
        if role == "user":
            turn = Turn(entry)
            self._turns.append(turn)
            changes.new_turns.append(turn)
            self._rows.setdefault(entry.id, turn.key)
        elif role == "assistant":
            self._add_listed(entry, "blocks", "block", message, changes)
        elif role == "toolResult":
            self._add_listed(entry, "results", "result", message, changes)
        return changes

    def _add_listed(
        self, entry: Entry, field: str, one: str, message: ReadMessage, changes: TurnChanges
    ) -> None:
        """The blocks or results of a message; an oddity row for each shape that is not one."""
        listed = message.get("blocks" if field == "blocks" else "results", MISSING)
        odd = not_a_list(field, listed)
        if odd is not None:
            self._append(Item("oddity", entry, ODD_LIST_INDEX, odd), changes)
        for index, value in enumerate(json_list(listed)):
            if not json_object(value):
                odd = not_an_object(f"{one} {index}", value) or ""
                self._append(Item("oddity", entry, index, odd), changes)
            elif field == "blocks":
                self._add_block(entry, index, value, changes)
            else:
                self._add_result(entry, index, value, changes)

    def _add_block(self, entry: Entry, index: int, block: JsonObject, changes: TurnChanges) -> None:
        kind = block.get("type")
        if kind == "text":
            self._append(Item("text", entry, index, str(block.get("text", ""))), changes)
        elif kind == "thinking":
            self._append(Item("thinking", entry, index, str(block.get("thinking", ""))), changes)
        elif kind == "toolCall":
            exchange = ToolExchange(
                str(block.get("id")), str(block.get("name")), block.get("arguments")
            )
            item = Item("tool", entry, index, "", exchange)
            self._calls.setdefault(exchange.call_id, item)
            self._append(item, changes)

    def _add_result(
        self, entry: Entry, index: int, result: JsonObject, changes: TurnChanges
    ) -> None:
        item = self._calls.get(str(result.get("toolCallId")))
        found = item.tool if item is not None else None
        if item is None or found is None:
            text = content_text(result.get("content"), show_non_string_text=True)
            self._append(Item("orphan_result", entry, index, text), changes)
        elif found.result is None:
            found.result, found.result_entry = result, entry
            changes.answered.append(item)
            self._rows.setdefault(entry.id, item.key)
        else:
            found.duplicate_results += 1
            changes.answered.append(item)


def build_turns(branch_entries: list[Entry]) -> list[Turn]:
    """Group a branch (root first) into turns, pairing every tool call with its result."""
    builder = TurnBuilder()
    for entry in branch_entries:
        builder.add(entry)
    return builder.turns


def update_labels(labels: dict[str, str], entries: list[Entry]) -> set[str]:
    """Apply the ``label`` entries among ``entries`` (file order) to ``labels`` in place, by Ink's
    rule (:func:`~ink_tui.session.conversation.tree.fold_labels`); the target ids whose label
    changed."""
    return fold_labels(labels, label_writes(entries))
