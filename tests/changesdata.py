"""Hand-made sessions for the changes view and ``ink-tui changes``: tool calls on files whose
content at every step is known, so the reconstruction can be checked against the truth.

Importable from every test folder as ``import changesdata`` (``tests/`` is on ``sys.path``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ink_tui.paths import project_dir
from ink_tui.session import ModelRef
from ink_tui.session.writing.writer import SessionWriter

__all__ = [
    "CWD",
    "LONG_PATH",
    "LONG_PROMPT",
    "MAIN_END",
    "MAIN_START",
    "NOTES_END",
    "SessionScript",
    "changes_session",
]

CWD = "/home/ada/code/calc-kit"

MAIN_START = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n"
MAIN_END = (
    "def add(a: int, b: int) -> int:\n    return a + b\n\n\n"
    "def sub(a: int, b: int) -> int:\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n"
)
NOTES_END = "# Notes\n\nThe calculator adds, subtracts and multiplies.\nNo division yet."
LONG_PATH = "src/calc_kit/internal/arithmetic/typed_ops.py"
LONG_PROMPT = (
    "move the typed helpers into src/calc_kit/internal/arithmetic and keep the old module "
    "importable for one more release"
)


class SessionScript:
    """Writes a session turn by turn: prompts, and tool calls with their results."""

    def __init__(self, folder: Path, cwd: str = CWD, **writer_options: Any) -> None:
        model = ModelRef("anthropic", "claude-sonnet-4-5")
        self.writer = SessionWriter.new(folder, cwd, model=model, **writer_options)
        self._calls = 0

    @property
    def path(self) -> Path:
        return self.writer.path

    def prompt(self, text: str) -> None:
        self.writer.append_message({"role": "user", "content": text})

    def call(
        self, name: str, arguments: dict[str, Any], output: str, *, error: bool = False
    ) -> str:
        """One assistant message calling ``name``, then its result; returns the call id."""
        self._calls += 1
        call_id = f"call_{self._calls}"
        self.writer.append_message(
            {
                "role": "assistant",
                "blocks": [
                    {"type": "toolCall", "id": call_id, "name": name, "arguments": arguments}
                ],
                "usage": {"inputTokens": 10, "outputTokens": 5},
                "stopReason": "tool_use",
                "model": "claude-sonnet-4-5",
                "modelReference": "anthropic/claude-sonnet-4-5",
            }
        )
        result = {"toolCallId": call_id, "toolName": name, "content": output, "isError": error}
        self.writer.append_message({"role": "toolResult", "results": [result]})
        return call_id

    def edit(self, path: str, old: str, new: str, *, error: str = "") -> str:
        edits = [{"oldText": old, "newText": new}]
        output = f"Error: {error}" if error else f"Edited {path} (1 edit applied):\n@@ line 1 @@"
        return self.call("edit", {"path": path, "edits": edits}, output, error=bool(error))

    def write(self, path: str, content: str, *, created: bool = True) -> str:
        verb = "Created" if created else "Overwrote"
        output = f"{verb} {path} ({content.count(chr(10))} lines, {len(content)} bytes)"
        return self.call("write", {"path": path, "content": content}, output)

    def read(self, path: str, content: str, **arguments: Any) -> str:
        return self.call("read", {"path": path, **arguments}, content)

    def answer(self, text: str = "done") -> None:
        self.writer.append_message(
            {
                "role": "assistant",
                "blocks": [{"type": "text", "text": text}],
                "usage": {"inputTokens": 10, "outputTokens": 5},
                "stopReason": "end_turn",
                "model": "claude-sonnet-4-5",
                "modelReference": "anthropic/claude-sonnet-4-5",
            }
        )


def changes_session(
    sessions_dir: Path, cwd: str = CWD, *, long_names: bool = False, **writer_options: Any
) -> Path:
    """Three turns over three files, every state known:

    - ``calc/main.py``: read (MAIN_START), edited twice in turn 1, a failed edit in turn 2,
      edited through its absolute path in turn 3 (MAIN_END);
    - ``NOTES.md``: created by a write in turn 2, then edited in turn 3 (NOTES_END), and one
      failed edit;
    - ``calc/old.py``: edited with nothing read before: start unknown.

    ``long_names``: a fourth turn with a long prompt creates :data:`LONG_PATH` (a deep path).
    """
    script = SessionScript(project_dir(sessions_dir, cwd), cwd, **writer_options)
    script.prompt("add type hints to calc/main.py")
    script.read("calc/main.py", MAIN_START)
    script.edit("calc/main.py", "def add(a, b):", "def add(a: int, b: int) -> int:")
    script.edit("calc/main.py", "def sub(a, b):", "def sub(a: int, b: int) -> int:")
    script.answer("typed")
    script.prompt("write notes")
    script.edit("calc/main.py", "def div(a, b):", "def div(a, b) -> float:", error="not found")
    script.write("NOTES.md", "# Notes\n\nThe calculator adds and subtracts.\n")
    script.answer("noted")
    script.prompt("add mul")
    script.edit(
        f"{cwd}/calc/main.py", "    return a - b\n", "    return a - b\n\n\ndef mul(a, b):\n"
        "    return a * b\n",
    )  # fmt: skip
    script.edit(
        "NOTES.md", "adds and subtracts.\n", "adds, subtracts and multiplies.\nNo division yet."
    )
    script.edit(
        "NOTES.md", "division", "modulo", error="edits[0].oldText was not found in the file."
    )
    script.edit("calc/old.py", "x = 1", "x = 2")
    script.answer("all done")
    if long_names:
        script.prompt(LONG_PROMPT)
        script.write(LONG_PATH, "def add(a: int, b: int) -> int:\n    return a + b\n")
        script.answer("moved")
    return script.path
