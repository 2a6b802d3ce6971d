"""The chat pane's slash commands, read as Ink's REPL reads a line (``parseCommand`` and
``dispatchCommand`` in Ink's ``src/repl/commands.ts``).

A message whose first character is ``/`` is a command: the name runs to the first whitespace
and the rest, trimmed, is its argument. A name the pane does not know is never sent to the
model: the pane says ``unknown command "/NAME"`` and lists the ones it knows, as Ink does. A
leading space makes the line plain text (Ink's rule), so ``/usr/bin is missing`` is an unknown
command and `` /usr/bin is missing`` (space first) is a message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ink_tui.session.reading.lines import JS_WHITESPACE

__all__ = ["COMMANDS", "Command", "is_copy", "parse_command", "unknown_command"]

COMMANDS: dict[str, str] = {
    "compact": "/compact",
    "copy": "/copy",
    "model": "/model [provider/modelId]",
    "think": "/think LEVEL",
}
"""The commands the pane runs, with how each is written."""

_SPACE = re.compile(r"\s")


@dataclass(frozen=True, slots=True)
class Command:
    """``/name args`` as typed."""

    name: str
    args: str


def parse_command(text: str) -> Command | None:
    """The command ``text`` is, or ``None`` for a message (no ``/`` as its first character)."""
    if not text.startswith("/"):
        return None
    rest = text[1:]
    space = _SPACE.search(rest)
    if space is None:
        return Command(rest, "")
    return Command(rest[: space.start()], rest[space.start() :].strip(JS_WHITESPACE))


def is_copy(text: str) -> bool:
    """Whether ``text`` is ``/copy`` (its argument, as in Ink, ignored): Ink runs it during a
    turn too, so the pane runs it at once rather than queueing it."""
    command = parse_command(text)
    return command is not None and command.name == "copy"


def unknown_command(name: str) -> str:
    """The one line that answers a command the pane does not run (nothing is sent)."""
    known = "  ".join(COMMANDS.values())
    return (
        f'unknown command "/{name}", nothing was sent. Known here: {known}. A message that '
        'starts with "/" is a command, as in Ink: to send it as text, begin it with a space'
    )
