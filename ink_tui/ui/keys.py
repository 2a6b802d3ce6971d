"""The keys that work everywhere, and the keys that work on a screen now, as help and the command
palette list them. Below the screens, so the help screen needs no import of the app.

What works now is what a key press reaches: the bindings of the focused widget, then of each
widget it sits in, the screen's, then the app's (as Textual dispatches them), less those a text
box with the focus takes as text (on the search screen ``q`` and ``?`` type into the query) and
those the screen says are off (``check_action``). Only ink-tui's own bindings are listed, in its
own words: Textual's widgets (the tree, the tables) bind the same keys to the same ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from textual.actions import parse
from textual.binding import Binding, BindingType
from textual.dom import DOMNode
from textual.screen import Screen

from ink_tui.ui.keymap import bind, character_of, key_names

__all__ = [
    "APP_BINDINGS",
    "CHAT_BINDINGS",
    "PICKER_KEYS",
    "KeyRow",
    "typing_focused",
    "working_keys",
]

APP_BINDINGS: list[BindingType] = [
    bind("quit", "quit", "Quit", show=True),
    bind("help", "help", "Help", keys=("question_mark", "f1"), show=True),  # F1 where ? types
    bind("palette", "command_palette", "Commands"),
    bind("quit", "quit", "Quit", keys=("ctrl+q",), priority=True),  # where q types
]
"""The app's own keys (``InkApp.BINDINGS``)."""

CHAT_BINDINGS: list[BindingType] = [
    bind("back", "escape", "Interrupt / back", show=True),
    bind("model", "pick_model", "Model", show=True),
    bind("compact", "compact", "Compact", show=True),
    bind("detail", "toggle_thinking", "Thinking", keys=("ctrl+t",), show=True),
    bind("page_up", "scroll_history('page_up')", "Page up"),
    bind("page_down", "scroll_history('page_down')", "Page down"),
    bind("top", "scroll_history('top')", "First message", keys=("ctrl+home",)),
    bind("bottom", "scroll_history('bottom')", "Latest", keys=("ctrl+end",)),
    # text, never the app's quit and help (no description: not listed anywhere)
    bind("type", "typed('q')", keys=("q",)),
    bind("type", "typed('?')", keys=("question_mark",)),
]
"""The chat pane's keys (``ChatScreen.BINDINGS``)."""

# The footer shows the list's Enter, then Space, /, s and Tab, then q and ?: what fits in 120
# columns; ? lists the rest.
PICKER_KEYS: list[BindingType] = [
    bind("open", "open", "Open"),  # the list's own Enter comes first (shown in the footer)
    bind("toggle", "toggle_preview", "Preview", show=True),
    # priority: handled as it is read, so "/quokka⏎" typed fast all goes into the filter
    bind("find", "filter", "Filter", show=True, priority=True),
    bind("search", "search_sessions", "Search text", show=True),
    bind("switch", "toggle_scope", "Scope", show=True),
    bind("chat", "new_session", "New chat"),
    bind("copy", "copy_session", "Copy…", keys=("y",)),
    bind("rename", "rename_session", "Rename"),
    bind("delete", "delete_session", "Delete"),
    bind("undo", "undo_delete", "Undo delete, prune or scrub"),
    bind("prune", "prune_orphans", "Prune orphans"),
    bind("stats", "usage_stats", "Usage and cost"),
    bind("sync", "sync_machines", "Sync machines"),
    bind("problems", "toggle_problems", "Problems only"),
    bind("secrets_only", "toggle_secrets", "Secrets only"),
    bind("secrets", "list_secrets", "Secrets"),
    bind("scrub", "scrub_session", "Scrub secrets"),
    bind("back", "escape", "Close preview / clear filter"),
    bind("down", "move(1)", "Down", keys=("j",)),
    bind("up", "move(-1)", "Up", keys=("k",)),
    bind("top", "edge('top')", "Top", keys=("g",)),
    bind("bottom", "edge('bottom')", "Bottom", keys=("G",)),
    bind("preview_down", "scroll_preview(1)", "Scroll the preview down"),
    bind("preview_up", "scroll_preview(-1)", "Scroll the preview up"),
]
"""The picker's keys (``PickerScreen.BINDINGS``): actions of the screen (copy, rename, delete,
undo and prune go to its :class:`~ink_tui.ui.widgets.keeper.SessionKeeper`). They stay on the
screen, not on the list: on a screen both narrow and short the preview takes the list's place,
and the keys still act on the sessions then."""

