"""The system prompt, rebuilt as Ink builds it (``buildSystemPrompt`` + the runner's context
files): Ink does not store it in the session, so a resume always uses the current environment.

Differences from Ink: no ``SYSTEM.md`` override, no extension sections, skills or subagent
roster (ink-tui has none of them); ``APPEND_SYSTEM.md`` and the ``AGENTS.md`` files are read
from Ink's home (``~/.ink``) and from every folder from the root down to the cwd.
"""

from __future__ import annotations

import platform
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from xml.sax.saxutils import quoteattr

from ink_tui.agent.tools.specs import ToolSpec

__all__ = ["PROMPT_SNIPPETS", "context_files", "ink_home", "system_prompt"]

PROMPT_SNIPPETS: dict[str, str] = {
    "bash": "run shell commands — builds, tests, git; anything without a dedicated tool. "
    "Never interactive.",
    "read": "read files (text or images); truncation notes tell you how to continue reading.",
    "edit": "precise in-place edits; each oldText must match exactly and be unique.",
    "write": "create or overwrite whole files — never for small changes.",
    "grep": "find where code is defined or used (respects .gitignore) — prefer over bash grep.",
    "find": "find files by name glob (respects .gitignore) — prefer over bash find.",
    "ls": "list one directory's entries (dotfiles included).",
}
"""One line per tool for the prompt's tool list (Ink's ``promptSnippet``)."""

_RULES = """\
# Core rules
1. Work inside the current working directory unless the user explicitly asks otherwise.
2. Inspect before you modify: read a file (or list/grep via bash) before editing it. Never guess file contents.
3. After editing code, verify the change — run it or its tests.
4. Be concise. State what you changed (file paths, commands run); do not dump whole files back at the user.
5. If a task fails, say what failed and why. Do not silently give up or fake success.
6. When a request is ambiguous or destructive beyond the workspace, ask the user first."""  # noqa: E501

_CLOSING = (
    "In addition to the tools above, you may have access to other tools depending on the "
    "project.\n\nUse tools proactively to establish facts; base your answers on observed output, "
    "not assumptions."
)


def ink_home() -> Path:
    """Ink's own folder (``~/.ink``), where its global ``AGENTS.md`` lives."""
    return Path.home() / ".ink"


def _node_platform() -> str:
    return {"linux": "linux", "darwin": "darwin", "win32": "win32"}.get(sys.platform, sys.platform)


def _node_arch() -> str:
    machine = platform.machine().lower()
    return {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(
        machine, machine
    )


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def context_files(cwd: Path, home: Path | None = None) -> list[tuple[Path, str]]:
    """``AGENTS.md`` files: Ink's home first, then each folder from the root down to ``cwd``."""
    found: list[tuple[Path, str]] = []
    candidates = [(home or ink_home()) / "AGENTS.md"]
    candidates += [folder / "AGENTS.md" for folder in reversed([cwd, *cwd.parents])]
    for path in candidates:
        text = _read(path) if path.is_file() else None
        if text is not None and text.strip() and all(path != seen for seen, _ in found):
            found.append((path, text))
    return found


def system_prompt(
    cwd: Path,
    tools: Sequence[ToolSpec],
    *,
    now: datetime | None = None,
    home: Path | None = None,
) -> str:
    """The system prompt Ink would send from ``cwd`` with ``tools``. Reads small files."""
    date = (now or datetime.now(UTC)).strftime("%Y-%m-%d")
    catalog = ""
    if tools:
        lines = [f"- {tool.name}: {PROMPT_SNIPPETS.get(tool.name, tool.name)}" for tool in tools]
        catalog = "\n\n# Available tools\n" + "\n".join(lines)
    home = home or ink_home()
    append = _read(home / "APPEND_SYSTEM.md")
    prompt = (
        "You are Ink, an open-source AI assistant and agent harness for the terminal.\n\n"
        "# Environment\n"
        f"- Working directory: {cwd}\n"
        f"- Platform: {_node_platform()} ({_node_arch()}), shell: bash\n"
        f"- Date: {date}\n\n"
        f"{_RULES}{catalog}\n\n{_CLOSING}"
    )
    if append and append.strip():
        prompt += f"\n\n{append}"
    files = context_files(cwd, home)
    if files:
        prompt += "\n\n<project_context>\n\nProject-specific instructions and guidelines:\n\n"
        for path, text in files:
            prompt += (
                f"<project_instructions path={quoteattr(str(path))}>\n{text}\n"
                "</project_instructions>\n\n"
            )
        prompt += "</project_context>"
    return prompt
