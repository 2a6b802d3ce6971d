"""Ink's ``/status`` usage totals (spec §11, ``usage-totals.ts@c97f27ae``): the "work" a session
paid for, over every entry of the file.

Every entry Ink's ``open()`` keeps counts once, in file order, on every branch; child
transcripts, ``retainedTail`` copies and framed summaries are never read. Three buckets:

1. **parent**: each assistant message's ``usage``; ``usageMissing: true`` marks it incomplete
   (its numbers still count).
2. **child**: each result of each ``toolResult`` message. A valid ``taskRecord`` (spec §2,
   :mod:`ink_tui.session.rules.taskrecord`) counts once per ``attemptId``; one not ``launched`` adds
   nothing; a launched one without ``usage`` marks child incomplete, and ``usage.incomplete``
   does too. A ``task`` result without a valid record marks child incomplete, unless an earlier
   result of the same call carried a counted record or was itself such a result.
3. **summarizer**: each ``compaction`` and ``branchSummary`` holding ``usage``;
   ``usageMissing: true`` marks it incomplete.

Usage is priced by its **declared** reference only (the message's ``modelReference``, the
record's ``binding.reference``, the summary's ``modelReference``); none, or one without a rate,
is unpriced. :meth:`UsageTotals.priced` applies rates (Ink's static table by default,
:func:`ink_tui.session.rules.rates.ink_rate_for`), and :class:`PricedTotals` prints what ``/status``
prints: ``work ↑12.3k ↓4.5k ~$0.123!`` (:func:`format_tokens`, :meth:`PricedTotals.money`),
JavaScript's rounding included (:func:`js_to_fixed`, :func:`js_round`).

Pure: records in, figures out. :func:`session_usage` reads them from a :class:`SessionFile`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, BinaryIO, Final, Literal, TypedDict, cast

from ink_tui.session.reading.files import open_regular
from ink_tui.session.reading.jsformat import format_tokens, js_round, js_to_fixed
from ink_tui.session.reading.reader import Entry, SessionFile
from ink_tui.session.rules.rates import Price, ink_rate_for
from ink_tui.session.rules.taskrecord import task_record

__all__ = [
    "Binding",
    "Bucket",
    "FileUsage",
    "PricedGroup",
    "PricedTotals",
    "UsageReport",
    "UsageTotals",
    "format_tokens",
    "js_round",
    "js_to_fixed",
    "session_usage",
]


Number = int | float


class UsageReport(TypedDict, total=False):
    """A ``usage`` object as Ink records it (absent keys count 0)."""

    inputTokens: Number
    outputTokens: Number
    cacheReadTokens: Number
    cacheWriteTokens: Number
    incomplete: Literal[True]  # task records only


class Binding(TypedDict):
    """A task record's ``binding``: the model its subagent ran on."""

    providerName: str
    wireModelId: str
    reference: str


def finite(value: object) -> bool:
    """``typeof value === "number" && Number.isFinite(value)`` (``true`` is no number)."""
    kind = type(value)
    return kind is int or (kind is float and math.isfinite(cast(float, value)))


def _count(usage: Mapping[str, Any], key: str) -> Number:
    """A count of ``usage`` as Ink adds it: absent (or not a finite number) is 0."""
    value = usage.get(key)
    if type(value) is int:
        return value
    return cast(Number, value) if finite(value) else 0


@dataclass(slots=True)
class Bucket:
    """Summed usage and the calls that contributed it."""

    input: Number = 0
    output: Number = 0
    cache_read: Number = 0
    cache_write: Number = 0
    calls: int = 0

    def add_usage(self, usage: Mapping[str, Any]) -> None:
        self.input += _count(usage, "inputTokens")
        self.output += _count(usage, "outputTokens")
        self.cache_read += _count(usage, "cacheReadTokens")
        self.cache_write += _count(usage, "cacheWriteTokens")
        self.calls += 1

    def add(self, other: Bucket) -> None:
        self.input += other.input
        self.output += other.output
        self.cache_read += other.cache_read
        self.cache_write += other.cache_write
        self.calls += other.calls

    @property
    def tokens(self) -> Number:
        return self.input + self.output + self.cache_read + self.cache_write

    def to_json(self) -> dict[str, Number]:
        return {
            "inputTokens": self.input,
            "outputTokens": self.output,
            "cacheReadTokens": self.cache_read,
            "cacheWriteTokens": self.cache_write,
            "calls": self.calls,
        }


BucketName = Literal["parent", "child", "summarizer"]
BUCKETS: Final[tuple[BucketName, ...]] = ("parent", "child", "summarizer")


