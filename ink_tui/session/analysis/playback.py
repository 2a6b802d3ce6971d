"""A branch played back as it happened: the plan (what each record shows, and when).

Pure: no Textual, no clock. :func:`build_plan` turns a loaded branch into :class:`PlayRecord`s, each
with its gap (the time from the record before it to its own ``timestamp``), the text it shows and
the view rows it stands for; :mod:`ink_tui.session.analysis.playclock` plays a plan against a clock.

The rules:

- A record's time on screen is its gap. An assistant record *streams*: its text is revealed over
  its gap (the model was writing it since the record before), never faster than
  :data:`STREAM_CHARS_PER_SECOND`. A tool result waits its gap (the call was running since the
  assistant record that made it), then shows. Other records show at the end of their gap.
- Skip idle gaps (on by default): a gap the user made (before a prompt, a name, a label, a
  thinking level change) lasts at most :data:`USER_IDLE_CAP` seconds; any other gap (the model
  writing, a tool running) at most :data:`MACHINE_IDLE_CAP` (a laptop asleep mid-run).
- A record that is no part of a turn (a name, a label, a thinking level change) shows at once,
  and the gap of the record after it runs from the turn record before it: a session renamed a
  day later does not wait that day (:data:`ink_tui.session.analysis.turntime.OUTSIDE_TURNS`).
- Timestamps that cannot be read (any one of the plan's): every record gets
  :data:`FIXED_PACE` seconds, and :attr:`Plan.note` says so. A record stamped earlier than the
  one before it (a clock moved back) shows at once.
- A plan holds at most :data:`PLAN_LIMIT` records from where playback starts (their texts are
  held while it plays); the next part is planned when it ends, its first gap still measured
  from the record before it.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from ink_tui.humanize import plural
from ink_tui.session.analysis.turntime import OUTSIDE_TURNS
from ink_tui.session.conversation.view import Turn, key_argument
from ink_tui.session.reading.peek import EntryPeek
from ink_tui.session.reading.reader import Entry, SessionFile
from ink_tui.session.reading.recordtypes import (
    EntryRecord,
    JsonObject,
    ReadMessage,
    json_list,
    json_object,
    read_message,
)
from ink_tui.session.reading.timestamps import timestamp_seconds
from ink_tui.session.rules.content import content_text
from ink_tui.session.rules.fillins import fill_in

__all__ = [
    "BODY_LIMIT",
    "FIXED_PACE",
    "MACHINE_IDLE_CAP",
    "PLAN_LIMIT",
    "STREAM_CHARS_PER_SECOND",
    "USER_IDLE_CAP",
    "Plan",
    "PlayRecord",
    "build_plan",
    "revealed_length",
    "turn_entry",
]

USER_IDLE_CAP = 2.0  # seconds: the longest wait for the user when idle gaps are skipped
MACHINE_IDLE_CAP = 30.0  # seconds: the longest model or tool gap when idle gaps are skipped
FIXED_PACE = 1.0  # seconds a record, when the timestamps cannot be used
STREAM_CHARS_PER_SECOND = 600.0  # the fastest a text streams in, at 1x
BODY_LIMIT = 4000  # characters of a record shown; the rest is counted
PLAN_CHUNK = 512  # records whose payloads are read at once while the plan is built
PLAN_LIMIT = 10_000  # records in one plan (its texts are held while it plays)
_USER_TYPES = frozenset({"session_info", "label", "thinkingLevelChange"})


@dataclass(frozen=True, slots=True)
class PlayRecord:
    """One record of the branch as playback shows it."""

    entry_id: str
    line: int
    head: str  # ``user``, ``assistant anthropic/claude…``, ``result of bash``, ``compaction``…
    body: str  # the text shown (session text, untrusted: the caller makes it safe)
    stream: bool  # the body is revealed over the record's gap (an assistant's reply)
    keys: tuple[str, ...]  # the view rows the record shows (the first is moved to)
    recorded: float | None  # the record's timestamp (epoch seconds), if readable
    gap: float  # seconds since the record before (fixed pace when unreadable), never < 0
    by_user: bool  # the gap was the user's (a prompt, a name, a label…)

    def duration(self, skip_idle: bool) -> float:
        """Seconds the record takes at 1x: its gap (capped when skipping idle gaps), and for
        a streamed text at least the time to stream it."""
        gap = self.gap
        if skip_idle:
            gap = min(gap, USER_IDLE_CAP if self.by_user else MACHINE_IDLE_CAP)
        if self.stream:
            gap = max(gap, len(self.body) / STREAM_CHARS_PER_SECOND)
        return gap

    @property
    def time_of_day(self) -> str:
        """When it was written, ``HH:MM:SS`` (UTC); ``line N`` when its timestamp is unreadable."""
        if self.recorded is None:
            return f"line {self.line}"
        return datetime.fromtimestamp(self.recorded, UTC).strftime("%H:%M:%S")

    @property
    def waiting(self) -> str:
        """What the gap before the record was spent on (shown while it is not here yet)."""
        if self.stream:
            return "the model writes"
        if self.head.startswith("result of"):
            return self.head.replace("result of", "running", 1)
        if self.head == "user":
            return "waiting for the user"
        return "waiting"


@dataclass(slots=True)
class Plan:
    """The records of a branch in order, with their timing for either idle rule."""

    records: list[PlayRecord]
    note: str | None = None  # why the pace is not the recorded one (bad timestamps)
    first: int = 0  # the branch position of ``records[0]`` (a plan holds a part of the branch)
    branch_length: int = 0  # records on the whole branch
    _starts: dict[bool, list[float]] = field(default_factory=dict)

    def starts(self, skip_idle: bool) -> list[float]:
        """When each record starts (plan seconds at 1x), and the plan's end last."""
        cached = self._starts.get(skip_idle)
        if cached is None:
            cached = [0.0]
            for record in self.records:
                cached.append(cached[-1] + record.duration(skip_idle))
            self._starts[skip_idle] = cached
        return cached

    def total(self, skip_idle: bool) -> float:
        return self.starts(skip_idle)[-1]


