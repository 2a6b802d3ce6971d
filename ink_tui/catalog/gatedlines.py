"""A session file's lines a chunk at a time, each chunk given the secrets detector's first
look (:func:`ink_tui.secrets.gate.lines_that_may_hold_secrets`): the one reading of the index
(which masks the records the look lets through) and the audit (which reads only those). Looked
at per line, the gate's setup would cost more than the look itself (about 44 µs a line)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO, NamedTuple

from ink_tui.secrets.gate import lines_that_may_hold_secrets
from ink_tui.session.reading.lines import iter_line_batches

__all__ = ["GatedBatch", "gated_batches"]


class GatedBatch(NamedTuple):
    """One chunk's lines (as :func:`iter_line_batches` gives them) and which may hold a
    secret (their indexes in ``lines``)."""

    offset: int  # of the first line
    lines: list[bytes]
    terminated: bool
    wanted: set[int]


def gated_batches(stream: BinaryIO, start: int, chunk_size: int) -> Iterator[GatedBatch]:
    """The lines of ``stream`` from ``start`` (a line start), ``chunk_size`` bytes at a time."""
    for offset, lines, terminated in iter_line_batches(stream, start, chunk_size):
        wanted = lines_that_may_hold_secrets(b"\n".join(lines))
        yield GatedBatch(offset, lines, terminated, wanted)
