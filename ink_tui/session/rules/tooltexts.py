"""The result texts of Ink's file tools that ink-tui both writes and reads back.

The chat's ``read`` and ``write`` tools answer with these words (``read.ts``, ``write.ts``), and
the changes analysis reads them in a session to tell a whole read from a cut one and a created
file from an overwritten one. Written once here, the two can never drift apart.

- ``read`` of an image: ``Read image file [<mime>]`` (then the image block);
- ``read`` cut at 2000 lines or 50KB: the text, a blank line, then
  ``[Showing lines <first>-<last> of <total> (<why>). Use offset=<next> to continue.]``;
- ``read`` stopped by its ``limit`` before the end:
  ``[<count> more lines in file. Use offset=<next> to continue.]``;
- ``write``: ``Created <path> (…)`` when nothing was there, else ``Overwrote <path> (…)``.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = [
    "CONTINUATION_NOTE",
    "CREATED",
    "OVERWROTE",
    "READ_IMAGE_PREFIX",
    "cut_read_note",
    "more_lines_note",
    "read_image_text",
]

READ_IMAGE_PREFIX: Final = "Read image file ["
CREATED: Final = "Created"
OVERWROTE: Final = "Overwrote"
CONTINUATION_NOTE: Final = re.compile(
    r"\n\n\[(?:Showing lines \d+-\d+ of \d+ \([^)]*\)|\d+ more lines in file)\. "
    r"Use offset=\d+ to continue\.\]\Z"
)
"""A read result that ends with either continuation note: the file was not shown whole."""


def read_image_text(mime: str) -> str:
    """``Read image file [image/png]``: the text of a read that returns an image."""
    return f"{READ_IMAGE_PREFIX}{mime}]"


def cut_read_note(first: int, last: int, total: int, why: str) -> str:
    """The note of a read cut by its line or byte cap (``why``: ``2000 line limit``…)."""
    return f"[Showing lines {first}-{last} of {total} ({why}). Use offset={last + 1} to continue.]"


def more_lines_note(remaining: int, next_offset: int) -> str:
    """The note of a read that stopped at its ``limit`` with lines left in the file."""
    return f"[{remaining} more lines in file. Use offset={next_offset} to continue.]"
