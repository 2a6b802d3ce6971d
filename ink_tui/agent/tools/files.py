"""The read, edit and write tools with Ink's result texts.

read returns the raw file text (no line numbers, as Ink does) cut to 2000 lines / 50KB with
Ink's continuation notes; a file whose magic bytes say PNG, JPEG, GIF or WebP comes back as
``Read image file [mime]`` plus the base64 image. edit matches every ``oldText`` once against
the original text (CRLF and a BOM survive) and answers with a small line diff per edit.
"""

from __future__ import annotations

import base64
import math
from pathlib import Path

from ink_tui.agent.tools.common import (
    MAX_BYTES,
    ToolImage,
    ToolOutcome,
    as_number,
    error,
    node_error,
    resolve_path,
    show,
    utf8,
)
from ink_tui.session.rules.edits import EditProblem, EditRefused, edit_pairs, edit_text
from ink_tui.session.rules.tooltexts import (
    CREATED,
    OVERWROTE,
    cut_read_note,
    more_lines_note,
    read_image_text,
)

MAX_LINES = 2000
MAX_IMAGE_BYTES = int(4.5 * 1024 * 1024)


def _sniff_image(data: bytes) -> str | None:
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


def _read_image(data: bytes, mime: str) -> ToolOutcome:
    encoded = base64.b64encode(data).decode("ascii")
    if len(encoded) > MAX_IMAGE_BYTES:
        mb = f"{len(encoded) / (1024 * 1024):.1f}"
        return ToolOutcome(
            f"{read_image_text(mime)}\n[Image omitted: {mb} MB encoded exceeds the 4.5 MB "
            "inline limit. Resize it (e.g. `sips -Z 2000 <file>` on macOS, `magick <file> "
            "-resize 2000x2000` via ImageMagick) and read again, or enable images.autoResize.]"
        )
    return ToolOutcome(read_image_text(mime), False, (ToolImage(encoded, mime),))


def _decode(data: bytes) -> str:
    """TextDecoder's default: invalid bytes become U+FFFD and a leading BOM is dropped."""
    text = data.decode("utf-8", "replace")
    return text[1:] if text.startswith("\ufeff") else text


def run_read(arguments: dict[str, object], cwd: Path) -> ToolOutcome:
    requested = str(arguments.get("path", ""))
    if requested.strip() == "":
        return error("Error: no path given")
    absolute = resolve_path(requested, cwd)
    try:
        data = absolute.read_bytes()
    except OSError as exc:
        syscall = "read" if isinstance(exc, IsADirectoryError) else "open"
        return error(f"Error reading {requested}: {node_error(exc, syscall, absolute)}")
    mime = _sniff_image(data)
    if mime is not None:
        return _read_image(data, mime)
    if b"\x00" in data[:8192]:
        return error(
            f"Error: {requested} looks like a binary file; the read tool only supports text."
        )
    all_lines = _decode(data).split("\n")
    total = len(all_lines)
    offset, limit = arguments.get("offset"), arguments.get("limit")
    off, lim = as_number(offset), as_number(limit)
    if offset is not None and (off is None or not 1 <= off < math.inf):
        return error(f"Error: offset must be a 1-indexed line number, got {show(offset)}")
    if limit is not None and (lim is None or not 1 <= lim < math.inf):
        return error(f"Error: limit must be a positive number of lines, got {show(limit)}")
    start = int(off) - 1 if off is not None else 0
    if start >= total:
        return error(
            f"Error: offset {show(offset)} is beyond the end of the file ({total} lines total)"
        )
    end = min(start + int(lim), total) if lim is not None else total
    selected = "\n".join(all_lines[start:end][:MAX_LINES])
    by_bytes = False
    encoded = utf8(selected)
    if len(encoded) > MAX_BYTES:
        selected = encoded[:MAX_BYTES].decode("utf-8", "replace")
        by_bytes = True
    shown = selected.count("\n") + 1
    first, last = start + 1, start + shown
    note = ""
    if shown < end - start:
        why = f"{MAX_BYTES // 1024}KB limit" if by_bytes else f"{MAX_LINES} line limit"
        note = cut_read_note(first, last, total, why)
    elif end < total:
        note = more_lines_note(total - end, end + 1)
    return ToolOutcome(f"{selected}\n\n{note}" if note else selected, False)


# --- edit -------------------------------------------------------------------------------------


