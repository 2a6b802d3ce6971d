"""Shared pieces of the built-in tools: the outcome type, path and number helpers, text cutting.

The helpers mirror small utilities of Ink's ``src/core/tools`` (``output-text.ts``,
``path-resolve.ts``, ``clampInt``) in original Python.
"""

from __future__ import annotations

import errno
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ink_tui.safetext import utf8_safe
from ink_tui.session.reading.jsformat import js_string
from ink_tui.session.rules.toolpaths import resolve_plain, resolve_to_cwd

MAX_BYTES = 50 * 1024
"""Ink's 50KB cap on a tool's text output (``constants.ts`` and the per-tool copies)."""


@dataclass(frozen=True, slots=True)
class ToolImage:
    """An image block as Ink's read tool attaches it: base64 data and its MIME type."""

    data: str
    mime_type: str


class ToolFailure(Exception):
    """A tool's own refusal (an edit that does not apply, a path with a NUL byte): its text is
    the call's error result, as a thrown error is in Ink."""


@dataclass(frozen=True, slots=True)
class ToolOutcome:
    """What a tool call produced: Ink's ``content`` text and ``isError`` flag.

    ``images`` is non-empty only for the read tool's image path, where Ink's result content is
    a list of blocks (the text first, then the image) instead of a plain string.
    """

    content: str
    is_error: bool = False
    images: tuple[ToolImage, ...] = field(default=())

    def result_content(self) -> str | list[dict[str, Any]]:
        """Ink's result ``content``: the text, or the text then the image blocks."""
        if not self.images:
            return self.content
        blocks: list[dict[str, Any]] = [{"type": "text", "text": self.content}]
        blocks += [{"type": "image", "data": i.data, "mimeType": i.mime_type} for i in self.images]
        return blocks


def is_nul_refusal(exc: ValueError) -> bool:
    """Whether ``exc`` is the standard library refusing a NUL byte in a path or an argument
    (``embedded null byte``), which Node refuses too: a tool error, not a bug."""
    return "null byte" in str(exc)


def error(text: str) -> ToolOutcome:
    return ToolOutcome(text, True)


def as_number(value: object) -> float | None:
    """The value as a float when it is a JSON number (never a bool), else None."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return None


def show(value: object) -> str:
    """Render an argument value for an error message as JavaScript's template string would."""
    number = as_number(value)
    return js_string(number) if number is not None else str(value)


def clamp_int(value: object, fallback: int, low: int, high: int) -> int:
    """Ink's ``clampInt``: a finite number floored, else the fallback, then clamped."""
    result = fallback
    number = as_number(value)
    if number is not None and math.isfinite(number):
        result = math.floor(number)
    return min(high, max(low, result))


def utf8(text: str) -> bytes:
    """Encode as Node does: lone surrogates become U+FFFD."""
    return utf8_safe(text).encode("utf-8")


def byte_length(text: str) -> int:
    return len(utf8(text))


def resolve_path(requested: str, cwd: Path, *, normalize: bool = True) -> Path:
    """Resolve a tool path against ``cwd`` by Ink's rule (:mod:`ink_tui.session.rules.toolpaths`).

    With ``normalize`` this is Ink's ``resolveToCwd`` (read, ls): Unicode spaces become plain
    spaces, a leading ``@`` is dropped and ``~`` expands to the home directory. Without it this
    is Node's ``path.resolve(cwd, requested)`` (edit, write, grep, find). A NUL byte in the path
    is refused as Node's file system refuses it (:class:`ToolFailure`).
    """
    if "\x00" in requested:
        raise ToolFailure(
            "The argument 'path' must be a string, Uint8Array, or URL without null bytes. "
            f"Received {requested!r}"
        )
    resolve = resolve_to_cwd if normalize else resolve_plain
    return Path(resolve(requested, str(cwd)))


_CODES = {
    errno.ENOENT: ("ENOENT", "no such file or directory"),
    errno.EACCES: ("EACCES", "permission denied"),
    errno.EISDIR: ("EISDIR", "illegal operation on a directory"),
    errno.ENOTDIR: ("ENOTDIR", "not a directory"),
    errno.EEXIST: ("EEXIST", "file already exists"),
    errno.EROFS: ("EROFS", "read-only file system"),
    errno.ENOSPC: ("ENOSPC", "no space left on device"),
}


def node_error(exc: OSError, syscall: str, path: Path) -> str:
    """An ``OSError`` phrased like Node's fs error message (``ENOENT: …, open '/x'``)."""
    code = _CODES.get(exc.errno or 0)
    if code is None:
        return exc.strerror or str(exc)
    name, text = code
    if name == "EISDIR" and syscall == "read":
        return f"{name}: {text}, read"
    return f"{name}: {text}, {syscall} '{path}'"


def logical_lines(text: str) -> list[str]:
    """LF records: a final LF ends the last record instead of starting an empty one."""
    if text == "":
        return []
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    return lines


def whole_line_prefix(lines: list[str], limit: int, max_bytes: int) -> tuple[str, int, bool]:
    """The first ``limit`` lines that fit ``max_bytes`` joined: (text, count, byte_limited)."""
    accepted: list[str] = []
    size = 0
    byte_limited = False
    for line in lines[:limit]:
        extra = byte_length(line) + (1 if accepted else 0)
        if size + extra > max_bytes:
            byte_limited = True
            break
        accepted.append(line)
        size += extra
    return "\n".join(accepted), len(accepted), byte_limited


def tail_start(data: bytes, start: int) -> int:
    """Move ``start`` forward past UTF-8 continuation bytes."""
    while start < len(data) and (data[start] & 0xC0) == 0x80:
        start += 1
    return start
