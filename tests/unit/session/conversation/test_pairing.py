"""Tool-call pairing and the force-quit fill-in (spec §6; ink-source §6)."""

from __future__ import annotations

from typing import Any

import pytest

from ink_tui.session import build_context, open_session, pair_tool_calls
from ink_tui.session.conversation.pairing import FORCE_QUIT_REASON, synthesize_missing_results

Message = dict[str, Any]


def user(text: str = "go") -> Message:
    return {"role": "user", "content": text}


def assistant(*calls: str, text: str = "ok") -> Message:
    blocks: list[dict[str, Any]] = [{"type": "text", "text": text}]
    blocks += [{"type": "toolCall", "id": c, "name": f"tool_{c}", "arguments": {}} for c in calls]
    return {"role": "assistant", "blocks": blocks, "usage": {}, "stopReason": "tool_use"}


def results(*ids: str) -> Message:
    return {
        "role": "toolResult",
        "results": [
            {"toolCallId": i, "toolName": f"tool_{i}", "content": "x", "isError": False}
            for i in ids
        ],
    }


def duplicate_call(call: str) -> str:
    return (
        f"tool call {call} is declared more than once — the transcript cannot be paired "
        "unambiguously (start a new task instead)"
    )


def orphan(call: str) -> str:
    return (
        f"a tool result for {call} has no preceding tool call — the transcript is not "
        "continuable (start a new task instead)"
    )


def duplicate_result(call: str) -> str:
    return (
        f"the tool result for {call} is recorded more than once — the transcript is not "
        "continuable (start a new task instead)"
    )


def boundary(role: str, *calls: str) -> str:
    """Ink's turn-boundary refusal (``child-resume.ts@b1deda4d``)."""
    return (
        f"a new {role} message begins a turn while tool call(s) {', '.join(calls)} are still "
        "awaiting results — the transcript cannot be paired unambiguously (start a new task "
        "instead)"
    )


# -- pairing ---------------------------------------------------------------------------------


def test_calls_are_paired_with_message_indices() -> None:
    pairing = pair_tool_calls([user(), assistant("c1", "c2"), results("c2"), results("c1")])
    assert [c.to_json() for c in pairing.calls] == [
        {"id": "c1", "name": "tool_c1", "messageIndex": 1, "resultIndex": 3},
        {"id": "c2", "name": "tool_c2", "messageIndex": 1, "resultIndex": 2},
    ]
    assert pairing.dangling == []
    assert pairing.problem is None


def test_result_error_flag_is_kept() -> None:
    failed = results("c1")
    failed["results"][0]["isError"] = True
    pairing = pair_tool_calls([assistant("c1"), failed])
    assert pairing.calls[0].is_error is True


def test_no_tool_calls_at_all() -> None:
    pairing = pair_tool_calls([user(), assistant(), user()])
    assert pairing.calls == []
    assert pairing.problem is None


def test_dangling_in_the_last_turn_is_continuable() -> None:
    pairing = pair_tool_calls([user(), assistant("c1", "c2", "c3"), results("c2")])
    assert [c.id for c in pairing.dangling] == ["c1", "c3"]
    assert pairing.problem is None


def test_dangling_with_nothing_after_the_last_assistant_is_continuable() -> None:
    pairing = pair_tool_calls([user(), assistant("c1")])
    assert [c.id for c in pairing.dangling] == ["c1"]
    assert pairing.problem is None


def test_user_message_after_dangling_calls_is_refused_naming_the_first() -> None:
    pairing = pair_tool_calls(
        [user(), assistant("c1", "c2"), results("c1"), assistant("c3"), user()]
    )
    # c2 (earlier turn) and c3 (last turn, but a user message follows) are both missing
    assert [c.id for c in pairing.dangling] == ["c2", "c3"]
    # the scan stops at the first boundary: the assistant message that follows c2's batch
    assert pairing.problem == boundary("assistant", "c2")


def test_dangling_in_an_earlier_turn_is_refused() -> None:
    messages = [user(), assistant("c1", "c2"), results("c1"), assistant("c3"), results("c3")]
    assert pair_tool_calls(messages).problem == boundary("assistant", "c2")


def test_last_turn_followed_by_user_is_refused() -> None:
    problem = pair_tool_calls([user(), assistant("c9"), user("again")]).problem
    assert problem == boundary("user", "c9")


def test_boundary_names_every_pending_call_in_declaration_order() -> None:
    messages = [user(), assistant("c3", "c1", "c2"), results("c1"), user("again")]
    assert pair_tool_calls(messages).problem == boundary("user", "c3", "c2")


def test_boundary_is_checked_before_the_message_is_read() -> None:
    # the second assistant message repeats c1, but the boundary before it is met first
    messages = [assistant("c1"), assistant("c1")]
    assert pair_tool_calls(messages).problem == boundary("assistant", "c1")


