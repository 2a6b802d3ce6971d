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
JSON is skipped: a file Ink cannot open still cost what its records say). Results are cached per
file (:class:`UsageCache`, keyed by size, mtime and inode), so a second run reads only the files
that changed.
"""

from __future__ import annotations

import contextlib
import math
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Final

import orjson

from ink_tui.catalog.roots import Root, mirror_roots
from ink_tui.catalog.scan import project_folders, session_files
from ink_tui.paths import CHILDREN, cache_dir
from ink_tui.safetext import utf8_safe
from ink_tui.session.reading.files import open_regular
from ink_tui.session.reading.jsoncodec import JsonDecodeError, decode_line
from ink_tui.session.reading.lines import JS_WHITESPACE, is_blank, iter_lines
from ink_tui.session.reading.records import USAGE_KEYS
from ink_tui.session.reading.timestamps import utc_day
from ink_tui.session.rules.modelref import parse_model_ref

__all__ = [
    "ABSURD_TOKENS",
    "CACHE_FILE_NAME",
    "Counts",
    "FileUsage",
    "UsageCache",
    "collect_usage",
    "model_name",
    "scan_usage",
]

CACHE_FILE_NAME: Final = "usage-v2.json"  # v2: flagged calls, days read as UTC dates
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


# -- the cache ---------------------------------------------------------------------------------

_Signature = tuple[int, int, int]  # size, mtime_ns, inode


def _key(path: Path) -> str:
    return os.fsencode(path).decode("utf-8", "backslashreplace")


class UsageCache:
    """Per file, its counts and the signature of the file they were read from (a JSON file in
    the cache dir; deleting it loses nothing). Two processes may write it: the last one wins,
    and either one's is right."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = cache_dir() / CACHE_FILE_NAME if path is None else path
        self.entries: dict[str, list[Any]] = {}
        self.changed = False
        with contextlib.suppress(OSError, orjson.JSONDecodeError, TypeError):
            loaded = orjson.loads(self.path.read_bytes())
            if isinstance(loaded, dict) and isinstance(loaded.get("files"), dict):
                self.entries = loaded["files"]

    def get(self, path: Path, signature: _Signature, project: str) -> FileUsage | None:
        found = self.entries.get(_key(path))
        try:
            if found is None or tuple(found[0]) != signature:
                return None
            usage = FileUsage(path, project, found[1], skipped_lines=found[2])
            for day, model, *values in found[3]:
                usage.buckets[(day, model)] = Counts.from_list(values)
        except (TypeError, ValueError, IndexError):  # an entry this version cannot read
            return None
        return usage

    def put(self, usage: FileUsage, signature: _Signature) -> None:
        buckets = [[day, model, *c.to_list()] for (day, model), c in usage.buckets.items()]
        self.entries[_key(usage.path)] = [
            list(signature),
            usage.session_id,
            usage.skipped_lines,
            buckets,
        ]
        self.changed = True

    def keep_only(
        self, paths: set[str], under: list[str] | None, spare: tuple[str, ...] = ()
    ) -> None:
        """Forget the files under the folders ``under`` (all when None) not in ``paths``, but
        never those under ``spare`` (folders not looked at this time)."""
        for key in [key for key in self.entries if key not in paths]:
            if key.startswith(spare):
                continue
            if under is None or key.startswith(tuple(under)):
                del self.entries[key]
                self.changed = True

    def save(self) -> None:
        """Write it (a temporary file renamed over the old one; a failure only loses the cache)."""
        if not self.changed:
            return
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            temporary = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "wb") as stream:
                stream.write(orjson.dumps({"version": 1, "files": self.entries}))
            temporary.replace(self.path)
        self.changed = False


def _scope_files(base_dir: Path, cwd: str | None) -> Iterator[tuple[Path, str]]:
    """The session files of the scope with their project: each project folder's, and its
    ``children/`` (subagent sessions, which cost money too)."""
    for folder in project_folders(base_dir, cwd):
        for item in session_files([folder, folder / CHILDREN]):
            yield item.path, folder.name


Progress = Callable[[int, int], None]  # (files done, files in the scope)


def collect_usage(
    base_dir: Path,
    cwd: str | None,
    *,
    cache_path: Path | None = None,
    progress: Progress | None = None,
    cancelled: threading.Event | None = None,
    mirrors: Sequence[Root] = (),
) -> list[FileUsage]:
    """The usage of every session file of ``cwd``'s project (every project when None), read
    from the cache where the file has not changed; ``mirrors`` (other machines' sessions dirs,
    every project of each: give them with ``cwd`` None) too, each file with its machine."""
    cache = UsageCache(cache_path)
    roots = [Root(base_dir), *mirrors]
    scope = [
        (path, project, root.machine)
        for root in roots
        for path, project in _scope_files(root.path, cwd)
    ]
    found: list[FileUsage] = []
    for done, (path, project, machine) in enumerate(scope, 1):
        if cancelled is not None and cancelled.is_set():
            break
        try:
            info = path.stat()
        except OSError as error:
            problem = f"{path}: {error.strerror or error}"
            found.append(FileUsage(path, project, problem=problem, machine=machine))
            continue
        signature = (info.st_size, info.st_mtime_ns, info.st_ino)
        usage = cache.get(path, signature, project)
        if usage is None:
            usage = scan_usage(path, project)
            if usage.problem is None:
                cache.put(usage, signature)
        usage.machine = machine
        found.append(usage)
        if progress is not None and (done % 50 == 0 or done == len(scope)):
            progress(done, len(scope))
    if not (cancelled is not None and cancelled.is_set()):  # files gone from disk are dropped
        under = None
        if cwd is not None:
            under = [_key(f) + os.sep for r in roots for f in project_folders(r.path, cwd)]
        looked = {root.key for root in roots}
        spare = tuple(_key(r.path) + os.sep for r in mirror_roots() if r.key not in looked)
        cache.keep_only({_key(path) for path, _, _ in scope}, under, spare)
    cache.save()
    return found
