"""A followed branch grows batch by batch to what a fresh open shows (counts, header facts,
labels), and a batch costs what it carries: no whole-session rescan.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from testdata import UNKNOWN_OUTCOME

from ink_tui.session import ModelRef, open_session
from ink_tui.session.conversation.branchview import LoadedBranch, load_branch
from ink_tui.session.live.tail import SessionTail, open_for_follow
from ink_tui.session.writing.writer import SessionWriter

Step = Callable[[SessionWriter], None]


def _assistant(*blocks: dict[str, Any], model: str | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {
        "role": "assistant",
        "blocks": list(blocks),
        "usage": {"inputTokens": 11, "outputTokens": 7, "cacheReadTokens": 3},
        "stopReason": "tool_use" if any(b["type"] == "toolCall" for b in blocks) else "end_turn",
    }
    if model is not None:
        message["modelReference"] = model
    return message


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def _call(call_id: str) -> dict[str, Any]:
    return {"type": "toolCall", "id": call_id, "name": "bash", "arguments": {"command": "ls"}}


def _results(*results: tuple[str, str, bool]) -> dict[str, Any]:
    return {
        "role": "toolResult",
        "results": [
            {"toolCallId": call, "toolName": "bash", "content": text, "isError": error}
            for call, text, error in results
        ],
    }


def _prompt(text: str) -> Step:
    return lambda writer: writer.append_message({"role": "user", "content": text}) and None


def _message(message: dict[str, Any]) -> Step:
    return lambda writer: writer.append_message(message) and None


def _entry(kind: str, **fields: Any) -> Step:
    return lambda writer: writer.append_entry(kind, fields) and None


def _label_first(label: str) -> Step:
    def step(writer: SessionWriter) -> None:
        first = open_session(writer.path, warn=None).entries[0].id
        writer.append_entry("label", {"targetId": first, "label": label})

    return step


def _elsewhere_then_back(writer: SessionWriter) -> None:
    """A thinking change on another branch, then a position back: the leaf stays, the level
    (whole-file order) changes."""
    leaf = writer.leaf_id
    first = open_session(writer.path, warn=None).entries[0].id
    writer.append_entry("thinkingLevelChange", {"thinkingLevel": "xhigh"}, parent_id=first)
    writer.append_position(leaf)


BATCHES: list[list[Step]] = [
    [_prompt("first")],
    [_message(_assistant(_text("thinking about it"), _call("c1"), _call("c2"), model="zai/x"))],
    [_message(_results(("c1", "a\nb", False)))],
    [_message(_results(("c2", "boom", True), ("c1", "again", False)))],  # c1 twice
    [_entry("thinkingLevelChange", thinkingLevel="low"), _entry("session_info", name=" Name ")],
    [_label_first("start")],
    [_prompt("second"), _message(_assistant(_call("c3"), _call("c4")))],
    [_message(_results(("c3", UNKNOWN_OUTCOME, True)))],
    [lambda writer: writer.append_session_model(ModelRef("anthropic", "claude-x"))],
    [_entry("session_info", name="  ")],  # a blank name clears it
    [_entry("thinkingLevelChange", thinkingLevel="bogus")],  # unknown: nothing restored
    [_elsewhere_then_back],
    [_entry("compaction", summary="s", firstKeptEntryId="x", tokensBefore=1)],
    [_label_first(""), _entry("session_info", name="Later")],
]


def _start(tmp_path: Path, header_model: ModelRef | None) -> tuple[SessionWriter, LoadedBranch]:
    writer = SessionWriter.new(tmp_path / "p", "/home/ada/code/calc-kit", model=header_model)
    writer.append_message({"role": "user", "content": "hello"})
    writer.append_message(_assistant(_text("hi"), model="zai/glm"))
    session = open_for_follow(writer.path)
    return writer, load_branch(session, session.leaf_id, models=True)


def _apply(loaded: LoadedBranch, tail: SessionTail) -> None:
    """What following does with a batch (``LiveFollow.on_arrived``)."""
    update = tail.poll()
    assert update.reset is None and not update.problems
    update.apply_to(loaded.session)
    extension = loaded.extension_to(loaded.session.leaf_id)
    assert extension is not None
    loaded.add_labels(update.entries)
    loaded.extend(extension, update.session_models, arrived=update.entries)


@pytest.mark.parametrize("header_model", [None, ModelRef("openai", "gpt-x")])
def test_a_followed_branch_has_the_facts_a_fresh_open_has(
    tmp_path: Path, header_model: ModelRef | None
) -> None:
    writer, loaded = _start(tmp_path, header_model)
    tail = SessionTail(loaded.session)
    for number, batch in enumerate(BATCHES):
        for step in batch:
            step(writer)
        _apply(loaded, tail)
        fresh = load_branch(open_session(writer.path, warn=None), loaded.leaf_id, models=True)
        assert loaded.stats == fresh.stats, number
        assert loaded.header == fresh.header, number
        assert loaded.labels == fresh.labels, number
    assert loaded.header["thinking"] == "xhigh"  # whole-file order: from another branch
    assert loaded.stats.tool_calls == 4 and loaded.stats.tool_errors == 1


class CountingList(list[Any]):
    """A list that counts the walks over it (a whole-session rescan)."""

    walks = 0

    def __iter__(self) -> Iterator[Any]:
        CountingList.walks += 1
        return super().__iter__()

    def __reversed__(self) -> Iterator[Any]:
        CountingList.walks += 1
        return super().__reversed__()


def test_a_batch_costs_what_it_carries_not_a_walk_over_the_session(tmp_path: Path) -> None:
    writer, loaded = _start(tmp_path, None)
    tail = SessionTail(loaded.session)
    loaded.session.entries = CountingList(loaded.session.entries)
    loaded.entries = CountingList(loaded.entries)
    CountingList.walks = 0
    for batch in BATCHES:
        for step in batch:
            step(writer)
        _apply(loaded, tail)
    assert CountingList.walks == 0
