"""A bare app for testing one screen alone: ``ScreenHost(make)`` pushes ``make()`` on mount,
with the project's stylesheets, and keeps in ``results`` what the screen is dismissed with.

Importable from every test folder as ``from hosting import ScreenHost`` (pyproject.toml's
``pythonpath``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.screen import Screen

from ink_tui.paths import styles_dir

__all__ = ["ScreenHost"]


class ScreenHost(App[None]):
    """A bare app that pushes one screen on mount and keeps what it is dismissed with."""

    CSS_PATH = sorted(styles_dir().glob("*.tcss"))

    def __init__(self, make: Callable[[], Screen[Any]]) -> None:
        super().__init__()
        self.make = make
        self.results: list[Any] = []

    def on_mount(self) -> None:
        self.push_screen(self.make(), self.results.append)
