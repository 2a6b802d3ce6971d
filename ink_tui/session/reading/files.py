"""Opening a session file for reading: only a regular file, never blocking, never unbounded.

A path named ``*.jsonl`` can be anything: a FIFO (``open()`` would wait forever for a writer), a
directory, a symlink to ``/dev/zero`` (endless bytes), to ``/dev/tty`` or to nothing.
:func:`open_regular` opens without blocking, checks what it opened, and refuses anything but a
regular file with :class:`NotARegularFile`, an ``OSError`` whose ``strerror`` says what the path
is, so every caller's ``except OSError`` reports it in one line.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO, Final

__all__ = ["DANGLING", "NotARegularFile", "open_regular", "what_it_is"]

_KINDS: Final = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


DANGLING: Final = "a symlink to nothing, not a session file"


class NotARegularFile(OSError):
    """The path is not a regular file; ``strerror`` names what it is."""


def what_it_is(mode: int) -> str:
    """``"a FIFO (named pipe)"``, ``"a directory"``… for a file mode that is not regular."""
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def open_regular(path: Path | str) -> BinaryIO:
    """``open(path, "rb")`` for a regular file only (symlinks followed); never blocks on a FIFO.

    Raises ``FileNotFoundError`` and the other ``OSError`` of ``open``, or
    :class:`NotARegularFile` (a dangling symlink too)."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        if os.path.islink(path):  # a dangling symlink: said as what it is, wherever it is read
            raise NotARegularFile(errno.ENOENT, DANGLING, str(path)) from None
        raise
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = what_it_is(mode)
            raise NotARegularFile(errno.EINVAL, f"{kind}, not a session file", str(path))
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
