"""``stream_turn``: one model turn over either wire format, through the official SDKs.

A failure is one line saying what happened: an HTTP status (and, for a 429 or 503, when to
retry), a connection that could not be made, no response within the timeout, a stream that
broke off, stalled, ended early or carried an error event. The SDKs' retries are off; a request
refused before the reply began is tried again as :mod:`~ink_tui.agent.providers.retry` says.
"""

from __future__ import annotations

import asyncio
import errno
import re
import socket
from collections.abc import AsyncIterable, AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ink_tui.agent.providers.assemble import (
    AnthropicAssembler,
    ChatAssembler,
    EventSink,
    Json,
    StreamEvent,
)
from ink_tui.agent.providers.convert import anthropic_request, chat_request
from ink_tui.agent.providers.errors import IncompleteStream, ProviderError
from ink_tui.agent.providers.model import Endpoint, parse_model_ref, resolve_endpoint
from ink_tui.agent.providers.retry import (
    RetryNotice,
    RetryPolicy,
    parse_retry_after,
    seconds_text,
    should_retry,
    with_retries,
)
from ink_tui.agent.providers.sdk import load_sdk, timeout_errors, transport_errors
from ink_tui.agent.providers.thinking import anthropic_thinking, chat_thinking
from ink_tui.agent.tools.specs import ToolSpec
from ink_tui.session.rules.modelref import ModelRef

__all__ = ["StreamEvent", "stream_turn"]

DEFAULT_MAX_TOKENS = 16384  # Ink's CLI default (--max-tokens)
DEFAULT_TIMEOUT = 600.0  # seconds without a byte (the SDKs' default); reasoning can be silent
T = TypeVar("T")


def _one_line(text: str, limit: int = 300) -> str:
    line = re.sub(r"\s+", " ", text).strip()
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _error_detail(body: object, fallback: str) -> str:
    """The ``message`` of an error body (``{"error": {"message", "type"}}`` on both wires)."""
    inner = body.get("error", body) if isinstance(body, dict) else None
    if isinstance(inner, dict) and isinstance(inner.get("message"), str):
        kind = inner.get("type")
        named = isinstance(kind, str) and kind.endswith("_error") and kind not in inner["message"]
        return f"{inner['message']} ({kind})" if named else str(inner["message"])
    return fallback


def _status_error(
    endpoint: Endpoint, status: int, body: object, fallback: str, headers: Mapping[str, str]
) -> ProviderError:
    detail = _error_detail(body, fallback)
    hint = f" (check {endpoint.info.key_env})" if status in (401, 403) else ""
    after = parse_retry_after(headers)
    when = f"retry after {seconds_text(after)}" if after is not None and after > 0 else ""
    if status == 429:
        hint = f" (rate limited, {when})" if when else " (rate limited)"
    elif when:
        hint = f" ({when})"
    return ProviderError(
        _one_line(f"{endpoint.info.name} HTTP {status}{hint}: {detail}"),
        retryable=should_retry(status, headers),
        retry_after=after,
    )


