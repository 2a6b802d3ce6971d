"""Model references (``provider/modelId``) and the provider table (Ink's ``resolve.ts``)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from ink_tui.agent.providers.errors import BadArgument, MissingApiKey, UnsupportedProvider
from ink_tui.session.reading.lines import JS_WHITESPACE
from ink_tui.session.rules.modelref import ModelRef
from ink_tui.session.rules.modelref import parse_model_ref as ink_model_ref

Wire = Literal["anthropic", "chat", "responses"]


@dataclass(frozen=True, slots=True)
class ProviderInfo:
    """One provider family: its wire format, API-key variable and base URL."""

    name: str
    wire: Wire
    key_env: str
    base_url_env: str
    default_base_url: str
    # Chat Completions only: replay thinking text as ``reasoning_content``.
    replays_reasoning: bool = False


PROVIDERS: dict[str, ProviderInfo] = {
    p.name: p
    for p in (
        ProviderInfo(
            "anthropic", "anthropic", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL",
            "https://api.anthropic.com",
        ),
        ProviderInfo(
            "openai", "chat", "OPENAI_API_KEY", "OPENAI_BASE_URL", "https://api.openai.com/v1"
        ),
        ProviderInfo(
            "openai-codex", "responses", "", "", "https://chatgpt.com/backend-api/codex"
        ),
        ProviderInfo(
            "zai", "chat", "ZAI_API_KEY", "ZAI_BASE_URL", "https://api.z.ai/api/coding/paas/v4"
        ),
        ProviderInfo(
            "deepseek", "chat", "DEEPSEEK_API_KEY", "DEEPSEEK_BASE_URL",
            "https://api.deepseek.com", replays_reasoning=True,
        ),
        ProviderInfo(
            "moonshotai", "chat", "MOONSHOT_API_KEY", "MOONSHOT_BASE_URL",
            "https://api.moonshot.ai/v1", replays_reasoning=True,
        ),
        ProviderInfo(
            "moonshotai-cn", "chat", "MOONSHOT_API_KEY", "MOONSHOT_CN_BASE_URL",
            "https://api.moonshot.cn/v1", replays_reasoning=True,
        ),
    )
}  # fmt: skip


def parse_model_ref(reference: str) -> ModelRef:
    """Ink's ``parseModelRef`` (:func:`ink_tui.session.rules.modelref.parse_model_ref`) for a
    model the user names. Raises :class:`BadArgument` for a blank reference: Ink refuses a
    file naming a blank id."""
    if not reference.strip(JS_WHITESPACE):
        raise BadArgument("a model is provider/modelId, e.g. anthropic/claude-sonnet-4-5")
    return ink_model_ref(reference)


def reading_note(reference: str) -> str | None:
    """How Ink reads ``reference`` when that may not be what was meant, in one line: a bare id
    is Anthropic's (``glm-*`` Z.ai's), an unknown prefix is part of an Anthropic id. ``None``
    for ``provider/modelId`` with a known provider."""
    trimmed = reference.strip(JS_WHITESPACE)
    if not trimmed:
        return None
    read = parse_model_ref(trimmed).reference
    slash = trimmed.find("/")
    if slash == -1:
        if read.startswith("zai/"):
            return (
                f"{trimmed} has no provider prefix: Ink reads glm-* as a Z.ai model ({read}); "
                f"anthropic/{trimmed} would send it to Anthropic's API"
            )
        return (
            f"{trimmed} has no provider prefix: Ink reads a bare id as an Anthropic model "
            f"({read}); for another provider name it, e.g. openai/{trimmed}"
        )
    prefix = trimmed[:slash]
    if slash == len(trimmed) - 1:
        return f"{trimmed} names no model: Ink reads it as an Anthropic model id ({read})"
    if prefix.lower() not in PROVIDERS:
        known = ", ".join(name for name in PROVIDERS if name != "openai-codex")
        return (
            f"{prefix or '(nothing)'} before the / is not a provider Ink knows ({known}): it "
            f"reads {trimmed} as an Anthropic model id ({read})"
        )
    return None


LOCAL_SERVER_KEY = "no-key"
"""Sent when a Chat Completions base URL is set but its key is not (the SDK needs one)."""


@dataclass(frozen=True, slots=True)
class Endpoint:
    """Everything needed to open a stream: provider info, base URL and API key."""

    info: ProviderInfo
    base_url: str
    api_key: str


def resolve_endpoint(ref: ModelRef, env: Mapping[str, str] | None = None) -> Endpoint:
    """The endpoint for ``ref``, reading keys and base URLs from ``env`` (default: os.environ).

    Raises ``UnsupportedProvider`` for openai-codex or an unknown provider, and ``MissingApiKey``
    (naming the variable) when the key is unset; both before any network access. A Chat
    Completions provider whose base URL variable is set needs no key (local servers).
    """
    environ: Mapping[str, str] = os.environ if env is None else env
    info = PROVIDERS.get(ref.provider)
    if info is None:
        raise UnsupportedProvider(f"Unknown provider {ref.provider!r}")
    if info.wire == "responses":
        raise UnsupportedProvider(
            f"Provider {info.name} (Responses API with the ChatGPT login) is not supported by "
            "ink-tui: pick another model"
        )
    api_key = environ.get(info.key_env, "").strip()
    custom_url = environ.get(info.base_url_env, "").strip()
    if not api_key and info.wire == "chat" and custom_url:
        api_key = LOCAL_SERVER_KEY  # a local server (Ollama, llama.cpp, vLLM) wants none
    if not api_key:
        raise MissingApiKey(
            info.name, info.key_env, info.base_url_env if info.wire == "chat" else None
        )
    base_url = custom_url or info.default_base_url
    return Endpoint(info, base_url.rstrip("/"), api_key)
