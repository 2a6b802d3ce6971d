"""``ink-tui mcp`` as an agent meets it: the official SDK's own client over stdio, against a
small archive. Every cited entry is checked against the file it names; a search that finds
nothing says what was searched; a bad call is one line; a planted secret never comes back."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from ink_tui.paths import project_dir

CWD = "/home/ada/code/retry"
SECRET = "sk-ant-api03-" + "Q7" * 40  # a planted key (not a real one)


def _write(base: Path, name: str, prompts: list[str], cwd: str = CWD) -> Path:
    folder = project_dir(base, cwd)
    folder.mkdir(parents=True, exist_ok=True)
    records: list[dict[str, Any]] = [
        {"type": "session", "version": 1, "id": name, "timestamp": "2026-11-20T10:00:00Z",
         "cwd": cwd},
    ]  # fmt: skip
    parent = None
    for n, prompt in enumerate(prompts):
        records.append(
            {"type": "message", "id": f"u{n}", "parentId": parent,
             "timestamp": f"2026-11-20T10:0{n}:01Z",
             "message": {"role": "user", "content": prompt}}
        )  # fmt: skip
        parent = f"u{n}"
    path = folder / f"2026-11-20T10-00-00-000Z-{name}.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return path


@pytest.fixture
def sessions(tmp_path: Path) -> Path:
    base = tmp_path / "sessions"
    _write(base, "fix-retry", ["the flaky retry test fails on CI", "use exponential backoff"])
    _write(base, "keys", [f"my key is {SECRET} keep it safe"])
    _write(base, "web", ["style the sidebar"], cwd="/home/ada/code/web")
    return base


@asynccontextmanager
async def _client(sessions: Path, *extra: str) -> AsyncIterator[ClientSession]:
    env = {**os.environ, "INK_SESSIONS_DIR": str(sessions)}
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "ink_tui", "--cwd", CWD, "mcp", *extra], env=env
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


async def _call(session: ClientSession, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await session.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


async def test_the_tools_are_listed_read_only(sessions: Path) -> None:
    async with _client(sessions) as session:
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
    assert set(tools) == {"search_sessions", "list_sessions"}
    for tool in tools.values():
        assert tool.annotations is not None and tool.annotations.read_only_hint
        assert tool.input_schema["type"] == "object"


async def test_every_hit_cites_an_entry_of_its_file_that_holds_the_words(sessions: Path) -> None:
    async with _client(sessions) as session:
        answer = await _call(session, "search_sessions", query="backoff")
    assert answer["found"] is True
    (hit,) = answer["hits"]
    assert hit["sessionId"] == "fix-retry" and hit["machine"] is None
    records = [json.loads(line) for line in Path(hit["file"]).read_text().splitlines()]
    cited = next(record for record in records if record.get("id") == hit["entryId"])
    assert "backoff" in cited["message"]["content"] and "backoff" in hit["snippet"]


async def test_nothing_found_says_exactly_what_was_searched(sessions: Path) -> None:
    async with _client(sessions) as session:
        here = await _call(session, "search_sessions", query="sidebar -flaky")
        everywhere = await _call(session, "search_sessions", query="quokka", scope="all")
    assert here == {
        "found": False,
        "searched": {
            "scope": "project",
            "sessions": 2,
            "machines": ["(this machine)"],
            "query": {"terms": ["sidebar"], "excluded": ["flaky"]},
            "project": CWD,
        },
    }
    assert everywhere["found"] is False and everywhere["searched"]["sessions"] == 3


async def test_a_bad_call_is_one_line_to_correct(sessions: Path) -> None:
    async with _client(sessions) as session:
        bad_date = await session.call_tool("search_sessions", {"query": "retry after:2026-13"})
        bad_scope = await session.call_tool("search_sessions", {"query": "x", "scope": "moon"})
    for result, said in ((bad_date, "there is no month 13"), (bad_scope, "scope is one of")):
        assert result.is_error
        (text,) = [block.text for block in result.content if block.type == "text"]
        assert said in text and "\n" not in text and "Traceback" not in text


async def test_a_planted_secret_never_comes_back_unless_asked(sessions: Path) -> None:
    async with _client(sessions) as session:
        hits = await _call(session, "search_sessions", query="safe")
        listed = await _call(session, "list_sessions")
    text = json.dumps([hits, listed])
    assert "Q7Q7Q7" not in text and "[redacted]" in hits["hits"][0]["snippet"]
    async with _client(sessions, "--no-redact") as session:
        raw = await _call(session, "search_sessions", query="safe")
    assert "Q7Q7Q7" in json.dumps(raw)  # as the session holds it (the snippet cuts it)


async def test_list_sessions_gives_the_newest_of_the_scope(sessions: Path) -> None:
    async with _client(sessions) as session:
        here = await _call(session, "list_sessions")
        everywhere = await _call(session, "list_sessions", scope="all", query="web")
    assert sorted(row["sessionId"] for row in here["sessions"]) == ["fix-retry", "keys"]
    assert [row["sessionId"] for row in everywhere["sessions"]] == ["web"]
    assert everywhere["sessions"][0]["project"] == "/home/ada/code/web"
