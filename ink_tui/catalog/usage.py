"""What each session file spent: model calls, tokens, tool calls and turns, per day and model.

Every record in a file is counted once, whatever branch it is on: each assistant message (and
each compaction or branch summary, which a model wrote too) is a model call that was paid for,
even on a branch the user later left. So these are not the current branch's figures (the
picker's tokens are), but what the session cost.

Per file, the counts are kept per ``(day, model)``: the day is the record's UTC date (Ink writes
ISO timestamps in UTC), the model ``provider/modelId``:

- an assistant message or a summary: its ``modelReference``, else its wire ``model`` read as
  the session's model when the ids agree, else by Ink's rule (a bare id is Anthropic's, ``glm-*``
  Z.ai's); with neither, the session's model at that point (the latest ``session_model`` in file
  order, else the header's);
- a user prompt (a turn): the model of the next model call in the file, else the session's;
- a tool call: its assistant message's; it failed when a result with ``isError: true`` answers
  it anywhere in the file.

The day is read by :func:`ink_tui.session.reading.timestamps.utc_day`: a date that cannot be
(February 30, month 13, year 0) is an unknown day (``""``), never an error.

A call reporting more than :data:`ABSURD_TOKENS` tokens in one of its four counts (or a count
that is not finite) is **flagged** (:attr:`Counts.flagged`): a call, its tokens in no sum or
cost. No model Ink knows has a context window over about a million tokens, so such a figure is
a corrupt or hand-made record (2^53 tokens would cost $198 billion). ``usageMissing: true``
counts as a call without usage even beside a ``usage`` of zeros (as Ink writes it then).

Files are read whole, line by line, never validated as Ink's ``open()`` does (a line that is not
JSON is skipped: a file Ink cannot open still cost what its records say). Results are cached
per file (:class:`ink_tui.catalog.usagecache.UsageCache`, keyed by size, mtime and inode), so a
second run reads only the files that changed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Final

from ink_tui.safetext import utf8_safe
from ink_tui.session.reading.files import open_regular
from ink_tui.session.reading.jsoncodec import JsonDecodeError, decode_line
from ink_tui.session.reading.lines import JS_WHITESPACE, is_blank, iter_lines
from ink_tui.session.reading.records import USAGE_KEYS
from ink_tui.session.reading.timestamps import utc_day
from ink_tui.session.rules.modelref import parse_model_ref

__all__ = [
    "ABSURD_TOKENS",
    "Counts",
    "FileUsage",
    "model_name",
    "scan_usage",
]

ABSURD_TOKENS: Final = 10**9  # more in one count of one call: flagged, never summed
_MODEL_CHARS: Final = 200


@dataclass(slots=True)
class Counts:
    """What was spent (one day and model of one file, or any sum of them)."""

    turns: int = 0  # user prompts
    requests: int = 0  # model calls: assistant messages, compactions, branch summaries
    unreported: int = 0  # model calls recorded without usage (or with usageMissing: true)
    tool_calls: int = 0
    tool_errors: int = 0
    input: int = 0  # tokens, cache excluded (as every provider Ink supports records them)
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0
    flagged: int = 0  # model calls whose usage is absurd (see ABSURD_TOKENS): tokens left out

    def add(self, other: Counts) -> None:
        for name in _COUNT_FIELDS:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    @property
    def tokens(self) -> int:
        return self.input + self.output + self.cache_read + self.cache_write

    def to_list(self) -> list[int]:
        return [getattr(self, name) for name in _COUNT_FIELDS]

    @classmethod
    def from_list(cls, values: list[int]) -> Counts:
        return cls(*values)


_COUNT_FIELDS: Final = tuple(item.name for item in fields(Counts))


@dataclass(slots=True)
class FileUsage:
    """One session file's counts per ``(day, model)`` (``""``: not known)."""

    path: Path
    project: str  # the project folder (a child session counts in its parent's project)
    session_id: str | None = None
    buckets: dict[tuple[str, str], Counts] = field(default_factory=dict)
    skipped_lines: int = 0  # lines that were not JSON objects
    problem: str | None = None  # why the file could not be read at all
    machine: str | None = None  # the mirrored machine it came from (None: this machine)

    def bucket(self, day: str, model: str) -> Counts:
        found = self.buckets.get((day, model))
        if found is None:
            found = self.buckets[(day, model)] = Counts()
        return found


def _text(value: str) -> str:
    """A string from a session as the cache (JSON) can hold it."""
    value = value[:_MODEL_CHARS]
    return utf8_safe(value)


def model_name(reference: str) -> str:
    """``provider/modelId`` for a ``modelReference`` or a bare id, by Ink's ``parseModelRef``
    (the text trimmed first, so a name never keeps its padding); ``""`` for a blank one."""
    trimmed = reference.strip(JS_WHITESPACE)
    return parse_model_ref(trimmed).reference if trimmed else ""


