"""What a model's tokens cost: a price table per model, in USD per million tokens.

The defaults (:data:`DEFAULT_PRICES`) are list prices as best known, dated :data:`PRICES_AS_OF`,
for the providers Ink supports; they are **estimates** (they were written without access to the
providers' pages, and models newer than that knowledge are priced like their family). A user's
``config.toml`` overrides or adds entries::

    [prices."anthropic/claude-sonnet-4-5"]
    input = 3.0          # USD per million input tokens (required)
    output = 15.0        # per million output tokens (required)
    cache_read = 0.3     # optional: defaults to the input price
    cache_write = 3.75   # optional: defaults to the input price

A key is ``provider/modelId`` and matches that model and every model whose id starts with it
(``anthropic/claude-sonnet-4-5`` prices ``claude-sonnet-4-5-20250929``); the longest matching key
wins, a user's key winning over a default of the same length. A model no key matches has no
price: its tokens are counted and its cost is unknown.

Read by the command line and the app alike: no Textual here. The rate type, :class:`Price`, lives
in the session layer (:mod:`ink_tui.session.rules.rates`, beside Ink's own static rates, which Ink's
``/status`` totals use); it is re-exported here.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from ink_tui.paths import config_file
from ink_tui.session.rules.rates import Price

__all__ = [
    "DEFAULT_PRICES",
    "PRICES_AS_OF",
    "Price",
    "PriceTable",
    "load_price_table",
]

PRICES_AS_OF: Final = "2026-12"


def _anthropic(inputs: float, outputs: float) -> Price:
    """Anthropic: a cache read costs a tenth of input, a (5-minute) cache write 1.25 times it."""
    return Price(inputs, outputs, round(inputs / 10, 6), round(inputs * 1.25, 6))


def _chat(inputs: float, outputs: float, cache_read: float) -> Price:
    """Chat Completions providers: cached input is cheaper; writing the cache costs nothing more."""
    return Price(inputs, outputs, cache_read, inputs)


_MOONSHOT: Final = {
    "kimi-k2": _chat(0.60, 2.50, 0.15),
    "kimi-k2-turbo": _chat(1.15, 8.00, 0.15),
    "kimi-k2-thinking": _chat(0.60, 2.50, 0.15),
    "kimi-k3": _chat(0.60, 2.50, 0.15),  # estimate: priced as kimi-k2
}

DEFAULT_PRICES: Final[Mapping[str, Price]] = {
    # Anthropic
    "anthropic/claude-opus-4": _anthropic(15.0, 75.0),  # opus 4 and 4.1
    "anthropic/claude-opus-4-5": _anthropic(5.0, 25.0),
    "anthropic/claude-opus-4-6": _anthropic(5.0, 25.0),
    "anthropic/claude-opus-4-8": _anthropic(5.0, 25.0),  # estimate
    "anthropic/claude-opus-5": _anthropic(5.0, 25.0),  # estimate
    "anthropic/claude-sonnet": _anthropic(3.0, 15.0),  # sonnet 4, 4.5, 4.6, 5 (estimate)
    "anthropic/claude-haiku-4": _anthropic(1.0, 5.0),
    "anthropic/claude-3-7-sonnet": _anthropic(3.0, 15.0),
    "anthropic/claude-3-5-sonnet": _anthropic(3.0, 15.0),
    "anthropic/claude-3-5-haiku": _anthropic(0.80, 4.0),
    "anthropic/claude-3-opus": _anthropic(15.0, 75.0),
    "anthropic/claude-3-haiku": _anthropic(0.25, 1.25),
    # OpenAI
    "openai/gpt-5": _chat(1.25, 10.0, 0.125),  # gpt-5, gpt-5.1 and their -codex
    "openai/gpt-5-mini": _chat(0.25, 2.0, 0.025),
    "openai/gpt-5-nano": _chat(0.05, 0.40, 0.005),
    "openai/gpt-5.2": _chat(1.75, 14.0, 0.175),
    "openai/gpt-5.3": _chat(1.75, 14.0, 0.175),  # estimate
    "openai/gpt-5.4": _chat(1.75, 14.0, 0.175),  # estimate
    "openai/gpt-5.4-mini": _chat(0.25, 2.0, 0.025),  # estimate
    "openai/gpt-5.5": _chat(1.75, 14.0, 0.175),  # estimate
    "openai/gpt-5.6": _chat(1.75, 14.0, 0.175),  # estimate
    "openai/gpt-4.1": _chat(2.0, 8.0, 0.50),
    "openai/gpt-4.1-mini": _chat(0.40, 1.60, 0.10),
    "openai/gpt-4.1-nano": _chat(0.10, 0.40, 0.025),
    "openai/gpt-4o": _chat(2.50, 10.0, 1.25),
    "openai/gpt-4o-mini": _chat(0.15, 0.60, 0.075),
    "openai/o3": _chat(2.0, 8.0, 0.50),
    "openai/o3-mini": _chat(1.10, 4.40, 0.55),
    "openai/o4-mini": _chat(1.10, 4.40, 0.275),
    # Z.ai
    "zai/glm-4.5": _chat(0.60, 2.20, 0.11),
    "zai/glm-4.5-air": _chat(0.20, 1.10, 0.03),
    "zai/glm-4.6": _chat(0.60, 2.20, 0.11),
    "zai/glm-4.7": _chat(0.60, 2.20, 0.11),
    "zai/glm-5": _chat(1.00, 3.20, 0.20),  # glm-5 and later 5.x (estimate)
    # DeepSeek
    "deepseek/deepseek-chat": _chat(0.28, 0.42, 0.028),
    "deepseek/deepseek-reasoner": _chat(0.28, 0.42, 0.028),
    "deepseek/deepseek-v4": _chat(0.28, 0.42, 0.028),  # estimate
    "deepseek/deepseek-flash": _chat(0.28, 0.42, 0.028),  # estimate
    # Moonshot (the -cn endpoint's prices are in CNY; these are the international USD ones)
    **{f"moonshotai/{model}": price for model, price in _MOONSHOT.items()},
    **{f"moonshotai-cn/{model}": price for model, price in _MOONSHOT.items()},
}


@dataclass(slots=True)
class PriceTable:
    """The prices in force: the defaults, with the user's entries over them."""

    defaults: Mapping[str, Price] = field(default_factory=lambda: dict(DEFAULT_PRICES))
    overrides: dict[str, Price] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)  # config entries that were not used
    source: Path | None = None  # the config file read, if any

    def key_for(self, model: str) -> str | None:
        """The table key pricing ``model`` (``provider/modelId``), ``None`` when none does."""
        best: tuple[int, int, str] | None = None
        for rank, table in ((1, self.overrides), (0, self.defaults)):
            for key in table:
                if model.startswith(key) and (best is None or (len(key), rank) > best[:2]):
                    best = (len(key), rank, key)
        return None if best is None else best[2]

    def price_of(self, model: str) -> Price | None:
        """What ``model`` (``provider/modelId``) costs, ``None`` when it has no price."""
        key = self.key_for(model)
        if key is None:
            return None
        return self.overrides.get(key) or self.defaults.get(key)


