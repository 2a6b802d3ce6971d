"""The text of a message's or a tool result's ``content`` (Ink's ``contentText``).

``content`` is a string, or a list of blocks: ``{type:"text", text}`` and ``{type:"image", data,
mimeType}``. Ink's rule: a string as it is; else the ``text`` of the text blocks whose ``text``
is a string, joined by ``"\\n"``; images and anything else left out. Session titles follow it
exactly.

Two options for what a file may hold beyond what Ink writes, each named where it is used:

- ``show_non_string_text``: a text block whose ``text`` is missing or not a string still counts,
  as Python's ``str`` of it (``""`` when missing): the session view and the command line show
  what the file holds rather than hide it;
- ``describe_images``: an image block counts as ``[image <mimeType>, <N> bytes]`` (N decoded
  from the base64 length): the command line's transcript says an image was there.
"""

from __future__ import annotations

from ink_tui.session.reading.recordtypes import JsonObject, json_object

__all__ = ["content_text", "image_note"]


def image_note(block: JsonObject) -> str:
    """``[image image/png, 1234 bytes]``: an image block in one line (its size decoded)."""
    data = str(block.get("data", ""))
    return f"[image {block.get('mimeType', '?')}, {len(data) * 3 // 4} bytes]"


def content_text(
    content: object, *, show_non_string_text: bool = False, describe_images: bool = False
) -> str:
    """The text of ``content`` by Ink's ``contentText`` (see the module's notes for the
    options); ``""`` for anything that is neither a string nor a list."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    pieces: list[str] = []
    for block in content:
        if not json_object(block):
            continue
        kind = block.get("type")
        if kind == "text":
            text = block.get("text")
            if isinstance(text, str):
                pieces.append(text)
            elif show_non_string_text:
                pieces.append("" if "text" not in block else str(text))
        elif kind == "image" and describe_images:
            pieces.append(image_note(block))
    return "\n".join(pieces)
