"""Provider faults before and around a reply, on both wires: a 429 with ``retry-after``, a 500,
a refused connection, a hung server (before its headers, and in the middle of a stream).

The policy (``ink_tui.agent.providers.retry``): a request refused before the reply began is
tried again at most twice, after the server's ``retry-after`` when it is at most 60 s (a longer
one is reported at once, saying when), else after 0.5 s then 1 s; every wait is a notice, and
Esc ends it. The sleep is injected: no test here sleeps, and the hung-server tests use a
0.3 s timeout, never the 600 s default.
"""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path
from typing import Any

import pytest
from wire import WIRE_IDS, WIRES, Wire

from ink_tui.agent.failures import turn_failure_line
from ink_tui.agent.providers import IncompleteStream, ProviderError
from ink_tui.agent.providers.retry import RetryPolicy, parse_retry_after
from ink_tui.agent.providers.stream import connection_failure
from ink_tui.agent.start import load_chat

BOTH = pytest.mark.parametrize("wire", WIRES, ids=WIRE_IDS)
SHORT = 0.3  # the configured timeout of the hung-server tests (seconds)


class Sleeps:
    """The injected sleep: records each wait and returns at once (or waits for ``gate``)."""

    def __init__(self, gate: asyncio.Event | None = None) -> None:
        self.waits: list[float] = []
        self.gate = gate
        self.waiting = asyncio.Event()

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.waiting.set()
        if self.gate is not None:
            await self.gate.wait()


def opened(chat_kit: Any, wire: Wire) -> tuple[Path, bytes]:
    pair = (wire.provider, wire.model_id)
    path, _ = chat_kit.session(
        {"role": "user", "content": "hi"}, chat_kit.assistant("one", pair), pair=pair
    )
    return path, path.read_bytes()


def engine_for(chat_kit: Any, path: Path, sleeps: Sleeps, **options: Any) -> Any:
    engine = chat_kit.engine(load_chat(path), chat_kit.sink())
    engine.retry = RetryPolicy(sleep=sleeps)
    for name, value in options.items():
        setattr(engine, name, value)
    return engine


def written_messages(path: Path) -> list[dict[str, Any]]:
    records = [json.loads(line) for line in path.read_text().splitlines()]
    return [r["message"] for r in records if r["type"] == "message"]


def rate_limited(chat_kit: Any, wire: Wire, after: str) -> None:
    """A 429 as the APIs send it: ``retry-after``, and no ``x-should-retry`` (the status says)."""
    chat_kit.fake.error(
        429, wire.error_body("slow down"), retry=None, headers={"retry-after": after}
    )


# --- 429 ---------------------------------------------------------------------------------------


@BOTH
async def test_a_429_is_retried_after_its_retry_after_and_said(chat_kit: Any, wire: Wire) -> None:
    path, _ = opened(chat_kit, wire)
    rate_limited(chat_kit, wire, "7")
    wire.reply(chat_kit.fake, text="Fine now.")
    sleeps = Sleeps()
    engine = engine_for(chat_kit, path, sleeps)
    assert (await engine.send("hello")).status == "done"
    assert sleeps.waits == [7.0] and len(chat_kit.fake.requests) == 2
    assert engine.sink.notices == [
        f"{wire.provider} HTTP 429 (rate limited, retry after 7 s): slow down — retrying in "
        "7 s (retry 1 of 2; Esc stops)"
    ]
    assert [m["role"] for m in written_messages(path)][-2:] == ["user", "assistant"]
    assert [m.get("content") for m in written_messages(path)].count("hello") == 1
    chat_kit.check(engine)
    chat_kit.ink_continues(path)


@BOTH
async def test_a_429_asking_for_longer_than_the_cap_is_said_at_once_and_nothing_is_written(
    chat_kit: Any, wire: Wire
) -> None:
    path, before = opened(chat_kit, wire)
    rate_limited(chat_kit, wire, "3600")
    sleeps = Sleeps()
    engine = engine_for(chat_kit, path, sleeps)
    with pytest.raises(ProviderError) as info:
        await engine.send("hello")
    assert sleeps.waits == [] and len(chat_kit.fake.requests) == 1
    said = str(info.value)
    assert said == f"{wire.provider} HTTP 429 (rate limited, retry after 3600 s): slow down"
    line = turn_failure_line(info.value, user_written=engine.user_written, replies=0)
    assert line == f"{said} — nothing was written; the message is back in the composer"
    assert path.read_bytes() == before
    chat_kit.check(engine, replies=0, unsent=[{"role": "user", "content": "hello"}])