def _number(entry: Mapping[str, Any], name: str) -> float | None:
    value = entry.get(name)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) and value >= 0 else None


def _price_entry(key: str, entry: Any) -> Price | str:
    """The price a config entry gives, or why it cannot be used."""
    where = f'prices."{key}"'
    if "/" not in key:
        return f"{where}: a key is provider/modelId (e.g. anthropic/claude-sonnet-4-5)"
    if not isinstance(entry, dict):
        return f"{where}: a table of input, output, cache_read, cache_write was expected"
    unknown = sorted(set(entry) - {"input", "output", "cache_read", "cache_write"})
    if unknown:
        return f"{where}: unknown field {unknown[0]} (input, output, cache_read, cache_write)"
    found: dict[str, float] = {}
    for name in ("input", "output", "cache_read", "cache_write"):
        if name not in entry:
            continue
        value = _number(entry, name)
        if value is None:
            return f"{where}: {name} must be a number of USD per million tokens, 0 or more"
        found[name] = value
    for name in ("input", "output"):
        if name not in found:
            return f"{where}: {name} is missing"
    inputs = found["input"]
    return Price(
        inputs, found["output"], found.get("cache_read", inputs), found.get("cache_write", inputs)
    )


def load_price_table(path: Path | None = None) -> PriceTable:
    """The defaults with the ``[prices]`` of ``config.toml`` (``path``, else the user's) over
    them. A missing file gives the defaults; an unreadable file or a bad entry is said in
    :attr:`PriceTable.problems` (one line each, naming the file) and left out."""
    path = path or config_file()
    table = PriceTable(source=path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return table
    except (OSError, UnicodeDecodeError) as error:
        table.problems.append(f"{path}: cannot be read ({error}): default prices used")
        return table
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        table.problems.append(f"{path}: not valid TOML ({error}): default prices used")
        return table
    prices = data.get("prices", {})
    if not isinstance(prices, dict):
        table.problems.append(f"{path}: prices must be a table of provider/modelId entries")
        return table
    for key, entry in prices.items():
        found = _price_entry(key, entry)
        if isinstance(found, str):
            table.problems.append(f"{path}: {found}: entry not used")
        else:
            table.overrides[key] = found
    return table
