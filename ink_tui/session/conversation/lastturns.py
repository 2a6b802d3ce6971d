"""The last turns of a session's current branch, read from the end of the file.

A preview needs the last few turns, not the whole file: :func:`read_last_turns` reads the file
backwards a block at a time, parses only the lines it reaches, validates each as ``open()``
does (a final line that fails is dropped as Ink drops a torn line), finds the leaf by Ink's rule
and walks the parent chain up until it holds the last ``count`` turns. It reads further back
when the answer is not in the tail yet (a position marker pointing far back, a parent chain
that leaves the tail), and falls back to a whole ``open()`` when the tail cannot tell: an
invalid line before the last one, a broken chain, a cycle, a tool result whose call is not in
the turns read (those need the whole file to be answered as Ink would, error texts included).

What a tail read does not do: check what it never reaches. A session with a corrupt line, a
cycle or a broken parent chain before its last turns previews fine; opening it shows Ink's
error. (And a tool call id reused across turns pairs within the turns shown, where a whole
build pairs the result with the first call of that id.)

Long scans stop when ``cancel`` is set (:class:`ScanCancelled`), between blocks.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Final, cast

from ink_tui.session.conversation.branchview import load_branch
from ink_tui.session.conversation.view import Turn, build_turns
from ink_tui.session.reading.entry import KEEP_SMALL_BYTES, Entry
from ink_tui.session.reading.errors import RecordError, SessionError
from ink_tui.session.reading.files import open_regular
from ink_tui.session.reading.jsoncodec import JsonDecodeError, decode_line
from ink_tui.session.reading.lines import RawLine, is_blank, iter_line_blocks_backward, iter_lines
from ink_tui.session.reading.reader import SessionFile, open_session, read_header
from ink_tui.session.reading.records import LineKind, classify_record
from ink_tui.session.reading.recordtypes import EntryRecord, HeaderRecord

__all__ = [
    "BLOCK_BYTES",
    "COUNT_BELOW",
    "LastTurns",
    "ScanCancelled",
    "TailUnclear",
    "TailWalk",
    "read_last_turns",
    "walk_tail",
]

BLOCK_BYTES: Final = 256 * 1024
COUNT_BELOW: Final = 4 * 1024 * 1024
"""A file up to this size is read to its start, so the turns before the last ones are counted
(their numbers shown); a bigger one stops at the last turns."""


class ScanCancelled(Exception):
    """The scan stopped because its cancel event was set."""


@dataclass(slots=True)
class LastTurns:
    """The last turns of the current branch, and what is known of the turns before them."""

    turns: list[Turn]
    total: int | None  # user turns on the branch; None when the tail did not reach its root
    from_tail: bool  # False: the whole file was opened (the tail could not tell)
    bytes_read: int

    @property
    def first_number(self) -> int | None:
        """The number of ``turns[0]`` counting prompts from 1, when the total is known."""
        if self.total is None:
            return None
        return self.total - sum(1 for turn in self.turns if turn.user is not None) + 1


class _Unclear(Exception):
    """The tail alone cannot answer as ``open()`` would: open the whole file."""


TailUnclear = _Unclear  # the public name (for :func:`walk_tail`'s callers)


@dataclass(slots=True)
class _Tail:
    """What the backward scan has read so far (it meets the last lines first)."""

    path: Path
    by_id: dict[str, Entry] = field(default_factory=dict)  # the last entry of each id
    prompts: set[str] = field(default_factory=set)  # ids of user messages
    lines: int = 0  # non-blank lines met
    entry_met: bool = False
    position_met: bool = False  # the file's last position marker comes after its last entry
    position_target: str | None = None  # that marker's leafId
    last_content: str | None = None  # the last entry that is not a label

    def add(self, raw: RawLine) -> None:
        """One non-blank line after the header. Raises :class:`_Unclear`."""
        self.lines += 1
        try:
            record = decode_line(raw.data)
            kind = classify_record(record) if record is not None else None
        except (JsonDecodeError, RecordError) as exc:
            if self.lines == 1:
                return  # the final line: Ink drops it as torn
            raise _Unclear from exc
        if kind is None:
            raise _Unclear  # a null record: Ink throws (its exact text comes from open())
        if kind is LineKind.ENTRY:
            self._add_entry(cast(EntryRecord, record), raw)  # classify_record checked it
        elif kind is LineKind.POSITION and not self.entry_met and not self.position_met:
            self.position_met = True
            target = record.get("leafId")
            self.position_target = target if isinstance(target, str) else None

    def _add_entry(self, record: EntryRecord, raw: RawLine) -> None:
        self.entry_met = True
        entry_id = record["id"]
        if entry_id in self.by_id:
            return  # an earlier entry with the same id: Ink's map keeps the last one
        entry = Entry(record, 0, raw.offset, raw.end, path=self.path)  # its line: not counted
        if len(raw.data) > KEEP_SMALL_BYTES:
            entry.release()  # read again if it ends up in the turns shown
        self.by_id[entry_id] = entry
        if entry.type == "message" and entry.message["role"] == "user":
            self.prompts.add(entry_id)
        if self.last_content is None and entry.type != "label":
            self.last_content = entry_id

    def leaf(self, whole: bool) -> tuple[bool, str | None]:
        """``(known, leaf)``: the leaf as ``SessionFile.leaf_id`` picks it, once it is known."""
        if self.position_met:
            if self.position_target is None:
                return True, None
            if self.position_target in self.by_id:
                return True, self.position_target
            if not whole:
                return False, None  # its target may be further back
        if self.last_content is None and not whole:
            return False, None
        return True, self.last_content

    def walk(self, leaf: str | None, count: int, whole: bool) -> tuple[list[Entry], bool] | None:
        """The branch's last entries holding ``count`` prompts, root first, and whether they
        reach the root; None while the chain goes on before what was read."""
        found: list[Entry] = []
        seen: set[str] = set()
        prompts = 0
        current = leaf
        while current is not None:
            entry = self.by_id.get(current)
            if entry is None:
                if whole:
                    raise _Unclear  # a broken chain: open() gives Ink's error
                return None
            if current in seen:
                raise _Unclear  # a cycle: likewise
            seen.add(current)
            found.append(entry)
            if current in self.prompts:
                prompts += 1
                if prompts == count and not whole:
                    break
            current = entry.parent_id
        found.reverse()
        return found, current is None


@dataclass(slots=True)
class TailWalk:
    """The branch's last entries as read from the end of the file (root first)."""

    header: HeaderRecord
    header_end: int
    size: int
    leaf: str | None
    entries: list[Entry]
    rooted: bool  # the entries reach the branch's root
    bytes_read: int


