"""The models a provider lists, for the chat's model picker.

``GET /v1/models`` on each provider whose endpoint resolves (its API key, or a base URL for a
local server, is set): Anthropic's model list (``x-api-key``, ``anthropic-version``; paged with
``after_id``) and the OpenAI-compatible one (``Authorization: Bearer``), both ``{"data":
[{"id": …}, …]}``. A provider that does not answer, answers with an error, or answers something
else lists nothing (``None``): the picker falls back to typing ``provider/modelId``. What each
endpoint answered is kept for the rest of the run (:class:`ModelLists`). Blocking: call it from
a worker thread.
"""

from __future__ import annotations

import http.client
import json
import threading
import urllib.parse
import urllib.request
from collections.abc import Mapping
from typing import Any, Final

from ink_tui.agent.providers.errors import MissingApiKey, UnsupportedProvider
from ink_tui.agent.providers.model import PROVIDERS, Endpoint, resolve_endpoint
from ink_tui.session.rules.modelref import ModelRef

__all__ = ["ANTHROPIC_VERSION", "MODEL_LISTS", "ModelLists", "list_models"]

ANTHROPIC_VERSION: Final = "2023-06-01"
TIMEOUT_SECONDS: Final = 5.0  # a provider slower than this lists nothing (typing still works)
MAX_PAGES: Final = 10  # Anthropic's list, 1,000 models a page
MAX_BYTES: Final = 4 * 1024 * 1024  # a listing bigger than this is not a model list


def _get(url: str, headers: dict[str, str], timeout: float) -> Any:
    if urllib.parse.urlsplit(url).scheme not in ("http", "https"):
        raise ValueError("not an HTTP URL")
    request = urllib.request.Request(url, headers={**headers, "Accept": "application/json"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        body = response.read(MAX_BYTES + 1)
    if len(body) > MAX_BYTES:
        raise ValueError("too big")
    return json.loads(body)


def _ids(page: Any) -> list[str]:
    data = page.get("data") if isinstance(page, dict) else None
    if not isinstance(data, list):
        raise ValueError("no data")
    return [
        item["id"]
        for item in data
        if isinstance(item, dict) and isinstance(item.get("id"), str) and item["id"].strip()
    ]


def _fetch(endpoint: Endpoint, timeout: float) -> list[str]:
    """The ids ``endpoint`` lists. Raises on any failure (the caller says nothing)."""
    if endpoint.info.wire == "anthropic":
        headers = {"x-api-key": endpoint.api_key, "anthropic-version": ANTHROPIC_VERSION}
        ids: list[str] = []
        after: str | None = None
        for _ in range(MAX_PAGES):
            query = {"limit": "1000", **({"after_id": after} if after else {})}
            url = f"{endpoint.base_url}/v1/models?{urllib.parse.urlencode(query)}"
            page = _get(url, headers, timeout)
            ids += _ids(page)
            after = page.get("last_id") if page.get("has_more") else None
            if not isinstance(after, str) or not after:
                break
        return ids
    headers = {"Authorization": f"Bearer {endpoint.api_key}"}
    return _ids(_get(f"{endpoint.base_url}/models", headers, timeout))


def list_models(
    provider: str, env: Mapping[str, str] | None = None, *, timeout: float = TIMEOUT_SECONDS
) -> list[str] | None:
    """The model ids ``provider`` lists, sorted, without duplicates; ``None`` when it lists
    none (no key, an error, a timeout, not a model list)."""
    try:
        endpoint = resolve_endpoint(ModelRef(provider, "-"), env)
    except (MissingApiKey, UnsupportedProvider):
        return None
    try:
        ids = _fetch(endpoint, timeout)
    except (OSError, ValueError, http.client.HTTPException):  # URLError is an OSError
        return None
    return sorted(set(ids)) or None


class ModelLists:
    """What each provider listed, asked once per endpoint (base URL and key) for the run."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._answers: dict[tuple[str, str, str], list[str] | None] = {}

    def models(self, env: Mapping[str, str] | None = None) -> dict[str, list[str]]:
        """``provider -> model ids`` for every provider that listed some (blocking)."""
        found: dict[str, list[str]] = {}
        for name, info in PROVIDERS.items():
            if info.wire not in ("anthropic", "chat"):
                continue
            try:
                endpoint = resolve_endpoint(ModelRef(name, "-"), env)
            except (MissingApiKey, UnsupportedProvider):
                continue
            key = (name, endpoint.base_url, endpoint.api_key)
            with self._lock:
                known = key in self._answers
                answer = self._answers.get(key)
            if not known:
                answer = list_models(name, env)
                with self._lock:
                    self._answers[key] = answer
            if answer:
                found[name] = answer
        return found


MODEL_LISTS: Final = ModelLists()
"""The run's lists (the chat's model picker asks here)."""
