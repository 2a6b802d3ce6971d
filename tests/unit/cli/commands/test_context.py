"""``ink-tui context`` (the context Ink would rebuild) on the project's own sessions, and
session text shown safely on the command line (``context`` and ``check``, ``repair``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from testdata import copy_session, torn_note

from ink_tui.session import ModelRef
from ink_tui.session.writing.writer import SessionWriter

HOME_CWD = "/home/ada/code/calc-kit"
USER, ASSISTANT, RESULT = "user", "assistant", "toolResult"
SUMMARY = (
    "[Conversation summary — earlier messages were compacted to save context space. Treat this "
    "as established context, not as a new request.]\n\nThe user asked why tests failed"
)
CONTEXTS = {  # case -> (leaf, compaction boundary, roles, {index: the text it starts with})
    "minimal": ("a1", 0, [USER, ASSISTANT], {0: "What does stats.mean return"}),
    "compaction": (
        "a6",
        3,
        [USER, USER, ASSISTANT, USER, ASSISTANT, RESULT, ASSISTANT],
        {0: SUMMARY, 1: "Yes, do that.", 2: "Done: `mean([])`", 3: "Now add a test for it."},
    ),
    "branch-position": (
        "a3",
        0,
        [USER, ASSISTANT, USER, ASSISTANT],
        {0: "Add a median function", 2: "No: write it by hand.", 3: "Written by hand"},
    ),
    "torn-half": (
        "r2",
        0,
        [USER, ASSISTANT, RESULT, ASSISTANT, USER, ASSISTANT, RESULT],
        {0: "Run the tests", 4: "Yes, do that."},
    ),
    "image-block": (
        "a2",
        0,
        [USER, ASSISTANT, RESULT, ASSISTANT],
        {0: "What is wrong in this plot?"},
    ),
}


def _text(message: dict[str, Any]) -> str:
    if message["role"] == USER:
        content = message["content"]
        return content if isinstance(content, str) else content[0]["text"]
    if message["role"] == ASSISTANT:
        return "".join(b.get("text", "") for b in message["blocks"])
    return str(message["results"][0]["content"])


@pytest.mark.parametrize("case", CONTEXTS)
def test_context_json_is_the_rebuilt_context(case: str, tmp_path: Path, cli: Any) -> None:
    path = copy_session(tmp_path, case)
    code, out, err = cli.run("context", "--json", str(path))
    assert code == 0
    if case != "torn-half":
        assert err == ""
    context = json.loads(out)
    leaf, boundary, roles, texts = CONTEXTS[case]
    assert list(context) == ["ok", "leafId", "compacted", "compactionBoundary", "messages"]
    assert (context["ok"], context["leafId"]) == (True, leaf)
    assert (context["compacted"], context["compactionBoundary"]) == (boundary > 0, boundary)
    assert [message["role"] for message in context["messages"]] == roles
    for index, start in texts.items():
        assert _text(context["messages"][index]).startswith(start), index


def test_context_json_keeps_image_blocks(tmp_path: Path, cli: Any) -> None:
    path = copy_session(tmp_path, "image-block")
    messages = json.loads(cli.run("context", "--json", str(path))[1])["messages"]
    image = messages[0]["content"][1]
    assert (image["type"], image["mimeType"]) == ("image", "image/png")
    assert image["data"].startswith("iVBORw0KGgo")
    assert messages[2]["results"][0]["content"][0]["type"] == "image"


def test_context_notes_the_dropped_torn_line_as_ink_does(tmp_path: Path, cli: Any) -> None:
    path = copy_session(tmp_path, "torn-half")
    code, _, err = cli.run("context", "--json", str(path))
    assert (code, err) == (0, torn_note(path))


def test_context_json_on_interior_corruption(tmp_path: Path, cli: Any) -> None:
    path = copy_session(tmp_path, "interior-corrupt")
    code, out, err = cli.run("context", "--json", str(path))
    assert code == 2
    result = json.loads(out)
    assert result["ok"] is False
    assert result["error"].startswith("session line 6: invalid JSON (")
    cli.one_error_line(err, naming=path.name)


def test_context_text_lists_every_message(tmp_path: Path, cli: Any) -> None:
    path = copy_session(tmp_path, "compaction")
    code, out, _ = cli.run("context", str(path))
    assert code == 0
    assert out.startswith("(compacted: the first 3 messages are the floor)\n[0] compaction summary")
    assert "[6] assistant anthropic/claude-sonnet-4-5\n    Added tests/test_mean_empty.py.\n" in out
    assert "[7] " not in out


# -- escape sequences in session text ----------------------------------------------------------

HOSTILE_PROMPT = "title \x1b]0;pwned\x07 then clear \x1b[2J done"


def write_hostile_session(folder: Path) -> Path:
    writer = SessionWriter.new(folder, HOME_CWD, model=ModelRef("anthropic", "claude-sonnet-4-5"))
    writer.append_message({"role": "user", "content": HOSTILE_PROMPT})
    writer.append_message(
        {
            "role": "assistant",
            "blocks": [{"type": "text", "text": "ok \x1b[31mred\x1b[0m \x9b2J"}],
            "usage": {"inputTokens": 1, "outputTokens": 1},
            "stopReason": "end_turn",
            "model": "claude-sonnet-4-5",
            "modelReference": "anthropic/claude-sonnet-4-5",
        }
    )
    return writer.path


def test_context_text_shows_escape_sequences_visibly(tmp_path: Path, cli: Any) -> None:
    path = write_hostile_session(tmp_path / "hostile")
    code, out, _ = cli.run("context", str(path))
    assert code == 0
    assert "\x1b" not in out
    assert "\x07" not in out
    assert "\x9b" not in out
    assert "␛]0;pwned␇" in out
    assert "␛[2J" in out


def test_context_text_never_emits_a_raw_escape_byte(tmp_path: Path, cli: Any) -> None:
    path = write_hostile_session(tmp_path / "hostile")
    done = cli.process("context", str(path))
    assert done.returncode == 0
    assert b"\x1b" not in done.stdout
    assert b"\x07" not in done.stdout
    assert "␛]0;pwned".encode() in done.stdout
    assert done.stderr == b""


def test_check_text_shows_a_hostile_session_safely(tmp_path: Path, cli: Any) -> None:
    path = write_hostile_session(tmp_path / "hostile")
    code, out, _ = cli.run("check", str(path))
    assert code == 0
    assert "\x1b" not in out


def test_repair_refusal_shows_hostile_call_ids_visibly(tmp_path: Path, cli: Any) -> None:
    writer = SessionWriter.new(
        tmp_path / "hostile", HOME_CWD, model=ModelRef("anthropic", "claude-sonnet-4-5")
    )
    hostile_id = "call_\x1b]0;pwned\x07"
    writer.append_message({"role": "user", "content": "go"})
    writer.append_message(
        {
            "role": "toolResult",
            "results": [
                {"toolCallId": hostile_id, "toolName": "bash", "content": "x", "isError": False}
            ],
        }
    )
    code, _, err = cli.run("repair", str(writer.path))
    assert code == 2
    assert "\x1b" not in err


def test_check_error_shows_hostile_entry_type_visibly(tmp_path: Path, cli: Any) -> None:
    stamp = "2026-10-05T12:34:56.789Z"
    records = [
        {"type": "session", "version": 1, "id": "abc", "timestamp": stamp, "cwd": "/p"},
        {"type": "\x1b[2Jweird", "id": "x1", "parentId": None, "timestamp": stamp},
        {
            "type": "message",
            "id": "x2",
            "parentId": None,
            "timestamp": stamp,
            "message": {"role": "user", "content": "hi"},
        },
    ]
    path = tmp_path / "esc-type.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    code, _, err = cli.run("check", str(path))
    assert code == 2
    assert "unknown entry type" in err
    assert "\x1b" not in err


# -- a big branch streams ------------------------------------------------------------------------


def _long_session(sf: Any, turns: int) -> Path:
    """A branch of ``turns`` prompts and answers (``2 * turns + 1`` records), one tool call in
    it."""
    items = [sf.user("u0", None, "start")]
    parent = "u0"
    for n in range(1, turns):
        if n == 3:
            items.append(sf.assistant(f"a{n}", parent, calls=(("c1", "read"),)))
            items.append(sf.results(f"r{n}", f"a{n}", ("c1", "read")))
            parent = f"r{n}"
        items.append(sf.user(f"u{n}", parent, f"prompt {n} {'x' * 40}"))
        items.append(sf.assistant(f"a{n}x", f"u{n}", text=f"answer {n}"))
        parent = f"a{n}x"
    return Path(sf.write(*items))


def test_context_json_streamed_in_batches_is_the_whole_context_s_json(
    sf: Any, cli: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ``--json`` written a few messages at a time is byte for byte the JSON of the context
    built whole (as ``JSON.stringify(context, null, 2)``), whatever the batch size."""
    from ink_tui.cli.commands import context as command
    from ink_tui.cli.output import json_text
    from ink_tui.session import build_context, open_session

    for path in (_long_session(sf, 12), copy_session(sf.root, "compaction")):
        whole = json_text(build_context(open_session(path, warn=None)).to_json()) + "\n"
        for batch in (1, 2, 5, 256):
            monkeypatch.setattr(command, "JSON_BATCH", batch)
            assert cli.run("context", "--json", str(path)) == (0, whole, "")


@pytest.mark.parametrize("argv", [["context"], ["context", "--json"]])
def test_context_writes_its_first_messages_before_reading_the_last(
    argv: list[str], sf: Any, cli: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long branch is written as it is read: when the first text reaches the output, most
    records have not been read back yet (a million-message branch is never held whole)."""
    from ink_tui.session.reading.entry import Entry

    path = _long_session(sf, 3_000)
    parsed: list[int] = []
    seen_at_first_write: list[int] = []
    real_parse = Entry._parse

    def counted(self: Entry, data: bytes) -> Any:
        parsed.append(1)
        return real_parse(self, data)

    monkeypatch.setattr(Entry, "_parse", counted)
    real_write = sys.stdout.write

    def watched(text: str) -> int:
        if not seen_at_first_write:
            seen_at_first_write.append(len(parsed))
        return real_write(text)

    monkeypatch.setattr(sys.stdout, "write", watched)
    code, out, _ = cli.run(*argv, str(path))
    monkeypatch.undo()
    assert code == 0 and len(parsed) == 6_001  # every record read back once
    assert seen_at_first_write[0] < 2_000
    assert out.count("prompt 2999") == 1
