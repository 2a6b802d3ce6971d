"""``ink-tui mcp --check``: every tool called once against this archive, through the SDK's own
client connected in-process, and what an agent would receive printed as it receives it.

For setting up: it shows that the server starts, lists its tools, and answers from the user's
sessions, before an agent is pointed at it. The calls: ``list_sessions`` (every project), a
``search_sessions`` for a word of the newest session's title, then ``read_session`` (its last
turn), ``session_context`` and ``session_changes`` of that session, each with a small budget so
the output stays readable. The answers are the tools' text content, exactly as sent (JSON).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from ink_tui.recall.answers import Recall
from ink_tui.recall.server import build_server

__all__ = ["CheckReport", "check_tools"]

CHECK_BUDGET: Final = 600  # tokens an answer of the check may take
CHECK_WAIT: Final = 3600.0  # seconds the first call may wait for the index (a first index)
_WORD: Final = re.compile(r"[^\W\d_]{4,}")

Said = Callable[[str, dict[str, Any], str, bool], None]
"""Told of each call as it ends: the tool, its arguments, the answer's text, whether it failed."""


@dataclass
class CheckReport:
    """What the check saw: the tools listed, each call's answer text and whether it failed."""

    listed: list[str] = field(default_factory=list)
    calls: list[tuple[str, dict[str, Any], str, bool, float]] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)

    @property
    def failed(self) -> list[str]:
        return [name for name, _, _, error, _ in self.calls if error]


def _query(title: str) -> str:
    """A word of ``title`` to search for (the newest session holds it), else a common one."""
    found = _WORD.search(title)
    return found.group(0) if found else "the"


async def _run(
    recall: Recall, said: Callable[[str, dict[str, Any], str, bool], None]
) -> CheckReport:
    from mcp import Client

    report = CheckReport()
    async with Client(build_server(recall)) as client:
        report.listed = [tool.name for tool in (await client.list_tools()).tools]

        async def call(name: str, arguments: dict[str, Any]) -> dict[str, Any] | None:
            started = time.perf_counter()
            result = await client.call_tool(name, {**arguments, "budget_tokens": CHECK_BUDGET})
            seconds = time.perf_counter() - started
            text = "\n".join(block.text for block in result.content if block.type == "text")
            report.calls.append((name, arguments, text, result.is_error, seconds))
            said(name, arguments, text, result.is_error)
            return None if result.is_error else result.structured_content

        listed = await call("list_sessions", {"scope": "all", "limit": 3})
        newest = (listed or {}).get("sessions") or []
        title = str(newest[0].get("title") or "") if newest else ""
        await call("search_sessions", {"query": _query(title), "scope": "all", "limit": 3})
        if not newest:
            report.skipped = ["read_session", "session_context", "session_changes"]
            return report
        session = str(newest[0]["file"])
        await call("read_session", {"session": session, "turns": "last"})
        await call("session_context", {"session": session})
        await call("session_changes", {"session": session})
    return report


def check_tools(
    base: Path,
    cwd: str,
    *,
    redact: bool = True,
    said: Said,
) -> CheckReport:
    """Call every tool once (see the module's text); ``said`` gets each call as it ends."""
    import anyio

    recall = Recall(base, cwd, redact=redact)
    recall.keeper.wait = CHECK_WAIT  # the answers as they will be once the index is current
    try:
        return anyio.run(_run, recall, said)
    finally:
        recall.close()