def revealed_length(body: str, fraction: float) -> int:
    """How much of a streamed ``body`` shows at ``fraction`` of its time: whole words (up to
    the last space reached), all of it at the end."""
    if fraction >= 1.0:
        return len(body)
    if fraction <= 0.0:
        return 0
    reached = int(len(body) * fraction)
    cut = max(body.rfind(" ", 0, reached + 1), body.rfind("\n", 0, reached + 1))
    return cut + 1 if cut >= 0 else 0


def _turn_line(turn: Turn) -> int:
    """The line a turn starts at (its prompt, else its first row's entry)."""
    if turn.user is not None:
        return turn.user.line
    return turn.items[0].entry.line if turn.items else 0


def _row_keys(turns: list[Turn], first_line: int, last_line: int) -> dict[str, list[str]]:
    """Entry id -> the rows showing it (a prompt's turn, an entry's items, a result's call),
    for the turns holding lines ``first_line`` to ``last_line`` (found by bisection: a part of
    a long branch looks at its own turns only)."""
    keys: dict[str, list[str]] = {}
    start = max(bisect_right(turns, first_line, key=_turn_line) - 1, 0)
    for turn in turns[start:]:
        if _turn_line(turn) > last_line:
            break
        if turn.user is not None:
            keys.setdefault(turn.user.id, []).append(turn.key)
        for item in turn.items:
            if item.kind == "model_change":
                continue
            keys.setdefault(item.entry.id, []).append(item.key)
            result = item.tool.result_entry if item.tool is not None else None
            if result is not None:
                keys.setdefault(result.id, []).append(item.key)
    return keys


WORD_BACK = 256  # characters a cut goes back to leave a cut word out (a key is shorter)


def _cut(text: str) -> str:
    """``text`` cut to :data:`BODY_LIMIT` characters, at a word's start when one is near: a
    word cut in half (a key, a token) is left out whole, never shown in part."""
    if len(text) <= BODY_LIMIT:
        return text
    kept = text[:BODY_LIMIT]
    if not text[BODY_LIMIT].isspace():
        space = max(kept.rfind(" "), kept.rfind("\n"), kept.rfind("\t"))
        if space >= BODY_LIMIT - WORD_BACK:
            kept = kept[: space + 1]
    return f"{kept}\n… {len(text) - len(kept)} more characters"


def _assistant_body(message: ReadMessage) -> str:
    pieces: list[str] = []
    for block in json_list(message.get("blocks")):
        if not json_object(block):
            continue
        kind = block.get("type")
        if kind == "text":
            pieces.append(str(block.get("text", "")))
        elif kind == "thinking":
            pieces.append(f"(thinking) {block.get('thinking', '')}")
        elif kind == "toolCall":
            name = str(block.get("name", "?"))
            pieces.append(f"→ {name} {key_argument(name, block.get('arguments'))}".rstrip())
    return "\n".join(pieces)


def _results(message: ReadMessage) -> tuple[str, str]:
    results = [r for r in json_list(message.get("results")) if json_object(r)]
    names = ", ".join(dict.fromkeys(str(r.get("toolName", "?")) for r in results)) or "a tool"
    body = "\n".join(
        f"← {r.get('toolName', '?')} {_outcome(r)}\n"
        + content_text(r.get("content"), show_non_string_text=True)
        for r in results
    )
    return f"result of {names}", body


def _outcome(result: JsonObject) -> str:
    """``ok``, ``error``, or what Ink's fill-in says (``not run: output limit``…)."""
    said = fill_in(result)
    if said is not None:
        return said.label
    return "error" if result.get("isError") else "ok"


