"""The edge rows of a windowed branch: the tree's and the replay's row standing for the turns
before or after the window (see :mod:`ink_tui.ui.session_view.window`)."""

from __future__ import annotations

from typing import Final

__all__ = ["EDGE_EARLIER", "EDGE_LATER", "edge_text", "is_edge"]

EDGE_EARLIER: Final = "window@earlier"
EDGE_LATER: Final = "window@later"
"""The keys of the edge rows. Row keys are ``<id>:<suffix>`` or ``model@<line>``, so no row of a
session can take one of these."""


def is_edge(key: str | None) -> bool:
    return key in (EDGE_EARLIER, EDGE_LATER)


def edge_text(edge: str, count: int) -> str:
    """What an edge row says: how many turns it stands for, and how to reach them."""
    if edge == EDGE_EARLIER:
        return f"⋯ {count:,} earlier turns (moving up here shows them; g: the first)"
    return f"⋯ {count:,} later turns (moving down here shows them; G: the last)"
