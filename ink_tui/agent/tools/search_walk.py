"""The pure-Python grep and find, for when ripgrep and fd are not on PATH.

They answer as Ink's rg and fd command lines would (``search.py`` builds those): the same
lines, in one stream that stops at the collection guard. Files are read a block at a time and
never whole; matches are found in one pass with bounded context (no rescans).

What rg and fd skip, this skips too: hidden entries (rg), ``.git``, symlinks (rg follows none),
files whose first block holds a NUL byte (rg's binary rule), and what ignore files exclude:
``.gitignore`` (inside a git repository only, and from the parent folders up to its root),
``.git/info/exclude``, ``.ignore``, and the tool's own ``.rgignore`` or ``.fdignore``, deeper
files first, with gitignore's full syntax (``pathspec``). Not read: git's global excludes file.
"""

from __future__ import annotations

import fnmatch
import os
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pathspec import GitIgnoreSpec

from ink_tui.agent.tools.common import utf8

__all__ = [
    "BLOCK_BYTES",
    "BUFFER_GUARD_BYTES",
    "Ignores",
    "Overrides",
    "SearchOutput",
    "expand_braces",
    "find_tree",
    "grep_tree",
    "walk",
]

BUFFER_GUARD_BYTES = 1024 * 1024
"""Ink stops collecting a search's output past this many bytes (and kills rg or fd)."""
BLOCK_BYTES = 64 * 1024
"""rg's read buffer: a NUL byte in the first one makes a file binary (skipped)."""

Tool = Literal["rg", "fd"]


@dataclass(slots=True)
class SearchOutput:
    """A search's output as Ink collects it: whole lines within the first ``guard`` bytes."""

    guard: int = BUFFER_GUARD_BYTES
    lines: list[str] = field(default_factory=list)
    size: int = 0
    capped: bool = False  # more output existed past the guard (its total is unknown)
    diagnostic: str = ""  # what the command wrote on stderr (its first 2000 bytes)

    def add(self, line: str) -> bool:
        """Collect one line; False once the guard is passed (stop searching)."""
        size = len(utf8(line)) + 1
        if self.size + size > self.guard:
            self.capped = True
            return False
        self.size += size
        self.lines.append(line)
        return True


def expand_braces(glob: str) -> list[str]:
    """``*.{ts,tsx}`` → ``*.ts``, ``*.tsx`` (rg and fd globs allow alternatives; nested too)."""
    match = re.search(r"\{([^{}]*)\}", glob)
    if match is None:
        return [glob]
    head, tail = glob[: match.start()], glob[match.end() :]
    return [
        expanded
        for choice in match.group(1).split(",")
        for expanded in expand_braces(head + choice + tail)
    ]


def _spec(lines: list[str]) -> GitIgnoreSpec | None:
    try:
        return GitIgnoreSpec.from_lines(lines) if lines else None
    except (ValueError, TypeError):  # pathspec's error for a pattern it cannot compile
        return None


def _read_spec(path: Path) -> GitIgnoreSpec | None:
    try:
        text = path.read_text("utf-8", "replace")
    except OSError:
        return None
    return _spec(text.splitlines())


def _git_root(start: Path) -> Path | None:
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return folder
    return None


@dataclass(frozen=True, slots=True)
class Ignores:
    """The ignore files that apply in one folder: its own, then its parents' (deeper wins)."""

    base: Path
    specs: tuple[GitIgnoreSpec, ...]  # this folder's files, highest precedence first
    parent: Ignores | None
    names: tuple[str, ...]  # the files read in every folder below the root
    git_root: Path | None
    excludes: GitIgnoreSpec | None = None  # .git/info/exclude, below every ignore file

    @classmethod
    def for_root(cls, root: Path, tool: Tool) -> Ignores:
        """The rules at ``root``, with the ignore files of its parent folders."""
        git_root = _git_root(root)
        names = (f".{tool}ignore", ".ignore") + ((".gitignore",) if git_root else ())
        excludes = _read_spec(git_root / ".git" / "info" / "exclude") if git_root else None
        chain: Ignores | None = None
        for folder in reversed((root, *root.parents)):
            inside = git_root is not None and folder.is_relative_to(git_root)
            specs = _read_specs(folder, names if inside else names[:2])
            chain = cls(folder, specs, chain, names, git_root, excludes)
        assert chain is not None
        return chain

    def child(self, folder: Path) -> Ignores:
        """The rules inside ``folder`` (a subfolder of this one)."""
        specs = _read_specs(folder, self.names)
        return Ignores(folder, specs, self, self.names, self.git_root, self.excludes)

    def ignored(self, path: Path, is_dir: bool) -> bool:
        node: Ignores | None = self
        while node is not None:
            if node.specs:
                verdict = _verdict(node.specs, path, node.base, is_dir)
                if verdict is not None:
                    return verdict
            node = node.parent
        if self.excludes is not None and self.git_root is not None:
            return bool(_verdict((self.excludes,), path, self.git_root, is_dir))
        return False


