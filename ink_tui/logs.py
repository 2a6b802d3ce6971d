"""The log file: errors nobody foresaw, each with its traceback, in the platform's log folder.

A foreseen failure (a provider error, a file that changed, a bad argument) is one line where it
happens and needs no log. Anything else is a bug: :func:`unforeseen` appends its traceback to
``ink-tui.log`` and returns the one line to show, which says where the traceback is. The file is
private to the user (mode 0600, its folder 0700) and size-capped: past :data:`MAX_BYTES` it
becomes ``ink-tui.log.1`` (replacing the previous one) and a new file starts. Text in a
traceback may come from a session, so its secrets are masked and its control characters made
visible before it is written.
"""

from __future__ import annotations

import os
import traceback
from datetime import UTC, datetime
from pathlib import Path

import platformdirs

from ink_tui.safetext import visible
from ink_tui.secrets import masked_text

__all__ = [
    "LOG_FILE_NAME",
    "MAX_BYTES",
    "log_dir",
    "log_exception",
    "log_file",
    "one_line",
    "unforeseen",
]

APP_NAME = "ink-tui"
LOG_FILE_NAME = "ink-tui.log"
MAX_BYTES = 1_000_000  # then the file is rotated once (ink-tui.log.1)
_FIRST_LINE = 300  # characters of an error's message kept in the one line shown


def log_dir() -> Path:
    """The platform's log folder for ink-tui (``~/.local/state/ink-tui/log`` on Linux)."""
    return platformdirs.user_log_path(APP_NAME, appauthor=False)


def log_file() -> Path:
    return log_dir() / LOG_FILE_NAME


def _rotate(path: Path) -> None:
    try:
        if path.stat().st_size >= MAX_BYTES:
            path.replace(path.with_name(path.name + ".1"))
    except FileNotFoundError:
        pass


def log_exception(error: BaseException, where: str) -> Path | None:
    """Append ``error`` with its traceback to the log file; the file, or ``None`` when the log
    itself cannot be written (a read-only home: the caller still shows its one line)."""
    path = log_file()
    stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    trace = "".join(traceback.format_exception(error))
    text = visible(masked_text(f"{stamp} {where}\n{trace}\n"))
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        _rotate(path)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, text.encode("utf-8", "backslashreplace"))
        finally:
            os.close(fd)
    except OSError:
        return None
    return path


def one_line(error: BaseException) -> str:
    """``TypeError: the message`` on one line (the message cut to a few hundred characters)."""
    message = " ".join(masked_text(str(error)).split())
    if len(message) > _FIRST_LINE:
        message = message[: _FIRST_LINE - 1] + "…"
    name = type(error).__name__
    return f"{name}: {message}" if message else name


def unforeseen(error: BaseException, where: str) -> str:
    """Log ``error`` (a bug) and return the one line that names it and says where the log is."""
    path = log_exception(error, where)
    tail = f"traceback in {path}" if path is not None else "the log could not be written"
    return f"internal error in {where}: {one_line(error)} ({tail})"
