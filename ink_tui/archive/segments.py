"""How session files are kept in object storage: as the segments they were pushed in.

An object store cannot append to an object, and a runner pushing with write-only credentials
cannot read what it pushed before. So ``ink-tui push`` puts each session file as *segments*:
the bytes it did not push yet, up to the file's last complete line, one object each::

    PREFIX/NAME/FOLDER/FILE.jsonl/GEN/START-END

``START`` and ``END`` are byte offsets (15 digits): the object holds the file's bytes
``[START, END)``. ``GEN`` (4 digits and more) counts the times the file was rewritten at the
source (shrunk, or changed before what was pushed): a new generation starts again at 0, and
only the highest one is the file. A pull takes, from 0, the longest segment starting at each
offset while they follow each other: a file is then its segments end to end, and a segment never
ends inside a line, so a mirror never holds half a record.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from ink_tui.archive.mirrorstate import plain_session_name
from ink_tui.paths import SESSION_SUFFIX

__all__ = ["Segment", "StoredFile", "parse_keys", "segment_key"]

_KEY: Final = re.compile(
    r"^(?P<rel>.+"
    + re.escape(SESSION_SUFFIX)
    + r")/(?P<gen>\d{4,9})/(?P<start>\d{15})-(?P<end>\d{15})$"
)


def segment_key(rel: str, generation: int, start: int, end: int) -> str:
    """The object name of bytes ``[start, end)`` of generation ``generation`` of ``rel``."""
    return f"{rel}/{generation:04d}/{start:015d}-{end:015d}"


@dataclass(frozen=True, slots=True)
class Segment:
    key: str
    start: int
    end: int


@dataclass(slots=True)
class StoredFile:
    """One session file as the store holds it: its newest generation's segments."""

    rel: str
    generation: int
    segments: list[Segment] = field(default_factory=list)

    def chain(self) -> list[Segment]:
        """The segments that make the file from its start, in order: at each offset the
        longest one starting there, until one is missing."""
        longest: dict[int, Segment] = {}
        for segment in self.segments:
            known = longest.get(segment.start)
            if known is None or segment.end > known.end:
                longest[segment.start] = segment
        chain: list[Segment] = []
        following = longest.get(0)
        while following is not None:
            chain.append(following)
            following = longest.get(following.end)
        return chain

    @property
    def size(self) -> int:
        """The bytes the store holds of the file, from its start without a gap."""
        chain = self.chain()
        return chain[-1].end if chain else 0


@dataclass(slots=True)
class ParsedKeys:
    files: dict[str, StoredFile] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # objects left out, and why


def parse_keys(listed: Iterable[tuple[str, int]]) -> ParsedKeys:
    """The stored session files of a listing (object name under the machine's prefix, size);
    an object that is not a segment of a plain session file name is left out with a note, and
    one whose size is not its range's is left out too (a partial upload)."""
    parsed = ParsedKeys()
    for key, size in listed:
        match = _KEY.match(key)
        if match is None or not plain_session_name(match["rel"]):
            parsed.notes.append(f"{key!r}: not a segment of a plain session file name, left out")
            continue
        start, end = int(match["start"]), int(match["end"])
        if end <= start or size != end - start:
            parsed.notes.append(f"{key!r}: holds {size} bytes, not {end - start}: left out")
            continue
        rel, generation = match["rel"], int(match["gen"])
        stored = parsed.files.get(rel)
        if stored is None or generation > stored.generation:
            stored = parsed.files[rel] = StoredFile(rel, generation)
        if generation == stored.generation:
            stored.segments.append(Segment(key, start, end))
    return parsed
