"""``ink-tui mcp`` driven as an agent drives it: the official SDK's own client over stdio.

Importable from every test folder as ``import mcpclient`` (``pythonpath`` in pyproject.toml).
:func:`connected` starts a real ``python -m ink_tui … mcp`` process on a sessions dir; :func:`call`
returns a tool's structured answer after checking that what the model reads (the answer's text
content) is the same answer, within the budget asked.
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

__all__ = ["CWD", "call", "connected", "error_line", "server_parameters"]

CWD = "/home/ada/code/retry"


def server_parameters(sessions: Path, *extra: str, env: dict[str, str] | None = None) -> Any:
    """How the client starts the server on ``sessions`` (``extra``: its options)."""
    environment = {**os.environ, "INK_SESSIONS_DIR": str(sessions), **(env or {})}
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "ink_tui", "--cwd", CWD, "mcp", *extra],
        env=environment,
    )


@asynccontextmanager
async def connected(
    sessions: Path, *extra: str, env: dict[str, str] | None = None
) -> AsyncIterator[ClientSession]:
    """A client session with a fresh server on ``sessions``, initialized."""
    params = server_parameters(sessions, *extra, env=env)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


async def call(client: ClientSession, tool: str, **arguments: Any) -> dict[str, Any]:
    """The tool's structured answer; its text (what the model reads) must say the same and be
    within ``budget_tokens`` (4000 when not given), counted as Ink counts (characters / 4).

    An answer given while the index is still being brought up to date says so, and the call
    is made again, as the answer tells an agent to (a busy machine may be slow to index)."""
    for _ in range(600):
        result = await client.call_tool(tool, arguments)
        assert not result.is_error, result.content
        answer = result.structured_content
        assert answer is not None
        (text,) = [block.text for block in result.content if block.type == "text"]
        assert json.loads(text) == answer
        budget = arguments.get("budget_tokens", 4000)
        assert math.ceil(len(text) / 4) <= budget, f"{tool}: {len(text) / 4:.0f} > {budget}"
        if not answer.get("index", {}).get("updating"):
            return dict(answer)
    raise AssertionError(f"{tool}: the index was still being updated after 600 calls")


async def error_line(client: ClientSession, tool: str, **arguments: Any) -> str:
    """The one line a call that cannot be answered gives."""
    result = await client.call_tool(tool, arguments)
    assert result.is_error
    (text,) = [block.text for block in result.content if block.type == "text"]
    assert "\n" not in text and "Traceback" not in text
    return text
