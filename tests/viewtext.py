"""What a test reads of the session view as the user sees it, and a reply to append.

Importable from every test folder as ``import viewtext`` (``pythonpath`` in pyproject.toml).
"""

from __future__ import annotations

import re
from typing import Any

from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.widgets.transcript import Transcript

__all__ = ["assistant", "banner_text", "header_text", "replay_text", "without_time"]

_DURATION = r"(?:[\d.]+[smhd](?:\d\d[smh])?|\?)"
_TOKENS = r"[\d.]+[kM]? tok"
_TIME_TAIL = re.compile(rf"  (?:{_DURATION}(?: · {_TOKENS})?|{_TOKENS})$")


def without_time(label: str) -> str:
    """A turn's tree label without its time and tokens (``  0.0s · 15 tok``), as it ends."""
    return _TIME_TAIL.sub("", label)


def assistant(text: str) -> dict[str, Any]:
    """A finished assistant reply holding ``text``, as Ink records one."""
    return {
        "role": "assistant",
        "blocks": [{"type": "text", "text": text}],
        "usage": {"inputTokens": 3, "outputTokens": 2},
        "stopReason": "end_turn",
    }


def header_text(screen: SessionScreen) -> str:
    return screen.query_one("#session-header").render().plain


def banner_text(screen: SessionScreen) -> str:
    """The follow banner's note ("" while it is hidden)."""
    banner = screen.query_one("#follow-banner")
    return str(banner.render()) if banner.display else ""


def replay_text(screen: SessionScreen) -> str:
    """Every rendered line of the replay, top to bottom."""
    transcript = screen.query_one(Transcript)
    return "\n".join(
        strip.text
        for index in range(len(transcript.keys))
        for strip in transcript.block_strips(index)
    )
