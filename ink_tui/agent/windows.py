"""Context windows and the automatic-compaction trigger, as current Ink computes them.

Ink (``provider/models.ts`` ``contextWindowInfoFor``) takes a model's context window from, in
order: ``INK_CONTEXT_WINDOW``; its model catalog (pi.dev, cached on disk in
``~/.ink/models-catalog.json`` or ``INK_CATALOG_PATH``); models discovered at run time; its frozen
static table; else 131,072. ink-tui never fetches the catalog: it reads Ink's disk cache when
there is one, then the same static table. Discovery (a live provider's model list) is not done.

The trigger (``provider/compaction-settings.ts@55fae342``) with the 32,768-token reserve:
``min(floor(0.85·W), W - 32768)`` for a known window, ``max(1, floor(0.85·W))`` for a window no
larger than the reserve, and the legacy ``W - 32768`` (98,304) for the fallback window, in
JavaScript's double arithmetic.

``INK_CONTEXT_WINDOW`` (spec §4.5, ``models.ts@0bea585d`` ``envInt``) is read with JavaScript's
``Number()``: used, as a known window and as is (``1e5``, `` 100000 ``, ``0x10``, ``100000.5``),
when it is finite and above 0; otherwise ignored, with Ink's note ``ink: ignoring invalid
INK_CONTEXT_WINDOW="<value>" (not a positive number)`` (the value as ``JSON.stringify`` writes
it), which the chat shows once.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

import orjson

from ink_tui.session.reading.jsoncodec import encode_json
from ink_tui.session.reading.jsvalues import string_to_number
from ink_tui.session.rules.modelref import ModelRef

__all__ = [
    "DEFAULT_CONTEXT_WINDOW",
    "RESERVE_TOKENS",
    "ContextWindow",
    "compaction_notice",
    "context_window",
    "env_window",
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

    tokens: int | float  # INK_CONTEXT_WINDOW may be 100000.5: Ink uses it as it is
    source: Source
    note: str | None = None  # Ink's note for an INK_CONTEXT_WINDOW it ignored

    @property
    def trigger(self) -> int | float:
        return trigger_tokens(self.tokens, known=self.source != "fallback")


def trigger_tokens(window: int | float, *, known: bool) -> int | float:
    """The estimate above which Ink compacts automatically (``compactionSettingsFor``), in
    JavaScript's arithmetic (``Math.floor(0.85 * W)`` on doubles)."""
    if not known:
        return window - RESERVE_TOKENS
    ratio = math.floor(0.85 * window)
    if window > RESERVE_TOKENS:
        return min(ratio, window - RESERVE_TOKENS)
    return max(1, ratio)


def should_compact(estimate: int, window: ContextWindow) -> bool:
    """Ink's ``shouldCompact``: the context estimate is strictly above the trigger."""
    return estimate > window.trigger


def compaction_notice(estimate: int, window: ContextWindow) -> str:
    """What the chat says before compacting automatically."""
    return (
        f"the context is about {estimate:,} tokens, over Ink's automatic-compaction "
        f"trigger ({window.trigger:,} for a {window.tokens:,}-token window): compacting first"
    )


def env_window(raw: str | None) -> tuple[int | float | None, str | None]:
    """``INK_CONTEXT_WINDOW`` as Ink reads it: ``(window, None)`` when ``Number(raw)`` is finite
    and above 0; ``(None, note)`` with Ink's stderr note when it is set but not; ``(None,
    None)`` when unset."""
    if raw is None:
        return None, None
    value = string_to_number(raw)
    if math.isfinite(value) and value > 0:
        return (int(value) if value.is_integer() else value), None
    shown = encode_json(raw).decode("utf-8")  # JSON.stringify(raw)
    return None, f"ink: ignoring invalid INK_CONTEXT_WINDOW={shown} (not a positive number)"


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
    """``model``'s window as Ink finds it: environment, cached catalog, static table, fallback
    (with Ink's note when ``INK_CONTEXT_WINDOW`` was set but ignored)."""
    environ: Mapping[str, str] = os.environ if env is None else env
    from_env, note = env_window(environ.get("INK_CONTEXT_WINDOW"))
    if from_env is not None:
        return ContextWindow(from_env, "env")
    found = _registry_window(model, environ)
    return ContextWindow(found.tokens, found.source, note)


def _registry_window(model: ModelRef | None, environ: Mapping[str, str]) -> ContextWindow:
    """The window without the environment: cached catalog, static table, fallback."""
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
