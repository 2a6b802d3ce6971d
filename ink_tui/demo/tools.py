"""The tools of a demo session: realistic arguments, outputs, errors, and the task tool's child."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Protocol

import ink_tui.demo.content as C
import ink_tui.demo.outputs as O
from ink_tui.demo.clock import FakeClock
from ink_tui.demo.options import CHILD_TOOLS, TOOLS, Options, Stats
from ink_tui.session.rules.modelref import ModelRef
from ink_tui.session.writing.writer import SessionWriter, utc_timestamp

Record = dict[str, Any]


class SessionBuilder(Protocol):
    """What the tools take from the session builder calling them (it imports them)."""

    rng: random.Random
    project: C.Project
    project_dir: Path
    clock: FakeClock
    options: Options
    stats: Stats
    model: ModelRef
    writer: SessionWriter

    def uuid(self) -> str: ...

    def pick(self, items: tuple[str, ...]) -> str: ...

    def launch_child(self, prompt: str, launch: Record) -> tuple[Path, str, str, int]: ...


def run_tool(b: SessionBuilder, name: str, call_id: str) -> tuple[Record, Any, bool, Record | None]:
    """``(arguments, content, isError, taskRecord)`` for one call."""
    rng, project = b.rng, b.project
    path = rng.choice(project.files)
    error = rng.random() < 0.08
    if name not in TOOLS:  # the model called a tool that does not exist
        text = f'Error: unknown tool "{name}". Available tools: {", ".join(sorted(TOOLS))}'
        return {"query": "retry"}, text, True, None
    if name == "bash":
        roll = rng.random()
        if error and roll < 0.3:
            return (
                {"command": "rm -rf build/ && git clean -fdx"},
                'Tool "bash" blocked by an extension: destructive git commands need confirmation',
                True,
                None,
            )
        if error:
            return (
                {"command": "pnpm dev --watch", "timeout": 120},
                "Error: command timed out after 120s and was killed. Partial output:\n"
                "stdout:\n\x1b[2m WATCH \x1b[0m waiting for file changes...",
                True,
                None,
            )
        if roll < 0.45:
            files = rng.choice((4, 6, 9, 9, 14, 40))
            out = O.pytest_output(rng, project.cwd, files, fail=rng.random() < 0.4)
            return {"command": project.test_command}, out, False, None
        if roll < 0.65:
            return {"command": "ruff check ."}, O.ruff_output(rng, project.files), False, None
        if roll < 0.8 and project.kind == "web":
            lines = rng.choice((40, 200, 1500, 6000))
            return {"command": "pnpm build --debug"}, O.build_log(rng, lines), False, None
        if roll < 0.8:
            files = rng.choice((60, 150, 400))
            out = O.pytest_output(rng, project.cwd, files, fail=False)
            return {"command": project.test_command + " -p no:randomly"}, out, False, None
        return {"command": "git status --short"}, O.git_status(), False, None
    if name == "read":
        if error:
            text = f"Error reading {path}: ENOENT: no such file or directory"
            return {"path": path + ".bak"}, text, True, None
        if b.options.images and rng.random() < 0.3:
            blocks = [
                {"type": "text", "text": "Read image file [image/png]"},
                {
                    "type": "image",
                    "data": O.png_base64(rng.randint(0, 255)),
                    "mimeType": "image/png",
                },
            ]
            return {"path": "docs/screenshot.png"}, blocks, False, None
        body = C.FILE_BY_KIND[project.kind] * rng.choice((1, 1, 2, 6))
        args: Record = {"path": path}
        if rng.random() < 0.25:
            args["offset"], args["limit"] = rng.randint(1, 40), 200
        return args, body, False, None
    if name == "edit":
        old, new = C.EDITS_BY_KIND[project.kind]
        args = {"path": path, "edits": [{"oldText": old, "newText": new}]}
        if error:
            text = (
                f"Error: oldText not found in {path}. Re-read the file and copy the text "
                "exactly (indentation matters)."
            )
            return args, text, True, None
        return args, O.edit_result(path, old, new, rng.randint(3, 80)), False, None
    if name == "write":
        body = C.FILE_BY_KIND[project.kind]
        target = path.rsplit(".", 1)[0] + "_new." + path.rsplit(".", 1)[-1]
        size, lines = len(body.encode()), body.count("\n") + (0 if body.endswith("\n") else 1)
        result = f"Created {target} ({lines} lines, {size} bytes)"  # as Ink's write says it
        return {"path": target, "content": body}, result, False, None
    if name == "grep":
        pattern = rng.choice(("sum_list", "fetch_json", "TODO", "日期"))
        args = {"pattern": pattern, "path": "src"}
        if rng.random() < 0.4:
            args["ignoreCase"] = True
        if rng.random() < 0.2:
            return args, f"No matches for {pattern}", False, None
        return args, O.grep_output(rng, project.files, pattern, rng.randint(2, 30)), False, None
    if name == "find":
        args = {"pattern": "*.py" if project.kind != "web" else "*.ts", "type": "file"}
        return args, "\n".join(project.files), False, None
    if name == "ls":
        return {"path": "."}, O.ls_output(project.kind), False, None
    return task(b, call_id)


def task(b: SessionBuilder, call_id: str) -> tuple[Record, Any, bool, Record | None]:
    prompt = (
        f"Review the change to {b.rng.choice(b.project.files)} for edge cases (empty "
        "input, floats, huge lists). Report problems; do not edit files."
    )
    args: Record = {"prompt": prompt, "agent": "reviewer"}
    start = b.clock.now
    child_path: Path | None = None
    child_id = b.uuid()
    answer, turns = b.pick(C.ANSWERS_EN), b.rng.randint(2, 6)
    if b.options.child and not b.stats.children:
        child_path, child_id, answer, turns = launch_child(b, prompt)
    else:
        b.clock.advance(b.rng, 30, 240)
    record: Record = {
        "version": 1,
        "timestamp": utc_timestamp(start),
        "attemptId": b.uuid(),
        "sourceId": b.uuid(),
        "launched": True,
        "cwd": b.project.cwd,
        "status": "completed",
        "turns": turns,
        "textPresent": True,
        "taskToolCallId": call_id,
        "parentSessionId": b.writer.session_id,
        "childId": child_id,
        "agent": "reviewer",
        "binding": binding(b),
        "tools": list(CHILD_TOOLS),
        "timeoutMs": 600000,
        "transcript": {"present": True, "path": _ink_path(b, child_path)},
        "usage": {"inputTokens": b.rng.randint(4000, 40000), "outputTokens": 1210},
    }
    if child_path is None:  # run with INK_CHILD_SESSIONS=0: no child session was written
        del record["childId"]
        record["transcript"] = {"present": False, "why": "disabled"}
    text = f"{answer}\n\n(child {child_id[:8]}: completed in {turns} turns)"
    return args, text, False, record


def binding(b: SessionBuilder) -> Record:
    return {
        "providerName": b.model.provider,
        "wireModelId": b.model.model_id,
        "reference": b.model.reference,
    }


def launch_child(b: SessionBuilder, prompt: str) -> tuple[Path, str, str, int]:
    launch: Record = {
        "version": 1,
        "parentSessionId": b.writer.session_id,
        "childId": "",
        "inkVersion": "0.2.2",
        "model": binding(b),
        "cwd": b.project.cwd,
        "tools": [{"name": name} for name in CHILD_TOOLS],
        "system": {
            "sha256": f"{b.rng.getrandbits(256):064x}",
            "contextFiles": [],
            "promptFiles": [],
            "extensionContexts": [],
        },
        "extensions": [],
        "agent": {"name": "reviewer", "source": "~/.ink/agents/reviewer.md"},
    }
    return b.launch_child(prompt, launch)


def _ink_path(b: SessionBuilder, child: Path | None) -> str:
    """Where Ink would have written the child: under the user's ``~/.ink/sessions``.

    Not the demo's own base directory, so the bytes do not depend on where the demo was written.
    """
    if child is None:
        return ""
    cwd = b.project.cwd
    if cwd[1:3] == ":\\":
        home = "\\".join(cwd.split("\\")[:3])
        return f"{home}\\.ink\\sessions\\{b.project_dir.name}\\children\\{child.name}"
    parts = cwd.split("/")
    home = "/".join(parts[:3]) if parts[1] in ("home", "Users") else "/root"
    return f"{home}/.ink/sessions/{b.project_dir.name}/children/{child.name}"
