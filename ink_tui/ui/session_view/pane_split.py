"""The bar between two panes side by side (the session view's tree and its replay).

Drag it with the mouse, or press ctrl+← / ctrl+→ (:meth:`PaneSplit.nudge`), to give the left pane
more or less of the width; the width is kept in the settings file (``tree_width``, a percent)
and used by every session view after. The bar also titles the two panes (their top border);
the stylesheet shows the focused one's title and border in the theme's primary colour.

A width is a class on the left pane (``-split-w40``), whose rule (here, so that a percent of
every step is one) applies only while the screen is wide: below the breakpoint the panes stack,
and the stylesheet's narrow layout is left as it is (an inline width would win over it).
"""

from __future__ import annotations

from typing import Final

from rich.text import Text
from textual import events
from textual.widget import Widget

from ink_tui.ui.config import TREE_WIDTH_MAX, TREE_WIDTH_MIN, UiConfig, save_setting
from ink_tui.ui.options import InkAppBase

__all__ = ["DEFAULT_WIDTH", "PaneSplit"]

DEFAULT_WIDTH: Final = 40  # percent of the width, until the user chooses another
SETTING: Final = "tree_width"
_WIDTH_RULES = "\n".join(
    f".-wide .-split-w{width} {{ width: {width}%; }}"
    for width in range(TREE_WIDTH_MIN, TREE_WIDTH_MAX + 1)
)


class PaneSplit(Widget):
    """The bar between its previous sibling (the pane it sizes) and its next one."""

    SCOPED_CSS = False  # the width rules are for the pane beside it
    DEFAULT_CSS = (
        """
    PaneSplit {
        width: 1;
        height: 1fr;
        color: $panel-lighten-1;
    }
    PaneSplit:hover, PaneSplit.-dragging {
        color: $accent;
    }
    """
        + _WIDTH_RULES
    )

    def __init__(self, titles: tuple[str, str] = ("", ""), *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.titles = titles
        self.width = DEFAULT_WIDTH  # percent of the parent's width the left pane takes
        self._dragging = False

    def on_mount(self) -> None:
        left, right = self._panes()
        left.border_title, right.border_title = self.titles
        saved = self._config()
        self._apply(saved.tree_width if saved is not None and saved.tree_width else DEFAULT_WIDTH)

    def render(self) -> Text:
        return Text("\n".join("▎" * max(1, self.size.height)))

    # -- sizing --------------------------------------------------------------------------------

    def nudge(self, delta: int) -> None:
        """The left pane ``delta`` percent wider (narrower when negative), and kept so."""
        self._apply(self.width + delta)
        self._save()

    def _apply(self, width: int) -> None:
        width = max(TREE_WIDTH_MIN, min(TREE_WIDTH_MAX, width))
        left, _ = self._panes()
        left.remove_class(f"-split-w{self.width}")
        left.add_class(f"-split-w{width}")
        self.width = width

    def _panes(self) -> tuple[Widget, Widget]:
        siblings = list(self.parent.children) if self.parent is not None else []
        index = siblings.index(self)
        return siblings[index - 1], siblings[index + 1]

    # -- the mouse -----------------------------------------------------------------------------

    def on_mouse_down(self, event: events.MouseDown) -> None:
        event.stop()
        self._dragging = True
        self.add_class("-dragging")
        self.capture_mouse()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        parent = self.parent
        if not self._dragging or not isinstance(parent, Widget) or not parent.size.width:
            return
        event.stop()
        offset = event.screen_x - parent.content_region.x
        self._apply(round(100 * offset / parent.content_region.width))

    def on_mouse_up(self, event: events.MouseUp) -> None:
        if not self._dragging:
            return
        event.stop()
        self._dragging = False
        self.remove_class("-dragging")
        self.release_mouse()
        self._save()

    # -- the setting -------------------------------------------------------------------------

    def _config(self) -> UiConfig | None:
        """ink-tui's settings (``None`` in another app, a test's harness)."""
        app = self.app
        return app.ui_config if isinstance(app, InkAppBase) else None

    def _save(self) -> None:
        config = self._config()
        if config is None or config.tree_width == self.width:
            return
        config.tree_width = self.width
        app = self.app
        path = app.options.config_path if isinstance(app, InkAppBase) else None
        try:
            save_setting(SETTING, self.width, path)
        except OSError as error:
            self.notify(f"could not save the tree's width: {error}", severity="warning")
