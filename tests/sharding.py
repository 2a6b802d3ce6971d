"""Splitting one Hypothesis test into parametrized cases, so the parallel runner spreads them.

Importable from every test folder as ``import sharding`` (``pythonpath`` in pyproject.toml).
``@pytest.mark.parametrize("shard", shard_ids(3))`` with
``@settings(max_examples=shard_examples(300, 3))`` runs the examples of one test of 300 as
three cases (the ``shard`` argument is unused: each case draws its own examples).
"""

from __future__ import annotations

__all__ = ["shard_examples", "shard_ids"]


def shard_ids(shards: int) -> list[str]:
    """The cases' ids: ``1-of-3``, ``2-of-3``, ``3-of-3``."""
    return [f"{n + 1}-of-{shards}" for n in range(shards)]


def shard_examples(total: int, shards: int) -> int:
    """Examples per case when ``total`` are split over ``shards`` cases. Hypothesis tries the
    simplest input first in every case, so each gets one more: together the cases still try at
    least ``total`` different inputs."""
    return -(-(total - 1) // shards) + 1
