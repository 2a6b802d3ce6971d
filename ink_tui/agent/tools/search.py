"""grep, find and ls in pure Python, answering in the shape of Ink's ripgrep/fd-backed tools.

Ink runs ``rg --color never --no-heading --line-number [--ignore-case] [--fixed-strings]
[--glob G] [--context N] -- PATTERN PATH`` and ``fd --color never --hidden --glob [--type T]
-- PATTERN PATH`` (PATH defaults to ``.``), then keeps the first ``limit`` lines within 50KB
and adds a ``[Truncated: …]`` note; no output at all becomes ``No matches for PATTERN``.
ls follows Ink's own implementation.
"""

from __future__ import annotations

import fnmatch
import os
import re
import threading
from collections.abc import Iterator
from pathlib import Path

from ink_tui.agent.tools._common import (
    MAX_BYTES,
    ToolOutcome,
    clamp_int,
    error,
    logical_lines,
    node_error,
    resolve_path,
    utf8,
    whole_line_prefix,
)

BUFFER_GUARD_BYTES = 1024 * 1024


class SearchError(Exception):
    """A failure Ink would report as ``Error: <bin> exited with code N:`` plus stderr."""

    def __init__(self, binary: str, code: int, stderr: str) -> None:
        super().__init__(f"Error: {binary} exited with code {code}:\nstderr:\n{stderr}")


class _Ignore:
    """A simplified .gitignore: plain, anchored and directory-only patterns (no ``!``)."""

    def __init__(self) -> None:
        self.rules: list[tuple[Path, str, bool, bool]] = []

    def load(self, directory: Path) -> _Ignore:
        try:
            lines = (directory / ".gitignore").read_text("utf-8", "replace").splitlines()
        except OSError:
            return self
        child = _Ignore()
        child.rules = list(self.rules)
        for line in lines:
            rule = line.strip()
            if not rule or rule.startswith(("#", "!")):
                continue
            dir_only = rule.endswith("/")
            rule = rule.rstrip("/")
            anchored = "/" in rule
            child.rules.append((directory, rule.lstrip("/"), anchored, dir_only))
        return child

    def ignored(self, path: Path, is_dir: bool) -> bool:
        for base, rule, anchored, dir_only in self.rules:
            if dir_only and not is_dir:
                continue
            if anchored:
                try:
                    rel = path.relative_to(base).as_posix()
                except ValueError:
                    continue
                if fnmatch.fnmatchcase(rel, rule):
                    return True
            elif fnmatch.fnmatchcase(path.name, rule):
                return True
        return False


def _walk(root: Path, stop: threading.Event, hidden: bool) -> Iterator[tuple[Path, bool]]:
    """Depth-first, name-sorted (path, is_dir) below ``root``, honouring .gitignore files."""
    stack: list[tuple[Path, _Ignore]] = [(root, _Ignore().load(root))]
    while stack and not stop.is_set():
        directory, rules = stack.pop()
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError:
            continue
        subdirs: list[tuple[Path, _Ignore]] = []
        for entry in entries:
            if entry.name == ".git" or (not hidden and entry.name.startswith(".")):
                continue
            path = Path(entry.path)
            is_dir = entry.is_dir()
            if rules.ignored(path, is_dir):
                continue
            yield path, is_dir
            if is_dir and not entry.is_symlink():
                subdirs.append((path, rules.load(path)))
        stack.extend(reversed(subdirs))


def _glob_match(glob: str, rel: str) -> bool:
    negate = glob.startswith("!")
    pattern = glob[1:] if negate else glob
    target = rel if "/" in pattern else rel.rsplit("/", 1)[-1]
    hit = fnmatch.fnmatchcase(target, pattern)
    return not hit if negate else hit


def _shown(path: Path, base: Path, label: str) -> str:
    rel = path.relative_to(base).as_posix()
    return f"{label.rstrip('/')}/{rel}"