@BOTH
async def test_a_429_that_goes_on_gives_up_after_two_retries(chat_kit: Any, wire: Wire) -> None:
    path, before = opened(chat_kit, wire)
    for _ in range(3):
        rate_limited(chat_kit, wire, "1")
    sleeps = Sleeps()
    engine = engine_for(chat_kit, path, sleeps)
    with pytest.raises(ProviderError, match="HTTP 429"):
        await engine.send("hello")
    assert sleeps.waits == [1.0, 1.0] and len(chat_kit.fake.requests) == 3
    assert [n.rsplit("(", 1)[1] for n in engine.sink.notices] == [
        "retry 1 of 2; Esc stops)",
        "retry 2 of 2; Esc stops)",
    ]
    assert path.read_bytes() == before and not engine.user_written


async def test_escape_during_the_wait_stops_the_turn_and_nothing_is_written(
    chat_kit: Any,
) -> None:
    wire = WIRES[0]
    path, before = opened(chat_kit, wire)
    rate_limited(chat_kit, wire, "30")
    sleeps = Sleeps(gate=asyncio.Event())  # a wait that only the interrupt ends
    engine = engine_for(chat_kit, path, sleeps)
    turn = asyncio.ensure_future(engine.send("hello"))
    await sleeps.waiting.wait()
    engine.interrupt()
    assert (await turn).status == "interrupted"
    assert sleeps.waits == [30.0] and len(chat_kit.fake.requests) == 1
    assert path.read_bytes() == before and not engine.user_written and not engine.running


# --- 500 ---------------------------------------------------------------------------------------


@BOTH
async def test_a_500_is_retried_with_backoff(chat_kit: Any, wire: Wire) -> None:
    path, _ = opened(chat_kit, wire)
    chat_kit.fake.error(500, wire.error_body("internal"), retry=None)
    wire.reply(chat_kit.fake, text="Recovered.")
    sleeps = Sleeps()
    engine = engine_for(chat_kit, path, sleeps)
    assert (await engine.send("hello")).status == "done"
    assert sleeps.waits == [0.5]
    assert engine.sink.notices == [
        f"{wire.provider} HTTP 500: internal — retrying in 0.5 s (retry 1 of 2; Esc stops)"
    ]
    chat_kit.check(engine)
    chat_kit.ink_continues(path)


@BOTH
async def test_a_500_that_goes_on_is_one_line_and_nothing_is_written(
    chat_kit: Any, wire: Wire
) -> None:
    path, before = opened(chat_kit, wire)
    for _ in range(3):
        chat_kit.fake.error(500, wire.error_body("internal"), retry=None)
    sleeps = Sleeps()
    engine = engine_for(chat_kit, path, sleeps)
    with pytest.raises(ProviderError) as info:
        await engine.send("hello")
    assert sleeps.waits == [0.5, 1.0] and len(chat_kit.fake.requests) == 3
    line = turn_failure_line(info.value, user_written=engine.user_written, replies=0)
    assert line == (
        f"{wire.provider} HTTP 500: internal — nothing was written; the message is back in the "
        "composer"
    )
    assert path.read_bytes() == before
    chat_kit.check(engine, replies=0, unsent=[{"role": "user", "content": "hello"}])


async def test_a_429_without_a_usable_retry_after_backs_off(chat_kit: Any) -> None:
    wire = WIRES[1]
    path, _ = opened(chat_kit, wire)
    rate_limited(chat_kit, wire, "Wed, 21 Oct 2015 07:28:00 GMT")  # a date long past
    wire.reply(chat_kit.fake, text="Fine now.")
    sleeps = Sleeps()
    engine = engine_for(chat_kit, path, sleeps)
    assert (await engine.send("hello")).status == "done"
    assert sleeps.waits == [0.5]
    assert engine.sink.notices[0].startswith(f"{wire.provider} HTTP 429 (rate limited): slow down")


@BOTH
async def test_a_server_saying_do_not_retry_is_believed(chat_kit: Any, wire: Wire) -> None:
    path, _ = opened(chat_kit, wire)
    chat_kit.fake.error(503, wire.error_body("maintenance"), retry=False)
    sleeps = Sleeps()
    engine = engine_for(chat_kit, path, sleeps)
    with pytest.raises(ProviderError, match="HTTP 503: maintenance"):
        await engine.send("hello")
    assert sleeps.waits == [] and len(chat_kit.fake.requests) == 1


