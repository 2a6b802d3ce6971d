"""Ink's ``contentText`` is one function (``session.rules.content``): titles follow Ink's rule
exactly, the session view and the command line name their two differences as options."""

from __future__ import annotations

from typing import Any

import pytest

from ink_tui.catalog.titles import first_line_title
from ink_tui.session.conversation.context import Context
from ink_tui.session.conversation.contexttext import transcript
from ink_tui.session.rules.content import content_text

ODD: list[Any] = [
    {"type": "text", "text": 5},
    {"type": "text"},
    "not a block",
    {"type": "image", "data": "AAAA", "mimeType": "image/png"},
    {"type": "text", "text": "hello"},
]


@pytest.mark.parametrize(
    ("content", "ink", "shown", "described"),
    [
        ("plain", "plain", "plain", "plain"),
        (None, "", "", ""),
        ({"type": "text", "text": "x"}, "", "", ""),
        ([{"type": "text", "text": "a"}, {"type": "text", "text": "b"}], "a\nb", "a\nb", "a\nb"),
        (ODD, "hello", "5\n\nhello", "5\n\n[image image/png, 3 bytes]\nhello"),
    ],
)
def test_content_text_and_its_two_options(
    content: Any, ink: str, shown: str, described: str
) -> None:
    assert content_text(content) == ink
    assert content_text(content, show_non_string_text=True) == shown
    assert content_text(content, show_non_string_text=True, describe_images=True) == described


def test_a_title_follows_ink_and_the_transcript_shows_what_the_file_holds() -> None:
    assert first_line_title(ODD) == "hello"  # Ink's rule: the odd text is not there
    text = transcript(Context(None, [{"role": "user", "content": ODD}]))
    assert text == "[0] user\n    5\n    \n    [image image/png, 3 bytes]\n    hello\n"
