"""Splitting a session file into lines the way Ink does, keeping byte offsets.

Ink reads the whole file as UTF-8 text, splits it on ``\\n`` and drops the lines that
JavaScript's ``trim()`` empties. We work on bytes so that every line keeps its byte offset
(repair truncates at byte offsets, and the live tail reads from one), and read in chunks so a
100 MB file never sits in memory twice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import BinaryIO, Final, NamedTuple

__all__ = [
    "JS_WHITESPACE",
    "RawLine",
    "is_blank",
    "iter_line_blocks_backward",
    "iter_lines",
    "split_lines",
]

# What String.prototype.trim() removes: WhiteSpace and LineTerminator code points.
JS_WHITESPACE: Final = (
    "\t\n\v\f\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_ASCII_WHITESPACE: Final = b" \t\n\r\x0b\x0c"
CHUNK_SIZE: Final = 8 * 1024 * 1024


class RawLine(NamedTuple):
    """One ``\\n``-separated segment of the file (without its ``\\n``)."""

    data: bytes
    offset: int  # byte offset of the first byte
    terminated: bool  # followed by a ``\\n``

    @property
    def end(self) -> int:
        """Offset just past the line and its newline."""
        return self.offset + len(self.data) + (1 if self.terminated else 0)


def is_blank(data: bytes) -> bool:
    """True when JavaScript's ``trim()`` would empty this line."""
    stripped = data.strip(_ASCII_WHITESPACE)
    if not stripped:
        return True
    if stripped[0] < 0x80 or stripped[-1] < 0x80:
        return False  # an ASCII non-whitespace byte at an end: certainly not blank
    return data.decode("utf-8", errors="replace").strip(JS_WHITESPACE) == ""


def iter_line_batches(
    stream: BinaryIO,
    start: int = 0,
    chunk_size: int = CHUNK_SIZE,
    progress: Callable[[int], None] | None = None,
) -> Iterator[tuple[int, list[bytes], bool]]:
    """Yield ``(offset of the first line, lines, terminated)`` a chunk of the file at a time.

    Splitting happens in C (``bytes.split``), which is what keeps a 100 MB open fast. Every
    line of a batch is followed by ``\\n`` when ``terminated``; only the last batch (the file's
    unterminated final segment, if any) has ``terminated=False``. ``progress`` is called with
    the byte offset reached after each chunk.
    """
    stream.seek(start)
    offset = start
    pending: list[bytes] = []
    while True:
        chunk = stream.read(chunk_size)
        if not chunk:
            break
        if progress is not None:
            progress(stream.tell())
        if pending:
            pending.append(chunk)
            if b"\n" not in chunk:
                continue
            chunk = b"".join(pending)
            pending = []
        parts = chunk.split(b"\n")
        tail = parts.pop()
        if tail:
            pending.append(tail)
        if parts:
            yield offset, parts, True
            offset += sum(map(len, parts)) + len(parts)
    if pending:
        yield offset, [b"".join(pending)], False


def iter_lines(
    stream: BinaryIO,
    start: int = 0,
    chunk_size: int = CHUNK_SIZE,
    progress: Callable[[int], None] | None = None,
) -> Iterator[RawLine]:
    """Yield every segment from ``start`` (which must be a line start) to the end of ``stream``.

    The last segment is yielded with ``terminated=False`` when the file does not end in ``\\n``;
    an empty segment after a final ``\\n`` is not yielded.
    """
    for offset, parts, terminated in iter_line_batches(stream, start, chunk_size, progress):
        for part in parts:
            yield RawLine(part, offset, terminated)
            offset += len(part) + 1


def split_lines(data: bytes, start: int = 0) -> Iterator[RawLine]:
    """:func:`iter_lines` over bytes already in memory."""
    position = 0
    while position < len(data):
        newline = data.find(b"\n", position)
        if newline < 0:
            yield RawLine(data[position:], start + position, False)
            return
        yield RawLine(data[position:newline], start + position, True)
        position = newline + 1


def iter_line_blocks_backward(
    stream: BinaryIO,
    start: int,
    end: int,
    chunk_size: int = 256 * 1024,
    progress: Callable[[int], None] | None = None,
) -> Iterator[list[RawLine]]:
    """The segments between ``start`` (a line start) and ``end``, LAST first, one chunk's worth
    at a time: each list holds the segments that the chunk just read completed, last first.

    The file is read backwards, so the end of a big file costs only the chunks it needs; the
    segments are the ones :func:`iter_lines` yields for the same range, in reverse order.
    ``progress`` is called with the number of bytes read so far after each chunk (it may raise,
    to stop the scan).
    """
    position = end
    # The bytes from ``position`` on (the end of a line that begins before them), as the chunks
    # read, last first: joined once a newline is found, so a 50 MB line costs one copy (joining
    # at each chunk would copy it 200 times over).
    carry: list[bytes] = []
    carry_terminated = False  # whether a newline follows ``carry``
    read = 0
    while position > start:
        low = max(start, position - chunk_size)
        stream.seek(low)
        chunk = stream.read(position - low)
        if len(chunk) != position - low:
            raise OSError(f"the file shrank while it was read (at byte {low})")
        read += len(chunk)
        if progress is not None:
            progress(read)
        if position == end:
            carry_terminated = chunk.endswith(b"\n")
            if carry_terminated:
                chunk = chunk[:-1]
        if low > start and b"\n" not in chunk:
            carry.append(chunk)  # still inside one line: nothing completed
            position = low
            yield []
            continue
        carry.append(chunk)
        parts = b"".join(reversed(carry)).split(b"\n")
        first_whole = 1 if low > start else 0  # parts[0] may begin before ``low``
        offsets = [low]
        for part in parts[:-1]:
            offsets.append(offsets[-1] + len(part) + 1)
        block: list[RawLine] = []
        terminated = carry_terminated
        for index in range(len(parts) - 1, first_whole - 1, -1):
            block.append(RawLine(parts[index], offsets[index], terminated))
            terminated = True
        if first_whole:
            carry_terminated = carry_terminated if len(parts) == 1 else True
            carry = [parts[0]]
        else:
            carry = []
        position = low
        yield block
