"""What a torture writer appends: a seeded, endless-looking stream of Ink records.

The same :func:`drive` runs in the writer process (appending for real, until it is killed) and in
the test (a dry writer that only collects the bytes), so the test knows byte for byte what the
killed process meant to write (:class:`Written`). The writers are in ``torture_writers``.

Importable as ``torture_plan`` (pyproject's ``pythonpath``), and by the writer script beside it.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from torture_writers import (
    MODELS,
    InkLikeWriter,
    Writer,
    WriterKind,
    make_writer,
    new_session_writer,
    seeded_clock,
    seeded_hex,
)

from ink_tui.session.reading.reader import SessionFile, open_session
from ink_tui.session.writing.writer import SessionWriter

__all__ = ["Written", "drive", "dry_new_stream", "dry_stream", "grow_session"]

Record = dict[str, Any]
_LEVELS = ("off", "minimal", "low", "medium", "high", "xhigh", "max")
# Words that stress the encoders and the line splitting: multi-byte UTF-8 (CJK, 4-byte emoji),
# JavaScript's raw line separators, escapes, a fake record boundary, a terminal escape.
_WORDS = (
    "alpha", "beta", "gamma", "delta", "修复", "日志行", "😀", "🎉", "\u2028", "\u2029", '"q"',
    "back\\slash", "tab\there", "line\nbreak", '}\n{"type":"message"', "\x1b[31m", "café",
    "ÿ", "\x00", "naïve", "—", "✂",
)  # fmt: skip


# -- the records -----------------------------------------------------------------------------


def _text(rng: random.Random, size: int) -> str:
    words: list[str] = []
    length = 0
    while length < size:
        word = rng.choice(_WORDS) if rng.random() < 0.3 else f"w{rng.randrange(10**6)}"
        words.append(word)
        length += len(word) + 1
    return " ".join(words)


def _big_text(rng: random.Random, size: int) -> str:
    """``size`` characters, fast: a random chunk repeated (a tool's long output)."""
    chunk = _text(rng, 4096) + "\n"
    return (chunk * (size // len(chunk) + 1))[:size]


def _user(rng: random.Random) -> Record:
    return {"role": "user", "content": _text(rng, int(rng.lognormvariate(4.5, 1.2)) + 1)}


def _assistant(rng: random.Random, calls: list[tuple[str, str]]) -> Record:
    blocks: list[Record] = []
    if rng.random() < 0.4:
        blocks.append({"type": "thinking", "thinking": _text(rng, 200), "signature": "c2ln"})
    blocks.append({"type": "text", "text": _text(rng, int(rng.lognormvariate(5, 1)) + 1)})
    for call_id, name in calls:
        arguments = {"command": _text(rng, 40)} if name == "bash" else {"path": "src/a.py"}
        blocks.append({"type": "toolCall", "id": call_id, "name": name, "arguments": arguments})
    return {
        "role": "assistant",
        "blocks": blocks,
        "usage": {"inputTokens": rng.randrange(10**5), "outputTokens": rng.randrange(4000)},
        "stopReason": "tool_use" if calls else "end_turn",
        "model": "glm-5.3",
        "modelReference": "zai/glm-5.3",
    }


def _results(rng: random.Random, calls: list[tuple[str, str]], big: int) -> Record:
    results = []
    for call_id, name in calls:
        if big and rng.random() < 0.15:
            content = _big_text(rng, int(2 ** rng.uniform(16, max(16.5, big.bit_length()))))
        else:
            content = _text(rng, int(rng.lognormvariate(6, 1.5)) + 1)
        results.append(
            {"toolCallId": call_id, "toolName": name, "content": content, "isError": False}
        )
    return {"role": "toolResult", "results": results}


def _side_record(rng: random.Random, writer: Writer, users: list[str]) -> None:
    """Between turns: one of the records that are not messages (labels, markers, ...)."""
    kind = rng.choice(
        ("label", "level", "name", "model", "position", "compaction", "branchSummary")
    )
    if kind == "label" and users:
        writer.append_entry("label", {"targetId": rng.choice(users), "label": _text(rng, 8)})
    elif kind == "level":
        writer.append_entry("thinkingLevelChange", {"thinkingLevel": rng.choice(_LEVELS)})
    elif kind == "name":
        writer.append_entry("session_info", {"name": _text(rng, 20)})
    elif kind == "model":
        writer.append_session_model(rng.choice(MODELS))
    elif kind == "position":
        writer.append_position(rng.choice(users) if users else writer.leaf_id)
    elif kind == "compaction":
        tail = [{"role": "user", "content": _text(rng, 30)}]
        fields = {"summary": _text(rng, 300), "retainedTail": tail, "tokensBefore": 4321}
        writer.append_entry("compaction", fields)
    else:
        writer.append_entry("branchSummary", {"summary": _text(rng, 120)})


def drive(writer: Writer, seed: int, *, budget: int, big: int = 0) -> None:
    """Append turns to ``writer`` until it has written ``budget`` bytes or more.

    ``big``: the largest tool output in bytes (0: none); a big one comes in about one result
    in seven. Every turn is well paired (an assistant's calls are answered by the next record),
    so a crash leaves at most the calls of the last assistant message dangling.
    """
    rng = random.Random(seed)
    start = writer.size
    users: list[str] = []
    while writer.size - start < budget:
        if rng.random() < 0.15:
            _side_record(rng, writer, users)
        users.append(writer.append_message(_user(rng))["id"])
        for _ in range(rng.choice((0, 1, 1, 2))):
            count = rng.choice((1, 1, 2, 3))
            calls = [
                (f"call_{rng.getrandbits(48):012x}", rng.choice(("bash", "read")))
                for _ in range(count)
            ]
            writer.append_message(_assistant(rng, calls))
            writer.append_message(_results(rng, calls, big))
        writer.append_message(_assistant(rng, []))


class Written:
    """The bytes a writer appends after ``start``, cut into its records."""

    def __init__(self, start: int) -> None:
        self.start = start
        self.data = bytearray()
        self.ends: list[int] = []  # the end of each record, relative to ``start``

    def add(self, payload: bytes) -> None:
        self.data += payload
        self.ends.append(len(self.data))

    def first(self, count: int) -> Written:
        """The first ``count`` records only (as if the writer had stopped after them)."""
        kept = Written(self.start)
        kept.ends = self.ends[:count]
        kept.data = self.data[: kept.ends[-1] if kept.ends else 0]
        return kept

    def record(self, number: int) -> bytes:
        """Record ``number`` (0-based), newline included."""
        start = self.ends[number - 1] if number else 0
        return bytes(self.data[start : self.ends[number]])

    def complete_end(self, length: int) -> int:
        """The end of the last record wholly inside the first ``length`` bytes (0: none)."""
        done = [end for end in self.ends if end <= length]
        return done[-1] if done else 0


def dry_stream(
    kind: WriterKind, session: SessionFile, seed: int, *, budget: int, big: int
) -> Written:
    """Exactly what the writer process of ``kind`` appends to ``session`` when not killed."""
    written = Written(session.size)
    drive(make_writer(kind, session, seed, written.add), seed, budget=budget, big=big)
    return written


def dry_new_stream(
    kind: WriterKind, folder: Path, seed: int, *, budget: int, big: int
) -> tuple[Path, Written]:
    """The path of the new session ``kind``'s writer process creates, and what it writes."""
    written = Written(0)
    path, writer = new_session_writer(kind, folder, seed, written.add)
    drive(writer, seed, budget=budget, big=big)
    return path, written


def grow_session(folder: Path, target: int, seed: int) -> Path:
    """A new session file of about ``target`` bytes (written at once, as fast as possible)."""
    writer = SessionWriter.new(
        folder,
        "/home/ada/proj",
        model=MODELS[0],
        clock=seeded_clock(seed),
        random_hex=seeded_hex(seed),
    )
    writer.append_message({"role": "user", "content": "start"})
    writer.append_message(_assistant(random.Random(seed), []))
    session = open_session(writer.path, warn=None)
    written = Written(session.size)
    drive(InkLikeWriter(session, seed, written.add), seed, budget=target - session.size, big=0)
    with writer.path.open("ab") as stream:
        stream.write(written.data)
    return writer.path