def walk_tail(
    path: Path, count: int, check: Callable[[int], None], *, count_small: bool = True
) -> TailWalk:
    """Read backwards until the last ``count`` prompts of the current branch are known.

    With ``count_small``, a file up to :data:`COUNT_BELOW` is read to its start (the turns before
    are counted). Raises ``_Unclear`` when only a whole ``open()`` can answer.
    """
    with open_regular(path) as stream:
        size = stream.seek(0, 2)
        header, header_end = _header_end(path, stream)
        tail = _Tail(path)
        read = [0]

        def progress(done: int) -> None:
            read[0] = done
            check(done)

        blocks = iter_line_blocks_backward(stream, header_end, size, BLOCK_BYTES, progress)
        for block in itertools.chain(blocks, [[]]):
            for raw in block:
                if raw.data[:1] == b"{" or not is_blank(raw.data):
                    tail.add(raw)
            whole = read[0] >= size - header_end  # every line after the header is read
            known, leaf = tail.leaf(whole)
            walked = tail.walk(leaf, count, whole) if known else None
            if walked is None:
                if whole:
                    raise _Unclear
                continue
            entries, rooted = walked
            small = size - header_end <= COUNT_BELOW
            if count_small and not rooted and not whole and small:
                continue  # small: read on to count the turns before these
            return TailWalk(header, header_end, size, leaf, entries, rooted, read[0])
    raise _Unclear  # not reached: the last round reads the whole file


def _tail_read(path: Path, count: int, check: Callable[[int], None]) -> LastTurns:
    walked = walk_tail(path, count, check)
    entries = walked.entries
    SessionFile(path=path, header=walked.header, header_end=walked.header_end).preload(entries)
    turns = build_turns(entries)
    if any(item.kind == "orphan_result" for turn in turns for item in turn.items):
        raise _Unclear  # its call may be in an earlier turn: only the whole branch says
    total = sum(1 for turn in turns if turn.user is not None) if walked.rooted else None
    return LastTurns(turns[-count:], total, True, walked.bytes_read)


def _header_end(path: Path, stream: BinaryIO) -> tuple[HeaderRecord, int]:
    for raw in iter_lines(stream, chunk_size=64 * 1024):
        if raw.data[:1] != b"{" and is_blank(raw.data):
            continue
        return read_header(path, raw), raw.end
    raise _Unclear  # an empty file: open() says so


def read_last_turns(
    path: Path,
    count: int,
    *,
    cancel: threading.Event | None = None,
    progress: Callable[[int], None] | None = None,
) -> LastTurns:
    """The last ``count`` turns of the session's current branch, as a full open would show them.

    Raises :class:`SessionError` (the file cannot be opened, with Ink's reason), ``OSError``,
    or :class:`ScanCancelled` when ``cancel`` is set during the scan (checked after every block
    read). ``progress`` is called with the bytes read so far.
    """

    def check(done: int) -> None:
        if progress is not None:
            progress(done)
        if cancel is not None and cancel.is_set():
            raise ScanCancelled

    check(0)
    try:
        return _tail_read(path, count, check)
    except (_Unclear, SessionError, OSError):
        pass  # the whole open below says what the tail could not (or fails as open() fails)
    return _whole(path, count, check)


def _whole(path: Path, count: int, check: Callable[[int], None]) -> LastTurns:
    session = open_session(path, warn=None, progress=check)
    turns = load_branch(session, session.leaf_id).turns
    total = sum(1 for turn in turns if turn.user is not None)
    return LastTurns(turns[-count:], total, False, session.size)
