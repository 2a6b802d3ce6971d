"""The chat pane draws a message as the session view's replay draws it: the same rows from the
same entries, each drawn by the same block (a prompt with its image, Markdown, thinking, calls
with their results and statuses, an edit as a diff, a written file highlighted, output with its
colours only, a fill-in result, an odd shape marked ⚠, a result without its call, a compaction).
What differs is the chat's own: the keys it names, calls it waits on, a user message shown
before it is written, and the last messages only (from a call, never from its result alone).

A harness app hosts the chat log alone; the replay's blocks are drawn with the replay's options
(thinking shown, as the chat shows it) for the rows the session view builds from the file."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from rich.console import Console, RenderableType
from rich.segment import Segment
from textual.app import App, ComposeResult

from ink_tui.session.conversation.branchview import load_branch
from ink_tui.session.conversation.view import Item, Turn
from ink_tui.session.reading.reader import open_session
from ink_tui.session.rules.fillins import UNKNOWN_OUTCOME_TEXT
from ink_tui.session.writing.writer import SessionWriter
from ink_tui.ui.render.blocks import RenderOptions, item_block, turn_block
from ink_tui.ui.widgets.chat_entries import chat_history, written_entries
from ink_tui.ui.widgets.chat_log import ChatLog
from ink_tui.ui.widgets.chat_rows import ChatRow

WIDTH = 100
SIZE = (WIDTH + 2, 60)  # (the log's padding)
PNG = "iVBORw0KGgo" * 40
EDIT = {"path": "calc.py", "edits": [{"oldText": "return 5", "newText": "return sum(xs)"}]}
WRITE = {"path": "tools/util.py", "content": "def double(x: int) -> int:\n    return x * 2\n"}
CALLS = [
    ("c1", "bash", {"command": "pytest -q"}),
    ("c2", "edit", EDIT),
    ("c3", "write", WRITE),
    ("c4", "read", {"path": "shot.png"}),
    ("c5", "lookup", {"query": "retry", "limit": 3}),
    ("c6", "bash", {"command": "make"}),
]
RESULTS = [
    ("c1", "\x1b[32m3 passed\x1b[0m in 0.2s\x1b]0;title\x07", False),  # colours, no escapes
    ("c2", "Edited calc.py", False),
    ("c3", "Wrote 2 lines", False),
    ("c4", [{"type": "text", "text": "shot.png:"}, {"type": "image", "data": PNG}], False),
    ("c5", "no such tool: lookup", True),
    ("c6", UNKNOWN_OUTCOME_TEXT, True),  # Ink's fill-in: it may have partly run
]


def _call(call_id: str, name: str, arguments: Any) -> dict[str, Any]:
    return {"type": "toolCall", "id": call_id, "name": name, "arguments": arguments}


def _result(call_id: str, content: Any, error: bool) -> dict[str, Any]:
    name = next(name for known, name, _ in CALLS if known == call_id)
    return {"toolCallId": call_id, "toolName": name, "content": content, "isError": error}


def _every_kind(tmp_path: Path) -> Path:
    """A session holding every kind of row the replay draws."""
    writer = SessionWriter.new(tmp_path, "/work/calc")
    prompt = [
        {"type": "text", "text": "Fix the tests; here is the failure:"},
        {"type": "image", "data": PNG, "mimeType": "image/png"},
    ]
    writer.append_message({"role": "user", "content": prompt})
    blocks = [
        {"type": "thinking", "thinking": "The sum is hard-coded.", "signature": "s"},
        {"type": "text", "text": "Let me **look**:\n\n```python\nprint(total([1, 2]))\n```"},
        *(_call(*call) for call in CALLS),
    ]
    writer.append_message({"role": "assistant", "blocks": blocks, "stopReason": "toolUse"})
    results = [_result(*result) for result in RESULTS]
    writer.append_message({"role": "toolResult", "results": results})
    writer.append_message({"role": "assistant", "blocks": "not a list"})
    orphan = {"toolCallId": "gone", "toolName": "bash", "content": "left over", "isError": False}
    writer.append_message({"role": "toolResult", "results": [orphan]})
    kept = [{"role": "user", "content": "keep this"}]
    summary = {"summary": "## Goal\nFix the sum.", "retainedTail": kept, "tokensBefore": 900}
    writer.append_entry("compaction", summary)
    writer.append_message({"role": "user", "content": "and now?"})
    return writer.path


def _segments(renderable: RenderableType | None) -> list[list[Segment]]:
    """What a renderable paints at :data:`WIDTH`: every segment, with its style."""
    console = Console(file=io.StringIO(), width=WIDTH, color_system="truecolor")
    return console.render_lines(renderable or "", console.options, pad=False)


def _text(renderable: Any) -> str:
    lines = _segments(renderable)
    return "\n".join("".join(segment.text for segment in line).rstrip() for line in lines)


def _rows(log: ChatLog) -> list[ChatRow]:
    return list(log.query(ChatRow))


class LogApp(App[None]):
    """The chat log by itself."""

    def compose(self) -> ComposeResult:
        yield ChatLog(id="chat-log")

    def on_mount(self) -> None:
        self.query_one(ChatLog).ready()


async def test_each_kind_of_message_is_drawn_as_the_replay_draws_it(tmp_path: Path) -> None:
    path = _every_kind(tmp_path)
    session = open_session(path)
    replay = load_branch(session, session.leaf_id)  # the session view's rows
    shown_in_replay: dict[str, Turn | Item] = {}
    for turn in replay.turns:
        shown_in_replay[turn.key] = turn
        shown_in_replay.update((item.key, item) for item in turn.items)
    replay_options = RenderOptions(show_thinking=True)
    app = LogApp()
    async with app.run_test(size=SIZE):
        log = app.query_one(ChatLog)
        log.show_history(chat_history(open_session(path), session.leaf_id))
        kinds: list[str] = []
        for row in _rows(log):
            same = shown_in_replay[row.row.key]
            if isinstance(same, Turn):
                kinds.append("prompt")
                expected = turn_block(same, 0)
            else:
                kinds.append(same.tool.name if same.tool is not None else same.kind)
                expected = item_block(same, replay_options)
            assert _segments(row.content) == _segments(expected), kinds[-1]  # type: ignore[arg-type]
        drawn = _text(log.query_one(ChatRow).content)
        shown = "\n".join(_text(row.content) for row in _rows(log))
    assert kinds == [
        *("prompt", "thinking", "text", "bash", "edit", "write", "read", "lookup", "bash"),
        *("oddity", "orphan_result", "compaction", "prompt"),
    ]
    assert "[image image/png, 0.3 KB]" in drawn  # the prompt's image, as a placeholder
    for seen in (
        "● bash  pytest -q  ✓ ok\n  $ pytest -q\n  3 passed in 0.2s␛]0;title␇",  # colours only
        "  @@ -1 +1 @@\n  -return 5\n  +return sum(xs)",  # the edit as a diff
        "  1 def double(x: int) -> int:",  # the written file, highlighted and numbered
        "● read  shot.png  ✓ ok\n  shot.png:\n  [image image, 0.3 KB]",
        "● lookup  retry  ✗ error",
        "● bash  make  ? unknown outcome",  # Ink's fill-in, in its words
        '⚠ blocks is a string "not a list", not a list (as the file holds it)',
        "⚠ tool result with no call\nleft over",
        "⟳ compaction · 900 tokens before · kept 1 message as the retained tail",
    ):
        assert seen in shown


async def test_the_chat_names_its_own_keys_where_the_replay_names_its_own(
    tmp_path: Path,
) -> None:
    writer = SessionWriter.new(tmp_path, "/work/calc")
    writer.append_message({"role": "user", "content": "list it"})
    thought = {"type": "thinking", "thinking": "a long list", "signature": "s"}
    blocks = [thought, _call("c1", "bash", {"command": "seq 20"})]
    writer.append_message({"role": "assistant", "blocks": blocks})
    output = "\n".join(str(n) for n in range(1, 21))
    writer.append_message({"role": "toolResult", "results": [_result("c1", output, False)]})
    session = open_session(writer.path)
    thinking, call = load_branch(session, session.leaf_id).turns[-1].items
    replay = RenderOptions()  # thinking hidden, output cut: the replay's first look
    app = LogApp()
    async with app.run_test(size=SIZE):
        log = app.query_one(ChatLog)
        log.show_history(chat_history(session, session.leaf_id))
        log.set_show_thinking(False)
        chat_thinking, chat_call = (_text(row.content) for row in _rows(log)[1:])
    assert _text(item_block(thinking, replay)) == "▸ thinking (11 chars, t to show)"
    assert chat_thinking == "▸ thinking (11 chars, ctrl+t to show)"
    assert _text(item_block(call, replay)).endswith("  12\n  … 8 more lines (o: show all)")
    assert chat_call.endswith("  12\n  … 8 more lines")  # no key shows it whole here
    assert chat_call.removesuffix("… 8 more lines") == _text(item_block(call, replay)).removesuffix(
        "… 8 more lines (o: show all)"
    )


async def test_a_call_waits_then_shows_its_result_in_the_same_row(tmp_path: Path) -> None:
    app = LogApp()
    async with app.run_test(size=SIZE):
        log = app.query_one(ChatLog)
        log.add_unsent("run both")
        [unsent] = _rows(log)
        assert _text(unsent.content) == "▌ You\n  run both"  # shown at once, no id yet
        user = {"role": "user", "content": "run both"}
        calls = [_call("c1", "bash", {"command": "ls"}), _call("c2", "bash", {"command": "df"})]
        reply = {"role": "assistant", "blocks": calls}
        log.add_written(written_entries([_record("u1", user), _record("a1", reply)]))
        prompt, first, second = _rows(log)
        assert prompt is unsent and _text(prompt.content) == "▌ You  u1\n  run both"
        assert _text(first.content) == "● bash  ls  … waiting\n  $ ls\n  … waiting for the result"
        results = {"role": "toolResult", "results": [_result("c1", "a.txt", False)]}
        log.add_written(written_entries([_record("r1", results)]))
        assert _rows(log)[1] is first  # drawn again in place
        assert _text(first.content) == "● bash  ls  ✓ ok\n  $ ls\n  a.txt"
        assert "… waiting" in _text(second.content)
        log.turn_ended()  # its result never came: as the replay shows such a call
        assert (
            _text(second.content) == "● bash  df  … no result\n  $ df\n  … no result (interrupted)"
        )


def _record(entry_id: str, message: dict[str, Any]) -> dict[str, Any]:
    return {"type": "message", "id": entry_id, "parentId": None, "message": message}


async def test_what_was_written_before_the_user_message_goes_above_it(tmp_path: Path) -> None:
    app = LogApp()
    async with app.run_test(size=SIZE):
        log = app.query_one(ChatLog)
        log.add_unsent("next question")
        log.note("compacting…")
        compaction = {
            "type": "compaction",
            "id": "k1",
            "parentId": None,
            "summary": "The story so far.",
            "retainedTail": [],
            "tokensBefore": 5000,
        }
        user = _record("u2", {"role": "user", "content": "next question"})
        log.add_written(written_entries([compaction, user]))
        texts = [_text(row.content) for row in _rows(log)]
    assert texts[0].startswith("⟳ compaction · 5000 tokens before")
    assert texts[1] == "▌ You  u2\n  next question"
    assert len(texts) == 2  # the message shown is the one written


def test_the_last_messages_start_at_a_call_never_at_its_result_alone(tmp_path: Path) -> None:
    writer = SessionWriter.new(tmp_path, "/work/calc")
    writer.append_message({"role": "user", "content": "first"})
    writer.append_message({"role": "assistant", "blocks": [_call("c1", "bash", {"command": "ls"})]})
    writer.append_message({"role": "toolResult", "results": [_result("c1", "a.txt", False)]})
    writer.append_message({"role": "assistant", "blocks": [{"type": "text", "text": "done"}]})
    session = open_session(writer.path)
    history = chat_history(session, session.leaf_id, messages=2)
    roles = [entry.record["message"]["role"] for entry in history.entries]
    assert roles == ["assistant", "toolResult", "assistant"]
    assert history.earlier == 1  # the prompt before them, counted on the line at the top
