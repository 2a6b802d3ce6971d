"""Provider errors. Every message is one line, fit for a status bar."""

from __future__ import annotations


class BadArgument(ValueError):
    """An argument the user gave that ink-tui cannot use (a blank model, an unknown thinking
    level): said as one line, never a bug."""


class ProviderError(Exception):
    """A request to a model provider failed (HTTP error, connection error, bad config).

    ``retryable``: another attempt may succeed (a 429, a 5xx, a refused connection, as the
    server's ``x-should-retry`` or the status says); ``retry_after``: the seconds the server
    asked to wait (``retry-after`` / ``retry-after-ms``), when it said.
    """

    def __init__(
        self, message: str, *, retryable: bool = False, retry_after: float | None = None
    ) -> None:
        super().__init__(message)
        self.retryable = retryable
        self.retry_after = retry_after


class MissingApiKey(ProviderError):
    """The provider's API-key environment variable is unset or blank."""

    def __init__(self, provider: str, env_var: str, base_url_env: str | None = None) -> None:
        local = f" (or {base_url_env} for a local server)" if base_url_env else ""
        super().__init__(f"No API key for {provider}: set {env_var}{local}")
        self.provider = provider
        self.env_var = env_var


class UnsupportedProvider(ProviderError):
    """A provider Ink knows but ink-tui cannot talk to (openai-codex)."""


class IncompleteStream(ProviderError):
    """The stream ended before its final event: the turn must not be saved."""
