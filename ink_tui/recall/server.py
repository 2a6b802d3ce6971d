"""``ink-tui mcp``: the archive as a Model Context Protocol server over stdio, read-only.

Built on the official ``mcp`` SDK (its ``MCPServer``), imported here only and only when the
server is built: the app and every other command never pay for it, and :func:`serve` starts the
index's update before the import (the look at the files overlaps it). Each tool is a thin call
of :class:`~.answers.Recall`, its answer returned as structured content; a call that cannot be
answered is a tool error with one line the agent can act on. Nothing here writes a session (the
index excepted).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from ink_tui.recall.answers import Recall, RecallError

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

__all__ = ["TOOLS", "build_server", "serve"]

TOOLS: Final = (
    "search_sessions",
    "list_sessions",
    "read_session",
    "session_context",
    "session_changes",
)

_INSTRUCTIONS = (
    "Read-only recall of past Ink coding-agent sessions on this machine (and the machines "
    "mirrored here). search_sessions finds what was said or done (how a bug was fixed, what the "
    "user decided); read_session reads a session's turns around a hit; session_context shows "
    "what the model saw at an entry; session_changes lists the files a session changed; "
    "list_sessions lists recent sessions. Every hit and block cites its session file and entry "
    "id. A search that finds nothing says exactly what was searched: do not present it as "
    "recalled history. Answers stay within budget_tokens; what was left out is said."
)


def build_server(recall: Recall) -> MCPServer[Any]:
    """The server and its tools, answering from ``recall``."""
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp.types import ToolAnnotations

    read_only = ToolAnnotations(read_only_hint=True, open_world_hint=False)
    server: MCPServer[Any] = MCPServer(
        "ink-tui", instructions=_INSTRUCTIONS, log_level="WARNING"
    )  # a failed call is the agent's to read, not a log line

    def tool_error(error: RecallError) -> ToolError:
        return ToolError(str(error))  # the call to correct, in one line (no traceback)

    @server.tool(annotations=read_only, structured_output=True)
    def search_sessions(
        query: str,
        scope: str = "project",
        limit: int = 10,
        after: str | None = None,
        before: str | None = None,
        budget_tokens: int = 4000,
    ) -> dict[str, Any]:
        """Search every record of past sessions. query: words (all must occur), "a phrase",
        -word to exclude, prefix*, filters project:NAME model:NAME machine:NAME
        role:user|assistant|tool after:DATE before:DATE. scope: project (this project),
        all (every project here), machines (every mirrored machine too). after (on or after),
        before (strictly before): a UTC date, 2026, 2026-10, 2026-10-05 or 2026-10-05T14:30.
        Each hit: sessionId, file, entryId, machine, project, timestamp, role, title,
        snippet, sessionSecrets (how many secrets the session holds; every one is masked as
        [REDACTED:kind:fingerprint]). With no hit: found is false and searched says what was
        searched."""
        dates = [
            f"{name}:{value}" for name, value in (("after", after), ("before", before)) if value
        ]
        wanted = " ".join([query, *dates])
        try:
            return recall.search_answer(wanted, scope, limit, budget_tokens)
        except RecallError as error:
            raise tool_error(error) from None

    @server.tool(annotations=read_only, structured_output=True)
    def list_sessions(
        scope: str = "project",
        limit: int = 20,
        query: str | None = None,
        budget_tokens: int = 4000,
    ) -> dict[str, Any]:
        """The newest sessions of a scope (project, all, machines), each with sessionId,
        file, title, lastActivity, size, messages, model, machine, project and secrets (how
        many it holds, by kind; masked in every answer); query keeps those whose title or id
        holds it."""
        try:
            return recall.list_answer(scope, limit, query, budget_tokens)
        except RecallError as error:
            raise tool_error(error) from None

    @server.tool(annotations=read_only, structured_output=True)
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
            raise tool_error(error) from None

    @server.tool(annotations=read_only, structured_output=True)
    def session_context(
        session: str, at_entry: str | None = None, budget_tokens: int = 4000
    ) -> dict[str, Any]:
        """What the model saw at an entry, as Ink rebuilds it there: after a compaction its
        summary and retained tail, then every message since; with the model and thinking
        level a resume from that point would use. at_entry: an entry id or prefix (default:
        the session's current leaf). Each message cites its entryId; over budget_tokens,
        whole messages are left out from the middle (omitted says which)."""
        try:
            return recall.context_answer(session, at_entry, budget_tokens)
        except RecallError as error:
            raise tool_error(error) from None

    @server.tool(annotations=read_only, structured_output=True)
    def session_changes(session: str, budget_tokens: int = 4000) -> dict[str, Any]:
        """The files the session's branch changed through edit and write: each file's net
        lines added and removed, the turns that touched it, failed calls, and its diff while
        budget_tokens last (cut diffs say so; diffsOmitted names those left out)."""
        try:
            return recall.changes_answer(session, budget_tokens)
        except RecallError as error:
            raise tool_error(error) from None

    return server


def serve(base: Path, cwd: str, *, redact: bool = True) -> None:
    """Answer over stdio until the client goes."""
    recall = Recall(base, cwd, redact=redact)
    recall.keeper.start()  # the look at the files runs while the SDK is imported
    try:
        build_server(recall).run("stdio")
    finally:
        recall.close()
