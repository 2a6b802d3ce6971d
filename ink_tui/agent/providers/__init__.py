"""Model providers: one stream-of-events interface over two wire formats.

- ``anthropic``: the Messages API through the official ``anthropic`` SDK.
- ``openai``, ``zai``, ``deepseek``, ``moonshotai``, ``moonshotai-cn``: Chat Completions through
  the official ``openai`` SDK, each with its own base URL and API-key variable.
- ``openai-codex`` (Responses API with the ChatGPT login) is not supported.

The SDKs are imported inside ``stream_turn`` only, in a worker thread (``sdk.load_sdk``):
importing them costs one to two seconds, which must never freeze the event loop.

Failures and retries: ``retry.py`` (ink-tui's own policy; the SDKs' silent retries are off) and
``stream.py`` (every failure as one line).

Known divergences from Ink: no vision downgrade for text-only models, no stored ``/login``
credentials (only the environment variables), ink-tui's own retry policy (a request refused
before the reply began: at most two retries, a ``retry-after`` over 60 s not waited for).
"""

from __future__ import annotations

from ink_tui.agent.providers.errors import (
    BadArgument,
    IncompleteStream,
    MissingApiKey,
    ProviderError,
    UnsupportedProvider,
)
from ink_tui.agent.providers.model import (
    PROVIDERS,
    Endpoint,
    ProviderInfo,
    parse_model_ref,
    resolve_endpoint,
)
from ink_tui.agent.providers.stream import StreamEvent, stream_turn
from ink_tui.session.rules.modelref import ModelRef

__all__ = [
    "PROVIDERS",
    "BadArgument",
    "Endpoint",
    "IncompleteStream",
    "MissingApiKey",
    "ModelRef",
    "ProviderError",
    "ProviderInfo",
    "StreamEvent",
    "UnsupportedProvider",
    "parse_model_ref",
    "resolve_endpoint",
    "stream_turn",
]
