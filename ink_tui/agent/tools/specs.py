"""Tool names, descriptions and argument schemas as Ink sends them, plus argument checking.

Ink declares each schema with TypeBox and checks a call with ``Value.Check`` before running it;
a failure becomes ``Error: invalid arguments for X — <issues>. Fix the arguments and retry.``
with up to five ``<instancePath or (root)>: <message>`` issues joined by ``; ``. The messages
here follow TypeBox 1.x's wording (``must have required properties …``, ``must be string``).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from ink_tui.agent.tools.common import MAX_BYTES, as_number

JsonSchema = dict[str, Any]


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One tool as the model sees it: name, description and JSON schema of its arguments."""

    name: str
    description: str
    parameters: JsonSchema


def _obj(required: list[str], **props: JsonSchema) -> JsonSchema:
    return {"type": "object", "properties": dict(props), "required": required}


def _s(description: str) -> JsonSchema:
    return {"type": "string", "description": description}


def _n(description: str) -> JsonSchema:
    return {"type": "number", "description": description}


def _b(description: str) -> JsonSchema:
    return {"type": "boolean", "description": description}


_KB = MAX_BYTES // 1024

_SPECS = (
    ToolSpec(
        "bash",
        "Execute a bash command in the working directory and return stdout/stderr. Output is "
        f"truncated per stream to the last 500 lines or {_KB}KB (whichever hits first). Set a "
        "timeout in seconds for long-running commands. Avoid interactive commands (they hang "
        "until timeout).",
        _obj(
            ["command"],
            command=_s("Bash command to execute"),
            timeout=_n("Timeout in seconds; the command is killed when it expires (optional)"),
        ),
    ),
    ToolSpec(
        "read",
        "Read the contents of a text file. Supports text files and images (jpg, png, gif, "
        "webp). Images are sent as attachments. For text files, output is truncated to 2000 "
        f"lines or {_KB}KB (whichever hits first); the truncation note tells you how to "
        "continue reading. Use offset/limit for large files.",
        _obj(
            ["path"],
            path=_s("Path to the file to read (relative or absolute)"),
            offset=_n("Line number to start reading from (1-indexed)"),
            limit=_n("Maximum number of lines to read"),
        ),
    ),
    ToolSpec(
        "edit",
        "Edit a file with exact text replacement. Each edits[].oldText must match a unique, "
        "non-overlapping region of the original file — include enough surrounding lines to "
        "make it unique. Read the file first and copy text exactly (indentation matters). All "
        "edits apply atomically: if any oldText is not found or matches more than once, "
        "nothing is written and the error tells you how to fix it. Prefer several small "
        "precise edits over one huge replacement.",
        _obj(
            ["path", "edits"],
            path=_s("Path to the file to edit (relative or absolute)"),
            edits={
                "type": "array",
                "description": "One or more targeted replacements, all matched against the "
                "ORIGINAL file (not incrementally). Each oldText must be unique and must not "
                "overlap another edit; merge nearby changes into one edit instead.",
                "items": _obj(
                    ["oldText", "newText"],
                    oldText=_s(
                        "Exact text to replace. Must match the original file exactly "
                        "(whitespace and line breaks included) and be unique."
                    ),
                    newText=_s("Replacement text."),
                ),
            },
        ),
    ),
    ToolSpec(
        "write",
        "Write full content to a file. Creates the file (and parent directories) if missing, "
        "overwrites if present. For new files this is the right tool; to change part of an "
        "existing file prefer edit — never rewrite a whole file just to change a few lines.",
        _obj(
            ["path", "content"],
            path=_s("Path to the file to write (relative or absolute)"),
            content=_s("Full content to write to the file"),
        ),
    ),
    ToolSpec(
        "grep",
        "Search file contents for a pattern (respects .gitignore, skips binary files). Returns "
        "matching lines as 'path:line:text'. Use glob to narrow by file type. Output is "
        f"truncated to the first 100 lines / {_KB}KB — refine the pattern instead of raising "
        "the limit. This is the right tool for 'where is X defined/used'; prefer it over bash "
        "grep.",
        _obj(
            ["pattern"],
            pattern=_s("Search pattern (regex, or literal with literal: true)"),
            path=_s("File or directory to search (default: current directory)"),
            glob=_s("Filter files by glob, e.g. '*.ts'"),
            ignoreCase=_b("Case-insensitive match (default: false)"),
            literal=_b("Treat pattern as a literal string, not regex (default: false)"),
            context=_n("Lines of context around each match (default: 0)"),
            limit=_n("Max output lines (default: 100)"),
            timeout=_n("Timeout in seconds (default: 30)"),
        ),
    ),
    ToolSpec(
        "find",
        "Find files and directories by name (respects .gitignore, includes hidden files). "
        "Pattern is a glob. Results are absolute-ish paths, truncated to the first results — "
        "narrow with path/pattern instead of raising the limit. This is the right tool for "
        "'where is the X file'.",
        _obj(
            ["pattern"],
            pattern=_s(
                "Glob pattern for file/dir names, e.g. '*.ts' or 'test*'. Use '*' to list "
                "everything."
            ),
            path=_s("Directory to search (default: current directory)"),
            type=_s("Restrict to 'file' or 'directory' (default: both)"),
            limit=_n("Max results (default: 200)"),
            timeout=_n("Timeout in seconds (default: 30)"),
        ),
    ),
    ToolSpec(
        "ls",
        "List directory contents. Returns entries sorted alphabetically, with '/' suffix for "
        f"directories. Includes dotfiles. Output is truncated to 500 entries or {_KB}KB "
        "(whichever hits first).",
        _obj(
            [],
            path=_s("Directory to list (default: current directory)"),
            limit=_n("Maximum number of entries to return (default: 500)"),
        ),
    ),
)

