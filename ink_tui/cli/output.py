"""The command line's output: :class:`SafeOutput`, its one door to the terminal,
:class:`CommandError` (a failure said in one line) and the pieces of its tables.

Every byte a command prints, on stdout and on stderr, goes through :class:`SafeOutput`: each
secret in it is masked (:func:`ink_tui.secrets.masked_text`: ``[REDACTED:<kind>:<fp8>]``; a
JSON value is masked value by value, key-aware, so it stays the JSON it was), then text is made
visible (:func:`ink_tui.safetext.visible`: escape sequences, control characters and lone
surrogates shown, never obeyed), JSON is encoded once, as ``JSON.stringify`` writes it
(:func:`ink_tui.session.reading.jsoncodec.encode_json`), with what a terminal would obey escaped.
The texts the commands build therefore hold session text as it is: the door makes it safe. A
command that promises session text as it is (``read --no-redact``) says so
(:meth:`SafeOutput.show_secrets`).
"""

from __future__ import annotations

import sys
from typing import Any, TextIO, cast

from ink_tui.humanize import cell_width, cut
from ink_tui.safetext import json_visible, visible

__all__ = [
    "CommandError",
    "SafeOutput",
    "ask_yes",
    "columns",
    "fit_end",
    "fit_start",
    "json_text",
    "masked_json_value",
    "pad",
]


class CommandError(Exception):
    """A failure a command reports as one line on stderr (its exit code is 2)."""


def json_text(value: Any) -> str:
    """``value`` as ``JSON.stringify(value, null, 2)`` safe to print (see :func:`json_visible`)."""
    from ink_tui.session.reading.jsoncodec import encode_json  # orjson: only for JSON output

    return json_visible(encode_json(value, indent=True).decode("utf-8"))


class SafeOutput:
    """A terminal stream that only session-safe text reaches.

    ``write`` masks secrets and makes its text visible, so it can stand in for a ``TextIO``
    (``print(file=…)``, the reader's torn-line note); ``json`` prints a value as JSON, its
    secrets masked. :meth:`write_json_text` takes JSON already encoded, as it is: its caller
    masks the values first (:func:`masked_json_value`).
    """

    def __init__(self, stream: TextIO, *, secrets_shown: bool = False) -> None:
        self.stream = stream
        self.secrets_shown = secrets_shown

    def show_secrets(self) -> None:
        """From now on, session text as it is (a command's ``--no-redact``): controls are still
        made visible."""
        self.secrets_shown = True

    def write(self, text: str) -> int:
        if not self.secrets_shown:
            from ink_tui.secrets import masked_text  # (the detector: only once text is printed)

            text = masked_text(text)
        self.stream.write(visible(text))
        return len(text)

    def line(self, text: str) -> None:
        """``text`` and a newline."""
        self.write(text + "\n")

    def json(self, value: Any) -> None:
        """``value`` as indented JSON (as JSON.stringify writes it, controls escaped), a newline."""
        if not self.secrets_shown:
            value = masked_json_value(value)
        self.stream.write(json_text(value) + "\n")

    def write_json_text(self, encoded: str) -> None:
        """A piece of JSON text ``encode_json`` wrote, made safe as :meth:`json` makes it (its
        values masked by the caller, :func:`masked_json_value`, unless secrets are shown)."""
        self.stream.write(json_visible(encoded))

    def flush(self) -> None:
        self.stream.flush()

    def as_textio(self) -> TextIO:
        """This door where a ``TextIO`` is expected (it only needs ``write``)."""
        return cast(TextIO, self)


def masked_json_value(value: Any) -> Any:
    """``value`` with every secret in its strings masked, key-aware (a password under its key)."""
    from ink_tui.secrets import mask_value

    return mask_value(value)[0]


def ask_yes(question: str) -> bool | None:
    """``question [y/N]`` on stderr and the user's answer (yes: ``True``); ``None`` when there
    is no terminal to ask on (the caller decides what that means)."""
    if not sys.stdin.isatty():
        return None
    SafeOutput(sys.stderr).write(f"{question} [y/N] ")
    sys.stderr.flush()
    return sys.stdin.readline().strip().lower() in ("y", "yes")


# -- the pieces of a table: widths in terminal columns ------------------------------------------


def columns(text: str) -> int:
    """Terminal columns ``text`` takes: East Asian wide and fullwidth characters count two,
    combining marks none (:func:`ink_tui.humanize.cell_width`)."""
    return len(text) if text.isascii() else cell_width(text)


def fit_end(text: str, width: int) -> str:
    """``text`` in at most ``width`` columns: cut at the end, trailing spaces stripped, ``…``
    (:func:`ink_tui.humanize.cut`, the one cut of every label)."""
    return cut(text, width)


def fit_start(text: str, width: int) -> str:
    """``text`` in at most ``width`` columns, its end kept: ``…`` then the last columns."""
    if columns(text) <= width:
        return text
    return "…" + fit_end(text[::-1], width)[-2::-1].lstrip()


def pad(text: str, width: int) -> str:
    """``text`` followed by spaces up to ``width`` columns."""
    return text + " " * max(0, width - columns(text))
