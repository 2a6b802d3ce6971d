"""A session file's first line as a JSON object: how Ink's ``/sessions prune`` reads a header.

Ink's prune (``prune.ts@3c659997``) takes the text before the file's first newline (the whole
file if it has none), decoded as UTF-8 with replacement characters, and ``JSON.parse``s it; any
object counts, with no ``type`` or ``version`` check. The child links of the session view, the
prune, delete, adopt and the trash's roots all read headers this way, through
:func:`read_header_line`.

One limit, :data:`HEADER_LINE_LIMIT` (16 MiB), for every reader: Ink reads the line whole however
long it is, and ink-tui reads it whole up to the limit. A header Ink writes is a few hundred bytes
(a child's ``launch`` record, with its tool list and hashes, a few KB), so the limit never cuts a
real one; it only keeps a hostile file (gigabytes on one line) from being read into memory. It is
that large rather than 1 MiB so the first prompt of a child (read by the same reader, and matched
to the ``task`` call that launched it) is still read whole when the prompt is a long paste. A line
over the limit is reported as such (:attr:`HeaderLine.too_long`), never taken as "no header":
prune must never call a child an orphan because its parent's header went unread.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Final

from ink_tui.session.reading.files import NotARegularFile, open_regular
from ink_tui.session.reading.jsoncodec import decode_line
from ink_tui.session.reading.recordtypes import JsonObject, json_object

__all__ = [
    "HEADER_LINE_LIMIT",
    "HeaderLine",
    "JsonLine",
    "first_line_header",
    "read_header_line",
    "read_json_line",
]

HEADER_LINE_LIMIT: Final = 16 * 1024 * 1024
"""Bytes of one line read before it is taken as too long (see the module's notes)."""
_CHUNK: Final = 64 * 1024


@dataclass(frozen=True, slots=True)
class HeaderLine:
    """What a file's first line holds: a JSON object (``header``), or nothing usable.

    ``too_long``: the line is longer than :data:`HEADER_LINE_LIMIT`, so whether it holds a
    header is not known (``header`` is ``None``). ``unreadable``: the file could not be read
    (missing, not a regular file, an I/O error)."""

    header: JsonObject | None
    too_long: bool = False
    unreadable: bool = False


@dataclass(frozen=True, slots=True)
class JsonLine:
    """One line read: its JSON value (``None`` when it does not parse), or ``too_long``."""

    value: object
    too_long: bool = False


def _line(stream: BinaryIO, limit: int) -> bytes | None:
    """The next line without its newline; ``None`` when it runs past ``limit`` bytes (the rest
    of it is skipped). At the end of the file: ``b""``."""
    parts: list[bytes] = []
    size = 0
    while True:
        chunk = stream.readline(_CHUNK)
        if not chunk:
            break
        size += len(chunk)
        if size <= limit:
            parts.append(chunk)
        if chunk.endswith(b"\n"):
            break
    if size > limit:
        return None
    return b"".join(parts)


def read_json_line(stream: BinaryIO) -> JsonLine | None:
    """The next line of ``stream`` parsed as ``JSON.parse`` would; ``None`` at the end of the
    file. A line longer than :data:`HEADER_LINE_LIMIT` is skipped whole (``too_long``)."""
    raw = _line(stream, HEADER_LINE_LIMIT)
    if raw is None:
        return JsonLine(None, too_long=True)
    if not raw:
        return None
    try:
        return JsonLine(decode_line(raw.rstrip(b"\n")))
    except ValueError:  # not JSON (an empty line too)
        return JsonLine(None)


def read_header_line(path: Path) -> HeaderLine:
    """``path``'s first line as Ink's prune reads it (see the module's notes)."""
    try:
        with open_regular(path) as stream:
            line = read_json_line(stream)
    except (OSError, NotARegularFile):
        return HeaderLine(None, unreadable=True)
    if line is None:
        return HeaderLine(None)
    return HeaderLine(line.value if json_object(line.value) else None, line.too_long)


def first_line_header(path: Path) -> JsonObject | None:
    """``path``'s first line as a JSON object, ``None`` when it holds none (or could not be
    read whole: see :func:`read_header_line` to tell the cases apart)."""
    return read_header_line(path).header