def _grep_file(
    path: Path, regex: re.Pattern[str], context: int, name: str | None
) -> list[list[str]]:
    """Groups of output lines for one file (context groups are separated by ``--``)."""
    try:
        data = path.read_bytes()
    except OSError:
        return []
    if b"\x00" in data[:8192]:
        return []
    lines = logical_lines(data.decode("utf-8", "replace"))
    hits = [i for i, line in enumerate(lines) if regex.search(line)]
    groups: list[list[str]] = []
    last = -2
    prefix = f"{name}:" if name is not None else ""
    ctx_prefix = f"{name}-" if name is not None else ""
    for i in hits:
        low, high = max(0, i - context), min(len(lines) - 1, i + context)
        if low > last + 1 or not groups:
            groups.append([])
        for k in range(max(low, last + 1), high + 1):
            sep = prefix if k in hits else ctx_prefix
            mark = ":" if k in hits else "-"
            groups[-1].append(f"{sep}{k + 1}{mark}{lines[k]}")
        last = max(last, high)
    return groups


def grep_lines(arguments: dict[str, object], cwd: Path, stop: threading.Event) -> list[str]:
    pattern = str(arguments["pattern"])
    label = arguments.get("path") or "."
    assert isinstance(label, str)
    flags = re.IGNORECASE if arguments.get("ignoreCase") is True else 0
    source = re.escape(pattern) if arguments.get("literal") is True else pattern
    try:
        regex = re.compile(source, flags)
    except re.error as exc:
        raise SearchError("rg", 2, f"regex parse error:\n    {pattern}\nerror: {exc}") from exc
    context = clamp_int(arguments.get("context"), 0, 0, 10)
    glob = arguments.get("glob")
    root = resolve_path(label, cwd, normalize=False)
    if not root.exists():
        raise SearchError("rg", 2, f"rg: {label}: No such file or directory (os error 2)")
    files: list[tuple[Path, str | None]]
    if root.is_file():
        files = [(root, None)]
    else:
        files = [
            (path, _shown(path, root, label))
            for path, is_dir in _walk(root, stop, hidden=False)
            if not is_dir
            and not (isinstance(glob, str) and glob and not _glob_match(glob, _rel(path, root)))
        ]
    out: list[str] = []
    size = 0
    for path, name in files:
        if stop.is_set() or size > BUFFER_GUARD_BYTES:
            break
        for group in _grep_file(path, regex, context, name):
            if context > 0 and out:
                out.append("--")
            out += group
            size += sum(len(utf8(line)) + 1 for line in group)
    return out


def _rel(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix()


def find_lines(arguments: dict[str, object], cwd: Path, stop: threading.Event) -> list[str]:
    pattern = str(arguments["pattern"])
    label = arguments.get("path") or "."
    assert isinstance(label, str)
    kind = str(arguments.get("type", ""))
    root = resolve_path(label, cwd, normalize=False)
    if not root.is_dir():
        raise SearchError("fd", 1, f"[fd error]: Search path '{label}' is not a directory.")
    out: list[str] = []
    for path, is_dir in _walk(root, stop, hidden=True):
        if (kind == "file" and is_dir) or (kind == "directory" and not is_dir):
            continue
        if fnmatch.fnmatchcase(path.name, pattern):
            out.append(_shown(path, root, label) + ("/" if is_dir else ""))
    return out


def format_search(lines: list[str], limit: int, label: str) -> ToolOutcome:
    """Ink's ``runSearch`` tail: head-truncate with the teaching note, or ``No matches``."""
    if not lines:
        return ToolOutcome(f"No matches for {label}")
    text, count, byte_limited = whole_line_prefix(lines, limit, MAX_BYTES)
    if count < len(lines):
        reason = f"showing first {count} of {len(lines)} lines"
        if byte_limited:
            reason += ", 50KB limit"
        text += (
            f"\n\n[Truncated: {reason}. Narrow the search (subdirectory path, glob, or more "
            "specific pattern) instead of raising the limit.]"
        )
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
