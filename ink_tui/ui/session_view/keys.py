"""The session view's keys, as data: the tree's, and the screen's (each a verb of
:mod:`ink_tui.ui.keymap`: the same key does the same on every screen).

Who owns a key is the part whose typed method does the job: the tree (moves, turns, opening rows),
the replay (thinking, tool output, the message a copy takes), following, the search, playback.
A part binds its keys where it takes the focus: :data:`TREE_KEYS` are the tree's, and its footer
shows them while it has the focus. A key that must work whatever has the focus is the screen's,
and its action calls the owning part's method explicitly (:data:`SCREEN_KEYS`):

- the tree's moves once more: Tab gives the replay the focus, and a narrow view hides the tree
  (nothing has the focus then); while the tree has the focus its own binding wins;
- the keys of parts that never take the focus: following (``f F >``), playback (``p``, and while
  playing ``Space . + - i``: the screen turns them off otherwise), the search (``/`` opens its
  line; ``n N`` go from the tree's cursor), the replay's display (``t o``), the copy menu;
- the keys that coordinate parts: ``g``/``G`` move the turn window (the screen's) and go back to
  following, ``v`` and ``ctrl+←/→`` change the layout, and opening the other views.

Priority bindings act before the focused widget sees the key: ``/`` (the keys typed after it go
to the query line), ``g``/``G``/Home/End (the replay's own Home and End scroll it), and Space
while playing. A text box with the focus takes the keys it types (Textual leaves them out of the
bindings); the screen turns off those it does not type (Home and End in the query line).
"""

from __future__ import annotations

from typing import Final

from textual.binding import BindingType

from ink_tui.ui.keymap import bind

__all__ = ["PLAYBACK_ACTIONS", "SCREEN_KEYS", "TREE_KEYS", "TYPING_OFF"]

TREE_KEYS: Final[list[BindingType]] = [
    bind("open", "select", "Open the row"),
    bind("down", "down", "Down"),
    bind("up", "up", "Up"),
    bind("section_previous", "previous_turn", "Prev turn"),
    bind("section_next", "next_turn", "Next turn", show=True),
    bind("expand", "expand", "Expand"),
    bind("collapse", "collapse", "Collapse"),
    bind("toggle", "toggle_row", "Open / close the row"),
    bind("page_down", "page(1)", "Page down"),
    bind("page_up", "page_up", "Page up"),
]
"""The tree's keys (:class:`~ink_tui.ui.session_view.tree.SessionTree`)."""

# Shown in the footer: what fits in 120 columns with q and ? (? lists every key).
SCREEN_KEYS: Final[list[BindingType]] = [
    bind("down", "down", "Down"),
    bind("up", "up", "Up"),
    bind("top", "to_start", "Top", priority=True),
    bind("bottom", "to_end", "Bottom", priority=True),
    bind("section_previous", "previous_turn", "Prev turn"),
    bind("tree", "toggle_tree", "Tree", show=True),  # acts only when narrow
    bind("narrower", "tree_width(-5)", "Narrower tree"),
    bind("wider", "tree_width(5)", "Wider tree"),
    bind("section_next", "next_turn", "Next turn", show=True),
    bind("expand", "expand", "Expand"),
    bind("collapse", "collapse", "Collapse"),
    bind("switch", "app.focus_next", "Tree / replay"),
    bind("find", "search", "Search", show=True, priority=True),
    bind("match_next", "next_match(1)", "Next match"),
    bind("match_previous", "next_match(-1)", "Previous match"),
    bind("detail", "toggle_thinking", "Thinking"),
    bind("output", "cycle_output", "Output"),
    bind("copy", "copy", "Copy…", keys=("y",), show=True),
    bind("copy", "copy", keys=("Y",)),  # its old key: the same menu, listed nowhere
    bind("rename", "rename", "Rename"),
    bind("label", "label", "Label the entry"),
    bind("branches", "branches", "Branches", show=True),
    bind("ink_tree", "ink_tree", "Ink's tree (/tree)"),
    bind("timeline", "timeline", "Timeline of the turns"),
    bind("changes", "changes", "Changed files"),
    bind("follow", "toggle_follow", "Follow", show=True),
    bind("chat", "chat", "Continue", show=True),
    bind("export", "export", "Export"),
    bind("secrets", "secrets", "Secrets"),
    bind("resume", "resume", "Resume following"),
    bind("newer", "switch_newer", "Newer session"),
    bind("play", "play", "Play back", show=True),
    # while playing back (the screen turns them off otherwise: Space opens a row then)
    bind("toggle", "pause_playback", "Pause / play", priority=True),  # the bar names these
    bind("toggle", "toggle_row", "Open / close the row"),
    bind("step", "step_playback", "Step one record"),
    bind("faster", "playback_speed(1)", "Play faster"),
    bind("slower", "playback_speed(-1)", "Play slower"),
    bind("idle", "skip_idle", "Skip idle gaps or not"),
    bind("back", "back", "Back"),
]
"""The screen's keys (:class:`~ink_tui.ui.session_view.screen.SessionScreen`)."""

PLAYBACK_ACTIONS: Final = frozenset(
    {"pause_playback", "step_playback", "playback_speed", "skip_idle"}
)
"""The screen's actions that work only while playing back."""

TYPING_OFF: Final = frozenset({"to_start", "to_end", "search"})
"""Priority actions whose keys a focused text box types or edits with (Home, End, and ``/``:
a ``/`` in the query line is text): off while it has the focus."""
