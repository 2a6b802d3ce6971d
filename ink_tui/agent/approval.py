"""What a tool call is about to do, shown in the approval modal before bash, edit or write runs.

``preview_call`` turns a call into a :class:`CallPreview`: for bash the command, for edit a
unified diff of the file before and after the edits (matched exactly as the edit tool does), for
write a unified diff of the current content (empty for a new file) against the new content.
It reads files, so callers run it in a thread. It never raises on odd input: when no preview can
be made, ``problem`` says why in one line and the modal still asks (the tool reports its own
error when it runs). Text is left as it is; the UI renders it through its safe-text layer.
"""

from __future__ import annotations

import difflib
import errno
import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ink_tui.agent.tools.common import (
    ToolFailure,
    as_number,
    byte_length,
    logical_lines,
    node_error,
    resolve_path,
)
from ink_tui.agent.tools.files import edit_refusal_text
from ink_tui.agent.tools.specs import validate_arguments
from ink_tui.logs import unforeseen
from ink_tui.session.reading.jsformat import js_string
from ink_tui.session.rules.edits import (
    EditProblem,
    EditRefused,
    edit_pairs,
    edit_text,
    normalize_eol,
)

MAX_DIFF_BYTES = 2 * 1024 * 1024
"""Files (and write contents) larger than this get no diff; ``problem`` says so."""

_SNIFF_BYTES = 8192
"""A NUL byte this early marks a binary file (the read tool's rule)."""


@dataclass(frozen=True, slots=True)
class CallPreview:
    """One tool call as the approval modal shows it.

    ``tool`` is the tool name, ``title`` one line (``edit  src/app.py``), ``body`` the command
    or the plain unified diff, and ``problem`` a one-line reason when no preview could be made.
    """

    tool: str
    title: str
    body: str
    problem: str | None = None


class _NoDiff(Exception):
    """The current file cannot be diffed; the message is the one-line problem."""


def preview_call(name: str, arguments: object, cwd: Path, *, max_lines: int = 400) -> CallPreview:
    """Preview a call of tool ``name`` with ``arguments`` run in ``cwd``.

    Blocking (reads files): callers run it in a thread. Bodies longer than ``max_lines`` lines
    are cut and end with ``… N more lines``. Invalid arguments give the arguments as JSON and
    the tool's own validation message as ``problem``; tools other than bash, edit and write
    show their arguments as JSON.
    """
    try:
        invalid = validate_arguments(name, arguments)
        if invalid is not None or not isinstance(arguments, dict):
            problem = _one_line(invalid) if invalid is not None else None
            return CallPreview(name, name, _cut(_json(arguments), max_lines), problem)
        if name == "bash":
            return _bash(arguments, cwd, max_lines)
        if name == "edit":
            return _edit(arguments, cwd, max_lines)
        if name == "write":
            return _write(arguments, cwd, max_lines)
        return CallPreview(name, name, _cut(_json(arguments), max_lines))
    except (OSError, ToolFailure) as exc:  # a preview must never break the approval flow
        reason = f"could not preview this call: {type(exc).__name__}: {exc}"
        return CallPreview(name, name, _cut(_json(arguments), max_lines), _one_line(reason))
    except Exception as exc:  # a bug: logged; the modal still asks
        problem = f"could not preview this call: {unforeseen(exc, 'the approval preview')}"
        return CallPreview(name, name, _cut(_json(arguments), max_lines), problem)


# --- the three tools ------------------------------------------------------------------------


def _bash(arguments: dict[str, Any], cwd: Path, max_lines: int) -> CallPreview:
    title = f"bash  ·  in {os.path.normpath(cwd)}"
    timeout = as_number(arguments.get("timeout"))
    if timeout is not None:
        title += f"  ·  timeout {js_string(timeout)}s"
    return CallPreview("bash", title, _cut(str(arguments["command"]), max_lines))


def _outside(absolute: Path, cwd: Path) -> str:
    """A warning for the title when the file really lies outside the session's folder: by its
    path, or through a symlink on the way (the real path is said, so the user sees where the
    write lands). Empty when it stays inside."""
    real = Path(os.path.realpath(absolute))
    root = Path(os.path.realpath(cwd))
    if real == root or root in real.parents:
        return ""
    through = " through a symlink" if real != Path(os.path.normpath(absolute)) else ""
    return f"  ·  ⚠ outside {root}{through}: writes {real}"


