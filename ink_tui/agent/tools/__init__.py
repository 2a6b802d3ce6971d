"""Ink's built-in tools (bash, read, edit, write, grep, find, ls) in pure Python.

``run_tool`` checks the arguments first (Ink's ``prepareToolCall``), then runs the tool in the
given cwd. Its ``ToolOutcome`` carries the ``content`` text and ``is_error`` flag from which the
caller builds Ink's ``{toolCallId, toolName, content, isError}`` result.

Known divergences from Ink:

- Argument-check messages imitate TypeBox 1.x (``must be string``, ``must have required
  properties x``); TypeBox may word some differently or report several issues per value.
  The unknown-tool list names only these seven tools (Ink adds ``task`` and extension/MCP tools).
- bash: the group gets SIGKILL at once on timeout/cancel (Ink's ``killProcessTree``); after bash
  exits, output is collected until the pipes close or stay silent for 0.2s.
- read: no macOS screenshot-name fallbacks; images are sent unchanged (no resizing, EXIF or
  BMP→PNG conversion: BMP reads as binary); the 4.5MB cap applies to the base64 size always,
  as Ink does with ``images.autoResize`` off; there is no "model lacks vision" note.
- edit/write: no per-file lock (Ink serialises edits to one file).
- grep and find run ripgrep and fd as Ink does when they are on PATH (Ink refuses to run
  without them). Without them a pure-Python search answers instead (``search_walk``): Python's
  ``re`` instead of ripgrep's Rust regex (syntax differs at the edges), fd's glob through
  ``fnmatch`` with ``{a,b}`` expanded; ignore files with gitignore's syntax (``pathspec``) but
  not git's global excludes file; entries in name order (rg's and fd's order varies from run
  to run); regex and path errors worded as rg's and fd's; ``.git`` never listed (fd 9 and
  later).
- ls sorts by lower-cased code point (Ink uses ``localeCompare``).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ink_tui.agent.tools.bash import run_bash
from ink_tui.agent.tools.common import (
    ToolFailure,
    ToolImage,
    ToolOutcome,
    clamp_int,
    error,
    is_nul_refusal,
)
from ink_tui.agent.tools.files import run_edit, run_read, run_write
from ink_tui.agent.tools.search import (
    SearchError,
    SearchOutput,
    find_lines,
    format_search,
    grep_lines,
    run_ls,
)
from ink_tui.agent.tools.specs import TOOLS, ToolSpec, needs_approval, validate_arguments
from ink_tui.logs import unforeseen

__all__ = [
    "TOOLS",
    "ToolImage",
    "ToolOutcome",
    "ToolSpec",
    "needs_approval",
    "run_tool",
    "validate_arguments",
]

_ABORTED = "Error: search aborted by user."

Searcher = Callable[[dict[str, object], Path, threading.Event], SearchOutput]


async def _search(
    run: Searcher,
    arguments: dict[str, object],
    cwd: Path,
    signal: asyncio.Event | None,
    default_limit: int,
) -> ToolOutcome:
    pattern = str(arguments.get("pattern", ""))
    if pattern == "":
        return error("Error: empty pattern")
    limit = clamp_int(arguments.get("limit"), default_limit, 1, 1000)
    seconds = clamp_int(arguments.get("timeout"), 30, 1, 600)
    stop = threading.Event()
    work = asyncio.ensure_future(asyncio.to_thread(run, arguments, cwd, stop))
    cancel = asyncio.ensure_future(signal.wait()) if signal is not None else None
    waiters: set[asyncio.Future[Any]] = {work}
    if cancel is not None:
        waiters.add(cancel)
    try:
        done, _ = await asyncio.wait(waiters, timeout=seconds, return_when="FIRST_COMPLETED")
    finally:
        if cancel is not None:
            cancel.cancel()
    if work not in done:
        stop.set()
        if not done:
            return error(
                f"Error: search timed out after {seconds}s. Narrow it: set path to a "
                "subdirectory, add a glob, or a more specific pattern."
            )
        return error(_ABORTED)
    try:
        output = work.result()
    except SearchError as exc:
        return error(str(exc))
    return format_search(output, limit, pattern)


async def run_tool(
    name: str,
    arguments: object,
    *,
    cwd: Path,
    signal: asyncio.Event | None = None,
) -> ToolOutcome:
    """Check ``arguments`` and run tool ``name`` in ``cwd``; ``signal`` set means cancel.

    A tool that throws (a path with a NUL byte, say) gives an error result, as in Ink: the
    call always gets its result. An error nobody foresaw (a bug in ink-tui's tool) is logged with
    its traceback, and the result says so and where the log is.
    """
    problem = validate_arguments(name, arguments)
    if problem is not None:
        return error(problem)
    assert isinstance(arguments, dict)
    try:
        return await _dispatch(name, arguments, cwd, signal)
    except (OSError, ToolFailure) as exc:  # the file system's answer, the tool's own refusal
        return error(str(exc) or type(exc).__name__)
    except ValueError as exc:
        if is_nul_refusal(exc):  # a NUL byte in a path or a command: Node refuses it too
            return error(str(exc))
        return error(f"Error: {unforeseen(exc, f'the {name} tool')}")
    except Exception as exc:  # a bug: logged, and the call still gets its result
        return error(f"Error: {unforeseen(exc, f'the {name} tool')}")


async def _dispatch(
    name: str, args: dict[str, object], cwd: Path, signal: asyncio.Event | None
) -> ToolOutcome:
    aborted = signal is not None and signal.is_set()
    if name == "bash":
        return await run_bash(args, cwd, signal)
    if name in ("grep", "find"):
        if aborted:
            return error(_ABORTED)
        searcher = grep_lines if name == "grep" else find_lines
        return await _search(searcher, args, cwd, signal, 100 if name == "grep" else 200)
    run, aborted_text = _FILE_TOOLS[name]
    if aborted and aborted_text is not None:
        return error(aborted_text)
    return await asyncio.to_thread(run, args, cwd)  # plain blocking IO: off the event loop


FileTool = Callable[[dict[str, object], Path], ToolOutcome]
_FILE_TOOLS: dict[str, tuple[FileTool, str | None]] = {
    "ls": (run_ls, "Error: aborted before start"),
    "read": (run_read, None),
    "edit": (run_edit, "Error: aborted before edit"),
    "write": (run_write, "Error: aborted before write"),
}