def test_a_framed_summary_after_a_pending_call_is_a_user_boundary() -> None:
    summary = {"role": "user", "content": "[Branch summary — …]\n\nexplored"}
    assert pair_tool_calls([assistant("c1"), summary]).problem == boundary("user", "c1")


def test_results_only_after_the_last_assistant_is_a_crash_tail() -> None:
    pairing = pair_tool_calls([user(), assistant("c1", "c2", "c3"), results("c2"), results("c3")])
    assert [c.id for c in pairing.dangling] == ["c1"]
    assert pairing.problem is None


def test_duplicate_call() -> None:
    pairing = pair_tool_calls([assistant("c1"), results("c1"), assistant("c1"), results("c1")])
    assert pairing.duplicate_calls == ["c1"]
    assert pairing.problem == duplicate_call("c1")


def test_orphan_result() -> None:
    pairing = pair_tool_calls([user(), results("ghost"), assistant("c1"), results("c1")])
    assert pairing.orphan_results == ["ghost"]
    assert pairing.problem == orphan("ghost")


def test_result_before_its_call_is_an_orphan() -> None:
    pairing = pair_tool_calls([results("c1"), assistant("c1"), results("c1")])
    assert pairing.problem == orphan("c1")


def test_duplicate_result() -> None:
    pairing = pair_tool_calls([assistant("c1"), results("c1"), results("c1")])
    assert pairing.duplicate_results == ["c1"]
    assert pairing.problem == duplicate_result("c1")


def test_duplicate_result_in_one_message() -> None:
    assert pair_tool_calls([assistant("c1"), results("c1", "c1")]).problem == duplicate_result("c1")


@pytest.mark.parametrize(
    ("messages", "problem"),
    [
        # orphan met before the duplicate call
        ([results("o"), assistant("c"), assistant("c")], orphan("o")),
        # duplicate call met before the orphan
        ([assistant("c"), results("c"), assistant("c"), results("o")], duplicate_call("c")),
        # duplicate result met before the orphan inside one message
        ([assistant("c"), results("c"), results("c", "o")], duplicate_result("c")),
        # orphan first inside one message
        ([assistant("c"), results("c"), results("o", "c")], orphan("o")),
        # the boundary after a dangling call comes before a later duplicate result
        ([assistant("d"), user(), assistant("c"), results("c", "c")], boundary("user", "d")),
    ],
    ids=[
        "orphan-first",
        "dup-call-first",
        "dup-result-first",
        "orphan-in-message",
        "boundary-first",
    ],
)
def test_the_first_problem_met_wins(messages: list[Message], problem: str) -> None:
    assert pair_tool_calls(messages).problem == problem


def test_pairing_from_a_session_file(sf: Any) -> None:
    path = sf.write(
        sf.user("a", None),
        sf.assistant("b", "a", calls=(("c1", "read"), ("c2", "bash"))),
        sf.results("r", "b", ("c1", "read")),
    )
    context = build_context(open_session(path, warn=None))
    pairing = pair_tool_calls(context.messages)
    assert [(c.id, c.name) for c in pairing.dangling] == [("c2", "bash")]
    assert pairing.problem is None


# -- synthesizeMissingToolResults ------------------------------------------------------------


def test_synthesize_closes_every_dangling_call_in_one_message() -> None:
    messages = [user(), assistant("c1", "c2"), results("c1"), assistant("c3"), user()]
    assert synthesize_missing_results(messages, FORCE_QUIT_REASON) == {
        "role": "toolResult",
        "results": [
            {
                "toolCallId": "c2",
                "toolName": "tool_c2",
                "content": "(force quit before this tool ran)",
                "isError": True,
            },
            {
                "toolCallId": "c3",
                "toolName": "tool_c3",
                "content": "(force quit before this tool ran)",
                "isError": True,
            },
        ],
    }


def test_synthesize_nothing_when_all_answered() -> None:
    assert synthesize_missing_results([assistant("c1"), results("c1")], FORCE_QUIT_REASON) is None


def test_synthesize_counts_a_result_anywhere_as_an_answer() -> None:
    # the result comes BEFORE the call (an orphan for the pairing), yet it answers it here
    messages = [results("c1"), assistant("c1", "c2")]
    closed = synthesize_missing_results(messages, "r")
    assert closed is not None
    assert [r["toolCallId"] for r in closed["results"]] == ["c2"]


def test_synthesize_closes_a_repeated_unanswered_id_twice() -> None:
    closed = synthesize_missing_results([assistant("c1"), assistant("c1")], "r")
    assert closed is not None
    assert [r["toolCallId"] for r in closed["results"]] == ["c1", "c1"]


def test_synthesize_keys_in_inks_order() -> None:
    closed = synthesize_missing_results([assistant("c1")], "why")
    assert closed is not None
    assert list(closed) == ["role", "results"]
    assert list(closed["results"][0]) == ["toolCallId", "toolName", "content", "isError"]
