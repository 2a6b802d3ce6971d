"""Sessions with a secret planted in each prompt, scrubbed, and their context shape compared:
the scrub tests over the project's test sessions and over Ink's shared fixtures.

Importable from every test folder as ``import scrubcheck`` (``pythonpath`` in pyproject.toml).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from ink_tui.manage.scrubbing import ScrubError, scrub_session
from ink_tui.session import SessionError, build_context, open_session
from ink_tui.session.reading.jsoncodec import decode_line, encode_json

__all__ = ["TOKEN", "check_scrub"]

TOKEN = "ghp_" + "Lq4Zx8Rw" * 4 + "Tn2k"  # a GitHub token's shape (not a real one)


def _shape(path: Path) -> Any:
    """What Ink rebuilds from ``path``: its leaf, floor and roles; or its refusal."""
    try:
        context = build_context(open_session(path, warn=None))
    except SessionError as error:
        return ("refused", error.message.replace(str(path), "<path>"))
    roles = [m.get("role") if isinstance(m, dict) else None for m in context.messages]
    return (context.leaf_id, context.compacted, context.compaction_boundary, roles)


def _planted(source: Path, target: Path) -> int:
    """``source`` copied to ``target`` with the token in every string prompt; how many."""
    lines = source.read_bytes().split(b"\n")
    planted = 0
    for number, line in enumerate(lines):
        try:
            record = decode_line(line)
        except ValueError:
            continue
        message = record.get("message") if isinstance(record, dict) else None
        if (
            isinstance(message, dict)
            and message.get("role") == "user"
            and isinstance(message.get("content"), str)
        ):
            message["content"] += f" {TOKEN}"
            lines[number] = encode_json(record)
            planted += 1
    target.write_bytes(b"\n".join(lines))
    old = time.time() - 3600  # no writer active
    os.utime(target, (old, old))
    return planted


def check_scrub(source: Path, folder: Path) -> None:
    """Plant, scrub, and check that Ink rebuilds the same shape with no token left (or that
    only a last line cut short refused the scrub, the file untouched)."""
    path = folder / source.name
    planted = _planted(source, path)
    shape = _shape(path)
    try:
        plan, entry = scrub_session(path)
    except ScrubError as error:
        assert "cut short" in str(error), error
        assert path.read_bytes().count(TOKEN.encode()) == planted
        return
    assert _shape(path) == shape
    assert TOKEN.encode() not in path.read_bytes()
    assert plan.kinds.get("github-token", 0) >= planted
    assert (entry is None) == (plan.count == 0)
