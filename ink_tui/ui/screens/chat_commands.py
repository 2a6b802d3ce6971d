"""The chat pane's commands that need no worker: ``/copy``.

``/copy`` is Ink's (spec §7): the last agent message of the pane's context (the messages the
session's context rebuilt, then what this pane added) goes to the clipboard by the session
layer's rule (:func:`ink_tui.session.conversation.copytext.last_agent_text`), and the pane
says Ink's words. As in Ink it runs during a turn too (what is still streaming is not in the
context yet).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ink_tui.session.conversation.copytext import COPIED, NOTHING_TO_COPY, last_agent_text

if TYPE_CHECKING:
    from ink_tui.ui.screens.chat import ChatScreen

__all__ = ["copy_last_reply"]


def copy_last_reply(screen: ChatScreen) -> None:
    """``/copy``: copy the last agent message and say so, or say there is none yet."""
    engine = screen.engine
    text = last_agent_text(engine.messages) if engine is not None else None
    if text is not None:
        screen.app.copy_to_clipboard(text)
    screen.note(COPIED if text is not None else NOTHING_TO_COPY, "bold")
