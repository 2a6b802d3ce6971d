"""What the command line asked the app to do, and the app as screens and widgets see it.

Screens and widgets sit below the app module (``app > screens > widgets > render``), so they never
import :class:`ink_tui.ui.app.InkApp`. They declare ``app = getters.app(InkAppBase)`` to read the
launch options and the settings with their types, and ask the app to act by posting the messages
of :mod:`ink_tui.ui.messages`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App
from textual.dom import DOMNode
from textual.message_pump import MessagePump

from ink_tui.session.rules.modelref import ModelRef
from ink_tui.ui.config import UiConfig, load_config

if TYPE_CHECKING:
    from ink_tui.catalog.index.ahead import RowsAhead

__all__ = ["InkAppBase", "LaunchOptions", "app_now"]


@dataclass(frozen=True, slots=True)
class LaunchOptions:
    """What the command line asked the app to do."""

    sessions_dir: Path
    cwd: str
    open_path: Path | None = None
    config_path: Path | None = None  # None: the platform's config file
    follow: bool = False  # open_path is followed as Ink writes it
    chat: bool = False  # open straight into the chat pane (open_path, or a new session)
    model: ModelRef | None = None  # --model: wins over the restored model, persisted
    thinking: str | None = None  # --thinking or INK_THINKING: wins over the restored level
    notice: str | None = None  # said once the app is up (e.g. how -r found the session)
    clock: Callable[[], float] = time.time  # the wall clock (ages, live markers); tests pin it
    rows_ahead: RowsAhead | None = None  # the picker's first rows, read while the app loaded


class InkAppBase(App[int]):
    """The app as its screens and widgets see it: the launch options and the settings, typed."""

    def __init__(self, options: LaunchOptions) -> None:
        super().__init__()
        self.options = options
        self.ui_config: UiConfig = load_config(options.config_path)
        """The settings read at start-up (the theme, the tree's width), kept as they change."""

    def now(self) -> float:
        """The app's clock (``LaunchOptions.clock``): every age and live marker uses it."""
        return self.options.clock()


def follow_theme(node: DOMNode, repaint: Callable[[], None]) -> None:
    """Call ``repaint`` after every change of the app's theme, while ``node`` is mounted (once
    the app has made rendered session content follow the new theme)."""
    node.app.theme_changed_signal.subscribe(node, lambda _theme: repaint())


def app_now(node: MessagePump) -> float:
    """The clock of ``node``'s app: ink-tui's injected clock, the wall clock in any other app."""
    app = node.app
    return app.now() if isinstance(app, InkAppBase) else time.time()
