"""Ink's model reference rule (``parseModelRef``, spec §8) is one function in the session layer,
and the chat, the stats' model names and the rates of ``/status`` all read a reference by it."""

from __future__ import annotations

import pytest

from ink_tui.agent.providers import PROVIDERS as CHAT_PROVIDERS
from ink_tui.agent.providers import parse_model_ref as chat_model
from ink_tui.catalog.usage import model_name
from ink_tui.session.reading.records import PROVIDERS
from ink_tui.session.rules.modelref import ModelRef, parse_model_ref
from ink_tui.session.rules.rates import INK_STATIC_RATES, ink_rate_for


@pytest.mark.parametrize(
    ("reference", "expected"),
    [
        ("claude-sonnet-4-5", ModelRef("anthropic", "claude-sonnet-4-5")),
        ("GLM-5.3", ModelRef("zai", "GLM-5.3")),  # any case
        ("anthropic/glm-4.6", ModelRef("anthropic", "glm-4.6")),
        (" MoonshotAI-CN/kimi-k3\u3000", ModelRef("moonshotai-cn", "kimi-k3")),  # JS trim
        ("openai/", ModelRef("anthropic", "openai/")),  # no model id: the trimmed text
        ("acme/thing", ModelRef("anthropic", "acme/thing")),
        (" acme/thing ", ModelRef("anthropic", " acme/thing ")),  # unknown prefix: as given
        ("zai /glm-5", ModelRef("anthropic", "zai /glm-5")),  # a padded prefix is unknown
        ("openrouter/anthropic/claude", ModelRef("anthropic", "openrouter/anthropic/claude")),
        ("\ufeff", ModelRef("anthropic", "")),  # blank: the chat refuses it first
    ],
)
def test_inks_parse_model_ref(reference: str, expected: ModelRef) -> None:
    assert parse_model_ref(reference) == expected


@pytest.mark.parametrize(
    "reference",
    ["claude-opus-4-8", "glm-5.3", "ZAI/glm-5.3", "openai/gpt-5.4", "acme/x/y", "deepseek/"],
)
def test_the_chat_the_stats_and_the_rates_read_a_reference_alike(reference: str) -> None:
    ink = parse_model_ref(reference)
    assert chat_model(reference) == ink
    assert model_name(f"  {reference} ") == ink.reference  # the stats trim the name first
    expected_rate = INK_STATIC_RATES.get(ink.provider, {}).get(ink.model_id)
    assert ink_rate_for(reference) == (expected_rate if "/" in reference else None)


def test_a_bare_id_is_never_priced_but_a_prefixed_one_is() -> None:
    assert ink_rate_for("glm-5.3") is None
    assert ink_rate_for(" zai/glm-5.3 ") == INK_STATIC_RATES["zai"]["glm-5.3"]


def test_the_chat_knows_exactly_inks_providers() -> None:
    assert set(CHAT_PROVIDERS) == set(PROVIDERS)
