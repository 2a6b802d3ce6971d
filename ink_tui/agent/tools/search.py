"""grep and find as Ink runs them, and ls.

grep and find run ripgrep and fd with Ink's exact command lines when they are on PATH
(``rg --color never --no-heading --line-number [--ignore-case] [--fixed-strings] [--glob G]
[--context N] -- PATTERN PATH`` and ``fd --color never --hidden --glob [--type T] -- PATTERN
PATH``, PATH defaulting to ``.``; Debian's ``fdfind`` counts as fd), and a pure-Python search
that answers the same way when they are not (``search_walk``). Either way the output is
collected up to Ink's 1MB guard, then cut to the first ``limit`` lines within 50KB with Ink's
``[Truncated: …]`` note; no output at all is ``No matches for PATTERN``. ls follows Ink's own
implementation.
"""

from __future__ import annotations

import os
import re
import shutil
import threading
from pathlib import Path

from ink_tui.agent.tools.common import (
    MAX_BYTES,
    ToolOutcome,
    clamp_int,
    error,
    node_error,
    resolve_path,
    utf8,
    whole_line_prefix,
)
from ink_tui.agent.tools.search_process import SearchError, run_search_process
from ink_tui.agent.tools.search_walk import (
    BUFFER_GUARD_BYTES,
    SearchOutput,
    expand_braces,
    find_tree,
    grep_tree,
)

__all__ = [
    "SearchError",
    "SearchOutput",
    "find_lines",
    "format_search",
    "grep_lines",
    "run_ls",
    "search_binary",
]

_BINARIES = {"rg": ("rg",), "fd": ("fd", "fdfind")}


def search_binary(tool: str) -> str | None:
    """The executable of ``rg`` or ``fd`` on PATH, or None (then the pure-Python search runs)."""
    for name in _BINARIES[tool]:
        found = shutil.which(name)
        if found is not None:
            return found
    return None


def _label(arguments: dict[str, object]) -> str:
    path = arguments.get("path")
    return path if isinstance(path, str) and path != "" else "."


def grep_lines(arguments: dict[str, object], cwd: Path, stop: threading.Event) -> SearchOutput:
    """Ink's grep: the lines ``rg`` prints for these arguments, collected up to the guard."""
    pattern = str(arguments["pattern"])
    label = _label(arguments)
    context = clamp_int(arguments.get("context"), 0, 0, 10)
    glob = arguments.get("glob")
    glob = glob if isinstance(glob, str) and glob != "" else None
    executable = search_binary("rg")
    if executable is not None:
        argv = ["--color", "never", "--no-heading", "--line-number"]
        if arguments.get("ignoreCase") is True:
            argv.append("--ignore-case")
        if arguments.get("literal") is True:
            argv.append("--fixed-strings")
        if glob is not None:
            argv += ["--glob", glob]
        if context > 0:
            argv += ["--context", str(context)]
        argv += ["--", pattern, label]
        return run_search_process("rg", executable, argv, cwd, stop)
    flags = re.IGNORECASE if arguments.get("ignoreCase") is True else 0
    source = re.escape(pattern) if arguments.get("literal") is True else pattern
    try:
        regex = re.compile(source, flags)
    except re.error as exc:
        raise SearchError.exited(
            "rg", 2, f"regex parse error:\n    {pattern}\nerror: {exc}\n"
        ) from exc
    root = resolve_path(label, cwd, normalize=False)
    if not root.exists():
        raise SearchError.exited("rg", 2, f"rg: {label}: No such file or directory (os error 2)\n")
    return grep_tree(root, label, regex, context, glob, stop)


def find_lines(arguments: dict[str, object], cwd: Path, stop: threading.Event) -> SearchOutput:
    """Ink's find: the lines ``fd`` prints for these arguments, collected up to the guard."""
    pattern = str(arguments["pattern"])
    label = _label(arguments)
    kind = str(arguments.get("type", ""))
    executable = search_binary("fd")
    if executable is not None:
        argv = ["--color", "never", "--hidden", "--glob"]
        if kind in ("file", "directory"):
            argv += ["--type", kind]
        argv += ["--", pattern, label]
        return run_search_process("fd", executable, argv, cwd, stop)
    root = resolve_path(label, cwd, normalize=False)
    if not root.is_dir():
        raise SearchError.exited(
            "fd", 1, f"[fd error]: Search path '{label}' is not a directory.\n"
        )
    return find_tree(root, label, expand_braces(pattern), kind, stop)


_NARROW = (
    "Narrow the search (subdirectory path, glob, or more specific pattern) instead of raising "
    "the limit."
)


def format_search(output: SearchOutput, limit: int, label: str) -> ToolOutcome:
    """Ink's ``runSearch`` tail: head-truncate with the teaching note, or ``No matches``."""
    lines = output.lines
    text, count, byte_limited = whole_line_prefix(lines, limit, MAX_BYTES)
    if output.capped or count < len(lines):
        if output.capped:
            reason = (
                f"showing first {count} lines; at least {len(lines)} complete lines observed; "
                f"total unknown; {BUFFER_GUARD_BYTES}-byte collection limit"
            )
        else:
            reason = f"showing first {count} of {len(lines)} lines"
        if byte_limited:
            reason += ", 50KB limit"
        text += f"\n\n[Truncated: {reason}. {_NARROW}]"
    elif not lines:
        text = f"No matches for {label}"
    if output.diagnostic:
        text += f"\n\nstderr:\n{output.diagnostic}"
    return ToolOutcome(text)


# --- ls ---------------------------------------------------------------------------------------

LS_DEFAULT_LIMIT = 500
LS_MAX_LIMIT = 5000


def run_ls(arguments: dict[str, object], cwd: Path) -> ToolOutcome:
    path_arg = arguments.get("path")
    requested = path_arg if isinstance(path_arg, str) and path_arg != "" else "."
    raw_limit = arguments.get("limit")
    limit_value = raw_limit if isinstance(raw_limit, int | float) else LS_DEFAULT_LIMIT
    limit = min(max(int(limit_value), 1), LS_MAX_LIMIT)
    directory = resolve_path(requested, cwd)
    try:
        names = os.listdir(directory)
    except OSError as exc:
        return error(f"Error: cannot read {requested}: {node_error(exc, 'scandir', directory)}")
    names.sort(key=lambda name: (name.lower(), name))
    formatted: list[str] = []
    unknown: set[str] = set()
    reached = False
    for name in names:
        if len(formatted) >= limit:
            reached = True
            break
        try:
            is_dir = (directory / name).is_dir()
        except OSError:
            is_dir = False
            unknown.add(name)
        formatted.append(f"{name}/" if is_dir else name)
    if not formatted:
        return ToolOutcome("(empty directory)")
    notices: list[str] = []
    if reached:
        notices.append(
            f"{limit} entries limit reached. Narrow the path — {limit} is the maximum"
            if limit >= LS_MAX_LIMIT
            else f"{limit} entries limit reached. Use limit={min(limit * 2, LS_MAX_LIMIT)} for more"
        )
    output, size, shown_unknown = "", 0, 0
    for line in formatted:
        line_size = len(utf8(line)) + 1
        if size + line_size > MAX_BYTES:
            notices.append(f"{MAX_BYTES // 1024}KB limit reached")
            break
        output += f"{line}\n"
        size += line_size
        shown_unknown += line in unknown
    if notices:
        output += f"\n[{'. '.join(notices)}]"
    if shown_unknown:
        output += (
            f"\n[Directory type unavailable for {shown_unknown} displayed entries; names shown "
            "without a directory suffix.]"
        )
    return ToolOutcome(output)
