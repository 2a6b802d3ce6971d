"""Opening a session file for reading: only a regular file, never blocking, never unbounded.

A path named ``*.jsonl`` can be anything: a FIFO (``open()`` would wait forever for a writer), a
directory, a symlink to ``/dev/zero`` (endless bytes) or to ``/dev/tty``. :func:`open_regular`
opens without blocking, checks what it opened, and refuses anything but a regular file with
:class:`NotARegularFile`, an ``OSError`` whose ``strerror`` says what the path is, so every
caller's ``except OSError`` reports it in one line.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO, Final

__all__ = ["NotARegularFile", "open_regular", "what_it_is"]

_KINDS: Final = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


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
    :class:`NotARegularFile`."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
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
