"""Ink's built-in tools run in temporary directories: results, errors, limits, cancellation."""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import pytest
from waiting import wait_for

from ink_tui.agent.tools import (
    TOOLS,
    ToolOutcome,
    needs_approval,
    run_tool,
    validate_arguments,
)


def run(
    name: str, args: object, cwd: Path, signal: asyncio.Event | None = None
) -> Coroutine[Any, Any, ToolOutcome]:
    return run_tool(name, args, cwd=cwd, signal=signal)


# --- specs and validation ---------------------------------------------------------------------


def test_tool_list_and_approval() -> None:
    assert list(TOOLS) == ["bash", "read", "edit", "write", "grep", "find", "ls"]
    assert TOOLS["edit"].parameters["required"] == ["path", "edits"]
    assert [n for n in TOOLS if needs_approval(n)] == ["bash", "edit", "write"]
    assert needs_approval("mystery")


def test_validate_ok_and_unknown_tool() -> None:
    assert validate_arguments("bash", {"command": "ls", "timeout": 5}) is None
    assert validate_arguments("ls", {}) is None
    assert validate_arguments("nope", {}) == (
        'Error: unknown tool "nope". Available tools: bash, read, edit, write, grep, find, ls.'
    )


def test_validate_invalid_arguments() -> None:
    text = validate_arguments("bash", {"timeout": "5"})
    assert text == (
        "Error: invalid arguments for bash — (root): must have required properties command; "
        "/timeout: must be number. Fix the arguments and retry."
    )
    edit = validate_arguments("edit", {"path": "a", "edits": [{"oldText": 1}]})
    assert edit is not None and "/edits/0/oldText: must be string" in edit
    assert "must have required properties newText" in edit
    assert validate_arguments("grep", {"pattern": "x", "ignoreCase": 1}) is not None
    assert validate_arguments("read", ["a"]) == (
        'Error: tool arguments must be a JSON object, got: ["a"]'
    )


async def test_run_tool_reports_validation_errors(tmp_path: Path) -> None:
    out = await run("write", {"path": "x"}, tmp_path)
    assert out.is_error and out.content.startswith("Error: invalid arguments for write — ")
    out = await run("rm", {}, tmp_path)
    assert out.is_error and out.content.startswith('Error: unknown tool "rm"')


# --- bash -------------------------------------------------------------------------------------


async def test_bash_streams_and_exit_code(tmp_path: Path) -> None:
    out = await run("bash", {"command": "pwd; echo oops >&2; exit 3"}, tmp_path)
    assert not out.is_error
    assert out.content == f"stdout:\n{tmp_path}\n\n\nstderr:\noops\n\n\nExit code: 3"
    quiet = await run("bash", {"command": "true"}, tmp_path)
    assert quiet.content == "(no output)" and not quiet.is_error
    empty = await run("bash", {"command": "  "}, tmp_path)
    assert empty.is_error and empty.content == "Error: empty command"
    bad = await run("bash", {"command": "true", "timeout": -1}, tmp_path)
    assert bad.content == "Error: invalid timeout -1; must be a positive number of seconds"


async def test_bash_env_marker(tmp_path: Path) -> None:
    out = await run("bash", {"command": 'echo "$INK"'}, tmp_path)
    assert out.content == "stdout:\n1\n"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def _both_pids(tmp_path: Path) -> list[int]:
    pidfile = tmp_path / "pids"

    def written() -> list[int]:
        words = pidfile.read_text().split() if pidfile.exists() else []
        return [int(word) for word in words] if len(words) == 2 else []

    return await wait_for(None, written, "both sleepers' pids in the pid file")


SLEEPERS = "sleep 30 & echo $! > pids.tmp; sleep 30 & echo $! >> pids.tmp; mv pids.tmp pids; wait"


async def _gone(pids: list[int]) -> bool:
    await wait_for(None, lambda: not any(_alive(p) for p in pids), f"processes {pids} to end")
    return True


async def test_bash_timeout_kills_process_group(tmp_path: Path) -> None:
    task = asyncio.create_task(run("bash", {"command": SLEEPERS, "timeout": 1}, tmp_path))
    pids = await _both_pids(tmp_path)
    out = await asyncio.wait_for(task, 20)
    assert out.is_error
    assert out.content == (
        "Error: command timed out after 1s and was killed. Partial output:\n(no output)"
    )
    assert await _gone(pids)


