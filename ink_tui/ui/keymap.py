"""The key grammar: every verb of the app with its keys, as data (docs/keys.md is made from it).

One key means one verb on every screen, and a verb has the same keys wherever it exists: ``j``
is always down, ``y`` always the copy menu, ``s`` always the search across sessions. A screen
binds a verb with :func:`bind`, which takes the keys from :data:`VERBS` and names the verb in
the binding's ``id``; ``tests/ui/test_keymap.py`` checks every binding of every screen and
widget against the table. Three kinds of keys are the table's explicit exceptions: the letters
a dialog's question is answered with (``answer``), Ink's own keys on the screen that shows one of
Ink's (``ink``: ``f`` folds in Ink's tree, as in ``/tree``), and keys that are text where one is
typed (``type``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from textual.binding import Binding
from textual.keys import key_to_character

__all__ = [
    "EXCEPTIONS",
    "SECTIONS",
    "VERB",
    "VERBS",
    "Verb",
    "bind",
    "character_of",
    "key_name",
    "key_names",
    "key_of",
    "markdown_table",
]


@dataclass(frozen=True, slots=True)
class Verb:
    """A verb: its keys (Textual key names; the first is the one shown), what it does and
    where it exists. ``typing``: the keys that do it where a text box has the focus (the
    letters type there)."""

    name: str
    keys: tuple[str, ...]
    does: str
    where: str
    section: str
    typing: tuple[str, ...] = ()

    @property
    def all_keys(self) -> tuple[str, ...]:
        return self.keys + self.typing


SECTIONS: Final = ("Moving", "Opening and going back", "Finding", "Sessions", "Views", "Dialogs")
_M, _O, _F, _S, _V, _D = SECTIONS
_LISTS = "every list, tree and scrolling view"
_SESSION = "session view"

VERBS: Final[tuple[Verb, ...]] = (
    Verb("down", ("j", "down"), "one row (or line) down", f"{_LISTS}; ↓ where letters type", _M),
    Verb("up", ("k", "up"), "one row (or line) up", f"{_LISTS}; ↑ where letters type", _M),
    Verb("top", ("g", "home"), "the first row", _LISTS, _M, ("ctrl+home",)),
    Verb(
        "bottom",
        ("G", "end"),
        "the last row (following a session: back to the end, following again)",
        _LISTS,
        _M,
        ("ctrl+end",),
    ),
    Verb("page_down", ("pagedown",), "a page down", _LISTS, _M),
    Verb("page_up", ("pageup",), "a page up", _LISTS, _M),
    Verb(
        "section_previous",
        ("left_square_bracket", "left_curly_bracket"),
        "the previous turn (inside a turn: its start first), or group of keys",
        f"{_SESSION}, help",
        _M,
    ),
    Verb(
        "section_next",
        ("right_square_bracket", "right_curly_bracket"),
        "the next turn, or group of keys",
        f"{_SESSION}, help",
        _M,
    ),
    Verb("expand", ("l",), "open the row (a task call: its subagent's turns)", _SESSION, _M),
    Verb("collapse", ("h",), "close the row, or go to the row it is under", _SESSION, _M),
    Verb(
        "switch",
        ("tab",),
        "the next scope (this project, all projects, every machine when one is mirrored), pane "
        "(tree / replay), or filter (Ink's tree: default, no-tools, user-only, labeled-only, "
        "all)",
        f"picker, search, usage and cost; {_SESSION}; Ink's tree",
        _M,
    ),
    Verb("open", ("enter",), "open, show or confirm what is highlighted", "everywhere", _O),
    Verb(
        "toggle",
        ("space",),
        "show or hide what is at hand: the preview (picker), the turn (session view), the rows "
        "under the row (Ink's tree: fold); while playing back: pause / go on",
        f"picker, {_SESSION}, Ink's tree",
        _O,
    ),
    Verb(
        "back",
        ("escape",),
        "back, close or cancel (first: close the search line, the preview, clear the filter, "
        "stop playback; the chat: drop the queued message, else interrupt the turn)",
        "everywhere",
        _O,
    ),
    Verb("quit", ("q",), "quit (over the help: close it)", "everywhere", _O, ("ctrl+q",)),
    Verb("help", ("question_mark",), "the keys that work here", "everywhere", _O, ("f1",)),
    Verb("palette", ("ctrl+p",), "every key here as a command, and the theme", "everywhere", _O),
    Verb(
        "find",
        ("slash",),
        "find in this view: filter the list (picker); search the branch, going to the first "
        "match after the cursor (session view); keep the rows whose text or label holds it "
        "(Ink's tree)",
        f"picker, {_SESSION}, Ink's tree",
        _F,
    ),
    Verb(
        "match_next",
        ("n",),
        "the next match after the cursor, round to the first (error view: the offending line)",
        f"{_SESSION}, error view",
        _F,
    ),
    Verb(
        "match_previous",
        ("N",),
        "the previous match before the cursor, round to the last",
        _SESSION,
        _F,
    ),
    Verb("search", ("s",), "search the text of every session", "picker", _F),
    Verb(
        "order",
        ("O",),
        "order or group the rows: slowest first / in order (timeline); by model, project, day, "
        "week (usage and cost)",
        "timeline, usage and cost",
        _F,
    ),
    Verb(
        "problems", ("exclamation_mark",), "only the sessions with a problem, or all", "picker", _F
    ),
    Verb(
        "secrets_only", ("dollar_sign",), "only the sessions holding secrets, or all", "picker", _F
    ),
    Verb(
        "copy",
        ("y", "Y"),
        "the copy menu: the message as shown (session view), the last agent message (as Ink's "
        "/copy), the session id, the file path, the command resuming it in Ink",
        f"picker, {_SESSION} (Y: its old key there)",
        _S,
    ),
    Verb("rename", ("r",), "rename the session, as Ink's /name does", f"picker, {_SESSION}", _S),
    Verb(
        "label",
        ("L",),
        "label the entry, as Ink's /tree L does",
        f"{_SESSION}, branches, Ink's tree",
        _S,
    ),
    Verb("delete", ("d",), "delete the session (to the trash, after a question)", "picker", _S),
    Verb("undo", ("u",), "undo the last delete, prune or scrub", "picker, secrets", _S),
    Verb(
        "secrets",
        ("x",),
        "the secrets the session holds, masked: Enter goes to the record",
        f"picker, {_SESSION}",
        _S,
    ),
    Verb(
        "scrub",
        ("X",),
        "scrub the session's secrets from its file (the original to the trash first)",
        "picker, secrets",
        _S,
    ),
    Verb("prune", ("P",), "prune orphaned child sessions (to the trash)", "picker", _S),
    Verb(
        "chat",
        ("c",),
        "the chat pane: a new session (picker); go on with this one (session view)",
        f"picker, {_SESSION}",
        _S,
    ),
    Verb("stats", ("S",), "usage and cost of the sessions", "picker", _S),
    Verb("sync", ("M",), "sync every machine into its mirror (ink-tui sync)", "picker", _S),
    Verb("preview_down", ("J",), "scroll the preview down", "picker", _S),
    Verb("preview_up", ("K",), "scroll the preview up", "picker", _S),
    Verb(
        "detail",
        ("t",),
        "show or hide the detail: thinking (session view, chat); the turns under each file "
        "(changes)",
        f"{_SESSION}, changes, chat",
        _V,
        ("ctrl+t",),
    ),
    Verb("output", ("o",), "tool output: cut, full, hidden", _SESSION, _V),
    Verb("tree", ("v",), "show or hide the tree (a narrow terminal)", _SESSION, _V),
    Verb("narrower", ("ctrl+left",), "the tree narrower (or drag the bar)", _SESSION, _V),
    Verb("wider", ("ctrl+right",), "the tree wider (or drag the bar)", _SESSION, _V),
    Verb("branches", ("b",), "every branch of the session", _SESSION, _V),
    Verb(
        "ink_tree",
        ("I",),
        "Ink's /tree: every entry of the file as a tree, with its five filters",
        _SESSION,
        _V,
    ),
    Verb("timeline", ("T",), "the timeline of the turns", _SESSION, _V),
    Verb("changes", ("D",), "the files the branch changed", _SESSION, _V),
    Verb("export", ("e",), "export the branch (Markdown, HTML, JSON)", _SESSION, _V),
    Verb("follow", ("f",), "follow the session as Ink writes it, or stop", _SESSION, _V),
    Verb("resume", ("F",), "to the end, following again", _SESSION, _V),
    Verb(
        "newer",
        ("greater_than_sign",),
        "the newer session Ink started in this project (while following)",
        _SESSION,
        _V,
    ),
    Verb("play", ("p",), "play the branch back from the cursor's turn, or stop", _SESSION, _V),
    Verb("step", ("full_stop",), "step one record (playing back)", _SESSION, _V),
    Verb("faster", ("plus",), "play faster (playing back)", _SESSION, _V),
    Verb("slower", ("minus",), "play slower (playing back)", _SESSION, _V),
    Verb("idle", ("i",), "skip idle gaps or not (playing back)", _SESSION, _V),
    Verb("metric", ("m",), "chart tokens or cost", "usage and cost", _V),
    Verb("model", ("ctrl+o",), "switch the model", "chat", _V),
    Verb("compact", ("ctrl+l",), "compact the context", "chat", _V),
    Verb(
        "answer",
        ("y", "n", "a", "o", "l", "m", "i", "p", "r"),
        "answer the question: the letters the dialog shows (y yes, n no; in the copy menu m a i p "
        "r)",
        "dialogs only",
        _D,
    ),
    Verb(
        "ink",
        ("f",),
        "Ink's own key where a screen is one of Ink's: f folds or unfolds the row, as in /tree",
        "Ink's tree",
        _D,
    ),
    Verb(
        "type",
        ("q", "question_mark"),
        "text: typed into the box that has the focus",
        "chat, and wherever a text box has the focus",
        _D,
    ),
)
"""The verbs, in the order docs/keys.md lists them."""

VERB: Final[dict[str, Verb]] = {verb.name: verb for verb in VERBS}
EXCEPTIONS: Final = frozenset({"answer", "ink", "type"})
"""Verbs whose keys mean another verb elsewhere: a dialog's answers, Ink's own keys on the
screen that is Ink's (``f`` folds in Ink's tree), and text."""


def bind(
    verb: str,
    action: str,
    description: str = "",
    *,
    keys: Sequence[str] | None = None,
    show: bool = False,
    priority: bool = False,
    group: str | None = None,
) -> Binding:
    """A binding of ``verb``'s keys (or ``keys``, some of them) to ``action``. Without a
    description the keys are bound but listed nowhere (an old key kept as an alias); shown
    bindings with the same ``group`` share one label in the footer (``j k Move``)."""
    spec = VERB[verb]
    chosen = tuple(keys) if keys is not None else spec.keys
    stray = set(chosen) - set(spec.all_keys)
    if stray:
        raise ValueError(f"{sorted(stray)} are not keys of {verb!r}")
    return Binding(
        ",".join(chosen),
        action,
        description,
        show=show,
        priority=priority,
        id=verb,
        group=Binding.Group(group) if group else None,
    )


_NAMES: Final = {
    "up": "↑",
    "down": "↓",
    "left": "←",
    "right": "→",
    "home": "Home",
    "end": "End",
    "pageup": "PgUp",
    "pagedown": "PgDn",
    "enter": "Enter",
    "escape": "Esc",
    "tab": "Tab",
    "space": "Space",
    "f1": "F1",
}
_CHARACTERS: Final = {  # the ones Textual's key_to_character does not know
    "plus": "+",
    "minus": "-",
    "slash": "/",
    "at": "@",
    "backslash": "\\",
    "underscore": "_",
}


def character_of(key: str) -> str | None:
    """The character a key types (None: it types none, as Enter or ctrl+p)."""
    if "+" in key.strip("+"):  # a modifier: nothing typed
        return None
    return _CHARACTERS.get(key) or key_to_character(key)


def key_name(key: str) -> str:
    """A key as a person names it: ``question_mark`` is ``?``, ``end`` ``End``, ``ctrl+home``
    ``ctrl+Home``."""
    modifiers, _, base = key.strip().rpartition("+")
    if not base:  # "+" itself
        return key
    shown = _NAMES.get(base) or character_of(base) or base
    return f"{modifiers}+{shown}" if modifiers else shown


def key_of(verb: str) -> str:
    """The key shown for ``verb`` (its first), as a person names it: what a screen's hint says,
    so that a hint can never name another key than the one bound."""
    return key_name(VERB[verb].keys[0])


def key_names(keys: str | Sequence[str]) -> str:
    """Keys as a person names them: ``G,end`` is ``G, End``."""
    parts = keys.split(",") if isinstance(keys, str) else list(keys)
    return ", ".join(key_name(key) for key in parts)


def _cell(verb: Verb) -> str:
    keys = ", ".join(f"`{key_name(key)}`" for key in verb.keys)
    if verb.typing:
        keys += " (" + ", ".join(f"`{key_name(key)}`" for key in verb.typing) + ")"
    return keys


def markdown_table() -> str:
    """The table of docs/keys.md: key, verb, where."""
    lines: list[str] = []
    for section in SECTIONS:
        lines += ["", f"## {section}", "", "| key | verb | where |", "|---|---|---|"]
        for verb in VERBS:
            if verb.section == section:
                lines.append(f"| {_cell(verb)} | {verb.does} | {verb.where} |")
    return "\n".join(lines[1:]) + "\n"
