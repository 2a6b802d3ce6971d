"""The user's settings file (``config.toml`` in the platform's config dir): the theme for now."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path

from ink_tui.paths import config_file

__all__ = ["UiConfig", "load_config", "save_config"]


@dataclass(slots=True)
class UiConfig:
    theme: str = "ink"


def load_config(path: Path | None = None) -> UiConfig:
    """Read the settings; a missing or unreadable file gives the defaults."""
    path = path or config_file()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return UiConfig()
    theme = data.get("theme")
    return UiConfig(theme=theme if isinstance(theme, str) and theme else "ink")


def save_config(config: UiConfig, path: Path | None = None) -> None:
    """Write the settings (atomically: a temporary file renamed over the old one)."""
    path = path or config_file()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    escaped = config.theme.replace("\\", "\\\\").replace('"', '\\"')
    temporary = path.with_suffix(".tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # private, as all ours
    with os.fdopen(fd, "w", encoding="utf-8") as stream:
        stream.write(f'theme = "{escaped}"\n')
    temporary.replace(path)
