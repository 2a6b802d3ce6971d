"""Ink's fill-in results (spec §6, §8): each recognised once, in the session layer, and shown as
what it says happened in the session view, the CLI replay and the chat.

The chat scenarios run against ``fake_llm`` as the other chat tests do (``chat_kit``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ink_tui.agent.start import load_chat
from ink_tui.session import open_session
from ink_tui.session.conversation.tree import branch
from ink_tui.session.conversation.view import build_turns
from ink_tui.session.rules.fillins import (
    FORCE_QUIT_REASON,
    INTERRUPTED_REASON,
    MAX_TURNS_REASON,
    UNKNOWN_OUTCOME_TEXT,
    fill_in,
    output_limit_text,
    resume_closure,
)
from ink_tui.ui.render.blocks import status_mark

OUTPUT_LIMIT = (
    'Tool call "bash" was not executed: the response hit the output token limit, so its '
    "arguments may be truncated. Re-issue the tool call with complete arguments."
)
ABANDONED = (
    "Tool bash did not respond to the interrupt within 10s — result abandoned; the underlying "
    "process may still be running."
)
NAMED_BLOCK = 'Tool "bash" blocked by extension git-guard: destructive git commands need a yes'
UNNAMED_BLOCK = 'Tool "bash" blocked by an extension: destructive git commands need a yes'


def result(content: Any, is_error: bool = True) -> dict[str, Any]:
    return {"toolCallId": "c1", "toolName": "bash", "content": content, "isError": is_error}


@pytest.mark.parametrize(
    ("text", "label", "ran"),
    [
        (OUTPUT_LIMIT, "not run: output limit", "no"),
        (ABANDONED, "abandoned after interrupt", "maybe"),
        (NAMED_BLOCK, "blocked by extension git-guard", "no"),
        (UNNAMED_BLOCK, "blocked by an extension", "no"),
        (MAX_TURNS_REASON, "not run: max turns", "no"),
        (INTERRUPTED_REASON, "not run: interrupted", "no"),
        (FORCE_QUIT_REASON, "not run: force quit", "no"),
        (UNKNOWN_OUTCOME_TEXT, "unknown outcome", "maybe"),
        (UNKNOWN_OUTCOME_TEXT.replace("[ink]", "[imp]"), "unknown outcome", "maybe"),
    ],
)
def test_each_fill_in_says_what_happened(text: str, label: str, ran: str) -> None:
    said = fill_in(result(text))
    assert said is not None and (said.label, said.ran) == (label, ran)
    said = fill_in(result([{"type": "text", "text": text}]))  # content as blocks
    assert said is not None and said.label == label


def test_the_named_extension_is_kept() -> None:
    said = fill_in(result(NAMED_BLOCK))
    assert said is not None and said.kind == "extension_block" and said.extension == "git-guard"


@pytest.mark.parametrize(
    "given",
    [
        result(OUTPUT_LIMIT, is_error=False),  # a tool's own output quoting the text
        result("Error: command exited 1"),
        result('Tool call "bash" was not executed: for another reason'),
        result(OUTPUT_LIMIT + " And more."),
        result(None),
        {"content": OUTPUT_LIMIT},  # no isError
        None,
    ],
)
def test_other_results_are_not_fill_ins(given: Any) -> None:
    assert fill_in(given) is None


def test_the_output_limit_text_is_inks() -> None:
    assert output_limit_text("bash") == OUTPUT_LIMIT
    assert output_limit_text(None).startswith('Tool call "null" was not executed')


def cut_reply(*calls: tuple[str, str]) -> dict[str, Any]:
    blocks = [{"type": "toolCall", "id": i, "name": n, "arguments": {"x": 1}} for i, n in calls]
    return {"role": "assistant", "blocks": blocks, "usage": {}, "stopReason": "max_tokens"}


def test_a_resume_closes_the_calls_of_a_cut_reply_with_the_output_limit_text() -> None:
    earlier = {**cut_reply(("a1", "read")), "stopReason": "tool_use"}
    messages = [{"role": "user", "content": "go"}, earlier, cut_reply(("c1", "bash"), ("c2", "ls"))]
    closure = resume_closure(messages, UNKNOWN_OUTCOME_TEXT)
    assert closure == {
        "role": "toolResult",
        "results": [
            {
                "toolCallId": "a1",
                "toolName": "read",
                "content": UNKNOWN_OUTCOME_TEXT,
                "isError": True,
            },
            {"toolCallId": "c1", "toolName": "bash", "content": OUTPUT_LIMIT, "isError": True},
            {
                "toolCallId": "c2",
                "toolName": "ls",
                "content": output_limit_text("ls"),
                "isError": True,
            },
        ],
    }
    assert resume_closure(messages[:1], UNKNOWN_OUTCOME_TEXT) is None


# -- what the user sees ------------------------------------------------------------------------


def fill_in_session(sf: Any) -> Path:
    """One call answered by each kind of fill-in, and one real error."""
    texts = [OUTPUT_LIMIT, ABANDONED, NAMED_BLOCK, UNNAMED_BLOCK, INTERRUPTED_REASON, "boom"]
    calls = tuple((f"c{n}", "bash") for n in range(len(texts)))
    results = sf.results("r1", "a1", *calls)
    for item, text in zip(results["message"]["results"], texts, strict=True):
        item.update(content=text, isError=True)
    return sf.write(sf.user("u1", None), sf.assistant("a1", "u1", calls=calls), results)


def test_the_session_view_marks_each_call_as_what_happened(sf: Any) -> None:
    session = open_session(fill_in_session(sf), warn=None)
    (turn,) = build_turns(branch(session))
    marks = [status_mark(tool).plain for tool in turn.tools()]
    assert marks == [
        "⊘ not run: output limit",
        "? abandoned after interrupt",
        "⊘ blocked by extension git-guard",
        "⊘ blocked by an extension",
        "⊘ not run: interrupted",
        "✗ error",
    ]


def test_the_cli_replay_says_what_happened(sf: Any, cli: Any) -> None:
    code, out, _ = cli.run("replay", str(fill_in_session(sf)))
    assert code == 0
    assert "← bash not run: output limit\n" in out
    assert "← bash abandoned after interrupt\n" in out
    assert "← bash blocked by extension git-guard\n" in out
    assert "← bash error\n    boom" in out


@pytest.mark.parametrize("form", ["md", "html"])
def test_an_export_says_what_happened_never_error(sf: Any, cli: Any, form: str) -> None:
    code, out, _ = cli.run("export", str(fill_in_session(sf)), "--format", form)
    assert code == 0
    for said in ("⊘ not run: output limit", "? abandoned after interrupt",
                 "⊘ blocked by extension git-guard", "⊘ not run: interrupted"):  # fmt: skip
        assert said in out
    assert out.count("✗ error") == 1  # only the real failure ("boom")
    if form == "html":
        assert out.count('class="status-fill-in"') == 5


# -- the chat ----------------------------------------------------------------------------------


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_bytes().splitlines() if line.strip()]


async def test_the_chat_never_runs_the_calls_of_a_cut_reply(chat_kit: Any) -> None:
    fake = chat_kit.fake
    command = {"command": "echo ran > ran.txt"}
    fake.anthropic(tool_calls=[("b1", "bash", command)], stop="max_tokens")
    fake.anthropic(text="I will send it again, shorter.")
    path, _ = chat_kit.session({"role": "user", "content": "earlier"}, chat_kit.assistant())
    sink = chat_kit.sink()  # an approval asked would fail the test: none is
    engine = chat_kit.engine(load_chat(path), sink)
    outcome = await engine.send("write it")
    assert outcome.status == "done" and outcome.steps == 2
    assert not (chat_kit.work / "ran.txt").exists() and sink.started == []
    answered = engine.messages[-2]
    assert answered == {
        "role": "toolResult",
        "results": [{**result(OUTPUT_LIMIT), "toolCallId": "b1"}],
    }
    assert any("hit the output token limit" in notice for notice in sink.notices)
    sent = fake.last.body["messages"]  # the model reads Ink's text
    assert sent[-1]["content"][0]["content"] == OUTPUT_LIMIT
    chat_kit.check(engine)


async def test_a_resumed_cut_reply_is_closed_with_the_output_limit_text(chat_kit: Any) -> None:
    cut = {**cut_reply(("c1", "bash")), "usage": {"inputTokens": 3, "outputTokens": 8192}}
    path, _ = chat_kit.session({"role": "user", "content": "earlier"}, cut)
    start = load_chat(path)
    assert start.warning is not None
    assert "hit the output token limit, so Ink never ran its 1 tool call (bash (c1))" in (
        start.warning
    )
    assert "may have partly run" not in start.warning
    chat_kit.fake.anthropic(text="Again, then.")
    engine = chat_kit.engine(start, chat_kit.sink())
    await engine.send("go on")
    closure = records(path)[3]["message"]
    assert closure == {"role": "toolResult", "results": [result(OUTPUT_LIMIT)]}
    chat_kit.check(engine)