def edit_refusal_text(refusal: EditRefused) -> str:
    """Ink's edit tool's words for a refusal (without the ``Error: `` the result puts first)."""
    index = refusal.index
    match refusal.problem:
        case EditProblem.NO_EDITS:
            return "edits must contain at least one replacement."
        case EditProblem.NOT_AN_OBJECT:  # the arguments' check refuses it before the tool runs
            return f"edits[{index}] must be an object with oldText and newText."
        case EditProblem.EMPTY_OLD_TEXT:
            return f"edits[{index}].oldText is empty — provide the exact text to replace."
        case EditProblem.NO_CHANGE:
            return f"edits[{index}].newText is identical to oldText — nothing would change."
        case EditProblem.NOT_FOUND:
            return (
                f"edits[{index}].oldText was not found in the file. The match is exact — "
                "whitespace, indentation, and line breaks all matter. Read the file again, copy "
                "the text exactly (including leading whitespace), and make sure it is unique. If "
                "the file uses CRLF line endings, match them or keep oldText to a single line."
            )
        case EditProblem.FOUND_MANY:
            return (
                f"edits[{index}].oldText matches {refusal.matches} times. Include more "
                "surrounding lines (comments, blank lines) to make it unique."
            )
        case EditProblem.OVERLAP:
            return (
                f"edits overlap around original line {refusal.line}. Overlapping or nested edits "
                "are not allowed — merge them into a single edit that covers the whole region "
                "once."
            )


def diff_lines(before: str, after: str) -> str:
    """Ink's small LCS line diff: ``- old`` and ``+ new`` lines, unchanged lines left out."""
    a, b = before.split("\n"), after.split("\n")
    if len(a) * len(b) > 1_000_000:
        return f"- {len(a)} lines\n+ {len(b)} lines (diff elided)"
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) - 1, -1, -1):
        for j in range(len(b) - 1, -1, -1):
            table[i][j] = (
                table[i + 1][j + 1] + 1 if a[i] == b[j] else max(table[i + 1][j], table[i][j + 1])
            )
    out: list[str] = []
    i = j = 0
    while i < len(a) and j < len(b):
        if a[i] == b[j]:
            i, j = i + 1, j + 1
        elif table[i + 1][j] >= table[i][j + 1]:
            out.append(f"- {a[i]}")
            i += 1
        else:
            out.append(f"+ {b[j]}")
            j += 1
    out += [f"- {line}" for line in a[i:]] + [f"+ {line}" for line in b[j:]]
    return "\n".join(out)


def run_edit(arguments: dict[str, object], cwd: Path) -> ToolOutcome:
    requested = str(arguments.get("path", ""))
    raw_edits = arguments.get("edits") or []
    assert isinstance(raw_edits, list)
    if not raw_edits:
        return error(f"Error: {edit_refusal_text(EditRefused(EditProblem.NO_EDITS))}")
    absolute = resolve_path(requested, cwd, normalize=False)
    try:
        raw = absolute.read_bytes().decode("utf-8", "replace")
    except OSError as exc:
        return error(f"Error reading {requested}: {node_error(exc, 'open', absolute)}")
    try:
        edited = edit_text(raw, edit_pairs(raw_edits))
    except EditRefused as refusal:
        return error(f"Error: {edit_refusal_text(refusal)}")
    try:
        absolute.write_bytes(utf8(edited.content))
    except OSError as exc:
        return error(f"Error writing {requested}: {node_error(exc, 'open', absolute)}")
    applied = edited.applied
    sections = "\n".join(f"@@ line {e.line} @@\n{diff_lines(e.old, e.new)}" for e in applied)
    plural = "s" if len(applied) > 1 else ""
    return ToolOutcome(f"Edited {requested} ({len(applied)} edit{plural} applied):\n{sections}")


def run_write(arguments: dict[str, object], cwd: Path) -> ToolOutcome:
    requested = str(arguments.get("path", ""))
    content = str(arguments.get("content", ""))
    absolute = resolve_path(requested, cwd, normalize=False)
    existed = absolute.is_file()
    data = utf8(content)
    try:
        absolute.parent.mkdir(parents=True, exist_ok=True)
        absolute.write_bytes(data)
    except OSError as exc:
        return error(f"Error writing {requested}: {node_error(exc, 'open', absolute)}")
    lines = 0 if content == "" else content.count("\n") + 1 - (1 if content.endswith("\n") else 0)
    verb = OVERWROTE if existed else CREATED
    return ToolOutcome(f"{verb} {requested} ({lines} lines, {len(data)} bytes)")