def _edit(arguments: dict[str, Any], cwd: Path, max_lines: int) -> CallPreview:
    requested = str(arguments["path"])
    absolute = resolve_path(requested, cwd, normalize=False)
    shown = _display(absolute, cwd)
    title = f"edit  {shown}{_outside(absolute, cwd)}"
    fallback = _cut(_json(arguments), max_lines)
    raw_edits: list[Any] = arguments["edits"]
    if not raw_edits:
        problem = f"Error: {edit_refusal_text(EditRefused(EditProblem.NO_EDITS))}"
        return CallPreview("edit", title, fallback, problem)
    try:
        raw = _read_text(absolute, requested, shown)
    except _NoDiff as exc:
        return CallPreview("edit", title, fallback, str(exc))
    # As the edit tool does: the BOM dropped, matched on LF text (the diff ignores line endings).
    try:
        edited = edit_text(raw, edit_pairs(raw_edits))
    except EditRefused as refusal:
        problem = _one_line(f"Error: {edit_refusal_text(refusal)}")
        return CallPreview("edit", title, fallback, problem)
    return CallPreview("edit", title, _cut(_diff(edited.before, edited.after, shown), max_lines))


def _write(arguments: dict[str, Any], cwd: Path, max_lines: int) -> CallPreview:
    requested = str(arguments["path"])
    content = str(arguments["content"])
    absolute = resolve_path(requested, cwd, normalize=False)
    shown = _display(absolute, cwd)
    plain = _cut(content, max_lines)
    if absolute.is_dir():
        exc = IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
        problem = f"Error writing {requested}: {node_error(exc, 'open', absolute)}"
        return CallPreview("write", f"write  {shown}", plain, problem)
    new_file = not absolute.exists()
    title = f"write  {shown} (new file)" if new_file else f"write  {shown}"
    title += _outside(absolute, cwd)
    if byte_length(content) > MAX_DIFF_BYTES:
        return CallPreview(
            "write", title, plain, f"the new content is {_mb(content)}; no diff shown"
        )
    if new_file:
        body = _diff("", content, shown) if content else "(empty file)"
        return CallPreview("write", title, _cut(body, max_lines))
    try:
        old = _read_text(absolute, requested, shown)
    except _NoDiff as exc:
        return CallPreview("write", title, plain, str(exc))
    return CallPreview("write", title, _cut(_diff(old, content, shown), max_lines))


# --- helpers --------------------------------------------------------------------------------


def _read_text(absolute: Path, requested: str, shown: str) -> str:
    """The file as text (BOM kept, bad UTF-8 replaced), or :class:`_NoDiff` with the reason."""
    try:
        info = absolute.stat()
        if not stat.S_ISREG(info.st_mode) and not stat.S_ISDIR(info.st_mode):
            raise _NoDiff(f"{shown} is not a regular file; no diff shown")
        with absolute.open("rb") as handle:
            data = handle.read(MAX_DIFF_BYTES + 1)
    except OSError as exc:
        raise _NoDiff(f"Error reading {requested}: {node_error(exc, 'open', absolute)}") from exc
    except ValueError as exc:  # e.g. an embedded NUL in the path
        raise _NoDiff(_one_line(f"Error reading {requested}: {exc}")) from exc
    if len(data) > MAX_DIFF_BYTES:
        size = max(info.st_size, len(data)) / (1024 * 1024)
        raise _NoDiff(f"{shown} is {size:.1f} MB; no diff for files over 2 MB")
    if b"\x00" in data[:_SNIFF_BYTES]:
        raise _NoDiff(f"{shown} looks like a binary file; no diff shown")
    return data.decode("utf-8", "replace")


def _diff(before: str, after: str, shown: str) -> str:
    """Unified diff (n=3) with ``a/`` and ``b/`` labels, compared line by line without EOLs."""
    label = shown.lstrip("/")
    lines = difflib.unified_diff(
        logical_lines(normalize_eol(before)),
        logical_lines(normalize_eol(after)),
        f"a/{label}",
        f"b/{label}",
        n=3,
        lineterm="",
    )
    text = "\n".join(lines)
    if text:
        return text
    if before == after:
        return "(no changes)"
    return "(no line changes: only line endings, a BOM or the final newline differ)"


def _cut(text: str, max_lines: int) -> str:
    """``text`` cut to ``max_lines`` lines plus a final ``… N more lines``."""
    lines = text.split("\n")
    limit = max(0, max_lines)
    if len(lines) <= limit:
        return text
    rest = len(lines) - limit
    return "\n".join([*lines[:limit], f"… {rest} more line{'' if rest == 1 else 's'}"])


def _display(absolute: Path, cwd: Path) -> str:
    """The path relative to ``cwd`` when inside it, else absolute."""
    base = Path(os.path.normpath(cwd))
    if absolute != base and absolute.is_relative_to(base):
        return absolute.relative_to(base).as_posix()
    return absolute.as_posix()


def _json(arguments: object) -> str:
    try:
        return json.dumps(arguments, ensure_ascii=False, indent=2, default=repr)
    except (ValueError, TypeError):  # e.g. a circular structure
        return repr(arguments)


def _mb(text: str) -> str:
    return f"{byte_length(text) / (1024 * 1024):.1f} MB"


def _one_line(text: str) -> str:
    return " ".join(text.split())