def _read_specs(folder: Path, names: tuple[str, ...]) -> tuple[GitIgnoreSpec, ...]:
    return tuple(spec for name in names if (spec := _read_spec(folder / name)) is not None)


def _verdict(specs: tuple[GitIgnoreSpec, ...], path: Path, base: Path, is_dir: bool) -> bool | None:
    try:
        relative = path.relative_to(base).as_posix()
    except ValueError:
        return None
    if is_dir:
        relative += "/"
    for spec in specs:
        include = spec.check_file(relative).include
        if include is not None:
            return bool(include)
    return None


@dataclass(frozen=True, slots=True)
class Overrides:
    """rg's ``--glob``: a match includes (even what is ignored or hidden), ``!`` excludes."""

    include: GitIgnoreSpec | None
    exclude: GitIgnoreSpec | None

    @classmethod
    def of(cls, glob: str | None) -> Overrides:
        if not glob:
            return cls(None, None)
        negated = glob.startswith("!")
        spec = _spec(expand_braces(glob[1:] if negated else glob))
        return cls(None, spec) if negated else cls(spec, None)

    def verdict(self, relative: str, is_dir: bool) -> bool | None:
        """True: take it; False: skip it; None: the other rules decide."""
        shown = relative + "/" if is_dir else relative
        if self.exclude is not None and self.exclude.match_file(shown):
            return False
        if self.include is not None:
            if self.include.match_file(shown):
                return True
            if not is_dir:
                return False
        return None


def walk(
    root: Path,
    stop: threading.Event,
    *,
    tool: Tool,
    overrides: Overrides | None = None,
) -> Iterator[tuple[Path, bool]]:
    """Depth first, names in code-point order: ``(path, is_dir)`` below ``root``.

    rg (``tool="rg"``) skips hidden entries and symlinks; fd lists both. Neither lists ``.git``.
    """
    stack: list[tuple[Path, Ignores]] = [(root, Ignores.for_root(root, tool))]
    while stack and not stop.is_set():
        folder, rules = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
        except OSError:
            continue
        below: list[tuple[Path, Ignores]] = []
        for entry in entries:
            if entry.name == ".git":
                continue
            try:
                is_link = entry.is_symlink()
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_link and tool == "rg":
                continue
            path = Path(entry.path)
            verdict = None
            if overrides is not None:
                verdict = overrides.verdict(path.relative_to(root).as_posix(), is_dir)
            if verdict is None:
                hidden = tool == "rg" and entry.name.startswith(".")
                verdict = not hidden and not rules.ignored(path, is_dir)
            if not verdict:
                continue
            yield path, is_dir
            if is_dir:
                below.append((path, rules.child(path)))
        stack.extend(reversed(below))


def name_matches(patterns: list[str], name: str) -> bool:
    """fd's ``--glob`` against an entry's name (``[!…]``, ``*``, ``?`` as globset reads them)."""
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns)