@dataclass(slots=True)
class UsageTotals:
    """The three buckets, the usage per declared reference, and the incomplete flags; fed one
    entry record at a time, in file order (:meth:`add`), so a followed file only adds."""

    buckets: dict[BucketName, Bucket] = field(
        default_factory=lambda: {name: Bucket() for name in BUCKETS}
    )
    incomplete: dict[BucketName, bool] = field(
        default_factory=lambda: dict.fromkeys(BUCKETS, False)
    )
    by_reference: dict[str | None, Bucket] = field(default_factory=dict)
    _attempts: set[str] = field(default_factory=set)
    _task_calls: set[object] = field(default_factory=set)

    def _priced_as(self, reference: object, usage: Mapping[str, Any]) -> None:
        key = reference if isinstance(reference, str) else None  # legacy: none declared
        self.by_reference.setdefault(key, Bucket()).add_usage(usage)

    def add(self, record: Mapping[str, Any]) -> None:
        """Count one entry (``message``, ``compaction``, ``branchSummary``; others add nothing)."""
        kind = record.get("type")
        if kind in ("compaction", "branchSummary"):
            usage = record.get("usage")
            if isinstance(usage, dict):  # without usage (legacy): nothing
                self.buckets["summarizer"].add_usage(usage)
                if record.get("usageMissing") is True:
                    self.incomplete["summarizer"] = True
                self._priced_as(record.get("modelReference"), usage)
            return
        message = record.get("message") if kind == "message" else None
        if not isinstance(message, dict):
            return
        role = message.get("role")
        if role == "assistant":
            usage = message.get("usage")
            usage = usage if isinstance(usage, dict) else {}
            self.buckets["parent"].add_usage(usage)
            if message.get("usageMissing") is True:
                self.incomplete["parent"] = True
            self._priced_as(message.get("modelReference"), usage)
        elif role == "toolResult":
            results = message.get("results")
            for result in results if isinstance(results, list) else ():
                if isinstance(result, dict):
                    self._task_result(result)

    def _task_result(self, result: dict[str, Any]) -> None:
        call = result.get("toolCallId")
        call = call if isinstance(call, str | int | float) else None
        record = task_record(result)
        if record is None:
            if result.get("toolName") == "task" and call not in self._task_calls:
                self.incomplete["child"] = True  # a task call whose work is not known
                self._task_calls.add(call)
            return
        if record.attempt_id in self._attempts:
            return  # the same attempt again: counted once
        self._attempts.add(record.attempt_id)
        self._task_calls.add(call)
        if not record.launched:
            return  # rejected before any child ran: nothing, and nothing missing
        usage = cast("UsageReport | None", record.usage)
        if usage is None:
            self.incomplete["child"] = True  # launched, but its work was not reported
            return
        self.buckets["child"].add_usage(usage)
        if usage.get("incomplete") is True:
            self.incomplete["child"] = True
        binding = cast("Binding | None", record.raw.get("binding"))
        self._priced_as(None if binding is None else binding["reference"], usage)

    def add_all(self, records: Iterable[Mapping[str, Any]]) -> UsageTotals:
        for record in records:
            self.add(record)
        return self

    @property
    def total(self) -> Bucket:
        total = Bucket()
        for name in BUCKETS:
            total.add(self.buckets[name])
        return total

    @property
    def is_incomplete(self) -> bool:
        return any(self.incomplete.values())

    def priced(self, rate_for: Callable[[str], Price | None] = ink_rate_for) -> PricedTotals:
        """The totals priced by ``rate_for`` (Ink's static rates by default)."""
        usd: float = 0
        subscription = False
        unpriced = Bucket()
        groups: list[PricedGroup] = []
        for reference, bucket in self.by_reference.items():
            rate = None if reference is None else rate_for(reference)
            groups.append(PricedGroup(reference, bucket, rate))
            if rate is None:
                unpriced.add(bucket)
                continue
            subscription = subscription or rate.subscription
            usd += rate.cost(bucket.input, bucket.output, bucket.cache_read, bucket.cache_write)
        return PricedTotals(self, usd, subscription, unpriced, groups)


@dataclass(frozen=True, slots=True)
class PricedGroup:
    """The usage of one declared reference (``None``: none declared) and its rate, if any."""

    reference: str | None
    bucket: Bucket
    rate: Price | None


