"""The chat pane's commands that need no worker: ``/copy``.

``/copy`` is Ink's (spec §7): the last agent message of the pane's context (the messages the
session's context rebuilt, then what this pane added) goes to the clipboard by the session
layer's rule (:func:`ink_tui.session.conversation.copytext.last_agent_text`), and the pane
says Ink's words. As in Ink it runs during a turn too (what is still streaming is not in the
context yet). The chat screen hands in what the command needs (it imports this module, never
the other way round).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ink_tui.session.conversation.copytext import COPIED, NOTHING_TO_COPY, last_agent_text

__all__ = ["copy_last_reply"]


def copy_last_reply(
    messages: Sequence[object] | None,
    copy: Callable[[str], None],
    note: Callable[[str, str], None],
) -> None:
    """``/copy``: copy the last agent message of ``messages`` (None: no context yet) and say
    so, or say there is none yet."""
    text = last_agent_text(messages) if messages is not None else None
    if text is not None:
        copy(text)
    note(COPIED if text is not None else NOTHING_TO_COPY, "bold")
