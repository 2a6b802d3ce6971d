"""Small sessions in Ink's own record shapes, for the tests that need a few: a header, then
each prompt (``u1``, ``u2``…, a minute apart from 11:01) and, when ``reply`` is given, its answer
(``a1``…, thirty seconds later, with usage)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ink_tui.paths import project_dir


def ink_session(
    base: Path,
    cwd: str,
    name: str,
    prompts: list[str],
    *,
    reply: str | None = None,
    model: str = "anthropic/claude-sonnet-4-5",
    usage: tuple[int, int] = (1000, 10),
    mtime: float | None = None,
) -> Path:
    """``base``'s session ``name`` (its header id) in ``cwd``'s project folder."""
    folder = project_dir(base, cwd)
    folder.mkdir(parents=True, exist_ok=True)
    records: list[dict[str, Any]] = [
        {"type": "session", "version": 1, "id": name, "timestamp": "2026-11-20T10:00:00Z",
         "cwd": cwd},
    ]  # fmt: skip
    parent = None
    for n, prompt in enumerate(prompts, 1):
        records.append(
            {"type": "message", "id": f"u{n}", "parentId": parent,
             "timestamp": f"2026-11-20T11:{n:02d}:00Z",
             "message": {"role": "user", "content": prompt}}
        )  # fmt: skip
        parent = f"u{n}"
        if reply is not None:
            records.append(
                {"type": "message", "id": f"a{n}", "parentId": parent,
                 "timestamp": f"2026-11-20T11:{n:02d}:30Z",
                 "message": {"role": "assistant", "blocks": [{"type": "text", "text": reply}],
                             "usage": {"inputTokens": usage[0], "outputTokens": usage[1]},
                             "stopReason": "stop", "model": model.split("/")[-1],
                             "modelReference": model}}
            )  # fmt: skip
            parent = f"a{n}"
    path = folder / f"2026-11-20T10-00-00-000Z-{name}.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


def entry_ids(path: Path) -> set[str]:
    """The ids of every record of the session file ``path`` that is JSON with an id (a torn or
    broken line is passed over; lines split on ``\\n`` only, never on U+2028)."""
    ids: set[str] = set()
    for line in path.read_bytes().split(b"\n"):
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and isinstance(record.get("id"), str):
            ids.add(record["id"])
    return ids