def _head_body(record: EntryRecord, kind: str) -> tuple[str, str, bool]:
    """``(head, body, streams)`` of one entry."""
    message = read_message(record.get("message")) if kind == "message" else None
    if message is not None:
        role = message["role"]
        if role == "assistant":
            model = message.get("modelReference") or message.get("model") or ""
            return f"assistant {model}".rstrip(), _assistant_body(message), True
        if role == "toolResult":
            head, body = _results(message)
            return head, body, False
        return role, content_text(message.get("content"), show_non_string_text=True), False
    if kind in ("compaction", "branchSummary"):
        return kind, str(record.get("summary", "")), False
    if kind == "thinkingLevelChange":
        return "thinking level", str(record.get("thinkingLevel", "")), False
    if kind == "session_info":
        return "name", str(record.get("name", "")), False
    if kind == "label":
        return "label", f"{record.get('targetId')}: {record.get('label', '')}", False
    return kind, "", False


def _by_user(record: EntryRecord, kind: str) -> bool:
    if kind in _USER_TYPES:
        return True
    message = read_message(record.get("message")) if kind == "message" else None
    return message is not None and message["role"] == "user"


def turn_entry(entries: list[Entry], turns: list[Turn], key: str) -> int:
    """The position in ``entries`` of the entry opening the turn that holds row ``key`` (its
    prompt; 0 for a row of no turn)."""
    for turn in turns:
        if turn.key == key or any(item.key == key for item in turn.items):
            opening = turn.user or (turn.items[0].entry if turn.items else None)
            if opening is None:
                return 0
            return next((n for n, entry in enumerate(entries) if entry is opening), 0)
    return 0


def build_plan(
    session: SessionFile,
    entries: list[Entry],
    turns: list[Turn],
    *,
    first: int = 0,
    limit: int | None = None,
) -> Plan:
    """The plan of a branch: ``entries`` (root first) and the view ``turns`` built from them,
    from position ``first``, at most ``limit`` records (:data:`PLAN_LIMIT`): a branch of a
    million records is played a part at a time, and the first record's gap is still the one
    from the record before it.

    Payloads not in memory are read :data:`PLAN_CHUNK` at a time, aside from the entries
    (:class:`EntryPeek`: safe from a thread while the view shows them), and let go, so a big
    branch never holds all its parsed records at once. Raises ``SessionError`` when the file
    changed on disk since it was read."""
    part = entries[first : first + (PLAN_LIMIT if limit is None else limit)]
    rows = _row_keys(turns, part[0].line, part[-1].line) if part else {}
    shown: list[tuple[Entry, str, str, bool, float | None, bool]] = []
    unreadable: int | None = None  # the line of the first unreadable timestamp
    previous: float | None = None
    back = first - 1  # the turn record before the part: its gaps run from there
    while back >= 0 and entries[back].type in OUTSIDE_TURNS:
        back -= 1
    if back >= 0:
        previous = timestamp_seconds(EntryPeek(session).record(entries[back]).get("timestamp"))
    for chunk in _chunks(part):
        peek = EntryPeek(session)  # read aside: the entries may be shown meanwhile
        peek.fetch(chunk)
        for entry in chunk:
            record = peek.record(entry)
            head, body, streams = _head_body(record, entry.type)
            stamp = timestamp_seconds(record.get("timestamp"))
            if stamp is None and unreadable is None:
                unreadable = entry.line
            shown.append((entry, head, _cut(body), streams, stamp, _by_user(record, entry.type)))
    note = None
    if unreadable is not None:
        note = f"line {unreadable}: timestamp unreadable; played at {FIXED_PACE:g} s a record"
    backwards = 0
    records: list[PlayRecord] = []
    for entry, head, body, streams, stamp, by_user in shown:
        outside = entry.type in OUTSIDE_TURNS  # shows at once, moves no clock
        if unreadable is not None:
            gap = FIXED_PACE if records or first else 0.0
        elif previous is None or stamp is None or outside:
            gap = 0.0
        else:
            gap = stamp - previous
            if gap < 0:
                backwards += 1
                gap = 0.0
        if not outside:
            previous = stamp if stamp is not None else previous
        keys = tuple(rows.get(entry.id, ()))
        records.append(
            PlayRecord(entry.id, entry.line, head, body, streams, keys, stamp, gap, by_user)
        )
    if backwards and note is None:
        stamped = plural(backwards, "record")
        note = f"{stamped} stamped before the record before: shown at once (a clock moved back)"
    return Plan(records, note, first, len(entries))


def _chunks(entries: list[Entry]) -> Iterable[list[Entry]]:
    for start in range(0, len(entries), PLAN_CHUNK):
        yield entries[start : start + PLAN_CHUNK]
