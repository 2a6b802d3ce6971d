"""The picker's keys, as data (verbs of :mod:`ink_tui.ui.keymap`): what each does is an action
of :class:`PickerScreen` (``keep(…)`` ones go to its
:class:`~ink_tui.ui.screens.keeper.SessionKeeper`).

They stay on the screen, not on the list: on a screen both narrow and short the preview takes
the list's place, and the keys still act on the sessions then."""

from __future__ import annotations

from typing import Final

from textual.binding import BindingType

from ink_tui.ui.keymap import bind

__all__ = ["PICKER_KEYS"]

# The footer shows the list's Enter, then Space, /, s and Tab, then q and ?: what fits in 120
# columns; ? lists the rest.
PICKER_KEYS: Final[list[BindingType]] = [
    bind("open", "open", "Open"),  # the list's own Enter comes first (shown in the footer)
    bind("toggle", "toggle_preview", "Preview", show=True),
    # priority: handled as it is read, so "/quokka⏎" typed fast all goes into the filter
    bind("find", "filter", "Filter", show=True, priority=True),
    bind("search", "search_sessions", "Search text", show=True),
    bind("switch", "toggle_scope", "All projects / this project", show=True),
    bind("chat", "new_session", "New chat"),
    bind("copy", "keep('copy')", "Copy…", keys=("y",)),
    bind("rename", "keep('rename')", "Rename"),
    bind("delete", "keep('delete')", "Delete"),
    bind("undo", "keep('undo')", "Undo delete or prune"),
    bind("prune", "keep('prune')", "Prune orphans"),
    bind("stats", "usage_stats", "Usage and cost"),
    bind("problems", "toggle_problems", "Problems only"),
    bind("back", "escape", "Close preview / clear filter"),
    bind("down", "move(1)", "Down", keys=("j",)),
    bind("up", "move(-1)", "Up", keys=("k",)),
    bind("top", "edge('top')", "Top", keys=("g",)),
    bind("bottom", "edge('bottom')", "Bottom", keys=("G",)),
    bind("preview_down", "scroll_preview(1)", "Scroll the preview down"),
    bind("preview_up", "scroll_preview(-1)", "Scroll the preview up"),
]
