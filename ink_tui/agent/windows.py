"""Context windows and the automatic-compaction trigger, as current Ink computes them.

Ink (``provider/models.ts`` ``contextWindowInfoFor``) takes a model's context window from, in
order: ``INK_CONTEXT_WINDOW``; its model catalog (pi.dev, cached on disk in
``~/.ink/models-catalog.json`` or ``INK_CATALOG_PATH``); models discovered at run time; its frozen
static table; else 131,072. ink-tui never fetches the catalog: it reads Ink's disk cache when
there is one, then the same static table. Discovery (a live provider's model list) is not done.

The trigger (``provider/compaction-settings.ts@55fae342``) with the 32,768-token reserve:
``min(floor(0.85·W), W - 32768)`` for a known window, ``max(1, floor(0.85·W))`` for a window no
larger than the reserve, and the legacy ``W - 32768`` (98,304) for the fallback window.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

import orjson

from ink_tui.session.tree import ModelRef

__all__ = [
    "DEFAULT_CONTEXT_WINDOW",
    "RESERVE_TOKENS",
    "ContextWindow",
    "context_window",
    "should_compact",
    "trigger_tokens",
]

DEFAULT_CONTEXT_WINDOW: Final = 131_072
RESERVE_TOKENS: Final = 32_768

Source = Literal["env", "catalog", "static", "fallback"]

# Ink's frozen static floor (``models.ts``), keyed by model id as Ink looks it up.
STATIC_WINDOWS: Final[Mapping[str, int]] = {
    "claude-sonnet-4-5": 1_000_000,
    "claude-sonnet-4-6": 1_000_000,
    "claude-sonnet-5": 1_000_000,
    "claude-haiku-4-5": 200_000,
    "claude-opus-4-5": 200_000,
    "claude-opus-4-6": 1_000_000,
    "claude-opus-4-8": 1_000_000,
    "glm-4.5": 200_000,
    "glm-4.6": 200_000,
    "glm-4.7": 204_800,
    "glm-5-turbo": 200_000,
    "glm-5.2": 1_000_000,
    "glm-5.2-highspeed": 1_000_000,
    "glm-5.3": 1_000_000,
    "glm-5.3-flash": 1_000_000,
    "glm-5.3-highspeed": 1_000_000,
    "deepseek-flash": 1_000_000,
    "deepseek-v4-pro": 1_000_000,
    "kimi-k2.6": 262_144,
    "kimi-k2.7-code": 262_144,
    "kimi-k2.7-code-highspeed": 262_144,
    "kimi-k3": 1_048_576,
    "gpt-6-astra": 272_000,
    "gpt-5.3-codex-spark": 128_000,
    "gpt-5.4": 272_000,
    "gpt-5.4-mini": 272_000,
    "gpt-5.5": 272_000,
    "gpt-5.6-luna": 272_000,
    "gpt-5.6-sol": 272_000,
    "gpt-5.6-terra": 272_000,
}


@dataclass(frozen=True, slots=True)
class ContextWindow:
    """A model's context window, where it came from, and when Ink would compact."""

    tokens: int
    source: Source

    @property
    def trigger(self) -> int:
        return trigger_tokens(self.tokens, known=self.source != "fallback")


def trigger_tokens(window: int, *, known: bool) -> int:
    """The estimate above which Ink compacts automatically (``compactionSettingsFor``)."""
    if not known:
        return window - RESERVE_TOKENS
    ratio = (85 * window) // 100  # floor(0.85 * W), exact for integers
    if window > RESERVE_TOKENS:
        return min(ratio, window - RESERVE_TOKENS)
    return max(1, ratio)


def should_compact(estimate: int, window: ContextWindow) -> bool:
    """Ink's ``shouldCompact``: the context estimate is strictly above the trigger."""
    return estimate > window.trigger


def _positive(raw: str | None) -> int | None:
    if raw is None:
        return None
    try:
        value = float(raw)
    except ValueError:
        return None
    return int(value) if value > 0 and value != float("inf") else None


def _catalog_window(path: Path, model: ModelRef) -> int | None:
    """The window Ink's cached catalog gives ``model``; ``None`` if absent or unreadable."""
    try:
        data: Any = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return None
    if not isinstance(data, dict) or data.get("version") != 1:
        return None
    providers = data.get("providers")
    family = providers.get(model.provider) if isinstance(providers, dict) else None
    models = family.get("models") if isinstance(family, dict) else None
    if not isinstance(models, dict):
        return None
    for entry in models.values():  # keyed by id; Ink re-keys by each entry's own id
        if isinstance(entry, dict) and entry.get("id") == model.model_id:
            window = entry.get("contextWindow")
            if isinstance(window, int | float) and not isinstance(window, bool) and window > 0:
                return int(window) if window != float("inf") else None
    return None


def context_window(model: ModelRef | None, env: Mapping[str, str] | None = None) -> ContextWindow:
    """``model``'s window as Ink finds it: environment, cached catalog, static table, fallback."""
    environ: Mapping[str, str] = os.environ if env is None else env
    from_env = _positive(environ.get("INK_CONTEXT_WINDOW"))
    if from_env is not None:
        return ContextWindow(from_env, "env")
    if model is not None:
        home = environ.get("HOME") or str(Path.home())
        catalog = environ.get("INK_CATALOG_PATH") or str(
            Path(home) / ".ink" / "models-catalog.json"
        )
        found = _catalog_window(Path(catalog), model)
        if found is not None:
            return ContextWindow(found, "catalog")
        fixed = STATIC_WINDOWS.get(model.model_id)
        if fixed is not None:
            return ContextWindow(fixed, "static")
    return ContextWindow(DEFAULT_CONTEXT_WINDOW, "fallback")