async def test_bash_cancel_via_signal(tmp_path: Path) -> None:
    signal = asyncio.Event()
    task = asyncio.create_task(run("bash", {"command": "echo hi; " + SLEEPERS}, tmp_path, signal))
    pids = await _both_pids(tmp_path)
    signal.set()
    out = await asyncio.wait_for(task, 20)
    assert out.is_error
    assert out.content == "Error: command aborted by user. Partial output:\nstdout:\nhi\n"
    assert await _gone(pids)
    again = await run("bash", {"command": "echo no"}, tmp_path, signal)
    assert again.content == "Error: command aborted by user. Partial output:\n(no output)"


async def test_bash_truncates_to_tail_with_artifact(tmp_path: Path) -> None:
    out = await run("bash", {"command": "seq 1 600"}, tmp_path)
    assert not out.is_error
    body, note = out.content.split("\n\n[output truncated: ")
    assert body.startswith("stdout:\n101\n") and body.endswith("600\n")
    match = re.search(r"Full output saved to (\S+ink-output-[0-9a-f-]+\.log)", note)
    assert match is not None
    saved = Path(match.group(1))
    assert saved.read_text().startswith("$ seq 1 600\n[stdout]\n1\n2\n")
    saved.unlink()


# --- read -------------------------------------------------------------------------------------


