"""What a chat action (a turn, ``/compact``, a switch) may fail with, as the one line the pane
shows.

A foreseen failure (:data:`FORESEEN`: a provider or session error, the file system, a bad
argument, another writer) is its own message. Anything else is a bug: its traceback goes to the
log file (:mod:`ink_tui.logs`) and the line names it and says where the log is. Either way the
app goes on.
"""

from __future__ import annotations

from ink_tui.agent.chat import CompactionError, NoModel
from ink_tui.agent.providers import BadArgument, ProviderError
from ink_tui.humanize import plural
from ink_tui.logs import unforeseen
from ink_tui.session import SessionError
from ink_tui.session.writing.writer import ConcurrentWriteError, WriteBlockedError

__all__ = ["FORESEEN", "failure_line", "interrupted_line", "turn_failure_line"]

FORESEEN: tuple[type[Exception], ...] = (
    ProviderError,  # a missing key, an HTTP error, a stream cut short
    SessionError,
    OSError,  # the file system, and PermissionError for a read-only start
    BadArgument,  # a bad --model, /model or /think argument
    ConcurrentWriteError,
    WriteBlockedError,
    CompactionError,
    NoModel,
)


def failure_line(error: Exception, where: str) -> str:
    """``error`` as one line: its first line if foreseen, else logged and named."""
    if isinstance(error, SessionError):
        return error.one_line()
    if isinstance(error, FORESEEN):
        text = str(error)
        return text.splitlines()[0] if text.strip() else type(error).__name__
    return unforeseen(error, where)


def turn_failure_line(error: Exception, *, user_written: bool, replies: int) -> str:
    """A failed turn as one line: what happened, then what of it the session holds.

    ``user_written``: the user message was written (the provider accepted the request);
    ``replies``: the replies of this turn written before the failure, each with its tool results.
    A reply that failed is never written, not even in part.
    """
    line = failure_line(error, "the chat turn")
    if not user_written:
        if "nothing was written" in line:
            return f"{line}; the message is back in the composer"
        return f"{line} — nothing was written; the message is back in the composer"
    if replies:
        kept = f"your message and {plural(replies, 'reply', 'replies')} (with tool results) are"
    else:
        kept = "your message is"
    tail = "; nothing of the failed reply was" if isinstance(error, ProviderError) else ""
    return f"{line} — {kept} in the session{tail}"


def interrupted_line(user_written: bool) -> str:
    """An interrupted turn (Esc) as one line, saying what was written."""
    if user_written:
        return "interrupted: the partial reply was not saved"
    return "interrupted: nothing was written; the message is back in the composer"