TOOLS: dict[str, ToolSpec] = {spec.name: spec for spec in _SPECS}
"""The built-in tools in Ink's order (bash, read, edit, write, grep, find, ls)."""

_APPROVAL = frozenset({"bash", "edit", "write"})


def needs_approval(name: str) -> bool:
    """True for tools that change things (bash, edit, write) and for unknown names."""
    return name in _APPROVAL or name not in TOOLS


def _type_ok(kind: str, value: object) -> bool:
    if kind == "string":
        return isinstance(value, str)
    if kind == "number":
        number = as_number(value)
        return number is not None and math.isfinite(number)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "array":
        return isinstance(value, list)
    if kind == "object":
        return isinstance(value, dict)
    return True


def _pointer(parts: list[str]) -> str:
    return "".join("/" + p.replace("~", "~0").replace("/", "~1") for p in parts)


def _check(schema: JsonSchema, value: object, path: list[str], issues: list[str]) -> None:
    kind = str(schema.get("type", ""))
    where = _pointer(path) or "(root)"
    if not _type_ok(kind, value):
        issues.append(f"{where}: must be {kind}")
        return
    if kind == "object" and isinstance(value, dict):
        missing = [key for key in schema.get("required", []) if key not in value]
        if missing:
            issues.append(f"{where}: must have required properties {', '.join(missing)}")
        for key, sub in schema.get("properties", {}).items():
            if key in value:
                _check(sub, value[key], [*path, key], issues)
    elif kind == "array" and isinstance(value, list) and "items" in schema:
        for index, item in enumerate(value):
            _check(schema["items"], item, [*path, str(index)], issues)


def schema_issues(schema: JsonSchema, value: object) -> list[str]:
    """All schema violations of ``value``, each as ``<path>: <message>``."""
    issues: list[str] = []
    _check(schema, value, [], issues)
    return issues


def validate_arguments(name: str, arguments: object) -> str | None:
    """Ink's pre-execution check: None when the call may run, else the error result text."""
    spec = TOOLS.get(name)
    if spec is None:
        return f'Error: unknown tool "{name}". Available tools: {", ".join(TOOLS)}.'
    if not isinstance(arguments, dict):
        shown = json.dumps(arguments, ensure_ascii=False, separators=(",", ":"))
        return f"Error: tool arguments must be a JSON object, got: {shown[:200]}"
    issues = schema_issues(spec.parameters, arguments)
    if issues:
        text = "; ".join(issues[:5])
        return f"Error: invalid arguments for {name} — {text}. Fix the arguments and retry."
    return None