async def test_read_whole_offset_and_limit(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("a\nb\nc\nd\ne")
    assert (await run("read", {"path": "f.txt"}, tmp_path)).content == "a\nb\nc\nd\ne"
    part = await run("read", {"path": "f.txt", "offset": 2, "limit": 2}, tmp_path)
    assert part.content == "b\nc\n\n[2 more lines in file. Use offset=4 to continue.]"
    tail = await run("read", {"path": "f.txt", "offset": 4}, tmp_path)
    assert tail.content == "d\ne"


async def test_read_errors(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("a\nb")
    beyond = await run("read", {"path": "f.txt", "offset": 9}, tmp_path)
    assert beyond.is_error
    assert beyond.content == "Error: offset 9 is beyond the end of the file (2 lines total)"
    zero = await run("read", {"path": "f.txt", "offset": 0}, tmp_path)
    assert zero.content == "Error: offset must be a 1-indexed line number, got 0"
    missing = await run("read", {"path": "nope.txt"}, tmp_path)
    assert missing.is_error
    assert missing.content == (
        f"Error reading nope.txt: ENOENT: no such file or directory, open '{tmp_path}/nope.txt'"
    )
    (tmp_path / "bin").write_bytes(b"ab\x00cd")
    binary = await run("read", {"path": "bin"}, tmp_path)
    assert binary.content == (
        "Error: bin looks like a binary file; the read tool only supports text."
    )


async def test_read_line_limit_note(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_text("\n".join(str(i) for i in range(1, 2501)))
    out = await run("read", {"path": "big.txt"}, tmp_path)
    assert out.content.endswith(
        "1999\n2000\n\n[Showing lines 1-2000 of 2500 (2000 line limit). "
        "Use offset=2001 to continue.]"
    )


async def test_read_image(tmp_path: Path) -> None:
    (tmp_path / "p.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 16)
    out = await run("read", {"path": "p.png"}, tmp_path)
    assert out.content == "Read image file [image/png]" and not out.is_error
    assert out.images and out.images[0].mime_type == "image/png"


# --- edit / write -----------------------------------------------------------------------------


async def test_edit_success_keeps_crlf(tmp_path: Path) -> None:
    target = tmp_path / "e.txt"
    target.write_bytes(b"one\r\ntwo\r\nthree\r\n")
    out = await run(
        "edit",
        {
            "path": "e.txt",
            "edits": [{"oldText": "three", "newText": "3"}, {"oldText": "one", "newText": "1"}],
        },
        tmp_path,
    )
    assert not out.is_error
    assert (
        out.content
        == "Edited e.txt (2 edits applied):\n@@ line 1 @@\n- one\n+ 1\n@@ line 3 @@\n- three\n+ 3"
    )
    assert target.read_bytes() == b"1\r\ntwo\r\n3\r\n"


async def test_edit_not_found_and_ambiguous(tmp_path: Path) -> None:
    target = tmp_path / "e.txt"
    target.write_text("x = 1\nx = 1\n")
    missing = await run(
        "edit", {"path": "e.txt", "edits": [{"oldText": "y", "newText": "z"}]}, tmp_path
    )
    assert missing.is_error
    assert missing.content.startswith("Error: edits[0].oldText was not found in the file.")
    twice = await run(
        "edit", {"path": "e.txt", "edits": [{"oldText": "x = 1", "newText": "q"}]}, tmp_path
    )
    assert twice.content == (
        "Error: edits[0].oldText matches 2 times. Include more surrounding lines "
        "(comments, blank lines) to make it unique."
    )
    none = await run("edit", {"path": "e.txt", "edits": []}, tmp_path)
    assert none.content == "Error: edits must contain at least one replacement."
    assert target.read_text() == "x = 1\nx = 1\n"


@pytest.mark.parametrize(
    ("edits", "words"),
    [
        ([{"oldText": "", "newText": "a"}],
         "edits[0].oldText is empty — provide the exact text to replace."),
        ([{"oldText": "two", "newText": "2"}, {"oldText": "one\r\n", "newText": "one\n"}],
         "edits[1].newText is identical to oldText — nothing would change."),
        ([{"oldText": "two\nthree", "newText": "x"}, {"oldText": "one\ntwo", "newText": "y"}],
         "edits overlap around original line 2. Overlapping or nested edits are not allowed — "
         "merge them into a single edit that covers the whole region once."),
    ],
)  # fmt: skip
async def test_edit_refusals_in_inks_words(
    tmp_path: Path, edits: list[dict[str, str]], words: str
) -> None:
    target = tmp_path / "e.txt"
    target.write_bytes(b"one\r\ntwo\r\nthree\r\n")
    out = await run("edit", {"path": "e.txt", "edits": edits}, tmp_path)
    assert out.is_error and out.content == f"Error: {words}"
    assert target.read_bytes() == b"one\r\ntwo\r\nthree\r\n"  # nothing written


async def test_write_creates_dirs_and_overwrites(tmp_path: Path) -> None:
    out = await run("write", {"path": "a/b/c.txt", "content": "hé\nyo\n"}, tmp_path)
    assert out.content == "Created a/b/c.txt (2 lines, 7 bytes)" and not out.is_error
    again = await run("write", {"path": "a/b/c.txt", "content": ""}, tmp_path)
    assert again.content == "Overwrote a/b/c.txt (0 lines, 0 bytes)"
    assert (tmp_path / "a/b/c.txt").read_bytes() == b""


# --- grep / find / ls -------------------------------------------------------------------------


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src/a.py").write_text("one\nTwo\nthree\nfour\nfive\nsix two\n")
    (tmp_path / "src/b.txt").write_text("nothing here\n")
    (tmp_path / ".hidden").write_text("two\n")
    (tmp_path / "ignored.log").write_text("two\n")
    (tmp_path / ".gitignore").write_text("*.log\n")
    return tmp_path


# grep and find: tests/unit/agent/tools/test_search.py (both rg/fd and the pure-Python search).


async def test_search_cancelled(tree: Path) -> None:
    signal = asyncio.Event()
    signal.set()
    out = await run("grep", {"pattern": "x"}, tree, signal)
    assert out.is_error and out.content == "Error: search aborted by user."


async def test_ls_limit_and_errors(tree: Path) -> None:
    out = await run("ls", {}, tree)
    assert out.content == ".gitignore\n.hidden\nignored.log\nsrc/\n"
    limited = await run("ls", {"limit": 2}, tree)
    assert limited.content == (
        ".gitignore\n.hidden\n\n[2 entries limit reached. Use limit=4 for more]"
    )
    (tree / "empty").mkdir()
    assert (await run("ls", {"path": "empty"}, tree)).content == "(empty directory)"
    missing = await run("ls", {"path": "gone"}, tree)
    assert missing.is_error
    assert missing.content == (
        f"Error: cannot read gone: ENOENT: no such file or directory, scandir '{tree}/gone'"
    )
