"""``stream_turn``: one model turn over either wire format, through the official SDKs."""

from __future__ import annotations

import asyncio
import re
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
from ink_tui.agent.providers.sdk import load_sdk, transport_errors
from ink_tui.agent.providers.thinking import anthropic_thinking, chat_thinking
from ink_tui.agent.tools.specs import ToolSpec
from ink_tui.session.tree import ModelRef

__all__ = ["StreamEvent", "stream_turn"]

DEFAULT_MAX_TOKENS = 16384  # Ink's CLI default (--max-tokens)
T = TypeVar("T")


def _one_line(text: str, limit: int = 300) -> str:
    line = re.sub(r"\s+", " ", text).strip()
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _status_error(endpoint: Endpoint, status: int, body: object, fallback: str) -> ProviderError:
    detail = fallback
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and isinstance(inner.get("message"), str):
            detail = inner["message"]
    hint = f" (check {endpoint.info.key_env})" if status in (401, 403) else ""
    return ProviderError(_one_line(f"{endpoint.info.name} HTTP {status}{hint}: {detail}"))


Opened = Callable[[], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class _Call:
    """One request's inputs, as ``stream_turn`` received them."""

    system: str
    messages: Sequence[Json]
    tools: Sequence[ToolSpec]
    on_event: EventSink
    on_open: Opened | None
    thinking: str
    max_tokens: int
    max_retries: int
    timeout: float


def _max_tokens_field(model_id: str) -> str:
    return "max_completion_tokens" if re.match(r"^(o\d|gpt-[56])", model_id) else "max_tokens"


async def stream_turn(
    model: str | ModelRef,
    system: str,
    messages: Sequence[Json],
    tools: Sequence[ToolSpec],
    *,
    on_event: EventSink,
    on_open: Opened | None = None,
    env: Mapping[str, str] | None = None,
    thinking: str = "off",
    max_tokens: int = DEFAULT_MAX_TOKENS,
    max_retries: int = 2,
    timeout: float = 600.0,
) -> Json:
    """Stream one assistant turn and return it as an Ink assistant message.

    Deltas go to ``on_event`` as they arrive. Raises ``MissingApiKey`` / ``UnsupportedProvider``
    before any network access, ``ProviderError`` (one line) on HTTP or connection errors, and
    ``IncompleteStream`` when the stream ends without its final event. ``on_open`` is awaited
    once the provider has accepted the request (the response headers arrived with status 200).
    """
    call = _Call(
        system, messages, tools, on_event, on_open, thinking, max_tokens, max_retries, timeout
    )
    ref = parse_model_ref(model) if isinstance(model, str) else model
    endpoint = resolve_endpoint(ref, env)
    if endpoint.info.wire == "anthropic":
        return await _anthropic_turn(endpoint, ref, call)
    return await _chat_turn(endpoint, ref, call)


def _sdk_failure(exc: Exception, sdk: Any, endpoint: Endpoint, *, started: bool) -> ProviderError:
    """An SDK's error (``sdk`` is the ``anthropic`` or ``openai`` module) as one line: an HTTP
    status, the connection lost before the reply began or in the middle of it, or an error
    event inside the stream (proxies, OpenRouter)."""
    name = endpoint.info.name
    if isinstance(exc, sdk.APIStatusError):
        return _status_error(endpoint, exc.status_code, exc.body, exc.message)
    if isinstance(exc, sdk.APIConnectionError):
        if started:
            return IncompleteStream(_one_line(f"{name} stream broke off: {exc}"))
        return ProviderError(_one_line(f"{name} connection error: {exc}"))
    return IncompleteStream(_one_line(f"{name} stream error: {exc}"))


async def _transport_checked(
    stream: AsyncIterable[T], sdk_error: type[Exception], name: str
) -> AsyncIterator[T]:
    """The stream's items; a transport failure while reading the body (which the Anthropic
    SDK passes through unwrapped: the HTTP library's errors, a socket's ``OSError``) or a frame
    that is not JSON is an incomplete stream, never a crash."""
    broken = transport_errors()
    items = aiter(stream)
    while True:
        try:
            item = await anext(items)
        except StopAsyncIteration:
            return
        except sdk_error:
            raise
        except broken as exc:
            raise IncompleteStream(_one_line(f"{name} stream broke off: {exc!r}")) from exc
        yield item


def _anthropic_client(anthropic: Any, endpoint: Endpoint, call: _Call) -> Any:
    """A client, made in a thread: the first one loads more of the SDK (a tenth of a second),
    and its ``messages`` resource is loaded lazily on first use."""
    client = anthropic.AsyncAnthropic(
        api_key=endpoint.api_key,
        base_url=endpoint.base_url,
        max_retries=call.max_retries,
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
        max_retries=call.max_retries,
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
    try:
        async with client.messages.stream(**kwargs) as stream:
            if call.on_open is not None:
                await call.on_open()
            async for event in _transport_checked(stream, anthropic.APIError, endpoint.info.name):
                assembler.feed(event.model_dump(mode="json"))
    except anthropic.APIError as exc:
        started = bool(assembler.blocks or assembler.usage)
        raise _sdk_failure(exc, anthropic, endpoint, started=started) from exc
    finally:
        await client.close()
    if not assembler.complete:
        raise IncompleteStream(
            f"{endpoint.info.name} stream ended without message_stop: the turn was not saved"
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
    try:
        stream = await client.chat.completions.create(**kwargs)
        if call.on_open is not None:
            await call.on_open()
        async for chunk in _transport_checked(stream, openai.APIError, endpoint.info.name):
            assembler.feed(chunk.model_dump(mode="json"))
    except openai.APIError as exc:
        started = bool(assembler.blocks or assembler.usage_seen)
        raise _sdk_failure(exc, openai, endpoint, started=started) from exc
    finally:
        await client.close()
    if not assembler.complete:
        raise IncompleteStream(
            f"{endpoint.info.name} stream ended without finish_reason: the turn was not saved"
        )
    return assembler.message()
