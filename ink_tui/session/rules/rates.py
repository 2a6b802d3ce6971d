"""What tokens cost: a model's rates (:class:`Price`), and Ink's own static rate table.

:class:`Price` is the one rate type of ink-tui: the stats' price table
(:mod:`ink_tui.catalog.prices`) and Ink's ``/status`` totals
(:mod:`ink_tui.session.rules.usage_totals`) both use it.

:func:`ink_rate_for` is Ink's ``costFor(reference)`` (``models.ts@0bea585d``) as far as ink-tui
can follow it: a reference without ``/`` has no rate; otherwise Ink looks the provider and model
id up in the pi.dev catalog first (its cache, ``~/.ink/models-catalog.json``, is in a format
ink-tui does not know, so it is never read here), then in its frozen static table
(:data:`INK_STATIC_RATES`, copied below), within the same provider only, by exact model id.
``zai`` and ``openai-codex`` rates are marked subscription (the traffic is billed by a plan, the
rates say what it would cost at API prices). Dollars made with these rates are **estimates** of
what Ink's ``/status`` shows whenever the catalog knows the model (Ink prefers it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from ink_tui.session.reading.lines import JS_WHITESPACE
from ink_tui.session.rules.modelref import parse_model_ref

__all__ = [
    "INK_RATES_SOURCE",
    "INK_STATIC_RATES",
    "SUBSCRIPTION_PROVIDERS",
    "Price",
    "ink_rate_for",
]

INK_RATES_SOURCE: Final = "models.ts@0bea585d"


@dataclass(frozen=True, slots=True)
class Price:
    """USD per million tokens; ``subscription``: billed by a plan (Ink shows ``(sub)``)."""

    input: float
    output: float
    cache_read: float
    cache_write: float
    subscription: bool = False

    def cost(self, inputs: float, outputs: float, cache_read: float, cache_write: float) -> float:
        """The USD cost of these token counts (Ink's sum, in its order)."""
        return (
            inputs * self.input
            + outputs * self.output
            + cache_read * self.cache_read
            + cache_write * self.cache_write
        ) / 1_000_000

    def to_json(self) -> dict[str, float]:
        return {
            "input": self.input,
            "output": self.output,
            "cacheRead": self.cache_read,
            "cacheWrite": self.cache_write,
        }


def _sub(inputs: float, outputs: float, cache_read: float, cache_write: float) -> Price:
    return Price(inputs, outputs, cache_read, cache_write, subscription=True)


_KIMI: Final = {
    "kimi-k2.6": Price(0.95, 4, 0.16, 0),
    "kimi-k2.7-code": Price(0.95, 4, 0.19, 0),
    "kimi-k2.7-code-highspeed": Price(1.9, 8, 0.38, 0),
    "kimi-k3": Price(3, 15, 0.3, 0),
}
_GLM: Final = (
    "glm-4.5", "glm-4.6", "glm-4.7", "glm-5-turbo", "glm-5.2", "glm-5.2-highspeed", "glm-5.3",
    "glm-5.3-flash", "glm-5.3-highspeed",
)  # fmt: skip

INK_STATIC_RATES: Final[Mapping[str, Mapping[str, Price]]] = {
    "anthropic": {
        "claude-sonnet-4-5": Price(3, 15, 0.3, 3.75),
        "claude-sonnet-4-6": Price(3, 15, 0.3, 3.75),
        "claude-sonnet-5": Price(2, 10, 0.2, 2.5),
        "claude-haiku-4-5": Price(1, 5, 0.1, 1.25),
        "claude-opus-4-5": Price(5, 25, 0.5, 6.25),
        "claude-opus-4-6": Price(5, 25, 0.5, 6.25),
        "claude-opus-4-8": Price(5, 25, 0.5, 6.25),
    },
    "zai": {model: _sub(0, 0, 0, 0) for model in _GLM},  # the Coding Plan: the meter is $0
    "deepseek": {
        "deepseek-flash": Price(0.3, 1.2, 0.006, 0),
        "deepseek-v4-pro": Price(1.32, 3.96, 0.044, 0),
    },
    "moonshotai": _KIMI,
    "moonshotai-cn": _KIMI,  # the CN platform bills CNY; Ink shows these USD rates for both
    "openai-codex": {
        "gpt-6-astra": _sub(0, 0, 0, 0),
        "gpt-5.3-codex-spark": _sub(1.75, 14, 0.175, 0),
        "gpt-5.4": _sub(2.5, 15, 0.25, 0),
        "gpt-5.4-mini": _sub(0.75, 4.5, 0.075, 0),
        "gpt-5.5": _sub(5, 30, 0.5, 0),
        "gpt-5.6-luna": _sub(1, 6, 0.1, 1.25),
        "gpt-5.6-sol": _sub(5, 30, 0.5, 6.25),
        "gpt-5.6-terra": _sub(2.5, 15, 0.25, 3.125),
    },
}
"""Ink's frozen static rates (``MODEL_COSTS`` of ``models.ts@0bea585d``), USD per million
tokens, by provider then exact model id. ``openai`` has none: Ink prices it from the catalog."""

SUBSCRIPTION_PROVIDERS: Final = frozenset({"zai", "openai-codex"})


def ink_rate_for(reference: str) -> Price | None:
    """Ink's rates for a declared reference ``provider/modelId`` from its static table, as
    ``costFor`` looks them up: a reference without ``/`` has none; else Ink's ``parseModelRef``
    names the provider and model id. ``None``: no rate (a bare id, or a model the table does
    not hold)."""
    trimmed = reference.strip(JS_WHITESPACE)
    if "/" not in trimmed:
        return None  # a bare id names no provider: never priced
    model = parse_model_ref(trimmed)
    return INK_STATIC_RATES.get(model.provider, {}).get(model.model_id)
