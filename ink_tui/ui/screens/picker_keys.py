"""The picker's keys, as data: what each does is an action of :class:`PickerScreen`
(``keep(…)`` ones go to its :class:`~ink_tui.ui.screens.keeper.SessionKeeper`)."""

from __future__ import annotations

from typing import Final

from textual.binding import Binding, BindingType

__all__ = ["PICKER_KEYS"]

PICKER_KEYS: Final[list[BindingType]] = [
    Binding("enter", "open", "Open", show=False),
    Binding("space", "toggle_preview", "Preview"),
    Binding("n", "new_session", "New session"),
    Binding("tab", "toggle_scope", "All projects / this project", key_display="Tab"),
    # priority: handled as it is read, so "/quokka⏎" typed fast all goes into the filter
    Binding("slash", "filter", "Filter", key_display="/", priority=True),
    Binding("s", "search_sessions", "Search text"),
    Binding("r", "keep('rename')", "Rename"),
    Binding("d", "keep('delete')", "Delete"),
    Binding("u", "keep('undo')", "Undo delete or prune", show=False),
    Binding("y", "keep('copy')", "Copy id/path", show=False),
    Binding("P", "keep('prune')", "Prune orphans", show=False),
    Binding("S", "usage_stats", "Usage and cost", show=False),
    Binding("exclamation_mark", "toggle_problems", "Problems only", key_display="!", show=False),
    Binding("escape", "escape", "Close preview / clear filter", show=False),
    Binding("j", "move(1)", "Down", show=False),
    Binding("k", "move(-1)", "Up", show=False),
    Binding("g", "edge('top')", "Top", show=False),
    Binding("G", "edge('bottom')", "Bottom", show=False),
    Binding("J", "scroll_preview(1)", "Scroll the preview down", show=False),
    Binding("K", "scroll_preview(-1)", "Scroll the preview up", show=False),
]
