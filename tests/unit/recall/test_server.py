"""``ink-tui mcp`` as an agent meets it: the official SDK's own client over stdio, against a
small archive. Every cited entry is checked against the file it names; a search that finds
nothing says what was searched; a bad call is one line; a planted secret never comes back."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from inksessions import ink_session
from mcpclient import CWD, connected
from mcpclient import call as _call

from ink_tui.recall.server import TOOLS

SECRET = "sk-ant-api03-" + "Q7" * 40  # a planted key (not a real one)


def _write(
    base: Path, name: str, prompts: list[str], cwd: str = CWD, reply: str | None = None
) -> Path:
    return ink_session(base, cwd, name, prompts, reply=reply, model="p/m", usage=(10, 5))


@pytest.fixture
def sessions(tmp_path: Path) -> Path:
    base = tmp_path / "sessions"
    _write(base, "fix-retry", ["the flaky retry test fails on CI", "use exponential backoff"])
    _write(base, "keys", [f"my key is {SECRET} keep it safe"])
    _write(base, "web", ["style the sidebar"], cwd="/home/ada/code/web")
    return base


async def test_the_tools_are_listed_read_only(sessions: Path) -> None:
    async with connected(sessions) as session:
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
    assert set(tools) == set(TOOLS)
    for tool in tools.values():
        assert tool.annotations is not None and tool.annotations.read_only_hint
        assert tool.input_schema["type"] == "object"


async def test_every_hit_cites_an_entry_of_its_file_that_holds_the_words(sessions: Path) -> None:
    async with connected(sessions) as session:
        answer = await _call(session, "search_sessions", query="backoff")
    assert answer["found"] is True
    (hit,) = answer["hits"]
    assert hit["sessionId"] == "fix-retry" and hit["machine"] is None
    records = [json.loads(line) for line in Path(hit["file"]).read_text().splitlines()]
    cited = next(record for record in records if record.get("id") == hit["entryId"])
    assert "backoff" in cited["message"]["content"] and "backoff" in hit["snippet"]


async def test_nothing_found_says_exactly_what_was_searched(sessions: Path) -> None:
    async with connected(sessions) as session:
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
    async with connected(sessions) as session:
        bad_date = await session.call_tool("search_sessions", {"query": "retry after:2026-13"})
        bad_scope = await session.call_tool("search_sessions", {"query": "x", "scope": "moon"})
    for result, said in ((bad_date, "there is no month 13"), (bad_scope, "scope is one of")):
        assert result.is_error
        (text,) = [block.text for block in result.content if block.type == "text"]
        assert said in text and "\n" not in text and "Traceback" not in text


async def test_a_planted_secret_never_comes_back_unless_asked(sessions: Path) -> None:
    async with connected(sessions) as session:
        hits = await _call(session, "search_sessions", query="safe")
        listed = await _call(session, "list_sessions")
    text = json.dumps([hits, listed])
    assert "Q7Q7Q7" not in text
    assert re.search(r"-key:[0-9a-f]{8}\] keep it safe$", hits["hits"][0]["snippet"])
    assert hits["hits"][0]["sessionSecrets"] == 1
    (keys,) = [row for row in listed["sessions"] if row["sessionId"] == "keys"]
    assert keys["secrets"] == {"anthropic-key": 1}
    async with connected(sessions, "--no-redact") as session:
        raw = await _call(session, "search_sessions", query="safe")
        read = await _call(session, "read_session", session="keys")
    assert "Q7Q7Q7" not in json.dumps(raw)  # the index never holds a secret
    assert "Q7Q7Q7" in json.dumps(read)  # the session, as it holds it


async def test_list_sessions_gives_the_newest_of_the_scope(sessions: Path) -> None:
    async with connected(sessions) as session:
        here = await _call(session, "list_sessions")
        everywhere = await _call(session, "list_sessions", scope="all", query="web")
    assert sorted(row["sessionId"] for row in here["sessions"]) == ["fix-retry", "keys"]
    assert [row["sessionId"] for row in everywhere["sessions"]] == ["web"]
    assert everywhere["sessions"][0]["project"] == "/home/ada/code/web"


def _conversation(base: Path, name: str, turns: int, reply: str = "done") -> Path:
    """A session of ``turns`` prompts, each answered."""
    return _write(base, name, [f"prompt number {n}" for n in range(1, turns + 1)], reply=reply)


async def test_read_session_cites_every_block_and_keeps_to_its_budget(sessions: Path) -> None:
    path = _conversation(sessions, "long", 40, reply="a reply " * 40)
    async with connected(sessions) as session:
        whole = await _call(session, "read_session", session="long", budget_tokens=100_000)
        cut = await _call(session, "read_session", session=str(path), budget_tokens=1000)
        turn = await _call(session, "read_session", session="long", entry_id="a7")
        span = await _call(session, "read_session", session="long", turns="39:last")
    assert whole["omitted"] is None and whole["turns"] == 40 and len(whole["blocks"]) == 80
    records = {json.loads(line)["id"] for line in path.read_text().splitlines()[1:]}
    assert {block["entryId"] for block in whole["blocks"]} <= records
    assert cut["tokens"] <= 1000 and cut["budget"] == 1000
    kept = [block["entryId"] for block in cut["blocks"]]
    assert kept[0] == "u1" and kept[-1] == "a40"  # the start and the latest work: the middle goes
    omitted = cut["omitted"]
    assert omitted["blocks"] == 80 - len(kept) and omitted["afterEntry"] in kept
    assert omitted["ask"].startswith(f'read_session with turns="{omitted["turns"]}"')
    assert [block["entryId"] for block in turn["blocks"]] == ["u7", "a7"]
    assert [block["turn"] for block in span["blocks"]] == [39, 39, 40, 40]


async def test_read_session_cuts_a_huge_record_to_fit_and_says_so(sessions: Path) -> None:
    _conversation(sessions, "huge", 2, reply="x" * 5_000_000)
    async with connected(sessions) as session:
        answer = await _call(session, "read_session", session="huge", budget_tokens=2000)
        bad = await session.call_tool("read_session", {"session": "huge", "turns": "two:3"})
        gone = await session.call_tool("read_session", {"session": "nothing-like-it"})
    assert answer["tokens"] <= 2000 and answer["blocks"][-1]["entryId"] == "a2"
    assert "more characters cut (the budget)" in answer["blocks"][-1]["text"]
    for result, said in ((bad, "give A:B with numbers"), (gone, "no session matching")):
        assert result.is_error
        (text,) = [block.text for block in result.content if block.type == "text"]
        assert said in text and "\n" not in text


def test_ink_tui_read_gives_agents_without_mcp_the_same_answer(
    sessions: Path, cli: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    _conversation(sessions, "long", 30, reply="a reply " * 40)
    monkeypatch.setenv("INK_SESSIONS_DIR", str(sessions))
    code, out, err = cli.run("--cwd", CWD, "read", "long", "--budget", "800")
    assert (code, err) == (0, "")
    assert out.startswith("[turn 1 · 11:01:00 · u1] user\nprompt number 1\n")
    assert "blocks (turns " in out and "left out for the budget: ink-tui read long --turns" in out
    answer = json.loads(cli.run("--cwd", CWD, "read", "long", "--entry", "u7", "--json")[1])
    assert [block["entryId"] for block in answer["blocks"]] == ["u7", "a7"]
    code, _, err = cli.run("--cwd", CWD, "read", "long", "--entry", "u3")  # u3, u30…u39
    assert code == 2 and "starts several entries" in cli.one_error_line(err)
    code, out, err = cli.run("--cwd", CWD, "read", "long", "--entry", "zz")
    assert (code, out) == (2, "") and "no entry 'zz'" in cli.one_error_line(err)