# --- a refused connection -------------------------------------------------------------------


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@BOTH
async def test_a_refused_connection_names_the_url_and_is_tried_twice_more(
    chat_kit: Any, wire: Wire
) -> None:
    path, before = opened(chat_kit, wire)
    base = f"http://127.0.0.1:{closed_port()}"
    env = chat_kit.fake.env()
    for name in [n for n in env if n.endswith("_BASE_URL")]:
        env[name] = base if name.startswith("ANTHROPIC") else f"{base}/v1"
    sleeps = Sleeps()
    engine = chat_kit.engine(load_chat(path), chat_kit.sink(), env=env)
    engine.retry = RetryPolicy(sleep=sleeps)
    with pytest.raises(ProviderError) as info:
        await engine.send("hello")
    url = base if wire.provider == "anthropic" else f"{base}/v1"
    assert str(info.value) == f"{wire.provider}: cannot reach {url} (connection refused)"
    assert sleeps.waits == [0.5, 1.0]
    assert path.read_bytes() == before


def test_why_a_connection_failed_is_said_in_ink_tuis_words() -> None:
    def chained(cause: BaseException) -> Exception:
        try:
            raise RuntimeError("an SDK's own wording") from cause
        except RuntimeError as exc:
            return exc

    assert connection_failure(chained(ConnectionRefusedError(111, "x"))) == "connection refused"
    assert connection_failure(chained(socket.gaierror(-2, "Name unknown"))) == "host not found"
    assert connection_failure(chained(TimeoutError())) == "timed out"
    assert connection_failure(RuntimeError("nothing under it")) == "no connection"


# --- a hung server ----------------------------------------------------------------------------


@BOTH
async def test_a_server_that_never_answers_times_out_once_and_nothing_is_written(
    chat_kit: Any, wire: Wire
) -> None:
    path, before = opened(chat_kit, wire)
    chat_kit.fake.stall()
    sleeps = Sleeps()
    engine = engine_for(chat_kit, path, sleeps, timeout=SHORT)
    with pytest.raises(ProviderError) as info:
        await engine.send("hello")
    assert str(info.value) == f"{wire.provider}: no response within {SHORT} s (timed out)"
    assert sleeps.waits == [] and len(chat_kit.fake.requests) == 1  # never tried again
    assert path.read_bytes() == before and not engine.user_written
    chat_kit.check(engine, replies=0, unsent=[{"role": "user", "content": "hello"}])


@BOTH
async def test_a_stream_that_stalls_times_out_and_no_partial_reply_is_written(
    chat_kit: Any, wire: Wire
) -> None:
    path, _ = opened(chat_kit, wire)
    chat_kit.fake.hold("half a reply")  # sends its start, then nothing until released
    sleeps = Sleeps()
    engine = engine_for(chat_kit, path, sleeps, timeout=SHORT)
    with pytest.raises(IncompleteStream) as info:
        await engine.send("hello")
    assert str(info.value) == f"{wire.provider} stream stalled: no data for {SHORT} s (timed out)"
    assert sleeps.waits == [] and engine.user_written
    assert written_messages(path)[-1] == {"role": "user", "content": "hello"}
    assert b"half a reply" not in path.read_bytes()
    line = turn_failure_line(info.value, user_written=True, replies=0)
    assert line.endswith("— your message is in the session; nothing of the failed reply was")
    chat_kit.check(engine, replies=0)
    chat_kit.ink_continues(path)


# --- the policy's parts -----------------------------------------------------------------------


def test_retry_after_is_read_in_milliseconds_seconds_or_as_a_date() -> None:
    assert parse_retry_after({"retry-after-ms": "1500", "retry-after": "9"}) == 1.5
    assert parse_retry_after({"retry-after": "2.5"}) == 2.5
    date = {"retry-after": "Wed, 21 Oct 2026 07:28:30 GMT"}
    assert parse_retry_after(date, now=lambda: 1792567700.0) == 10.0
    assert parse_retry_after({"retry-after": "soon"}) is None
    assert parse_retry_after({}) is None


def test_the_policy_waits_within_its_cap_and_never_past_its_retries() -> None:
    policy = RetryPolicy()
    limited = ProviderError("x", retryable=True, retry_after=60.0)
    assert policy.delay(limited, 0) == 60.0
    assert policy.delay(ProviderError("x", retryable=True, retry_after=61.0), 0) is None
    assert policy.delay(ProviderError("x", retryable=True), 0) == 0.5
    assert policy.delay(ProviderError("x", retryable=True), 1) == 1.0
    assert policy.delay(ProviderError("x", retryable=True), 2) is None  # two retries at most
    assert policy.delay(ProviderError("x"), 0) is None  # a 400, a 401: never
    assert RetryPolicy(retries=5).delay(ProviderError("x", retryable=True), 4) == 8.0
