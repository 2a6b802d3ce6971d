"""``ink-tui mcp --check``: every tool called once against the user's archive, for setting up,
and what an agent would receive printed as it is."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import changesdata
import pytest
from inksessions import ink_session

from ink_tui.recall.server import TOOLS

CWD = "/home/ada/code/retry"
SECRET = "sk-ant-api03-" + "Z9" * 40  # a planted key (not a real one)


def _answers(out: str) -> dict[str, Any]:
    """Each tool's answer in the output, by tool name."""
    answers: dict[str, Any] = {}
    for part in out.split("── ")[1:]:
        head, _, text = part.partition("\n")
        answers[head.split(" ", 1)[0]] = json.loads(text.strip())
    return answers


def test_check_calls_every_tool_and_prints_what_an_agent_receives(
    cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = tmp_path / "sessions"
    ink_session(base, CWD, "keys", [f"my key is {SECRET}"], reply="noted", mtime=1_000)
    newest = changesdata.changes_session(base, CWD)
    monkeypatch.setenv("INK_SESSIONS_DIR", str(base))
    code, out, err = cli.run("--cwd", CWD, "mcp", "--check")
    assert (code, err) == (0, "")
    assert out.startswith("ink-tui mcp --check: each tool called once")
    answers = _answers(out.rsplit("\nok: ", 1)[0])
    assert list(answers) == ["list_sessions", "search_sessions", *TOOLS[2:]]
    assert answers["list_sessions"]["sessions"][0]["file"] == str(newest)
    assert answers["search_sessions"]["found"] is True  # a word of the newest title
    assert answers["session_changes"]["filesChanged"] == 3
    assert answers["read_session"]["blocks"][-1]["text"] == "all done"
    assert "Z9Z9Z9" not in out
    assert out.splitlines()[-1].startswith("ok: 5 tools answered (the slowest in ")


def test_check_of_an_empty_archive_says_what_it_could_not_try(cli: Any) -> None:
    code, out, err = cli.run("--cwd", CWD, "mcp", "--check")
    assert (code, err) == (1, "")
    answers = _answers(out.split("\nnot tried")[0])
    assert answers["list_sessions"] == {"sessions": [], "total": 0, "scope": "all"}
    assert answers["search_sessions"]["found"] is False
    assert out.splitlines()[-1] == (
        "not tried (no session in the archive): read_session, session_context, session_changes"
    )