Level = Literal["part", "screen", "app"]


@dataclass(frozen=True, slots=True)
class KeyRow:
    """One thing a key does here: its keys, what it does, and whose it is (``part``: the
    focused widget or one it sits in; ``screen``; ``app``: everywhere)."""

    keys: tuple[str, ...]
    description: str
    action: str
    node: DOMNode
    level: Level
    show: bool  # in the footer

    @property
    def key_text(self) -> str:
        """``G, End``: the keys as a person names them."""
        return key_names(self.keys)


def _declared(node: DOMNode) -> list[Binding]:
    """The bindings ink-tui's classes declare for ``node`` (Textual's own are left out), each
    key's as its nearest class declares them (Space: pause while playing back, else open)."""
    by_key: dict[str, list[Binding]] = {}
    for cls in reversed(type(node).__mro__):
        if not cls.__module__.startswith("ink_tui."):
            continue
        own: dict[str, list[Binding]] = {}
        for binding in Binding.make_bindings(cls.__dict__.get("BINDINGS", ())):
            own.setdefault(binding.key, []).append(binding)
        for key, bindings in own.items():
            by_key.pop(key, None)  # a subclass's key comes in its own place
            by_key[key] = bindings
    return [binding for bindings in by_key.values() for binding in bindings]


def _chain(screen: Screen[object]) -> list[DOMNode]:
    focused = screen.focused
    if focused is None:
        return [screen, screen.app]
    return list(focused.ancestors_with_self)


def typing_focused(screen: Screen[Any]) -> bool:
    """Whether the focused widget takes letters as text (a query line, the chat's box)."""
    focused = screen.focused
    return focused is not None and focused.check_consume_key("q", "q")


def _enabled(binding: Binding, node: DOMNode, screen: Screen[object]) -> bool:
    destination, name, parameters = parse(binding.action)
    target: DOMNode | None = node
    if destination == "app":
        target = screen.app
    elif destination == "screen":
        target = screen
    elif destination == "focused":
        target = screen.focused
    return target is not None and target.check_action(name, parameters) is not False


def _reached(screen: Screen[object]) -> list[tuple[DOMNode, Binding]]:
    """The bindings a press of their key reaches now, in the chain's order (for each key: a
    priority one nearest the app, else the one nearest the focus, as Textual dispatches)."""
    chain = _chain(screen)
    candidates: list[tuple[int, DOMNode, Binding]] = []
    for depth, node in enumerate(chain):
        declared = _declared(node) if node is not screen.app else _app_bindings()
        for binding in declared:
            character = character_of(binding.key)
            if any(nearer.check_consume_key(binding.key, character) for nearer in chain[:depth]):
                continue  # the focused text box takes it as text
            if binding.description and _enabled(binding, node, screen):
                candidates.append((depth, node, binding))

    def precedence(candidate: tuple[int, DOMNode, Binding]) -> tuple[bool, int]:
        depth, _, binding = candidate
        return (not binding.priority, -depth if binding.priority else depth)

    winners: dict[str, Binding] = {}
    for _, _, binding in sorted(candidates, key=precedence):
        winners.setdefault(binding.key, binding)
    return [(node, binding) for _, node, binding in candidates if winners[binding.key] is binding]


def _app_bindings() -> list[Binding]:
    return list(Binding.make_bindings(APP_BINDINGS))


def working_keys(screen: Screen[object]) -> list[KeyRow]:
    """What each key does on ``screen`` now, nearest the focus first, one row per action."""
    order: list[tuple[int, str, str]] = []
    rows: dict[tuple[int, str, str], tuple[DOMNode, list[Binding]]] = {}
    for node, binding in _reached(screen):
        ident = (id(node), binding.action, binding.description)
        if ident not in rows:
            order.append(ident)
            rows[ident] = (node, [])
        rows[ident][1].append(binding)
    found: list[KeyRow] = []
    for ident in order:
        node, bindings = rows[ident]
        level: Level = "app" if node is screen.app else "screen" if node is screen else "part"
        first = bindings[0]
        keys = tuple(binding.key for binding in bindings)
        show = any(binding.show for binding in bindings)
        found.append(KeyRow(keys, first.description, first.action, node, level, show))
    levels = ("part", "screen", "app")
    return sorted(found, key=lambda row: levels.index(row.level))  # stable: chain order kept
