"""The user's settings file (``config.toml`` in the platform's config dir): the theme, and how
wide the session view's tree is."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from ink_tui.paths import config_file

__all__ = [
    "TREE_WIDTH_MAX",
    "TREE_WIDTH_MIN",
    "UiConfig",
    "load_config",
    "save_config",
    "save_setting",
]

TREE_WIDTH_MIN = 15  # percent of the session view the tree takes, at least
TREE_WIDTH_MAX = 80  # and at most (the replay keeps a fifth)


@dataclass(slots=True)
class UiConfig:
    theme: str = "ink"
    tree_width: int | None = None  # percent of the session view (None: the stylesheet's)


def load_config(path: Path | None = None) -> UiConfig:
    """Read the settings; a missing or unreadable file gives the defaults (a value of the wrong
    type or out of range is left out, the others kept)."""
    path = path or config_file()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return UiConfig()
    theme = data.get("theme")
    width = data.get("tree_width")
    if type(width) is not int or not TREE_WIDTH_MIN <= width <= TREE_WIDTH_MAX:
        width = None  # (a bool is no width: type(True) is bool)
    return UiConfig(theme=theme if isinstance(theme, str) and theme else "ink", tree_width=width)


def save_setting(name: str, value: str | int, path: Path | None = None) -> None:
    """Set one setting in the settings file, keeping everything else in it (all or nothing:
    :func:`ink_tui.configfile.write_config_text`). Raises ``OSError``."""
    from ink_tui.configfile import (  # not on the start path
        read_config_text,
        with_setting,
        write_config_text,
    )

    path = path or config_file()
    write_config_text(path, with_setting(read_config_text(path), name, value))


def save_config(config: UiConfig, path: Path | None = None) -> None:
    """Set the theme in the settings file, keeping everything else in it."""
    save_setting("theme", config.theme, path)