Opened = Callable[[], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class _Call:
    """One request's inputs, as ``stream_turn`` received them."""

    system: str
    messages: Sequence[Mapping[str, Any]]
    tools: Sequence[ToolSpec]
    on_event: EventSink
    on_open: Opened | None
    thinking: str
    max_tokens: int
    timeout: float


def _max_tokens_field(model_id: str) -> str:
    return "max_completion_tokens" if re.match(r"^(o\d|gpt-[56])", model_id) else "max_tokens"


async def stream_turn(
    model: str | ModelRef,
    system: str,
    messages: Sequence[Mapping[str, Any]],
    tools: Sequence[ToolSpec],
    *,
    on_event: EventSink,
    on_open: Opened | None = None,
    env: Mapping[str, str] | None = None,
    thinking: str = "off",
    max_tokens: int = DEFAULT_MAX_TOKENS,
    timeout: float = DEFAULT_TIMEOUT,
    retry: RetryPolicy | None = None,
    on_retry: RetryNotice | None = None,
) -> Json:
    """Stream one assistant turn and return it as an Ink assistant message.

    Deltas go to ``on_event`` as they arrive. Raises ``MissingApiKey`` / ``UnsupportedProvider``
    before any network access, ``ProviderError`` (one line) on HTTP or connection errors, and
    ``IncompleteStream`` when the stream fails or ends without its final event. ``on_open`` is
    awaited once the provider has accepted the request (the response headers arrived with
    status 200). A request refused before that is tried again as ``retry`` says (default:
    :class:`RetryPolicy`), each wait announced through ``on_retry``. ``timeout`` is the
    longest wait for a byte, in seconds.
    """
    ref = parse_model_ref(model) if isinstance(model, str) else model
    endpoint = resolve_endpoint(ref, env)
    opened = False

    async def accepted() -> None:
        nonlocal opened
        opened = True
        if on_open is not None:
            await on_open()

    call = _Call(system, messages, tools, on_event, accepted, thinking, max_tokens, timeout)
    turn = _anthropic_turn if endpoint.info.wire == "anthropic" else _chat_turn
    return await with_retries(
        lambda: turn(endpoint, ref, call),
        policy=retry or RetryPolicy(),
        opened=lambda: opened,
        on_retry=on_retry,
    )


def _sdk_failure(
    exc: Exception, sdk: Any, endpoint: Endpoint, call: _Call, *, started: bool
) -> ProviderError:
    """An SDK's error (``sdk`` is the ``anthropic`` or ``openai`` module) as one line: an HTTP
    status, an error event inside the stream (a status below 400: Anthropic's ``event: error``,
    a proxy's or OpenRouter's ``{"error": …}``), no response within the timeout, the
    connection lost before the reply began or (``started``: after the provider accepted the
    request) in the middle of it. Only a failure before that may be tried again."""
    name = endpoint.info.name
    if isinstance(exc, sdk.APIStatusError) and exc.status_code >= 400:
        headers = exc.response.headers if exc.response is not None else {}
        return _status_error(endpoint, exc.status_code, exc.body, exc.message, headers)
    if isinstance(exc, sdk.APITimeoutError):
        if started:
            return _stalled(name, call)
        return ProviderError(f"{name}: no response within {seconds_text(call.timeout)} (timed out)")
    if isinstance(exc, sdk.APIConnectionError):
        if started:
            return IncompleteStream(_one_line(f"{name} stream broke off: {exc}"))
        why = connection_failure(exc)
        return ProviderError(f"{name}: cannot reach {endpoint.base_url} ({why})", retryable=True)
    detail = _error_detail(getattr(exc, "body", None), str(exc))
    return IncompleteStream(_one_line(f"{name} stream error: {detail}"))


def connection_failure(exc: BaseException) -> str:
    """Why a connection could not be made, in ink-tui's words: read from the operating system's
    error under the SDK's (never the SDK's own text, which changes between releases)."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if isinstance(cause, OSError) and cause.errno in _CONNECT_ERRNO:
            return _CONNECT_ERRNO[cause.errno]
        if isinstance(cause, socket.gaierror):
            return "host not found"
        if isinstance(cause, TimeoutError):
            return "timed out"
        cause = cause.__cause__ or cause.__context__
    return "no connection"


_CONNECT_ERRNO = {
    errno.ECONNREFUSED: "connection refused",
    errno.ECONNRESET: "connection reset",
    errno.EHOSTUNREACH: "host unreachable",
    errno.ENETUNREACH: "network unreachable",
    errno.ETIMEDOUT: "timed out",
}


def _stalled(name: str, call: _Call) -> IncompleteStream:
    return IncompleteStream(
        f"{name} stream stalled: no data for {seconds_text(call.timeout)} (timed out)"
    )


async def _transport_checked(
    stream: AsyncIterable[T], sdk_error: type[Exception], name: str, call: _Call
) -> AsyncIterator[T]:
    """The stream's items; a transport failure while reading the body (which the Anthropic
    SDK passes through unwrapped: the HTTP library's errors, a socket's ``OSError``), a read
    timeout, or a frame that is not JSON is an incomplete stream, never a crash."""
    broken = transport_errors()
    timeouts = timeout_errors()
    items = aiter(stream)
    while True:
        try:
            item = await anext(items)
        except StopAsyncIteration:
            return
        except sdk_error:
            raise
        except timeouts as exc:
            raise _stalled(name, call) from exc
        except broken as exc:
            raise IncompleteStream(_one_line(f"{name} stream broke off: {exc!r}")) from exc
        yield item


def _anthropic_client(anthropic: Any, endpoint: Endpoint, call: _Call) -> Any:
    """A client, made in a thread: the first one loads more of the SDK (a tenth of a second),
    and its ``messages`` resource is loaded lazily on first use."""
    client = anthropic.AsyncAnthropic(
        api_key=endpoint.api_key,
        base_url=endpoint.base_url,
        max_retries=0,  # ink-tui's own policy (retry.py) retries, and says so
        timeout=call.timeout,
    )
    _ = client.messages
    return client


def _openai_client(openai: Any, endpoint: Endpoint, call: _Call) -> Any:
    """A client, made in a thread: the first one loads more of the SDK (about 0.2 s), and its
    ``chat.completions`` resource is loaded lazily on first use (another 0.1 s)."""
    client = openai.AsyncOpenAI(
        api_key=endpoint.api_key,
        base_url=endpoint.base_url,
        max_retries=0,  # ink-tui's own policy (retry.py) retries, and says so
        timeout=call.timeout,
    )
    _ = client.chat.completions
    return client


async def _anthropic_turn(endpoint: Endpoint, ref: ModelRef, call: _Call) -> Json:
    anthropic = await load_sdk("anthropic")  # in a thread: the import takes a second or two
    client = await asyncio.to_thread(_anthropic_client, anthropic, endpoint, call)
    kwargs: dict[str, Any] = {"model": ref.model_id, "max_tokens": call.max_tokens}
    kwargs.update(anthropic_request(call.system, call.messages, call.tools))
    kwargs.update(anthropic_thinking(ref.model_id, call.thinking, call.max_tokens))
    assembler = AnthropicAssembler(ref, call.on_event)
    began = False  # the provider accepted the request: a failure from here is mid-stream
    try:
        # the raw event stream (not ``messages.stream()``, whose snapshot parses the tool
        # arguments as they come and throws at JSON it cannot read): the assembler reads them
        stream = await client.messages.create(**kwargs, stream=True)
        began = True
        if call.on_open is not None:
            await call.on_open()
        async for event in _transport_checked(stream, anthropic.APIError, endpoint.info.name, call):
            assembler.feed(event.model_dump(mode="json"))
    except anthropic.APIError as exc:
        raise _sdk_failure(exc, anthropic, endpoint, call, started=began) from exc
    finally:
        await client.close()
    if not assembler.complete:
        raise IncompleteStream(
            f"{endpoint.info.name} stream ended without message_stop{assembler.cut_note()}"
        )
    return assembler.message()


async def _chat_turn(endpoint: Endpoint, ref: ModelRef, call: _Call) -> Json:
    openai = await load_sdk("openai")  # in a thread: the import takes about a second
    client = await asyncio.to_thread(_openai_client, openai, endpoint, call)
    payload = chat_request(ref.provider, call.system, call.messages, call.tools)
    kwargs: dict[str, Any] = {
        "model": ref.model_id,
        "messages": payload["messages"],
        "stream": True,
        "stream_options": {"include_usage": True},
        _max_tokens_field(ref.model_id): call.max_tokens,
    }
    kwargs.update(chat_thinking(ref.provider, ref.model_id, call.thinking))
    if "tools" in payload:
        kwargs["tools"] = payload["tools"]
        kwargs["tool_choice"] = "auto"
        if ref.provider == "zai":
            kwargs["extra_body"] = {**kwargs.get("extra_body", {}), "tool_stream": True}
    assembler = ChatAssembler(ref, call.on_event)
    began = False  # the provider accepted the request: a failure from here is mid-stream
    try:
        stream = await client.chat.completions.create(**kwargs)
        began = True
        if call.on_open is not None:
            await call.on_open()
        async for chunk in _transport_checked(stream, openai.APIError, endpoint.info.name, call):
            assembler.feed(chunk.model_dump(mode="json"))
    except openai.APIError as exc:
        raise _sdk_failure(exc, openai, endpoint, call, started=began) from exc
    finally:
        await client.close()
    if not assembler.complete:
        raise IncompleteStream(
            f"{endpoint.info.name} stream ended without finish_reason{assembler.cut_note()}"
        )
    return assembler.message()
