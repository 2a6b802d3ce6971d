"""Finding a view's rows: by key, the entry a row stands for, its text, and search."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping
from threading import Event

from ink_tui.session.conversation.view import Item, Turn, TurnChanges

__all__ = [
    "SearchMatches",
    "changed_rows",
    "find_item",
    "match_row",
    "row_entry_id",
    "row_holds",
    "row_label_target",
    "row_text",
    "search_turns",
]


def _item_haystack(item: Item) -> str:
    if item.tool is None:
        return item.text
    arguments = item.tool.arguments
    rendered = (
        " ".join(str(value) for value in arguments.values()) if isinstance(arguments, dict) else ""
    )
    return f"{item.tool.name} {rendered}\n{item.tool.output}"


def find_item(turns: list[Turn], key: str) -> Item | None:
    """The row with transcript key ``key``."""
    for turn in turns:
        for item in turn.items:
            if item.key == key:
                return item
    return None


def match_row(
    turns: list[Turn], entry_id: str, needle: str, row_labels: Mapping[str, str]
) -> str | None:
    """The row showing entry ``entry_id`` that holds ``needle`` (an assistant message shows as
    several rows: its thinking, its text, each call; a tool result shows on its call's row),
    else the entry's first row."""
    first: str | None = None
    folded = needle.casefold()
    for turn in turns:
        if turn.user is not None and turn.user.id == entry_id:
            return turn.key
        for item in turn.items:
            result = item.tool.result_entry if item.tool is not None else None
            if item.entry.id != entry_id and (result is None or result.id != entry_id):
                continue
            if folded and row_holds(item, folded, row_labels):
                return item.key
            first = first or item.key
    return first


def row_entry_id(turns: list[Turn], key: str) -> str | None:
    """The entry a row stands for; a turn row stands for the last entry of its turn."""
    for turn in turns:
        if turn.key == key:
            if turn.items:
                return turn.items[-1].entry.id
            return turn.user.id if turn.user is not None else None
    item = find_item(turns, key)
    return item.entry.id if item is not None else None


def row_label_target(turns: list[Turn], key: str) -> str | None:
    """The entry a label on this row names: a turn row's prompt, an item's own entry; none for
    a model change (a marker, with no id) or the turn before the first prompt."""
    for turn in turns:
        if turn.key == key:
            return turn.user.id if turn.user is not None else None
    item = find_item(turns, key)
    if item is None or item.kind == "model_change":
        return None
    return item.entry.id


def row_text(turns: list[Turn], key: str) -> str:
    """The plain text of a row (what ``y`` copies): a prompt, a text, or a call and its output."""
    for turn in turns:
        if turn.key == key:
            return turn.prompt
    item = find_item(turns, key)
    if item is None:
        return ""
    if item.tool is not None:
        return f"{item.tool.name} {item.tool.key_argument}\n{item.tool.output}"
    return item.text


def row_holds(row: Turn | Item, needle: str, row_labels: Mapping[str, str]) -> bool:
    """Whether a row holds ``needle`` (casefolded): a prompt, a text, thinking, a tool call's
    name, arguments and output, a marker's text, or the label shown on the row."""
    if isinstance(row, Turn):
        if row.user is None:
            return False
        text = row.prompt
    else:
        text = _item_haystack(row)
    return needle in text.casefold() or needle in row_labels.get(row.key, "").casefold()


def search_turns(
    turns: list[Turn],
    query: str,
    row_labels: Mapping[str, str] | None = None,
    *,
    cancelled: Event | None = None,
) -> list[str]:
    """Keys of the rows (prompts, text, thinking, tool calls and their output, labels) holding
    ``query``. ``row_labels`` maps a row key to the label shown on it.

    Case-insensitive; in transcript order. Once ``cancelled`` is set the scan stops, returning
    what it found so far (the caller drops it).
    """
    needle = query.casefold()
    if not needle:
        return []
    shown = row_labels or {}
    found: list[str] = []
    for turn in turns:
        if cancelled is not None and cancelled.is_set():
            break
        if row_holds(turn, needle, shown):
            found.append(turn.key)
        for item in turn.items:
            if row_holds(item, needle, shown):
                found.append(item.key)
    return found


def changed_rows(changes: Iterable[TurnChanges], relabelled: Iterable[str] = ()) -> set[str]:
    """The keys of the rows a follow batch added (turns, rows) or changed (answered calls,
    rows whose label changed)."""
    keys = set(relabelled)
    for change in changes:
        keys.update(turn.key for turn in change.new_turns)
        keys.update(item.key for _, item in change.new_items)
        keys.update(item.key for item in change.answered)
    return keys


def _rows_from_the_end(turns: list[Turn]) -> Iterator[tuple[str, Turn | Item]]:
    for turn in reversed(turns):
        for item in reversed(turn.items):
            yield item.key, item
        yield turn.key, turn


class SearchMatches:
    """The rows matching one query, in transcript order, kept current as the branch grows.

    :meth:`update` searches only the rows that were added or changed: a batch of a followed
    session costs what the batch brought, not the whole branch.
    """

    def __init__(self, query: str, keys: list[str]) -> None:
        self.query = query
        self.keys = keys  # in transcript order
        self._held = set(keys)

    def __len__(self) -> int:
        return len(self.keys)

    def __contains__(self, key: object) -> bool:
        return key in self._held

    def update(
        self, turns: list[Turn], changed: Collection[str], row_labels: Mapping[str, str]
    ) -> int | None:
        """Search rows ``changed`` again (new or changed rows of ``turns``, the branch that
        ``keys`` were found in) and merge them into the matches, in transcript order.

        Returns the first position of :attr:`keys` that changed (``None``: no change). New rows
        and answered calls are at the end of the branch: the walk goes from the end back and
        stops at the earliest changed row, so only rows after it are looked at (by key), and
        only the changed rows are searched.
        """
        needle = self.query.casefold()
        pending = set(changed)
        if not needle or not pending:
            return None
        walked = 0  # matches met on the way back: the last ``walked`` keys
        tail: list[str] = []  # the matches from the earliest changed row on, last first
        for key, row in _rows_from_the_end(turns):
            held = key in self._held
            walked += held
            if key in pending:
                pending.discard(key)
                if row_holds(row, needle, row_labels):
                    tail.append(key)
                if not pending:
                    break
            elif held:
                tail.append(key)
        tail.reverse()
        start = len(self.keys) - walked
        before = self.keys[start:]
        if before == tail:
            return None
        same = 0
        while same < min(len(before), len(tail)) and before[same] == tail[same]:
            same += 1
        self._held.difference_update(before)
        self._held.update(tail)
        self.keys[start:] = tail
        return start + same