@dataclass(frozen=True, slots=True)
class PricedTotals:
    """What ``/status`` shows of the totals, priced."""

    totals: UsageTotals
    usd: float
    subscription: bool
    unpriced: Bucket
    groups: list[PricedGroup]

    @property
    def known(self) -> bool:
        """Whether there are dollars to show (Ink's test: some, or a subscription)."""
        return self.usd > 0 or self.subscription

    @property
    def estimate(self) -> bool:
        """Whether Ink's own figure may differ: a reference Ink would look up in the pi.dev
        catalog first (one naming a provider), which ink-tui cannot read."""
        return any(g.reference is not None and "/" in g.reference for g in self.groups)

    def money(self) -> str | None:
        """Ink's ``usageMoneySegment``: ``$0.123``, ``~$0.123`` (some tokens unpriced),
        ``$0.000 (sub)``, ``…!`` (usage known to be missing), ``$?`` / ``$?!`` (nothing
        priced); ``None`` when there is nothing to say."""
        known = self.known
        unpriced = self.unpriced.tokens > 0
        incomplete = self.totals.is_incomplete
        if not known and not unpriced and not incomplete:
            return None
        if not known:
            return "$?!" if incomplete else "$?"
        return (
            f"{'~' if unpriced else ''}${js_to_fixed(self.usd, 3)}"
            f"{' (sub)' if self.subscription else ''}{'!' if incomplete else ''}"
        )

    def work(self) -> str:
        """``work ↑12.3k ↓4.5k ~$0.123!``, as ``/status`` prints it after ``· ``."""
        total = self.totals.total
        money = self.money()
        text = f"work ↑{format_tokens(total.input)} ↓{format_tokens(total.output)}"
        return text if money is None else f"{text} {money}"


# -- from a session file -----------------------------------------------------------------------

_COUNTED: Final = frozenset({"message", "compaction", "branchSummary"})
_HEAD: Final = 512  # bytes of a line where Ink's writer puts the message's role
_ROLE_KEY: Final = b',"message":{"role":"'
_ESCAPED_LETTER: Final = re.compile(rb"\\u00[4-7][0-9a-fA-F]")  # JSON never needs these


def _may_count(raw: bytes) -> bool:
    """Whether a message line can add to the totals, from its bytes: a prompt never does, and
    a tool result only when it mentions a task (or spells a letter as an escape, as Ink never
    does, which might hide one)."""
    if not raw.startswith(b'{"type":"message",'):
        return True  # not as Ink writes it: read it whole
    at = raw.find(_ROLE_KEY, 0, _HEAD)
    if at < 0:
        return True
    role = raw[at + len(_ROLE_KEY) : at + len(_ROLE_KEY) + 11]
    if role.startswith(b'user"'):
        return False
    if role == b'toolResult"':
        return b"task" in raw or _ESCAPED_LETTER.search(raw) is not None
    return True


class FileUsage:
    """The totals of a session's entries, counted in file order as a walk over them reaches
    each (:meth:`count_through`), then the rest (:meth:`finish`).

    An entry whose record is in memory is counted from it; any other is read from the file (a
    prompt, or a tool result naming no task, is not parsed) and kept nowhere: nothing of the
    session changes. So a walk that holds each record for a moment (the session view building
    a branch's rows) counts the file without reading it a second time. Raises
    ``SessionError`` when the file changed on disk since it was read."""

    def __init__(self, session: SessionFile) -> None:
        self.session = session
        self.totals = UsageTotals()
        self.counted = 0  # entries of session.entries counted so far
        self._stream: BinaryIO | None = None

    def count_through(self, entry: Entry) -> None:
        """Count the entries not yet counted, in file order, up to and including ``entry``."""
        entries = self.session.entries
        while self.counted < len(entries):
            current = entries[self.counted]
            self.counted += 1
            self._count(current)
            if current is entry:
                return

    def finish(self) -> UsageTotals:
        """Count every entry not yet counted; the totals of the whole file."""
        try:
            for entry in self.session.entries[self.counted :]:
                self._count(entry)
            self.counted = len(self.session.entries)
        finally:
            self.close()
        return self.totals

    def __enter__(self) -> FileUsage:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the file, if a record had to be read from it (again: nothing)."""
        if self._stream is not None:
            self._stream.close()
            self._stream = None

    def _count(self, entry: Entry) -> None:
        if entry.type not in _COUNTED:
            return
        record = entry._record
        if record is None:
            if self._stream is None:
                self._stream = open_regular(self.session.path)
            self._stream.seek(entry.offset)
            raw = self._stream.read(entry.end - entry.offset)
            if entry.type == "message" and not _may_count(raw):
                return
            record = entry._parse(raw)
        self.totals.add(record)


def session_usage(session: SessionFile) -> UsageTotals:
    """The totals of every entry of ``session``, in file order (:class:`FileUsage`)."""
    return FileUsage(session).finish()
