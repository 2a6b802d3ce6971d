"""The user's settings file (``config.toml`` in the platform's config dir): the theme for now."""

from __future__ import annotations

import os
import re
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


_THEME_LINE = re.compile(r"^[ \t]*theme[ \t]*=.*$", re.MULTILINE)
_TABLE_LINE = re.compile(r"^[ \t]*\[", re.MULTILINE)


def with_theme(text: str, theme: str) -> str:
    """``text`` (a config file) with its top-level ``theme`` set to ``theme``: that one line
    replaced, or added first; every other line (other settings, tables, comments) kept."""
    escaped = theme.replace("\\", "\\\\").replace('"', '\\"')
    line = f'theme = "{escaped}"'
    table = _TABLE_LINE.search(text)
    top = text[: table.start()] if table else text
    found = _THEME_LINE.search(top)
    if found:
        return text[: found.start()] + line + text[found.end() :]
    return f"{line}\n{text}"


def save_config(config: UiConfig, path: Path | None = None) -> None:
    """Set the theme in the settings file, keeping everything else in it (atomically: a
    temporary file renamed over the old one)."""
    path = path or config_file()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        old = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        old = ""
    except UnicodeDecodeError:
        raise OSError(f"{path} is not UTF-8 text: it was left as it is") from None
    temporary = path.with_suffix(".tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # private, as all ours
    with os.fdopen(fd, "w", encoding="utf-8") as stream:
        stream.write(with_theme(old, config.theme))
    temporary.replace(path)
