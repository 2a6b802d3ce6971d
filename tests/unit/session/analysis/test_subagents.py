"""Which child session a ``task`` call launched (ink_tui.session.analysis.subagents), on the
subagent
family of tests/data: named by a result's taskRecord, or, for a call still running, found among
the session's children by its prompt; and what the command line does with a child."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from testdata import copy_family

from ink_tui.session.analysis.subagents import (
    call_child,
    child_heads,
    child_of_task,
    launched_child,
    launching_call,
    named_children,
    read_child_head,
    task_calls,
)
from ink_tui.session.conversation.branchview import load_branch
from ink_tui.session.reading import firstline
from ink_tui.session.reading.reader import open_session

PARENT_ID = "5a6e7d10-0000-4000-8000-000000000001"
RUNNING_PROMPT = "Run the slow test suite and report failures."


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _task_results(path: Path) -> list[Any]:
    return [
        result
        for record in _records(path)[1:]
        if record["message"]["role"] == "toolResult"
        for result in record["message"]["results"]
    ]


def test_a_childs_head_names_its_parent_start_and_first_prompt(tmp_path: Path) -> None:
    family = copy_family(tmp_path)
    head = read_child_head(family.running)
    assert head is not None
    assert (head.parent, head.started, head.prompt) == (
        PARENT_ID,
        "2026-11-20T09:04:05.000Z",
        RUNNING_PROMPT,
    )
    assert read_child_head(tmp_path / "nowhere.jsonl") is None
    assert [h.path for h in child_heads(family.parent, PARENT_ID)] == [family.done, family.running]
    assert child_heads(family.parent, "someone else") == []


def test_a_childs_first_prompt_is_found_past_blank_odd_and_over_long_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    family = copy_family(tmp_path)
    lines = family.running.read_bytes().split(b"\n")
    header, rest = lines[0], lines[1:]
    limit = len(header) + 100
    monkeypatch.setattr(firstline, "HEADER_LINE_LIMIT", limit)
    long_line = json.dumps({"type": "label", "text": "x" * limit}).encode()
    family.running.write_bytes(b"\n".join([header, b"", b"not json", long_line, *rest]))
    head = read_child_head(family.running)
    assert head is not None and head.prompt == RUNNING_PROMPT
    family.running.write_bytes(header + b" " * 200 + b"\n" + b"\n".join(rest))
    assert read_child_head(family.running) is None  # a header longer than the limit: unread


def test_each_call_of_the_family_finds_its_child_or_none(tmp_path: Path) -> None:
    family = copy_family(tmp_path)
    done, missing = _task_results(family.parent)
    claimed = named_children([done, missing])
    assert claimed == {"c41a0000-0000-4000-8000-00000000000a", family.missing_id}
    assert call_child(family.parent, PARENT_ID, done, {}, "", claimed) == family.done
    assert call_child(family.parent, PARENT_ID, missing, {}, "", claimed) is None
    running = {"prompt": RUNNING_PROMPT, "agent": "tester"}
    since = "2026-11-20T09:04:04.000Z"
    assert call_child(family.parent, PARENT_ID, None, running, since, claimed) == family.running


def test_a_running_call_prefers_the_child_given_its_prompt(tmp_path: Path) -> None:
    family = copy_family(tmp_path)
    since = "2026-11-20T09:00:00.000Z"
    # Both children started after the call; the prompt picks the later one, else the first.
    assert launched_child(family.parent, PARENT_ID, RUNNING_PROMPT, since) == family.running
    assert launched_child(family.parent, PARENT_ID, "another prompt", since) == family.done
    claimed = {"c41a0000-0000-4000-8000-00000000000a"}
    assert launched_child(family.parent, PARENT_ID, None, since, claimed) == family.running
    # A child that started before the call is not its child.
    assert launched_child(family.parent, PARENT_ID, RUNNING_PROMPT, "2026-11-21") is None


def test_context_and_check_work_on_a_child(
    tmp_path: Path, cli: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    family = copy_family(tmp_path / "sessions")
    monkeypatch.setenv("INK_SESSIONS_DIR", str(tmp_path / "sessions"))
    code, out, err = cli.run("context", "c41a0000", "--json")  # an id prefix reaches children/
    assert (code, err) == (0, "")
    messages = json.loads(out)["messages"]
    assert messages[0]["content"].startswith("Review calc/stats.py")
    code, out, _err = cli.run("check", str(family.running))
    assert code == 1 and "call" in out  # its bash call waits for a result: dangling


def test_the_branch_s_calls_and_the_call_that_launched_each_child(tmp_path: Path) -> None:
    """On the parent's branch as the session view holds it: each task call's child, and back
    from a child (a search hit inside it) to the call that launched it."""
    family = copy_family(tmp_path)
    turns = load_branch(open_session(family.parent, warn=None), None).turns
    done, missing, running = task_calls(turns)
    assert [call.key for call in (done, missing, running)] == ["a1:1", "a3:0", "a5:0"]
    assert child_of_task(family.parent, PARENT_ID, turns, done) == family.done
    assert child_of_task(family.parent, PARENT_ID, turns, missing) is None
    assert child_of_task(family.parent, PARENT_ID, turns, running) == family.running
    assert launching_call(family.parent, PARENT_ID, turns, family.done) is done  # named
    assert launching_call(family.parent, PARENT_ID, turns, family.running) is running  # by prompt
    assert launching_call(family.parent, PARENT_ID, turns, family.parent) is None  # not a child
