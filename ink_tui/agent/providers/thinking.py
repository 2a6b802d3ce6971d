"""Thinking level → request settings, after Ink's ``src/provider/thinking.ts``.

- Anthropic, budget style (Claude up to 4.5 and unknown ``claude-*``; other model ids behind an
  Anthropic-compatible endpoint get no thinking fields): ``thinking: {type:
  "enabled", budget_tokens}`` with budgets minimal 1024, low 2048, medium 8192, high and above
  16384; ``max_tokens`` grows by the budget, capped at the model's output limit (64000, 32000
  for opus-4-1). ``off`` sends ``{type: "disabled"}``.
- Anthropic, adaptive (opus-4-6 and later, sonnet-4-6 and later): ``{type: "adaptive"}`` plus
  ``output_config.effort``.
- GLM models: ``thinking: {type: "enabled"|"disabled"}`` (zai adds ``clear_thinking: false``).
- DeepSeek: the same ``thinking`` object; reasoning models of OpenAI (``o*``, ``gpt-5*``) get
  ``reasoning_effort``; other chat models get nothing (a local server may reject unknown keys).

Not reproduced: Ink's per-model level tables and clamping (levels a model lacks are sent as the
nearest budget or effort here).
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["anthropic_thinking", "chat_thinking"]

Json = dict[str, Any]

_BUDGETS = {"minimal": 1024, "low": 2048, "medium": 8192}
_HIGH_BUDGET = 16384
_ADAPTIVE = re.compile(r"^claude-(opus-4-[6-9]|opus-[5-9]|sonnet-4-[6-9]|sonnet-[5-9])")
_REASONING_OPENAI = re.compile(r"^(o\d|gpt-5)")


def _effort(level: str) -> str:
    if level in ("minimal", "low"):
        return "low"
    return "medium" if level == "medium" else "high"


def anthropic_thinking(model_id: str, level: str, max_tokens: int) -> Json:
    """Extra request fields for the Messages API (``thinking``, maybe ``max_tokens``)."""
    if model_id.startswith("glm"):
        return {"thinking": {"type": "disabled" if level == "off" else "enabled"}}
    if level == "off":
        return {"thinking": {"type": "disabled"}}
    if not model_id.startswith("claude-"):
        return {}  # another model behind an Anthropic-compatible endpoint: no knob to set
    if _ADAPTIVE.match(model_id):
        return {
            "thinking": {"type": "adaptive", "display": "summarized"},
            "output_config": {"effort": _effort(level)},
        }
    budget = _BUDGETS.get(level, _HIGH_BUDGET)
    cap = 32000 if model_id.startswith("claude-opus-4-1") else 64000
    total = min(max_tokens + budget, cap)
    return {
        "max_tokens": total,
        "thinking": {
            "type": "enabled",
            "budget_tokens": min(budget, max(0, total - 1024)),
            "display": "summarized",
        },
    }


def chat_thinking(provider: str, model_id: str, level: str) -> Json:
    """Extra request fields for Chat Completions."""
    if provider == "zai" or model_id.startswith("glm"):
        if level == "off":
            return {"extra_body": {"thinking": {"type": "disabled"}}}
        return {"extra_body": {"thinking": {"type": "enabled", "clear_thinking": False}}}
    if provider == "deepseek":
        return {"extra_body": {"thinking": {"type": "disabled" if level == "off" else "enabled"}}}
    if provider == "openai" and _REASONING_OPENAI.match(model_id) and level != "off":
        return {"reasoning_effort": _effort(level)}
    return {}
