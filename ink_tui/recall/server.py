"""``ink-tui mcp``: the archive as a Model Context Protocol server over stdio, read-only.

Built on the official ``mcp`` SDK (its ``MCPServer``), imported here only: the app and every
other command never pay for it. Each tool is a thin call of :class:`~.answers.Recall`, its
answer returned as structured content; a call that cannot be answered is a tool error with one
line the agent can act on. Nothing here writes a session (the index excepted).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations

from ink_tui.recall.answers import Recall, RecallError

__all__ = ["build_server", "serve"]

_INSTRUCTIONS = (
    "Read-only recall of past Ink coding-agent sessions on this machine (and the machines "
    "mirrored here). search_sessions finds what was said or done (how a bug was fixed, what the "
    "user decided); read_session reads a session's turns around a hit; list_sessions lists "
    "recent sessions. Every hit cites its session file and "
    "entry id. A search that finds nothing says exactly what was searched: do not present it "
    "as recalled history."
)
_READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)


def build_server(recall: Recall) -> MCPServer[Any]:
    """The server and its tools, answering from ``recall``."""
    server: MCPServer[Any] = MCPServer("ink-tui", instructions=_INSTRUCTIONS)

    @server.tool(annotations=_READ_ONLY, structured_output=True)
    def search_sessions(query: str, scope: str = "project", limit: int = 10) -> dict[str, Any]:
        """Search every record of past sessions. query: words (all must occur), "a phrase",
        -word to exclude, prefix*, filters project:NAME model:NAME machine:NAME
        role:user|assistant|tool after:DATE before:DATE. scope: project (this project),
        all (every project here), machines (every mirrored machine too). Each hit:
        sessionId, file, entryId, machine, project, timestamp, role, title, snippet. With no
        hit: found is false and searched says what was searched."""
        try:
            return recall.search_answer(query, scope, limit)
        except RecallError as error:  # the call to correct, in one line (no traceback)
            raise ToolError(str(error)) from None

    @server.tool(annotations=_READ_ONLY, structured_output=True)
    def list_sessions(
        scope: str = "project", limit: int = 20, query: str | None = None
    ) -> dict[str, Any]:
        """The newest sessions of a scope (project, all, machines), each with sessionId,
        file, title, lastActivity, size, messages, model, machine and project; query keeps
        those whose title or id holds it."""
        try:
            return recall.list_answer(scope, limit, query)
        except RecallError as error:
            raise ToolError(str(error)) from None

    @server.tool(annotations=_READ_ONLY, structured_output=True)
    def read_session(
        session: str,
        turns: str | None = None,
        entry_id: str | None = None,
        budget_tokens: int = 4000,
    ) -> dict[str, Any]:
        """A session's current branch as text: prompts, replies, tool calls, cut results,
        summaries, each block citing its entryId and turn. session: an id, an id prefix, a
        file name or a path (as a search hit's file). turns: "A:B" (numbers, first, last),
        or entry_id: the turn holding that entry. Over budget_tokens (4000), whole blocks are
        left out from the middle and omitted says which and how to ask for them."""
        try:
            return recall.read_answer(session, turns, entry_id, budget_tokens)
        except RecallError as error:
            raise ToolError(str(error)) from None

    return server


def serve(base: Path, cwd: str, *, redact: bool = True) -> None:
    """Answer over stdio until the client goes."""
    recall = Recall(base, cwd, redact=redact)
    try:
        build_server(recall).run("stdio")
    finally:
        recall.close()