@dataclass(slots=True)
class _FileGrep:
    """One file's matches with ``context`` lines around them, in one pass (as rg prints them)."""

    regex: re.Pattern[str]
    context: int
    name: str | None  # the path shown before each line; None for a single file searched
    sink: SearchOutput
    before: list[tuple[int, str]] = field(default_factory=list)
    after: int = 0  # context lines still to print after the last match
    printed: int = 0  # number of the last line printed (1-based; 0: none yet)
    matched: bool = False

    def line(self, number: int, text: str) -> bool:
        """Search one line; False when the output is full."""
        if self.regex.search(text) is not None:
            self.matched = True
            return self._emit_match(number, text)
        if self.after > 0:
            self.after -= 1
            return self._emit(number, text, "-")
        if self.context:
            self.before.append((number, text))
            if len(self.before) > self.context:
                del self.before[0]
        return True

    def _emit_match(self, number: int, text: str) -> bool:
        start = self.before[0][0] if self.before else number
        separate = self.printed == 0 or start > self.printed + 1
        if self.context and separate and self.sink.lines and not self.sink.add("--"):
            return False
        for old_number, old_text in self.before:
            if not self._emit(old_number, old_text, "-"):
                return False
        self.before.clear()
        self.after = self.context
        return self._emit(number, text, ":")

    def _emit(self, number: int, text: str, mark: str) -> bool:
        self.printed = number
        prefix = f"{self.name}{mark}" if self.name is not None else ""
        return self.sink.add(f"{prefix}{number}{mark}{text}")


def grep_file(
    path: Path,
    grep: _FileGrep,
    stop: threading.Event,
    *,
    explicit: bool = False,
) -> bool:
    """Search one file a block at a time; False when the search must stop (output full, or
    ``stop`` set). rg's binary rule: a NUL in the first block skips the file (a file named on
    the command line says ``binary file matches`` instead); a later NUL stops the search there.
    """
    try:
        stream = path.open("rb")
    except OSError:
        return True
    with stream:
        number = 0
        carry = b""
        first = True
        while True:
            block = stream.read(BLOCK_BYTES)
            nul = block.find(b"\x00")
            if nul >= 0:
                return _binary(grep, path, explicit, first, stream.tell() - len(block) + nul)
            if not block:
                lines = [carry] if carry else []
            else:
                lines = (carry + block).split(b"\n")
                carry = lines.pop()
            for raw in lines:
                number += 1
                if not grep.line(number, raw.decode("utf-8", "replace")):
                    return False
            if not block or stop.is_set():
                return not stop.is_set()
            first = False


def _binary(grep: _FileGrep, path: Path, explicit: bool, first: bool, offset: int) -> bool:
    if first and not explicit:
        return True
    if explicit:
        found = _any_match(path, grep.regex)
        return not found or grep.sink.add(
            f'binary file matches (found "\\0" byte around offset {offset})'
        )
    if grep.matched:
        return grep.sink.add(
            f"{grep.name}: WARNING: stopped searching binary file after match "
            f'(found "\\0" byte around offset {offset})'
        )
    return True


def _any_match(path: Path, regex: re.Pattern[str]) -> bool:
    with path.open("rb") as stream:
        for raw in stream:
            text = raw.replace(b"\x00", b"\n").decode("utf-8", "replace")
            if any(regex.search(part) for part in text.split("\n")):
                return True
    return False


def grep_tree(
    root: Path,
    label: str,
    regex: re.Pattern[str],
    context: int,
    glob: str | None,
    stop: threading.Event,
) -> SearchOutput:
    """Ink's ``rg … -- PATTERN PATH`` without rg: ``PATH`` is a file or a folder."""
    sink = SearchOutput()
    if root.is_file():
        grep_file(root, _FileGrep(regex, context, None, sink), stop, explicit=True)
        return sink
    shown = label.rstrip("/") or "/"
    prefix = shown if shown.endswith("/") else shown + "/"
    for path, is_dir in walk(root, stop, tool="rg", overrides=Overrides.of(glob)):
        if is_dir:
            continue
        name = prefix + path.relative_to(root).as_posix()
        if not grep_file(path, _FileGrep(regex, context, name, sink), stop):
            break
    return sink


def find_tree(
    root: Path, label: str, patterns: list[str], kind: str, stop: threading.Event
) -> SearchOutput:
    """Ink's ``fd --hidden --glob [--type T] -- PATTERN PATH`` without fd."""
    sink = SearchOutput()
    shown = label.rstrip("/") or "/"
    prefix = shown if shown.endswith("/") else shown + "/"
    for path, is_dir in walk(root, stop, tool="fd"):
        if kind == "file" and (is_dir or path.is_symlink()):
            continue
        if kind == "directory" and not is_dir:
            continue
        line = prefix + path.relative_to(root).as_posix() + ("/" if is_dir else "")
        if name_matches(patterns, path.name) and not sink.add(line):
            break
    return sink
