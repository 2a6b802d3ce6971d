"""The models a provider lists (GET /v1/models) for the chat's model picker, against
``fake_llm``: both shapes, the headers each provider wants, nothing when it does not answer, and
one question per endpoint for the run."""

from __future__ import annotations

import socket
from typing import Any

from ink_tui.agent.providers.listing import ANTHROPIC_VERSION, ModelLists, list_models


def test_anthropic_and_openai_lists_are_read_with_their_headers(fake_llm: Any) -> None:
    env = fake_llm.env()
    fake_llm.list_models(anthropic=["claude-b", "claude-a"], chat=["gpt-4o", "gpt-4o-mini"])
    assert list_models("anthropic", env) == ["claude-a", "claude-b"]
    asked = fake_llm.model_requests[-1]
    assert asked.path.startswith("/v1/models")
    assert asked.headers["x-api-key"] == "dummy"
    assert asked.headers["anthropic-version"] == ANTHROPIC_VERSION
    assert list_models("openai", env) == ["gpt-4o", "gpt-4o-mini"]
    asked = fake_llm.model_requests[-1]
    assert asked.path == "/v1/models" and asked.headers["authorization"] == "Bearer dummy"


def test_a_provider_that_does_not_list_gives_nothing(fake_llm: Any) -> None:
    env = fake_llm.env()
    assert list_models("openai", env) is None  # 404
    assert list_models("zai", env) is None  # no key: never asked
    assert [r.path for r in fake_llm.model_requests] == ["/v1/models"]
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    refused = {"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": f"http://127.0.0.1:{port}/v1"}
    assert list_models("openai", refused) is None


def test_each_endpoint_is_asked_once_for_the_run(fake_llm: Any) -> None:
    env = fake_llm.env()
    fake_llm.list_models(anthropic=["claude-a"], chat=["gpt-4o"])
    lists = ModelLists()
    found = lists.models(env)
    assert found == {"anthropic": ["claude-a"], "openai": ["gpt-4o"], "deepseek": ["gpt-4o"]}
    asked = len(fake_llm.model_requests)
    assert asked == 3
    assert lists.models(env) == found
    assert len(fake_llm.model_requests) == asked  # kept: nobody asked again
