"""The settings file (``config.toml``) as text: read it, change one table, write it all or nothing.

ink-tui edits the user's file in place, so every line it does not own (comments, other settings,
other tables) is kept as written: a table is added at the end, replaced where it stands, or cut
out with the lines up to the next table. A write is whole or not at all: a temporary file beside
it, ``fsync``-ed, read back and compared, then renamed over the old one (and the folder synced).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

__all__ = [
    "ConfigFileError",
    "read_config_text",
    "toml_string",
    "with_setting",
    "with_table",
    "without_table",
    "write_config_text",
    "write_whole",
]


class ConfigFileError(OSError):
    """The settings file could not be read as text or written whole (one line, naming it)."""


def read_config_text(path: Path) -> str:
    """The file's text ("" when there is none). Raises :class:`ConfigFileError`."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""
    except UnicodeDecodeError:
        raise ConfigFileError(f"{path} is not UTF-8 text: it was left as it is") from None
    except OSError as error:
        raise ConfigFileError(f"cannot read {path}: {error.strerror or error}") from None


def write_config_text(path: Path, text: str) -> None:
    """Replace the settings file's text, all or nothing (:func:`write_whole`). Raises
    :class:`ConfigFileError`; the old file is then as it was."""
    write_whole(path, text.encode("utf-8"))


def write_whole(path: Path, data: bytes) -> None:
    """Replace a small file of ink-tui's own (the settings, a mirror's state) all or nothing,
    private to the user: a temporary file beside it, ``fsync``-ed, read back and compared, renamed
    over it, the folder synced. Raises :class:`ConfigFileError` naming it; the old file is then
    as it was."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        if temporary.read_bytes() != data:
            raise OSError(f"{temporary} does not read back as written")
        temporary.replace(path)
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise ConfigFileError(f"cannot write {path}: {error.strerror or error}") from None


_TABLE_HEADER = re.compile(r"^[ \t]*\[", re.MULTILINE)


def toml_string(value: str) -> str:
    """``value`` as a TOML basic string (quotes and backslashes escaped)."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def with_setting(text: str, name: str, value: str | int) -> str:
    """``text`` with its top-level ``name`` set to ``value``: that one line replaced, or added
    first; every other line (other settings, tables, comments) kept."""
    line = f"{name} = {toml_string(value) if isinstance(value, str) else value}"
    table = _TABLE_HEADER.search(text)
    top = text[: table.start()] if table else text
    found = re.compile(rf"^[ \t]*{re.escape(name)}[ \t]*=.*$", re.MULTILINE).search(top)
    if found:
        return text[: found.start()] + line + text[found.end() :]
    return f"{line}\n{text}"


def _table_span(text: str, header: str) -> tuple[int, int] | None:
    """Where table ``header`` (``machines.laptop``) stands: its header line to the next table."""
    found = re.compile(rf"^[ \t]*\[[ \t]*{re.escape(header)}[ \t]*\][ \t]*(#.*)?$", re.MULTILINE)
    match = found.search(text)
    if match is None:
        return None
    following = _TABLE_HEADER.search(text, match.end())
    return match.start(), following.start() if following else len(text)


def with_table(text: str, header: str, lines: list[str]) -> str:
    """``text`` with table ``header`` holding exactly ``lines`` (``key = value``): replaced where
    it stands, else added at the end."""
    body = f"[{header}]\n" + "".join(line + "\n" for line in lines)
    span = _table_span(text, header)
    if span is not None:
        start, end = span
        rest = text[end:]
        return text[:start] + body + ("\n" if rest else "") + rest
    if text and not text.endswith("\n"):
        text += "\n"
    return text + ("\n" if text else "") + body


def without_table(text: str, header: str) -> str:
    """``text`` without table ``header`` (its header and lines up to the next table)."""
    span = _table_span(text, header)
    if span is None:
        return text
    before, after = text[: span[0]].rstrip("\n"), text[span[1] :]
    if not before:
        return after
    return before + "\n" + ("\n" + after if after else "")
