"""Finding a view's rows: by key, the entry a row stands for, its text, and search."""

from __future__ import annotations

from ink_tui.session.view import Item, Turn

__all__ = ["find_item", "row_entry_id", "row_text", "search_turns"]


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


def row_entry_id(turns: list[Turn], key: str) -> str | None:
    """The entry a row stands for; a turn row stands for the last entry of its turn."""
    for turn in turns:
        if turn.key == key:
            if turn.items:
                return turn.items[-1].entry.id
            return turn.user.id if turn.user is not None else None
    item = find_item(turns, key)
    return item.entry.id if item is not None else None


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


def search_turns(
    turns: list[Turn], query: str, row_labels: dict[str, str] | None = None
) -> list[str]:
    """Keys of the rows (prompts, text, thinking, tool calls and their output, labels) holding
    ``query``. ``row_labels`` maps a row key to the label shown on it.

    Case-insensitive; in transcript order.
    """
    needle = query.casefold()
    if not needle:
        return []
    shown = row_labels or {}
    found: list[str] = []
    for turn in turns:
        if turn.user is not None and (
            needle in turn.prompt.casefold() or needle in shown.get(turn.key, "").casefold()
        ):
            found.append(turn.key)
        for item in turn.items:
            if (
                needle in _item_haystack(item).casefold()
                or needle in shown.get(item.key, "").casefold()
            ):
                found.append(item.key)
    return found
