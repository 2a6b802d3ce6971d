"""When a failed request is tried again: ink-tui's own policy, not the SDKs'.

The SDKs' own retries are off (``max_retries=0`` on every client): they wait without a word,
and the newest honour any ``retry-after`` (a 429 saying "in an hour" would leave the chat on
"waiting for the model…" for an hour). Instead:

- Only a request that failed before the provider accepted it is tried again: nothing of it was
  written or shown. Once the reply has begun, a failure ends the turn.
- Tried again: HTTP 408, 409, 429 and 5xx (529, Anthropic's "overloaded", included), and a
  connection refused or reset before the response, unless the server's ``x-should-retry``
  header says otherwise (it wins both ways, as in the SDKs). A timeout is never tried again:
  the user has already waited the whole timeout.
- At most :attr:`RetryPolicy.retries` more attempts (2, the SDKs' default).
- The wait: the server's ``retry-after`` (or ``retry-after-ms``) when it gave one, if it is at
  most :attr:`RetryPolicy.max_wait` (60 s); a longer one is not waited for: the error is
  reported at once and says when to try again. Without one: 0.5 s, then 1 s (doubling, at most
  8 s), the SDKs' backoff without its jitter.
- Each wait is announced (``on_retry``: one line) and happens inside the request's task, so an
  interrupt (Esc) ends it at once. The sleep is injected (tests never sleep).
"""

from __future__ import annotations

import asyncio
import email.utils
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from ink_tui.agent.providers.errors import ProviderError

__all__ = [
    "RetryPolicy",
    "Sleep",
    "parse_retry_after",
    "seconds_text",
    "should_retry",
    "with_retries",
]

T = TypeVar("T")
Sleep = Callable[[float], Awaitable[None]]
RetryNotice = Callable[[str], object]

MAX_WAIT_SECONDS = 60.0
INITIAL_BACKOFF_SECONDS = 0.5
MAX_BACKOFF_SECONDS = 8.0
RETRIED_STATUSES = frozenset({408, 409, 429})


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How many more attempts, the longest ``retry-after`` waited for, and the sleep."""

    retries: int = 2
    max_wait: float = MAX_WAIT_SECONDS
    sleep: Sleep = field(default=asyncio.sleep, compare=False)

    def delay(self, error: ProviderError, retried: int) -> float | None:
        """Seconds to wait before the next attempt, or ``None``: do not try again."""
        if not error.retryable or retried >= self.retries:
            return None
        after = error.retry_after
        if after is not None and after > 0:
            return after if after <= self.max_wait else None
        return min(INITIAL_BACKOFF_SECONDS * 2.0**retried, MAX_BACKOFF_SECONDS)


def should_retry(status: int, headers: Mapping[str, str]) -> bool:
    """The SDKs' rule: ``x-should-retry`` if the server sent it, else the status."""
    said = headers.get("x-should-retry")
    if said in ("true", "false"):
        return said == "true"
    return status in RETRIED_STATUSES or status >= 500


def parse_retry_after(
    headers: Mapping[str, str], now: Callable[[], float] = time.time
) -> float | None:
    """``retry-after-ms``, else ``retry-after`` as seconds or as an HTTP date; ``None`` when
    absent or unreadable."""
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            return float(millis) / 1000
        except ValueError:
            pass
    raw = headers.get("retry-after")
    if raw is None:
        return None
    try:
        return float(raw)
    except ValueError:
        pass
    parsed = email.utils.parsedate_tz(raw)
    if parsed is None:
        return None
    return float(email.utils.mktime_tz(parsed) - now())


def seconds_text(seconds: float) -> str:
    """``7 s``, ``0.5 s``, ``3600 s``: whole seconds without a fraction."""
    rounded = round(seconds, 1)
    return f"{rounded:g} s" if rounded < 1e6 else f"{rounded:.0f} s"


async def with_retries(
    attempt: Callable[[], Awaitable[T]],
    *,
    policy: RetryPolicy,
    opened: Callable[[], bool],
    on_retry: RetryNotice | None = None,
) -> T:
    """``attempt()`` until it succeeds, fails for good, or fails after ``opened()`` (the
    provider accepted the request: never tried again)."""
    retried = 0
    while True:
        try:
            return await attempt()
        except ProviderError as error:
            delay = None if opened() else policy.delay(error, retried)
            if delay is None:
                raise
            retried += 1
            if on_retry is not None:
                on_retry(
                    f"{error} — retrying in {seconds_text(delay)} "
                    f"(retry {retried} of {policy.retries}; Esc stops)"
                )
            await policy.sleep(delay)