def _number(usage: dict[str, Any], key: str) -> int | None:
    """A token count: 0 for a negative, NaN or non-number one (not counted); ``None`` for an
    absurd one (over :data:`ABSURD_TOKENS`, or infinite)."""
    value = usage.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
        return 0
    if value > ABSURD_TOKENS or not math.isfinite(value):
        return None
    return int(value)


class _FileScan:
    """The counting of one file, line by line in file order."""

    def __init__(self, usage: FileUsage) -> None:
        self.usage = usage
        self.session_model = ""  # the latest session_model in file order, else the header's
        self.pending_turns: list[str] = []  # days of prompts waiting for their model
        self.calls: dict[str, tuple[str, str]] = {}  # tool call id -> its (day, model)
        self.failed: set[str] = set()

    def record_model(self, record: dict[str, Any]) -> str:
        reference = record.get("modelReference")
        if isinstance(reference, str) and reference.strip():
            return _text(model_name(reference))
        wire = record.get("model")
        if isinstance(wire, str) and wire.strip():
            if self.session_model.endswith("/" + wire.strip()):
                return self.session_model
            return _text(model_name(wire))
        return self.session_model

    def header(self, record: dict[str, Any]) -> None:
        ident = record.get("id")
        self.usage.session_id = _text(ident) if isinstance(ident, str) else None
        self.set_model(record.get("model"))

    def set_model(self, model: Any) -> None:
        if isinstance(model, dict):
            provider, model_id = model.get("provider"), model.get("modelId")
            if isinstance(provider, str) and isinstance(model_id, str) and model_id.strip():
                self.session_model = _text(f"{provider}/{model_id}")

    def model_call(self, record: dict[str, Any], day: str) -> Counts:
        """A model call (``record`` holds ``usage``): its counts' bucket, turns before it added."""
        model = self.record_model(record)
        counts = self.usage.bucket(day, model)
        counts.requests += 1
        usage = record.get("usage")
        if isinstance(usage, dict):
            values = [_number(usage, key) for key in USAGE_KEYS]
            if None in values:
                counts.flagged += 1  # absurd: counted as a call, its tokens left out
            else:
                counts.input += values[0] or 0
                counts.output += values[1] or 0
                counts.cache_read += values[2] or 0
                counts.cache_write += values[3] or 0
        if not isinstance(usage, dict) or record.get("usageMissing") is True:
            counts.unreported += 1
        for turn_day in self.pending_turns:
            self.usage.bucket(turn_day, model).turns += 1
        self.pending_turns.clear()
        return counts

    def entry(self, record: dict[str, Any]) -> None:
        kind = record.get("type")
        moment = utc_day(record.get("timestamp"))
        day = "" if moment is None else moment.isoformat()
        if kind in ("compaction", "branchSummary"):
            self.model_call(record, day)
            return
        message = record.get("message")
        if kind != "message" or not isinstance(message, dict):
            return
        role = message.get("role")
        if role == "user":
            self.pending_turns.append(day)
        elif role == "assistant":
            model = self.record_model(message)
            counts = self.model_call(message, day)
            blocks = message.get("blocks")
            for block in blocks if isinstance(blocks, list) else ():
                if isinstance(block, dict) and block.get("type") == "toolCall":
                    counts.tool_calls += 1
                    call_id = block.get("id")
                    if isinstance(call_id, str):
                        self.calls[call_id] = (day, model)
        elif role == "toolResult":
            results = message.get("results")
            for result in results if isinstance(results, list) else ():
                if not isinstance(result, dict) or result.get("isError") is not True:
                    continue
                call_id = result.get("toolCallId")
                if not isinstance(call_id, str):
                    continue
                call = self.calls.get(call_id)
                if call is not None and call_id not in self.failed:
                    self.failed.add(call_id)
                    self.usage.bucket(*call).tool_errors += 1

    def finish(self) -> None:
        for day in self.pending_turns:  # prompts no model answered (yet)
            self.usage.bucket(day, self.session_model).turns += 1
        self.pending_turns.clear()


def scan_usage(path: Path, project: str) -> FileUsage:
    """Count what one session file spent (never raises for a bad file: see ``problem``)."""
    usage = FileUsage(path, project)
    scan = _FileScan(usage)
    header_seen = False
    try:
        with open_regular(path) as stream:
            for raw in iter_lines(stream):
                if is_blank(raw.data):
                    continue
                try:
                    record = decode_line(raw.data)
                except JsonDecodeError:
                    usage.skipped_lines += 1
                    continue
                if not isinstance(record, dict):
                    usage.skipped_lines += 1
                elif not header_seen:
                    header_seen = True
                    if record.get("type") != "session":
                        usage.problem = f"{path}: line 1 is not a session header"
                        return usage
                    scan.header(record)
                elif record.get("type") == "session_model":
                    scan.set_model(record)
                else:
                    scan.entry(record)
    except OSError as error:
        usage.problem = f"{path}: {error.strerror or error}"
        return usage
    scan.finish()
    return usage
